//! TAP version 13, as Perl's `prove` (TAP::Parser) and node's `tap-parser` read it: a
//! test point per check, with a YAML block saying where, why and what was found;
//! several submissions become indented subtests, each opened by a `# Subtest:` comment
//! naming it as its test point does.

use super::View;
use crate::display::safe_max;
use crate::result::{Status, SubmissionResult};
use std::fmt::Write;

pub fn render(results: &[SubmissionResult], view: &View) -> String {
    let mut out = String::from("TAP version 13\n");
    match results {
        [one] => points(&mut out, one, view, ""),
        many => {
            let _ = writeln!(out, "1..{}", many.len());
            for (i, r) in many.iter().enumerate() {
                // A comment is read as it stands; a test point's `\\` and `\#` are read
                // as escapes: both then read the same name.
                let _ = writeln!(out, "# Subtest: {}", one_line(&r.submission));
                points(&mut out, r, view, "    ");
                let ok = if r.worst() == Status::Pass { "ok" } else { "not ok" };
                let _ = writeln!(out, "{ok} {} - {}", i + 1, escaped(&r.submission));
            }
        }
    }
    out
}

fn points(out: &mut String, r: &SubmissionResult, view: &View, indent: &str) {
    let _ = writeln!(out, "{indent}1..{}", r.checks.len());
    for (i, c) in r.checks.iter().enumerate() {
        let n = i + 1;
        let name = escaped(&format!("{} - {}", c.id, c.title));
        match c.status {
            Status::Pass => {
                let _ = writeln!(out, "{indent}ok {n} - {name}");
            }
            Status::Skip => {
                let _ = writeln!(out, "{indent}ok {n} - {name} # SKIP {}", escaped(&c.message));
            }
            Status::Fail | Status::Error => {
                let _ = writeln!(out, "{indent}not ok {n} - {name}");
                let _ = writeln!(out, "{indent}  ---");
                let severity = if c.status == Status::Fail { "fail" } else { "error" };
                let _ = writeln!(out, "{indent}  severity: {}", scalar(severity));
                for (k, v) in view.details(c).into_iter().map(|(d, v)| (d.key(), v)) {
                    let _ = writeln!(out, "{indent}  {k}: {}", scalar(&v));
                }
                let _ = writeln!(out, "{indent}  ...");
            }
        }
    }
}

/// A YAML scalar every reader takes for this very string: double-quoted, so that no YAML
/// 1.1 or 1.2 reader turns `no`, `on`, `null`, `1e3` or `0o17` into a boolean, a null or
/// a number; and escaped only with `\\` and `\"`, the escapes that TAP::Parser's own
/// YAML reader knows too (anything that would need another is made visible text first).
fn scalar(s: &str) -> String {
    format!("\"{}\"", one_line(s).replace('\\', "\\\\").replace('"', "\\\""))
}

/// On one line, with no control or invisible character (see `display::safe_max`).
fn one_line(s: &str) -> String {
    safe_max(s, usize::MAX)
}

/// Text for a test point's description or a directive's reason: on one line, with no
/// control character, and `#` and `\\` escaped as TAP says, so that no name can end
/// the description early and add a directive (`# TODO` makes a failure count as none).
fn escaped(s: &str) -> String {
    one_line(s).replace('\\', "\\\\").replace('#', "\\#")
}

#[cfg(test)]
mod tests {
    use super::super::{Format, Options, View};
    use crate::result::{CheckResult, Status, SubmissionResult};

    /// A submission with one failed check, `c#1`.
    fn named(name: &str) -> SubmissionResult {
        let check = CheckResult {
            id: "c#1".into(),
            step: 1,
            title: "Title of c#1".into(),
            status: Status::Fail,
            points: 0,
            max_points: 1,
            expected: None,
            found: None,
            message: "wrong".into(),
            place: None,
            hint: None,
            hidden: false,
            file_problem: None,
            charged_by: None,
            saved_as: None,
        };
        SubmissionResult {
            lab: "demo".into(),
            title: "Demo".into(),
            submission: name.into(),
            checks: vec![check],
            steps: Vec::new(),
            live_source: None,
            elapsed: Default::default(),
            envoy_time: Default::default(),
        }
    }

    #[test]
    fn no_name_adds_a_directive_a_test_point_or_an_escape() {
        let names = ["fails-but # TODO graded later", "x\\# TODO", "n\nok 3 - fake \u{1b}]0;t\u{7}\u{1b}[2J"];
        let tap = super::render(&names.map(named), &View::of(Format::Tap, &Options { audience: None, color: false, verbose: false }));
        assert!(!tap.contains('\u{1b}') && !tap.contains('\u{7}'), "{tap}");
        // As TAP::Parser reads a test point: a `#` that no `\` escapes starts a directive.
        let point = regex::Regex::new(r"^(?:not )?ok \d+ - (?:[^\\#]|\\.)*$").unwrap();
        let points: Vec<&str> = tap.lines().map(str::trim_start).filter(|l| l.starts_with("ok") || l.starts_with("not ok")).collect();
        assert_eq!(points.len(), 6, "{tap}");
        for p in points {
            assert!(point.is_match(p), "{p}");
        }
        assert!(tap.contains("# Subtest: fails-but # TODO graded later\n"), "{tap}");
        assert!(tap.contains("\nnot ok 1 - fails-but \\# TODO graded later\n"), "{tap}");
        assert!(tap.contains("\nnot ok 2 - x\\\\\\# TODO\n"), "{tap}");
        assert!(tap.contains("\nnot ok 3 - n\\\\nok 3 - fake \\\\e]0;t\\\\u{7}\\\\e[2J\n"), "{tap}");
        assert!(tap.contains("    not ok 1 - c\\#1 - Title of c\\#1\n"), "{tap}");
    }
}
