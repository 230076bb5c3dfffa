//! `--out DIR`: a report per submission and format, the class files and the gradebook,
//! written so that one submission's trouble never costs the class its reports, and
//! never into a submission, through a link, or over files labcheck did not write.

pub(crate) mod files;
pub mod names;

use crate::display::path as shown;
use crate::report;
use crate::result::SubmissionResult;
use std::path::{Path, PathBuf};

pub use files::MANIFEST;

/// The class files, beside the reports (see `class::FILES`).
pub const CLASS_FILES: [&str; 4] = crate::class::FILES;

/// An `--out` folder checked before grading, so that a refusal costs no grading time.
pub struct Out {
    dir: PathBuf,
    /// What the run that last wrote here wrote (from its manifest).
    previous: Vec<String>,
}

impl Out {
    /// Refuse a folder inside the `--batch` folder (the next run would grade it as a
    /// submission) or inside a submission (the grader never writes there), and a folder
    /// that holds files labcheck did not write (they could be anyone's).
    pub fn prepare(dir: &Path, batch: Option<&Path>, submissions: &[PathBuf]) -> Result<Out, String> {
        let at = resolved(dir);
        if let Some(parent) = batch
            && let Ok(parent) = parent.canonicalize()
            && at.starts_with(&parent)
        {
            return Err(format!(
                "--out {} is inside the --batch folder {}: the next run would grade it as a submission; give a folder outside it",
                shown(dir),
                shown(&parent)
            ));
        }
        refuse_inside_submissions("--out", dir, submissions)?;
        let previous = match std::fs::read_dir(dir) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
            Err(e) => return Err(format!("cannot read --out {}: {e}", shown(dir))),
            Ok(mut entries) => match files::previous(dir).map_err(|e| format!("cannot read {} in {}: {e}", MANIFEST, shown(dir)))? {
                Some(previous) => previous,
                None if entries.next().is_none() => Vec::new(),
                None => {
                    return Err(format!(
                        "--out {} already holds files that labcheck did not write (it has no {MANIFEST}): give a new or empty folder",
                        shown(dir)
                    ));
                }
            },
        };
        Ok(Out { dir: dir.to_path_buf(), previous })
    }

    /// Every report of every submission, then the class files and the gradebook, then
    /// the manifest; what an earlier run wrote and this one did not is removed. Returns
    /// what could not be written, one sentence each: the rest is written all the same.
    pub fn write(&self, dirs: &[PathBuf], results: &[SubmissionResult], left_out: &[crate::batch::LeftOut], opts: &report::Options) -> Vec<String> {
        if let Err(e) = std::fs::create_dir_all(&self.dir) {
            return vec![format!("cannot create {}: {e}", shown(&self.dir))];
        }
        let names = names::files(dirs);
        let own: Vec<String> = dirs.iter().map(|d| names::own(d)).collect();
        let pairs: Vec<(&String, &SubmissionResult)> = names.iter().zip(results).collect();
        let per_submission = crate::parallel::map(&pairs, |(name, r)| self.reports(name, r, opts));
        let mut written = Vec::new();
        let mut problems = Vec::new();
        for (w, p) in per_submission {
            written.extend(w);
            problems.extend(p);
        }
        let subs: Vec<crate::class::Submission> = own
            .iter()
            .zip(&names)
            .zip(results)
            .map(|((name, report), result)| crate::class::Submission { name, report, result })
            .collect();
        match crate::class::files(&subs, left_out) {
            Ok(class) => {
                for (name, content) in class {
                    self.put(name, content.as_bytes(), &mut written, &mut problems);
                }
            }
            Err(e) => problems.push(format!("cannot make the class files: {e}")),
        }
        files::remove_stale(&self.dir, &self.previous, &written);
        if let Err(e) = files::write_manifest(&self.dir, &written) {
            problems.push(format!("cannot write {MANIFEST}: {e}"));
        }
        problems
    }

    /// One submission's reports, each format on its own: one that cannot be made or
    /// written leaves the others written.
    fn reports(&self, name: &str, r: &SubmissionResult, opts: &report::Options) -> (Vec<String>, Vec<String>) {
        let (mut written, mut problems) = (Vec::new(), Vec::new());
        for format in report::Format::FILES {
            let file = format!("{name}.{}", format.extension());
            // A panic here is a bug in a format; the class still gets the rest.
            let rendered = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| report::render(format, std::slice::from_ref(r), opts)));
            match rendered {
                Ok(text) => self.put(&file, text.as_bytes(), &mut written, &mut problems),
                Err(_) => problems.push(format!("cannot make {file}: the grader failed while rendering it")),
            }
        }
        (written, problems)
    }

    fn put(&self, name: &str, content: &[u8], written: &mut Vec<String>, problems: &mut Vec<String>) {
        match files::write(&self.dir, name, content) {
            Ok(()) => written.push(name.to_string()),
            Err(e) => problems.push(format!("cannot write {}: {e}", shown(&self.dir.join(name)))),
        }
    }
}

/// `p` absolute, its links resolved as far as it exists.
/// Refuse a place to write (`what` names it: a flag or a variable) that is inside one
/// of the submissions, even through a link: the grader never writes into a submission.
pub fn refuse_inside_submissions(what: &str, path: &Path, submissions: &[PathBuf]) -> Result<(), String> {
    let at = resolved(path);
    for s in submissions {
        if let Ok(s) = s.canonicalize()
            && at.starts_with(&s)
        {
            return Err(format!("{what} {} is inside the submission {}: the grader never writes into a submission; give a place outside it", shown(path), shown(&s)));
        }
    }
    Ok(())
}

fn resolved(p: &Path) -> PathBuf {
    let abs = std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf());
    let mut existing = abs.as_path();
    let mut rest = Vec::new();
    while !existing.exists() {
        match (existing.parent(), existing.file_name()) {
            (Some(parent), Some(name)) => {
                rest.push(name.to_os_string());
                existing = parent;
            }
            _ => break,
        }
    }
    let mut out = existing.canonicalize().unwrap_or_else(|_| existing.to_path_buf());
    out.extend(rest.iter().rev());
    out
}
