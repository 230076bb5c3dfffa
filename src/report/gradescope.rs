//! Gradescope's `results.json` (the autograder specification's field names), which
//! students read: always written for the student audience. A test per check that was
//! graded, numbered `step.check-within-step`; a skipped check is no test (it did not
//! run), and neither is a check the grader could not evaluate: a student never loses
//! points for the grader's fault. The top-level `output` says which checks were left
//! out, in the spec's words, never with a grader's path.

use super::View;
use crate::lang::{report::Report, t};
use crate::result::{Status, SubmissionResult};
use serde_json::{json, Value};

pub fn object(r: &SubmissionResult, view: &View) -> Value {
    let mut tests = Vec::new();
    let (mut step, mut within) = (None, 0);
    for c in &r.checks {
        if step != Some(c.step) {
            (step, within) = (Some(c.step), 0);
        }
        within += 1;
        if matches!(c.status, Status::Skip | Status::Error) {
            continue;
        }
        let output = match c.status {
            Status::Pass => String::new(),
            _ => view.detail_lines(c).join("\n"),
        };
        tests.push(json!({
            "name": format!("{}: {}", c.id, c.title),
            "number": format!("{}.{within}", c.step),
            "score": c.points,
            "max_score": c.max_points,
            "status": if c.status == Status::Pass { "passed" } else { "failed" },
            "output": output,
            "visibility": "visible",
        }));
    }
    json!({
        "score": r.score(),
        "execution_time": r.elapsed.as_secs_f64(),
        "output": output(r),
        // Plain text, said so: under Gradescope's HTML-sanitising formats a hint's
        // `<pod name>` or a student's `<value>` would be taken for a tag and lost.
        "output_format": "text",
        "test_output_format": "text",
        "tests": tests,
    })
}

/// The score out of what was graded, then what was left out and why.
fn output(r: &SubmissionResult) -> String {
    let graded = |c: &&crate::result::CheckResult| !matches!(c.status, Status::Skip | Status::Error);
    let max: u32 = r.checks.iter().filter(graded).map(|c| c.max_points).sum();
    let mut out = t!(Report::GradescopeScore, score = r.score(), max = max, pass = r.count(Status::Pass), fail = r.count(Status::Fail));
    let errors: Vec<&str> = r.checks.iter().filter(|c| c.status == Status::Error).map(|c| c.id.as_str()).collect();
    if !errors.is_empty() {
        out.push('\n');
        out.push_str(&t!(Report::GradescopeErrors, n = errors.len(), ids = crate::lang::ids(&errors)));
    }
    let skipped: Vec<&str> = r.checks.iter().filter(|c| c.status == Status::Skip).map(|c| c.id.as_str()).collect();
    if !skipped.is_empty() {
        out.push('\n');
        out.push_str(&t!(Report::GradescopeSkipped, n = skipped.len(), ids = crate::lang::ids(&skipped)));
    }
    out
}
