//! Class statistics after a batch: pass rates per check and step, the score
//! distribution, and the most common wrong values; written as JSON, CSV and HTML.
//!
//! class.json is a contract (rates and means rounded to 4 decimals, null when there
//! is nothing to divide by):
//! `{"lab", "title", "submissions", "max_score",
//! "scores": {"mean", "median", "min", "max", "distribution": [{"score", "count"}]},
//! "submission_scores": [{"name", "report", "score", "max_score", "status"}],
//! "steps": [{"step", "title", "passed", "graded", "errors", "pass_rate", "full_marks", "mean_score", "max_score"}],
//! "checks": [{"id", "step", "title", "passed", "failed", "errors", "skipped", "pass_rate",
//! "wrong_values": [{"value", "count"}]}], "left_out": [{"name", "why"}]}`.
//! A skipped check is not graded, and a check the grader could not evaluate (an error)
//! is no student's failure: pass rates are passed / (passed + failed). A wrong value
//! is what a failed check found in a student's file. A submission's `name` is its
//! folder's own; `report` names its report files.

mod chart;
mod csv;
mod html;
mod scores;
mod stats;

pub use stats::{
    stats, CheckStats, ClassStats, ScoreCount, Scores, StepStats, Submission, SubmissionScore, WrongValue, TOP_WRONG,
};

/// The class files of `--out`, by name: class.json, class.csv, class.html and the
/// gradebook scores.csv.
pub const FILES: [&str; 4] = ["class.json", "class.csv", "class.html", "scores.csv"];

/// Every class file's name and content, in the order of [`FILES`].
/// `left_out`: the entries of `--batch`'s folder not graded, which class.json and
/// class.html name.
pub fn files(subs: &[Submission], left_out: &[crate::batch::LeftOut]) -> std::io::Result<Vec<(&'static str, String)>> {
    let stats = ClassStats { left_out: left_out.to_vec(), ..stats(subs) };
    let contents = [serde_json::to_string_pretty(&stats)? + "\n", csv::render(&stats)?, html::render(&stats), scores::render(subs)?];
    Ok(FILES.into_iter().zip(contents).collect())
}
