//! JUnit XML, valid against the Jenkins xUnit schema (`junit-10.xsd`) and read as GitLab,
//! junitparser and GitHub test reporters read it: a `<testsuite>` per submission, a
//! `<testcase>` per check; a student's failure is `<failure>`, a check the grader could
//! not evaluate is `<error>`, a skipped one `<skipped>`. Any text goes in: what XML 1.0
//! does not allow (most C0 controls, U+FFFE, U+FFFF) is written as a visible escape, so
//! one student's file never breaks the class's document.

use super::View;
use crate::result::{Status, SubmissionResult};
use std::fmt::Write;

pub fn render(results: &[SubmissionResult], view: &View) -> String {
    let count = |s: Status| results.iter().map(|r| r.count(s)).sum::<usize>();
    let tests: usize = results.iter().map(|r| r.checks.len()).sum();
    let time: f64 = results.iter().map(|r| r.elapsed.as_secs_f64()).sum();
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    // The schema allows no `skipped` here: each suite has its own.
    let _ = writeln!(
        out,
        "<testsuites name=\"labcheck\" tests=\"{tests}\" failures=\"{}\" errors=\"{}\" time=\"{time:.3}\">",
        count(Status::Fail),
        count(Status::Error),
    );
    for r in results {
        suite(&mut out, r, view);
    }
    out.push_str("</testsuites>\n");
    out
}

fn suite(out: &mut String, r: &SubmissionResult, view: &View) {
    let _ = writeln!(
        out,
        "    <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"{}\" time=\"{:.3}\">",
        esc(&r.submission),
        r.checks.len(),
        r.count(Status::Fail),
        r.count(Status::Error),
        r.count(Status::Skip),
        r.elapsed.as_secs_f64(),
    );
    for c in &r.checks {
        let open = format!(
            "        <testcase name=\"{}\" classname=\"{}\"",
            esc(&format!("{}: {}", c.id, c.title)),
            esc(&format!("{}.step{}", r.lab, c.step)),
        );
        let element = match c.status {
            Status::Pass => {
                let _ = writeln!(out, "{open}/>");
                continue;
            }
            Status::Fail => "failure",
            Status::Error => "error",
            Status::Skip => "skipped",
        };
        let details = view.detail_lines(c);
        let _ = writeln!(
            out,
            "{open}>\n            <{element} message=\"{}\">{}</{element}>\n        </testcase>",
            esc(&c.message),
            esc_text(&details.join("\n")),
        );
    }
    out.push_str("    </testsuite>\n");
}

/// Text for an attribute value: markup escaped, and tab, line feed and carriage return
/// as references, which attribute normalisation would otherwise turn into spaces.
fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\t' => out.push_str("&#9;"),
            '\n' => out.push_str("&#10;"),
            '\r' => out.push_str("&#13;"),
            '"' => out.push_str("&quot;"),
            c => text_char(&mut out, c),
        }
    }
    out
}

/// Text for element content: markup escaped; a carriage return as a reference, which
/// parsing would otherwise turn into a line feed.
fn esc_text(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\t' | '\n' => out.push(c),
            '\r' => out.push_str("&#13;"),
            c => text_char(&mut out, c),
        }
    }
    out
}

fn text_char(out: &mut String, c: char) {
    match c {
        '&' => out.push_str("&amp;"),
        '<' => out.push_str("&lt;"),
        '>' => out.push_str("&gt;"),
        '\'' => out.push_str("&apos;"),
        c if !allowed(c) => {
            let _ = write!(out, "\\u{{{:x}}}", c as u32);
        }
        c => out.push(c),
    }
}

/// XML 1.0's `Char`: what a document may hold at all, even as a reference.
fn allowed(c: char) -> bool {
    matches!(c as u32, 0x9 | 0xA | 0xD | 0x20..=0xD7FF | 0xE000..=0xFFFD | 0x10000..=0x10FFFF)
}

#[cfg(test)]
mod tests {
    #[test]
    fn what_xml_forbids_is_escaped_and_the_rest_kept() {
        assert_eq!(super::esc("a\u{0}\u{1b}\u{fffe}\u{ffff}\t\n\r\"'<&>é\u{10ffff}"), "a\\u{0}\\u{1b}\\u{fffe}\\u{ffff}&#9;&#10;&#13;&quot;&apos;&lt;&amp;&gt;é\u{10ffff}");
        assert_eq!(super::esc_text("x\ty\nz\r\u{b}"), "x\ty\nz&#13;\\u{b}");
    }
}
