//! Gradescope's `results.json` (the autograder specification's field names): a test
//! per check with its score, and output students read. Student-facing whatever the
//! audience, so hidden checks never show their expected value here.

use super::View;
use crate::result::{Status, SubmissionResult};
use serde_json::{json, Value};

pub fn object(r: &SubmissionResult, view: &View) -> Value {
    let tests: Vec<Value> = r
        .checks
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let output = match c.status {
                Status::Pass => String::new(),
                _ => view.details(c).into_iter().map(|(k, v)| format!("{k}: {v}")).collect::<Vec<_>>().join("\n"),
            };
            json!({
                "name": format!("{}: {}", c.id, c.title),
                "number": format!("{}.{}", c.step, i + 1),
                "score": c.points,
                "max_score": c.max_points,
                // Gradescope knows only these two; a skipped check weighs nothing.
                "status": if matches!(c.status, Status::Pass | Status::Skip) { "passed" } else { "failed" },
                "output": output,
                "visibility": "visible",
            })
        })
        .collect();
    json!({
        "score": r.score(),
        "execution_time": r.elapsed.as_secs_f64(),
        "output": super::summary(r),
        "tests": tests,
    })
}
