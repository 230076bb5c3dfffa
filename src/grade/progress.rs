//! How far a student has come: a step whose files are all missing is not started, and
//! every check of it says so in one sentence (rather than each its own file's absence).

use crate::result::{CheckResult, Status, StepScore};
use crate::source::Read;
use crate::spec::Spec;

/// The files of step `n`, if every one is missing and none is there under a near name
/// (which is a slip to point at, not a step not started); else none.
pub fn file_problems(spec: &Spec, n: u32, read: &Read) -> Vec<String> {
    let mut files: Vec<String> = Vec::new();
    for c in spec.checks.iter().filter(|c| c.step == n) {
        if !files.contains(&c.file) {
            files.push(c.file.clone());
        }
    }
    let absent = |f: &String| read.artifacts.get(f).is_some_and(|a| a.is_missing() && a.near().is_none());
    if files.iter().all(absent) { files } else { Vec::new() }
}

/// The failing checks of a step not started all say that it is not started.
pub fn not_started(checks: &mut [CheckResult], steps: &[StepScore]) {
    for s in steps {
        let Some(said) = s.not_started_said() else { continue };
        for c in checks.iter_mut().filter(|c| c.step == s.step && c.status == Status::Fail) {
            c.message = said.clone();
        }
    }
}

