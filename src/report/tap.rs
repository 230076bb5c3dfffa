//! TAP version 14: a test point per check, with a YAML block saying where, why and
//! what was found; several submissions become subtests.

use super::View;
use crate::result::{Status, SubmissionResult};
use std::fmt::Write;

pub fn render(results: &[SubmissionResult], view: &View) -> String {
    let mut out = String::from("TAP version 14\n");
    match results {
        [one] => points(&mut out, one, view, ""),
        many => {
            for (i, r) in many.iter().enumerate() {
                let _ = writeln!(out, "# Subtest: {}", r.submission);
                points(&mut out, r, view, "    ");
                let ok = if r.worst() == Status::Pass { "ok" } else { "not ok" };
                let _ = writeln!(out, "{ok} {} - {}", i + 1, r.submission);
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
        let name = format!("{} - {}", c.id, c.title).replace('#', "\\#");
        match c.status {
            Status::Pass => {
                let _ = writeln!(out, "{indent}ok {n} - {name}");
            }
            Status::Skip => {
                let _ = writeln!(out, "{indent}ok {n} - {name} # SKIP {}", c.message.replace('#', "\\#"));
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
