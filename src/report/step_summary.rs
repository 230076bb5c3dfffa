//! The Markdown summary a GitHub Actions job shows on its page (`GITHUB_STEP_SUMMARY`):
//! per submission the score, a table of steps and the checks that did not pass. For
//! students: never an expected value. Every text is escaped, so that no student text
//! becomes markup, a link or a table cell of its own.

use super::View;
use crate::lang::{report::Report, t, tr};
use crate::result::{Status, SubmissionResult};
use std::fmt::Write;
use std::io::Write as _;

/// GitHub drops a step's whole summary when it is over 1 MiB.
const LIMIT: u64 = 1024 * 1024;

/// Append the summary to the file `GITHUB_STEP_SUMMARY` names, when it names one: as
/// many submissions as fit within GitHub's limit (with what the file holds already),
/// then a line saying how many more there are.
pub fn append(results: &[SubmissionResult], student: &View) -> std::io::Result<()> {
    let Some(path) = path() else { return Ok(()) };
    let mut file = std::fs::OpenOptions::new().append(true).create(true).open(path)?;
    let room = LIMIT.saturating_sub(file.metadata()?.len());
    file.write_all(fitted(results, student, room).as_bytes())
}

/// The job summary's file, when GitHub Actions names one.
pub fn path() -> Option<std::ffi::OsString> {
    std::env::var_os("GITHUB_STEP_SUMMARY").filter(|p| !p.is_empty())
}

/// The summary of each submission while they fit in `room` bytes, keeping room for the
/// line that says how many did not.
fn fitted(results: &[SubmissionResult], student: &View, room: u64) -> String {
    let more = |n: usize| format!("{}\n", md(&t!(Report::SummaryMore, n = n)));
    let mut out = String::new();
    for (i, r) in results.iter().enumerate() {
        let one = submission(r, results.len() > 1, student);
        let left = results.len() - i - 1;
        let tail = if left > 0 { more(left).len() } else { 0 };
        if (out.len() + one.len() + tail) as u64 > room {
            // Said only where it fits: past the limit GitHub would drop the step's whole
            // summary, what others wrote to it too.
            let said = more(results.len() - i);
            if (out.len() + said.len()) as u64 <= room {
                out.push_str(&said);
            }
            break;
        }
        out.push_str(&one);
    }
    out
}

pub fn render(results: &[SubmissionResult], student: &View) -> String {
    results.iter().map(|r| submission(r, results.len() > 1, student)).collect()
}

fn submission(r: &SubmissionResult, several: bool, student: &View) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "## {}: {}\n", md(&r.lab), md(&r.title));
    if several {
        let _ = writeln!(out, "{}\n", md(&t!(Report::SummarySubmission, dir = r.submission)));
    }
    let _ = writeln!(out, "**{}**\n", md(&super::summary(r)));
    let _ = writeln!(out, "| {} | {} | {} |\n| ---: | --- | ---: |", md(tr(Report::SummaryStep)), md(tr(Report::SummaryTitle)), md(tr(Report::SummaryScore)));
    for s in &r.steps {
        let _ = writeln!(out, "| {} | {} | {}/{} |", s.step, md(&s.title), s.score, s.max_score);
    }
    out.push('\n');
    // A step not started is said once, not as each of its checks.
    let not_started: Vec<_> = r.steps.iter().filter(|s| !s.not_started.is_empty()).collect();
    let started = |c: &&crate::result::CheckResult| r.not_started(c.step).is_none();
    for (status, head) in [(Status::Fail, tr(Report::SummaryFailing)), (Status::Error, tr(Report::SummaryErrors))] {
        let checks: Vec<_> = r.checks.iter().filter(|c| c.status == status).filter(started).collect();
        let steps = if status == Status::Fail { not_started.as_slice() } else { &[] };
        if checks.is_empty() && steps.is_empty() {
            continue;
        }
        let _ = writeln!(out, "### {head}\n");
        for s in steps {
            let _ = writeln!(out, "- **{}** {}", md(&t!(Report::StepHead, n = s.step, title = s.title)), md(&s.not_started_said().unwrap_or_default()));
        }
        for c in checks {
            let _ = writeln!(out, "- **{}** {}", md(&c.id), md(&c.title));
            for (d, v) in student.details(c) {
                let _ = writeln!(out, "  - {}", crate::lang::labelled(&md(d.label()), &md(&v)));
            }
        }
        out.push('\n');
    }
    out
}

/// Text as Markdown shows it: every ASCII punctuation character backslash-escaped (which
/// CommonMark allows for each of them, and which stops emphasis, code, links, HTML,
/// autolinks and table cells alike), on one line. GitHub links an email address in
/// text whatever its escapes: a zero-width space after `@` (as an entity) breaks it.
fn md(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 8);
    for c in crate::display::safe_max(s, usize::MAX).chars() {
        if c.is_ascii_punctuation() {
            out.push('\\');
        }
        out.push(c);
        if c == '@' {
            out.push_str("&#8203;");
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use crate::result::{tests::check, tests::submission, Status, StepScore, SubmissionResult};

    fn result(name: &str, not_started: bool) -> SubmissionResult {
        let step = StepScore { step: 1, title: "One".into(), score: 0, max_score: 3, not_started: if not_started { vec!["a.txt".into()] } else { Vec::new() } };
        submission(name, vec![check(Status::Fail), check(Status::Fail), check(Status::Fail)], vec![step])
    }

    fn view() -> super::View {
        super::View { audience: crate::report::Audience::Student, color: false, verbose: false }
    }

    /// Past GitHub's limit the summary is dropped whole: what does not fit is counted.
    #[test]
    fn submissions_past_the_limit_are_counted_not_written() {
        let results = [result("a", false), result("b", false), result("c", false)];
        let one = super::render(&results[..1], &view()).len() as u64 + 30;
        let out = super::fitted(&results, &view(), one + 100);
        assert!(out.contains("Submission\\: a") && !out.contains("Submission\\: b"), "{out}");
        assert!(out.trim_end().ends_with("the reports have them all\\)") && out.contains("Submissions not shown here\\: 2"), "{out}");
        // Nothing past the limit, not even the line.
        assert_eq!(super::fitted(&results, &view(), 10), "");
        assert_eq!(super::fitted(&results, &view(), super::LIMIT), super::render(&results, &view()));
    }

    /// A step not started is one line, not one per check.
    #[test]
    fn a_step_not_started_is_said_once() {
        let out = super::render(&[result("a", true)], &view());
        assert_eq!(out.matches("not started\\:").count(), 1, "{out}");
        assert!(!out.contains("- **c**"), "{out}");
    }

    #[test]
    fn markup_stays_text() {
        assert_eq!(super::md("a|b <script> *x* [l](http://e) `c`\n#"), "a\\|b \\<script\\> \\*x\\* \\[l\\]\\(http\\:\\/\\/e\\) \\`c\\`\\\\n\\#");
        assert_eq!(super::md("mail@evil.example"), "mail\\@&#8203;evil\\.example");
    }
}
