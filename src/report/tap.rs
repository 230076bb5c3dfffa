//! TAP version 14: a test point per check, with a YAML block saying where, why and
//! what was found; several submissions become subtests.

use super::View;
use crate::display::safe_max;
use crate::result::{Status, SubmissionResult};
use std::fmt::Write;

pub fn render(results: &[SubmissionResult], view: &View) -> String {
    let mut out = String::from("TAP version 14\n");
    match results {
        [one] => points(&mut out, one, view, ""),
        many => {
            for (i, r) in many.iter().enumerate() {
                let name = escaped(&r.submission);
                let _ = writeln!(out, "# Subtest: {name}");
                points(&mut out, r, view, "    ");
                let ok = if r.worst() == Status::Pass { "ok" } else { "not ok" };
                let _ = writeln!(out, "{ok} {} - {name}", i + 1);
            }
            let _ = writeln!(out, "1..{}", many.len());
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
                let mut block = serde_yaml::Mapping::new();
                block.insert("severity".into(), if c.status == Status::Fail { "fail" } else { "error" }.into());
                for (k, v) in view.details(c) {
                    block.insert(k.into(), v.into());
                }
                let yaml = serde_yaml::to_string(&block).unwrap_or_default();
                let _ = writeln!(out, "{indent}  ---");
                for line in yaml.lines() {
                    let _ = writeln!(out, "{indent}  {line}");
                }
                let _ = writeln!(out, "{indent}  ...");
            }
        }
    }
}

/// Text for a test point's description or a directive's reason: on one line, with no
/// control character, and `#` and `\\` escaped as TAP 14 says, so that no name can end
/// the description early and add a directive (`# TODO` makes a failure count as none).
fn escaped(s: &str) -> String {
    safe_max(s, usize::MAX).replace('\\', "\\\\").replace('#', "\\#")
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
        let tap = super::render(&names.map(named), &View::of(Format::Tap, &Options { audience: None, color: false }));
        assert!(!tap.contains('\u{1b}') && !tap.contains('\u{7}'), "{tap}");
        // As TAP::Parser reads a test point: a `#` that no `\` escapes starts a directive.
        let point = regex::Regex::new(r"^(?:not )?ok \d+ - (?:[^\\#]|\\.)*$").unwrap();
        let points: Vec<&str> = tap.lines().map(str::trim_start).filter(|l| l.starts_with("ok") || l.starts_with("not ok")).collect();
        assert_eq!(points.len(), 6, "{tap}");
        for p in points {
            assert!(point.is_match(p), "{p}");
        }
        assert!(tap.contains("# Subtest: fails-but \\# TODO graded later\n"), "{tap}");
        assert!(tap.contains("\nnot ok 1 - fails-but \\# TODO graded later\n"), "{tap}");
        assert!(tap.contains("\nnot ok 2 - x\\\\\\# TODO\n"), "{tap}");
        assert!(tap.contains("\nnot ok 3 - n\\\\nok 3 - fake \\\\e]0;t\\\\u{7}\\\\e[2J\n"), "{tap}");
        assert!(tap.contains("    not ok 1 - c\\#1 - Title of c\\#1\n"), "{tap}");
    }
}
