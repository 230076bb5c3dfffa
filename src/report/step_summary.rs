//! The Markdown summary a GitHub Actions job shows on its page (`GITHUB_STEP_SUMMARY`):
//! per submission the score, a table of steps and the checks that did not pass. For
//! students: never an expected value. Every text is escaped, so that no student text
//! becomes markup, a link or a table cell of its own.

use super::View;
use crate::lang::{report::Report, t, tr};
use crate::result::{Status, SubmissionResult};
use std::fmt::Write;
use std::io::Write as _;

/// Append the summary to the file `GITHUB_STEP_SUMMARY` names, when it names one.
pub fn append(results: &[SubmissionResult], student: &View) -> std::io::Result<()> {
    let Some(path) = std::env::var_os("GITHUB_STEP_SUMMARY").filter(|p| !p.is_empty()) else { return Ok(()) };
    let mut file = std::fs::OpenOptions::new().append(true).create(true).open(path)?;
    file.write_all(render(results, student).as_bytes())
}

pub fn render(results: &[SubmissionResult], student: &View) -> String {
    let mut out = String::new();
    for r in results {
        let _ = writeln!(out, "## {}: {}\n", md(&r.lab), md(&r.title));
        if results.len() > 1 {
            let _ = writeln!(out, "{}\n", md(&t!(Report::SummarySubmission, dir = r.submission)));
        }
        let _ = writeln!(out, "**{}**\n", md(&super::summary(r)));
        let _ = writeln!(out, "| {} | {} | {} |\n| ---: | --- | ---: |", md(tr(Report::SummaryStep)), md(tr(Report::SummaryTitle)), md(tr(Report::SummaryScore)));
        for s in &r.steps {
            let _ = writeln!(out, "| {} | {} | {}/{} |", s.step, md(&s.title), s.score, s.max_score);
        }
        out.push('\n');
        for (status, head) in [(Status::Fail, tr(Report::SummaryFailing)), (Status::Error, tr(Report::SummaryErrors))] {
            let checks: Vec<_> = r.checks.iter().filter(|c| c.status == status).collect();
            if checks.is_empty() {
                continue;
            }
            let _ = writeln!(out, "### {head}\n");
            for c in checks {
                let _ = writeln!(out, "- **{}** {}", md(&c.id), md(&c.title));
                for (d, v) in student.details(c) {
                    let _ = writeln!(out, "  - {}", crate::lang::labelled(&md(d.label()), &md(&v)));
                }
            }
            out.push('\n');
        }
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
    #[test]
    fn markup_stays_text() {
        assert_eq!(super::md("a|b <script> *x* [l](http://e) `c`\n#"), "a\\|b \\<script\\> \\*x\\* \\[l\\]\\(http\\:\\/\\/e\\) \\`c\\`\\\\n\\#");
        assert_eq!(super::md("mail@evil.example"), "mail\\@&#8203;evil\\.example");
    }
}
