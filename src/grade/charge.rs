//! One mistake costs one step: a check that cannot be decided because another file of
//! the submission is missing or lacks a value is not graded where that file's own
//! check already fails for it.

use crate::lang::{checks::Checks, t};
use crate::result::{CheckResult, Status};
use crate::spec::Spec;

/// A failing check that could not be decided because of
/// another file of the submission (missing, or lacking a value) is not graded when a
/// check of that file, in another step, fails: that check charges the mistake.
pub fn charged(spec: &Spec, checks: &mut [CheckResult]) {
    let file_of = |id: &str| spec.checks.iter().find(|c| c.id == id).map(|c| c.file.as_str());
    let charging: Vec<(usize, String, u32, String)> = checks
        .iter()
        .enumerate()
        .filter_map(|(i, c)| {
            let charge = c.charged_by.as_ref()?;
            let by = checks.iter().find(|d| d.step != c.step && d.status == Status::Fail && d.charged_by.is_none() && file_of(&d.id).is_some_and(|f| charge.files.iter().any(|x| x == f)))?;
            Some((i, by.id.clone(), by.step, charge.reason.clone()))
        })
        .collect();
    for (i, id, step, reason) in charging {
        let c = &mut checks[i];
        c.status = Status::Skip;
        c.points = 0;
        c.max_points = 0;
        c.message = crate::display::safe_max(&t!(Checks::NotGradedSee, message = reason, id = id, step = step), 1000);
    }
}
