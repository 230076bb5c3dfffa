//! Class statistics after a batch: pass rates per check and step, the score
//! distribution, and the most common wrong values; written as JSON, CSV and HTML.
//!
//! class.json is a contract (rates and means rounded to 4 decimals, null when there
//! is nothing to divide by):
//! `{"lab", "title", "submissions", "max_score",
//! "scores": {"mean", "median", "min", "max", "distribution": [{"score", "count"}]},
//! "submission_scores": [{"name", "score", "max_score"}],
//! "steps": [{"step", "title", "passed", "graded", "pass_rate", "mean_score", "max_score"}],
//! "checks": [{"id", "step", "title", "passed", "failed", "errors", "skipped", "pass_rate",
//! "wrong_values": [{"value", "count"}]}]}`.
//! A skipped check is not graded; a failed check's wrong value is what was found, or
//! its message when nothing was (a file missing).

mod chart;
mod csv;
mod html;
mod stats;

pub use stats::{
    stats, CheckStats, ClassStats, ScoreCount, Scores, StepStats, Submission, SubmissionScore, WrongValue, TOP_WRONG,
};

use std::path::Path;

/// Write class.json, class.csv and class.html into `dir`.
pub fn write(dir: &Path, stats: &ClassStats) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    std::fs::write(dir.join("class.json"), serde_json::to_string_pretty(stats)? + "\n")?;
    std::fs::write(dir.join("class.csv"), csv::render(stats)?)?;
    std::fs::write(dir.join("class.html"), html::render(stats))
}
