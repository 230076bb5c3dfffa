//! GitHub Actions workflow commands: `::error` per failing check, on the student's file
//! and line, `::warning` per check the grader could not evaluate (a step not started, or
//! a missing file's checks, said once), at most as many as GitHub shows; then a summary
//! line per submission. For students (GitHub Classroom shows them the annotations): never an
//! expected value. Escaped as GitHub's own toolkit escapes, so that no student text can
//! end a command early or start another.

use super::View;
use crate::lang::{report::Report, t};
use crate::result::{CheckResult, Status, SubmissionResult};
use std::fmt::Write;
use std::path::Path;

/// GitHub shows ten annotations of a kind (error, warning) a step and drops the rest
/// unseen: past nine, the tenth says how many more there are.
const SHOWN: usize = 10;

/// One workflow command: `error` or `warning`, its properties and message.
struct Annotation {
    command: &'static str,
    props: Vec<String>,
    message: String,
}

pub fn render(results: &[SubmissionResult], _student: &View) -> String {
    let cwd = std::env::current_dir().ok();
    let each: Vec<Vec<Annotation>> = results.iter().map(|r| annotations(r, cwd.as_deref())).collect();
    let mut out = String::new();
    for command in ["error", "warning"] {
        let lists: Vec<Vec<&Annotation>> = each.iter().map(|l| l.iter().filter(|a| a.command == command).collect()).collect();
        let total: usize = lists.iter().map(Vec::len).sum();
        let room = if total > SHOWN { SHOWN - 1 } else { total };
        // Each submission's first before any one's second: in a class, as many
        // submissions as there is room for each show one.
        let deepest = lists.iter().map(Vec::len).max().unwrap_or(0);
        let shown: Vec<&Annotation> = (0..deepest).flat_map(|depth| lists.iter().filter_map(move |l| l.get(depth).copied())).take(room).collect();
        for a in &shown {
            let _ = writeln!(out, "::{} {}::{}", a.command, a.props.join(","), data(&a.message));
        }
        if total > room {
            let n = total - room;
            let more = if super::step_summary::path().is_some() { t!(Report::MoreAnnotations, n = n) } else { t!(Report::MoreAnnotationsNoSummary, n = n) };
            let _ = writeln!(out, "::{command} title=labcheck::{}", data(&more));
        }
    }
    for r in results {
        let _ = writeln!(out, "labcheck: {}: {}", line(&r.submission), super::summary(r));
    }
    out
}

/// A submission's annotations, in the checks' order: one per failing check, one per
/// missing or unreadable file for all its checks, one per step not started.
fn annotations(r: &SubmissionResult, cwd: Option<&Path>) -> Vec<Annotation> {
    let mut out = Vec::new();
    let mut told_steps = Vec::new();
    let mut told_files: Vec<(&str, Status)> = Vec::new();
    let to_say = |c: &&CheckResult| matches!(c.status, Status::Fail | Status::Error);
    let at = |file: &str, at: Option<u32>, title: &str| {
        let mut props = vec![format!("file={}", property(&line(&workspace_path(&r.submission, file, cwd))))];
        props.extend(at.map(|n| format!("line={n}")));
        props.push(format!("title={}", property(&line(title))));
        props
    };
    for c in r.checks.iter().filter(to_say) {
        if let Some(step) = r.not_started(c.step) {
            if !told_steps.contains(&step.step) {
                told_steps.push(step.step);
                let n = r.checks.iter().filter(to_say).filter(|o| o.step == step.step).count();
                let message = t!(Report::StepChecks, message = step.not_started_said().unwrap_or_default(), n = n);
                out.push(Annotation { command: "error", props: at(&step.not_started[0], None, &t!(Report::StepHead, n = step.step, title = step.title)), message });
            }
            continue;
        }
        // A check the grader could not evaluate says so itself ("could not check: ...").
        let (command, message) = match c.status {
            Status::Error => ("warning", line(&c.message)),
            _ => ("error", line(&c.message)),
        };
        // Those of one kind: a grader's trouble is not said as the student's mistake.
        let same_file: Vec<&CheckResult> = match &c.file_problem {
            Some(f) => r.checks.iter().filter(|o| o.status == c.status && o.file_problem.as_deref() == Some(f)).collect(),
            None => Vec::new(),
        };
        if let (Some(f), true) = (c.file_problem.as_deref(), same_file.len() > 1) {
            if !told_files.contains(&(f, c.status)) {
                told_files.push((f, c.status));
                let ids: Vec<String> = same_file.iter().map(|o| line(&o.id)).collect();
                let message = t!(Report::FileChecks, message = message, n = ids.len(), ids = crate::lang::ids(&ids));
                // The file as saved, where it is under a near name: GitHub finds that one.
                out.push(Annotation { command, props: at(c.saved_as.as_deref().unwrap_or(f), None, &c.id), message });
            }
            continue;
        }
        let props = match c.saved_as.as_deref().map(|s| (s, None)).or_else(|| file_and_line(c)) {
            Some((file, n)) => at(file, n, &c.id),
            None => vec![format!("title={}", property(&line(&c.id)))],
        };
        out.push(Annotation { command, props, message });
    }
    out
}

/// The file as GitHub finds it: relative to the workspace, which is the directory the
/// grader runs in, when the submission is inside it.
fn workspace_path(submission: &str, file: &str, cwd: Option<&Path>) -> String {
    let dir = Path::new(submission);
    let dir = match cwd {
        Some(cwd) if dir.is_absolute() => dir.strip_prefix(cwd).unwrap_or(dir),
        _ => dir,
    };
    let joined = dir.join(file);
    let joined = joined.strip_prefix(".").unwrap_or(&joined);
    joined.to_string_lossy().into_owned()
}

/// The file and line a check points at: `place` is `FILE[:LINE][ (DETAIL)]` (see
/// `check::dress`), FILE being a name from the spec.
fn file_and_line(c: &CheckResult) -> Option<(&str, Option<u32>)> {
    let place = c.place.as_deref()?;
    let at = place.split_once(" (").map_or(place, |(at, _)| at);
    match at.rsplit_once(':') {
        Some((file, line)) if !file.is_empty() && line.parse::<u32>().is_ok() => Some((file, line.parse().ok())),
        _ if at.is_empty() => None,
        _ => Some((at, None)),
    }
}

/// On one line, with nothing a log viewer would obey (ANSI colours): what the grader
/// found is made so when graded; this holds whatever reaches the report.
fn line(s: &str) -> String {
    crate::display::safe_max(s, usize::MAX)
}

/// A command's message: `%`, carriage return and line feed escaped.
pub fn data(s: &str) -> String {
    s.replace('%', "%25").replace('\r', "%0D").replace('\n', "%0A")
}

/// A property's value: as a message, and `:` and `,`, which would end it.
pub fn property(s: &str) -> String {
    data(s).replace(':', "%3A").replace(',', "%2C")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_as_the_toolkit_does() {
        assert_eq!(data("50% done\r\n::error::x"), "50%25 done%0D%0A::error::x");
        assert_eq!(property("a,b:c%\n"), "a%2Cb%3Ac%25%0A");
    }

    /// GitHub shows ten errors a step: twelve failing checks are nine, then one saying
    /// three more; the one warning is shown.
    #[test]
    fn no_more_annotations_than_github_shows() {
        let mut checks: Vec<CheckResult> = (0..12)
            .map(|i| CheckResult { id: format!("c{i}"), place: Some(format!("f{i}.txt:1")), ..crate::result::tests::check(Status::Fail) })
            .collect();
        checks.push(crate::result::tests::check(Status::Error));
        let r = crate::result::tests::submission("sub", checks, Vec::new());
        let out = render(std::slice::from_ref(&r), &View { audience: crate::report::Audience::Student, color: false, verbose: false });
        let errors: Vec<&str> = out.lines().filter(|l| l.starts_with("::error")).collect();
        assert_eq!(errors.len(), 10, "{out}");
        assert!(errors[8].contains("title=c8::"), "{out}");
        assert!(errors[9].starts_with("::error title=labcheck::Not shown here: 3 more"), "{out}");
        assert_eq!(out.lines().filter(|l| l.starts_with("::warning")).count(), 1, "{out}");
        // In a class, a submission with one finding shows it beside one with many.
        let other = SubmissionResult { submission: "other".into(), checks: vec![CheckResult { id: "mine".into(), ..crate::result::tests::check(Status::Fail) }], ..r.clone() };
        let out = render(&[r, other], &View { audience: crate::report::Audience::Student, color: false, verbose: false });
        assert!(out.lines().take(2).any(|l| l.contains("title=mine::")), "{out}");
    }

    #[test]
    fn paths_inside_the_workspace_are_relative() {
        let cwd = Path::new("/w/repo");
        assert_eq!(workspace_path(".", "03-mesh.txt", Some(cwd)), "03-mesh.txt");
        assert_eq!(workspace_path("./lab", "03-mesh.txt", Some(cwd)), "lab/03-mesh.txt");
        assert_eq!(workspace_path("/w/repo/sub", "a.txt", Some(cwd)), "sub/a.txt");
        assert_eq!(workspace_path("/elsewhere", "a.txt", Some(cwd)), "/elsewhere/a.txt");
    }

    #[test]
    fn place_reads_as_file_and_line() {
        let mut c = crate::result::tests::check(Status::Fail);
        for (place, want) in [
            ("03-mesh.txt:4 (ca_addr_same)", Some(("03-mesh.txt", Some(4)))),
            ("bootstrap.yaml (.node.cluster)", Some(("bootstrap.yaml", None))),
            ("08-report.md", Some(("08-report.md", None))),
            ("a.txt:x", Some(("a.txt:x", None))),
        ] {
            c.place = Some(place.into());
            assert_eq!(file_and_line(&c), want, "{place}");
        }
        c.place = None;
        assert_eq!(file_and_line(&c), None);
    }
}
