//! The text report: grouped by step, one line per check; for a check that did not
//! pass, where, why, what was found, the hint, and (for instructors) what was expected.

use super::color::{paint, Paint};
use super::View;
use crate::display::{safe, safe_max};
use crate::result::{Status, SubmissionResult};
use std::fmt::Write;

pub fn render(r: &SubmissionResult, view: &View) -> String {
    let c = view.color;
    let mut out = String::new();
    let _ = writeln!(out, "{} {}", paint(c, Paint::Bold, &safe(&r.lab)), safe(&r.title));
    let _ = writeln!(out, "submission: {}", line(&r.submission));
    if let Some(live) = &r.live_source {
        let _ = writeln!(out, "live values from: {}", line(live));
    }
    let width = r.checks.iter().map(|c| c.id.chars().count()).max().unwrap_or(0);
    // A reason shared by several checks (Envoy not running, a file missing) is said
    // in full once; later checks point back to the first.
    let mut said: Vec<(&str, &str)> = Vec::new();
    for step in &r.steps {
        let checks: Vec<_> = r.checks.iter().filter(|c| c.step == step.step).collect();
        if checks.is_empty() {
            continue;
        }
        let _ = writeln!(out);
        let head = format!("Step {}: {}", step.step, line(&step.title));
        let _ = writeln!(out, "{}  {}/{}", paint(c, Paint::Bold, &head), step.score, step.max_score);
        for ch in checks {
            let (word, p) = match ch.status {
                Status::Pass => ("PASS ", Paint::Green),
                Status::Fail => ("FAIL ", Paint::Red),
                Status::Error => ("ERROR", Paint::Yellow),
                Status::Skip => ("SKIP ", Paint::Dim),
            };
            let _ = writeln!(out, "  {}  {:width$}  {}", paint(c, p, word), line(&ch.id), line(&ch.title));
            if ch.status == Status::Pass {
                continue;
            }
            let message = match said.iter().find(|(m, _)| *m == ch.message) {
                Some((_, first)) if ch.message.chars().count() > 60 => format!("{} (as for {first})", lead(&ch.message)),
                _ => {
                    said.push((&ch.message, &ch.id));
                    ch.message.clone()
                }
            };
            if ch.status == Status::Skip {
                let _ = writeln!(out, "{}", paint(c, Paint::Dim, &format!("         {}", line(&message))));
                continue;
            }
            let pad = " ".repeat(9);
            let mut field = |name: &str, value: &str| {
                let _ = writeln!(out, "{pad}{}{}", paint(c, Paint::Dim, &format!("{name:<10}")), line(value));
            };
            if let Some(p) = &ch.place {
                field("where:", p);
            }
            field("why:", &message);
            for (name, value) in view.details(ch).into_iter().skip_while(|(n, _)| *n != "why").skip(1) {
                field(&format!("{name}:"), &value);
            }
        }
    }
    let _ = writeln!(out);
    let summary = super::summary(r);
    let p = match r.worst() {
        Status::Pass => Paint::Green,
        Status::Fail => Paint::Red,
        _ => Paint::Yellow,
    };
    let _ = writeln!(out, "{}", paint(c, p, &summary));
    out
}

/// Text on one line that no terminal obeys. What the grader found is made so when
/// graded; this keeps the report a report whatever reaches it (a spec's title too).
fn line(s: &str) -> String {
    safe_max(s, usize::MAX)
}

/// The first words of a message, up to its first colon ("could not check").
fn lead(message: &str) -> &str {
    message.split(':').next().unwrap_or(message)
}

/// Several submissions: one line each, then the class in one line.
pub fn table(results: &[SubmissionResult], view: &View) -> String {
    let c = view.color;
    // In terminal columns: a CJK name takes two a character.
    let width = results.iter().map(|r| crate::display::width(&line(&r.submission))).max().unwrap_or(0);
    let mut out = String::new();
    for r in results {
        let (word, p) = match r.worst() {
            Status::Pass => ("PASS ", Paint::Green),
            Status::Fail => ("FAIL ", Paint::Red),
            _ => ("ERROR", Paint::Yellow),
        };
        let _ = writeln!(out, "{}  {}  {}", paint(c, p, word), crate::display::pad(&line(&r.submission), width), super::summary(r));
    }
    let passed = results.iter().filter(|r| r.worst() == Status::Pass).count();
    let _ = writeln!(out, "\n{} submissions: {passed} with every check passed", results.len());
    out
}
