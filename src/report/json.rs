//! The JSON report, a stable contract:
//! `{"lab", "submission", "score", "max_score", "steps", "live_source", "timing",
//! "checks": [{"id", "step", "title", "status", "points", "max_points", "expected",
//! "found", "message", ...}]}` (docs/reports.md lists every field).
//! Several submissions make an array of such objects (see `report::write`).

use super::{Audience, View};
use crate::result::{Status, StepScore, SubmissionResult};
use serde::Serialize;

/// One submission's report. Serialised straight from these borrowed fields: building a
/// `serde_json::Value` first cost as much as grading a step.
#[derive(Serialize)]
pub struct Report<'a> {
    lab: &'a str,
    submission: &'a str,
    score: u32,
    max_score: u32,
    steps: &'a [StepScore],
    live_source: Option<&'a str>,
    timing: Timing,
    checks: Vec<Check<'a>>,
}

#[derive(Serialize)]
struct Timing {
    total_ms: f64,
    envoy_ms: f64,
}

#[derive(Serialize)]
struct Check<'a> {
    id: &'a str,
    step: u32,
    title: &'a str,
    status: Status,
    points: u32,
    max_points: u32,
    expected: Option<&'a str>,
    found: Option<&'a str>,
    message: &'a str,
    #[serde(rename = "where")]
    place: Option<&'a str>,
    hint: Option<&'a str>,
}

pub fn object<'a>(r: &'a SubmissionResult, view: &View) -> Report<'a> {
    let ms = |d: std::time::Duration| (d.as_secs_f64() * 1000.0 * 100.0).round() / 100.0;
    let checks = r
        .checks
        .iter()
        .map(|c| Check {
            id: &c.id,
            step: c.step,
            title: &c.title,
            status: c.status,
            points: c.points,
            max_points: c.max_points,
            expected: view.expected(c),
            // A student sees what was found only where it went wrong: a passing
            // check's found value is, by definition, its expected value.
            found: if view.audience == Audience::Student && c.status == Status::Pass { None } else { c.found.as_deref() },
            message: &c.message,
            place: c.place.as_deref(),
            hint: c.hint.as_deref(),
        })
        .collect();
    Report {
        lab: &r.lab,
        submission: &r.submission,
        score: r.score(),
        max_score: r.max_score(),
        steps: &r.steps,
        live_source: r.live_source.as_deref(),
        timing: Timing { total_ms: ms(r.elapsed), envoy_ms: ms(r.envoy_time) },
        checks,
    }
}
