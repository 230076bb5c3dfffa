//! GitHub Actions workflow commands: `::error` per failing check, on the student's file
//! and line, `::warning` per check the grader could not evaluate; then a summary line
//! per submission. For students (GitHub Classroom shows them the annotations): never an
//! expected value. Escaped as GitHub's own toolkit escapes, so that no student text can
//! end a command early or start another.

use super::View;
use crate::lang::{report::Report, t};
use crate::result::{CheckResult, Status, SubmissionResult};
use std::fmt::Write;
use std::path::Path;

pub fn render(results: &[SubmissionResult], _student: &View) -> String {
    let cwd = std::env::current_dir().ok();
    let mut out = String::new();
    for r in results {
        for c in &r.checks {
            let (command, message) = match c.status {
                Status::Fail => ("error", line(&c.message)),
                Status::Error => ("warning", t!(Report::CouldNotBeChecked, message = line(&c.message))),
                Status::Pass | Status::Skip => continue,
            };
            let mut props = Vec::new();
            if let Some((file, at)) = file_and_line(c) {
                props.push(format!("file={}", property(&line(&workspace_path(&r.submission, file, cwd.as_deref())))));
                if let Some(at) = at {
                    props.push(format!("line={at}"));
                }
            }
            props.push(format!("title={}", property(&line(&c.id))));
            let _ = writeln!(out, "::{command} {}::{}", props.join(","), data(&message));
        }
        let _ = writeln!(out, "labcheck: {}: {}", line(&r.submission), super::summary(r));
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
