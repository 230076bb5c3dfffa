//! The JSON report, a stable contract:
//! `{"lab", "submission", "score", "max_score", "checks": [{"id", "step", "title",
//! "status", "points", "max_points", "expected", "found", "message", ...}]}`.
//! Several submissions make an array of such objects (see `report::write`).

use super::{Audience, View};
use crate::result::Status;
use crate::result::SubmissionResult;
use serde_json::{json, Value};

pub fn object(r: &SubmissionResult, view: &View) -> Value {
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
                "expected": view.expected(c),
                // A student sees what was found only where it went wrong: a passing
                // check's found value is, by definition, its expected value.
                "found": if view.audience == Audience::Student && c.status == Status::Pass { None } else { c.found.as_deref() },
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
        "timing": {
            "total_ms": (r.elapsed.as_secs_f64() * 1000.0 * 100.0).round() / 100.0,
            "envoy_ms": (r.envoy_time.as_secs_f64() * 1000.0 * 100.0).round() / 100.0,
        },
        "checks": checks,
    })
}
