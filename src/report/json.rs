//! The JSON report, a stable contract:
//! `{"lab", "submission", "score", "max_score", "checks": [{"id", "step", "title",
//! "status", "points", "max_points", "expected", "found", "message", ...}]}`.
//! Several submissions make an array of such objects.

use super::{expected_for, Options};
use crate::result::SubmissionResult;
use serde_json::{json, Value};

pub fn object(r: &SubmissionResult, opts: &Options) -> Value {
    let checks: Vec<Value> = r
        .checks
        .iter()
        .map(|c| {
            json!({
                "id": c.id,
                "step": c.step,
                "title": c.title,
                "status": c.status,
                "points": c.points,
                "max_points": c.max_points,
                "expected": expected_for(c, opts.audience),
                "found": c.found,
                "message": c.message,
                "where": c.place,
                "hint": c.hint,
            })
        })
        .collect();
    json!({
        "lab": r.lab,
        "submission": r.submission,
        "score": r.score(),
        "max_score": r.max_score(),
        "steps": r.steps,
        "live_source": r.live_source,
        "checks": checks,
    })
}

pub fn render(results: &[SubmissionResult], opts: &Options) -> String {
    let v = match results {
        [one] => object(one, opts),
        many => Value::Array(many.iter().map(|r| object(r, opts)).collect()),
    };
    serde_json::to_string_pretty(&v).unwrap_or_default() + "\n"
}
