//! Exit codes, as documented in the README.

use crate::result::{Status, SubmissionResult};

/// Every check passed (skipped checks do not count against this).
pub const PASSED: u8 = 0;
/// At least one check failed: the submission is wrong somewhere.
pub const FAILED: u8 = 1;
/// The grader could not grade (bad usage, bad spec, unreadable lab files or submission
/// directory) or could not evaluate at least one check (status `error`).
pub const CANNOT_GRADE: u8 = 2;

pub fn for_results(results: &[SubmissionResult]) -> u8 {
    let worst = results.iter().map(SubmissionResult::worst).max().unwrap_or(Status::Pass);
    match worst {
        Status::Pass | Status::Skip => PASSED,
        Status::Fail => FAILED,
        Status::Error => CANNOT_GRADE,
    }
}
