//! Grading many submissions in one run: in parallel across cores, each submission
//! once, results in the order given; a progress bar only where a person watches.

use crate::grade::Grader;
use crate::result::SubmissionResult;
use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// Every subdirectory of `parent`, sorted by name. Hidden ones (`.git`) are left out,
/// and named in one line on stderr, so that a submission whose name starts with a dot
/// is not dropped unseen. A symbolic link is not followed, and said so on stderr: in an
/// upload area it could lend a student another's submission (or any directory) as
/// their own.
pub fn submissions_in(parent: &Path) -> Result<Vec<PathBuf>, String> {
    let entries = std::fs::read_dir(parent).map_err(|e| format!("cannot list {}: {e}", crate::display::path(parent)))?;
    let mut dirs: Vec<PathBuf> = Vec::new();
    let mut hidden: Vec<String> = Vec::new();
    for e in entries.flatten() {
        let hidden_name = e.file_name().to_string_lossy().starts_with('.');
        match e.file_type() {
            Ok(t) if t.is_dir() && hidden_name => hidden.push(crate::display::path(Path::new(&e.file_name()))),
            Ok(_) if hidden_name => {}
            Ok(t) if t.is_dir() => dirs.push(e.path()),
            Ok(t) if t.is_symlink() => eprintln!(
                "labcheck: skipped {}: a symbolic link, not a submission directory of its own",
                crate::display::path(&e.path())
            ),
            _ => {}
        }
    }
    if !hidden.is_empty() {
        hidden.sort();
        eprintln!("labcheck: skipped hidden directories (not graded): {}", hidden.join(", "));
    }
    dirs.sort();
    Ok(dirs)
}

/// Taken by the class statistics in `--out` (`class.json`, `class.csv`, `class.html`).
const CLASS: &str = "class";

/// A file-name-safe, unique name per submission (its directory's name), such that no
/// two submissions' report files, nor the class statistics, share a file name. A name
/// holds no dot, so `NAME.EXT` tells the name from the extension: the reports of `x`
/// and of `x.gradescope` would otherwise both write `x.gradescope.json`.
pub fn names(dirs: &[PathBuf]) -> Vec<String> {
    let mut out: Vec<String> = Vec::with_capacity(dirs.len());
    for d in dirs {
        let base = d.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "submission".into());
        let clean: String = base.chars().map(|c| if c.is_ascii_alphanumeric() || "_-".contains(c) { c } else { '_' }).collect();
        let clean = if clean.is_empty() { "_".to_string() } else { clean };
        let mut name = clean.clone();
        let mut n = 2;
        while name == CLASS || out.contains(&name) {
            name = format!("{clean}-{n}");
            n += 1;
        }
        out.push(name);
    }
    out
}

/// A progress bar on a terminal, none in CI logs or pipes.
fn progress(n: usize) -> Option<ProgressBar> {
    let watched = std::io::stderr().is_terminal() && std::env::var_os("CI").is_none();
    (watched && n > 1).then(|| {
        let bar = ProgressBar::new(n as u64);
        if let Ok(style) = ProgressStyle::with_template("{bar:40} {pos}/{len} graded  {elapsed_precise} {msg}") {
            bar.set_style(style);
        }
        bar
    })
}

/// Grade every directory, `jobs` at a time. A job runs its validations together (two
/// Envoys in validate mode for this lab), then its launched Envoy alone, so at most
/// `jobs` launched Envoys run at once, and `jobs` times the validations per submission
/// Envoys of any kind.
pub fn grade_all(grader: &Grader, dirs: &[PathBuf], jobs: usize) -> Vec<SubmissionResult> {
    let bar = progress(dirs.len());
    let results = each(dirs, jobs, bar.as_ref(), |d| grade_one(grader, d));
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    results
}

/// One submission, whatever happens while grading it: a panic (a bug, which the panic
/// message on stderr shows) makes its result an error that says so, and the class's
/// other submissions are graded as ever. The Envoys it started are stopped as the panic
/// unwinds (their guards stop them when dropped), and its private directories removed.
fn grade_one(grader: &Grader, dir: &Path) -> SubmissionResult {
    let start = std::time::Instant::now();
    let graded = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        test_panic(dir);
        grader.grade(dir)
    }));
    graded.unwrap_or_else(|panic| {
        let said = panic.downcast_ref::<&str>().map(|s| s.to_string()).or_else(|| panic.downcast_ref::<String>().cloned());
        let why = format!("the grader panicked: {}", said.as_deref().unwrap_or("no message"));
        grader.failed(dir, &why, start.elapsed())
    })
}

/// Test-only, in debug builds only (a release build has no such variable): a panic
/// while grading the submission whose directory is named `LABCHECK_TEST_PANIC_ON`, as
/// a bug would make one. No submission is known to make the grader panic, so this is
/// how the tests show that one panic costs only its own submission.
fn test_panic(dir: &Path) {
    if cfg!(debug_assertions)
        && let Some(name) = std::env::var_os("LABCHECK_TEST_PANIC_ON")
        && dir.file_name() == Some(name.as_os_str())
    {
        panic!("LABCHECK_TEST_PANIC_ON names this submission");
    }
}

/// `f` of every item, `jobs` at a time, in the items' order; `bar` counts each one done.
fn each<T: Sync, R: Send>(items: &[T], jobs: usize, bar: Option<&ProgressBar>, f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let done = |r: R| {
        if let Some(b) = bar {
            b.inc(1);
        }
        r
    };
    let workers = jobs.clamp(1, items.len().max(1));
    if workers == 1 {
        // One at a time needs no thread (and no thread's heap to set up and give back).
        return items.iter().map(|i| done(f(i))).collect();
    }
    let next = AtomicUsize::new(0);
    let slots: Vec<Mutex<Option<R>>> = items.iter().map(|_| Mutex::new(None)).collect();
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(item) = items.get(i) else { break };
                let r = done(f(item));
                *slots[i].lock().unwrap_or_else(|e| e.into_inner()) = Some(r);
            });
        }
    });
    slots.into_iter().filter_map(|m| m.into_inner().unwrap_or_else(|e| e.into_inner())).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_safe_and_unique() {
        let dirs = vec![PathBuf::from("/a/alice"), PathBuf::from("/b/alice"), PathBuf::from("/c/\u{1b}[31m bob"), PathBuf::from("/d/..x")];
        assert_eq!(names(&dirs), vec!["alice", "alice-2", "__31m_bob", "__x"]);
    }

    /// The bar counts every submission, one job or several.
    #[test]
    fn progress_advances_with_any_number_of_jobs() {
        let items: Vec<u32> = (0..5).collect();
        for jobs in [1, 3] {
            let bar = ProgressBar::hidden();
            bar.set_length(items.len() as u64);
            assert_eq!(each(&items, jobs, Some(&bar), |x| x * 2), vec![0, 2, 4, 6, 8]);
            assert_eq!(bar.position(), 5, "with --jobs {jobs}");
        }
    }

    /// Every report file of every submission, and the class statistics: none twice.
    #[test]
    fn no_two_files_share_a_name() {
        let dirs: Vec<PathBuf> = ["x", "x.gradescope", "x.junit", "x_gradescope", "class", "class-2", "a.b.c"].iter().map(PathBuf::from).collect();
        let names = names(&dirs);
        assert_eq!(names, vec!["x", "x_gradescope", "x_junit", "x_gradescope-2", "class-2", "class-2-2", "a_b_c"]);
        let mut files: Vec<String> = ["class.json", "class.csv", "class.html"].iter().map(|s| s.to_string()).collect();
        for n in &names {
            files.extend(crate::report::Format::ALL.iter().map(|f| format!("{n}.{}", f.extension())));
        }
        let count = files.len();
        files.sort();
        files.dedup();
        assert_eq!(files.len(), count, "{files:?}");
    }
}
