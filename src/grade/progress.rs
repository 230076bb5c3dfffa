//! How far a student has come: a step whose files are all missing is not started, and
//! every check of it says so in one sentence (rather than each its own file's absence).

use crate::result::{CheckResult, Status, StepScore};

/// The failing checks of a step not started all say that it is not started.
pub fn not_started(checks: &mut [CheckResult], steps: &[StepScore]) {
    for s in steps {
        let Some(said) = s.not_started_said() else { continue };
        for c in checks.iter_mut().filter(|c| c.step == s.step && c.status == Status::Fail) {
            c.message = said.clone();
        }
    }
}

