//! One mistake costs one step: a check that cannot be decided because another file of
//! the submission is missing or lacks a value is not graded where that file's own
//! check already fails for it.

use crate::lang::{checks::Checks, t};
use crate::result::{CheckResult, Status};
use crate::spec::Spec;
use std::collections::HashMap;

/// A failing check that could not be decided because of another file of the submission
/// (missing, or lacking a value) is not graded when a check of that file, in another
/// step, fails: that check charges the mistake. When that step is not graded in this
/// run (`--step`), the mistake is charged where it first fails in the steps graded, and
/// not again in a later one: a run that leaves out the step of a file never scores a
/// step that needs the file as passed. A check the spec already says is not graded for
/// a mistake of another file (a `blame: elsewhere` value) is graded, as failing, in
/// that first step too.
pub fn charged(spec: &Spec, checks: &mut [CheckResult], graded: impl Fn(u32) -> bool) {
    let file_of = |id: &str| spec.checks.iter().find(|c| c.id == id).map(|c| c.file.as_str());
    // For each failing check another file keeps from a verdict: the check of that file
    // that fails for it, one of a graded step if there is one.
    let chargers: Vec<Option<usize>> = checks
        .iter()
        .map(|c| {
            let charge = c.charged_by.as_ref()?;
            let of_that_file = |d: &CheckResult| d.step != c.step && d.status == Status::Fail && d.charged_by.is_none() && file_of(&d.id).is_some_and(|f| charge.files.iter().any(|x| x == f));
            checks.iter().position(|d| of_that_file(d) && graded(d.step)).or_else(|| checks.iter().position(of_that_file))
        })
        .collect();
    // A charger not graded: its mistake is charged by the first check it fails in the
    // earliest step graded.
    let mut first: HashMap<usize, usize> = HashMap::new();
    for (i, by) in chargers.iter().enumerate() {
        if let Some(by) = *by {
            if !graded(checks[by].step) && graded(checks[i].step) && first.get(&by).is_none_or(|&f| checks[i].step < checks[f].step) {
                first.insert(by, i);
            }
        }
    }
    // Each check charged elsewhere, and by which; and those not graded already that are
    // graded here after all, their charger's step being left out.
    let mut charging: Vec<(usize, usize)> = Vec::new();
    let mut graded_here: Vec<usize> = Vec::new();
    for (i, by) in chargers.iter().enumerate() {
        let Some(by) = *by else { continue };
        let skipped = checks[i].charged_by.as_ref().is_some_and(|c| c.skipped);
        match first.get(&by) {
            None => charging.push((i, by)),
            Some(&f) if checks[i].step != checks[f].step => charging.push((i, f)),
            Some(_) if skipped => graded_here.push(i),
            Some(_) => {}
        }
    }
    for &i in &graded_here {
        let points = spec.checks.iter().find(|d| d.id == checks[i].id).map_or(0, |d| d.points);
        let c = &mut checks[i];
        let reason = c.charged_by.as_ref().map(|ch| ch.reason.clone()).unwrap_or_default();
        c.status = Status::Fail;
        c.max_points = points;
        // The spec's sentence for why it is not graded is the student's mistake itself.
        c.message = crate::display::safe_max(&reason, 1000);
    }
    let said: Vec<(usize, String, u32, String)> = charging
        .into_iter()
        .map(|(i, by)| (i, checks[by].id.clone(), checks[by].step, checks[i].charged_by.as_ref().map(|c| c.reason.clone()).unwrap_or_default()))
        .collect();
    for (i, id, step, reason) in said {
        let c = &mut checks[i];
        c.status = Status::Skip;
        c.points = 0;
        c.max_points = 0;
        // Its file's problem is charged there, not said here as this step's.
        c.file_problem = None;
        c.message = crate::display::safe_max(&t!(Checks::NotGradedSee, message = reason, id = id, step = step), 1000);
    }
}
