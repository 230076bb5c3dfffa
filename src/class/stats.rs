//! The numbers: totals per check, per step and per submission, in one pass over the batch.

use crate::result::{Status, SubmissionResult};
use indexmap::IndexMap;
use serde::Serialize;
use std::collections::BTreeMap;

/// Wrong values listed per check.
pub const TOP_WRONG: usize = 5;

/// One graded submission of the batch: its own name (its folder's, made safe to show)
/// and the name of its report files in `--out`.
pub struct Submission<'a> {
    pub name: &'a str,
    pub report: &'a str,
    pub result: &'a SubmissionResult,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ClassStats {
    pub lab: String,
    pub title: String,
    pub submissions: usize,
    /// The largest seen. Every submission of a run skips the same checks, so it is
    /// every submission's maximum; the largest is taken so that a class from several
    /// runs still reads sensibly.
    pub max_score: u32,
    pub scores: Scores,
    pub submission_scores: Vec<SubmissionScore>,
    pub steps: Vec<StepStats>,
    pub checks: Vec<CheckStats>,
    /// The entries of `--batch`'s folder not graded (a file, a hidden folder, a link).
    pub left_out: Vec<crate::batch::LeftOut>,
}

/// Total scores; `None` (null) only for an empty batch.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Scores {
    pub mean: Option<f64>,
    pub median: Option<f64>,
    pub min: Option<u32>,
    pub max: Option<u32>,
    /// Every distinct total score, ascending.
    pub distribution: Vec<ScoreCount>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ScoreCount {
    pub score: u32,
    pub count: usize,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SubmissionScore {
    pub name: String,
    /// Its report files are `REPORT.json`, `REPORT.txt`, ...
    pub report: String,
    pub score: u32,
    pub max_score: u32,
    /// `graded` (every check passed), `failed` (a check failed) or `could not be
    /// graded` (the grader could not evaluate a check: the score may be too low).
    pub status: &'static str,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StepStats {
    pub step: u32,
    pub title: String,
    pub passed: usize,
    /// Checks that passed or failed: the grader judged them. A skip was not graded, an
    /// error could not be.
    pub graded: usize,
    /// Checks the grader could not evaluate: a set-up problem, not the students'.
    pub errors: usize,
    /// passed / graded: of checks, so a step of many checks weighs a missing file more.
    pub pass_rate: Option<f64>,
    /// Submissions that scored the step's maximum (above 0): of students, where the
    /// rate is of checks.
    pub full_marks: usize,
    /// Over all submissions, each scoring the points of its checks in this step.
    pub mean_score: f64,
    pub max_score: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CheckStats {
    pub id: String,
    pub step: u32,
    pub title: String,
    pub passed: usize,
    pub failed: usize,
    pub errors: usize,
    pub skipped: usize,
    /// passed / (passed + failed): an error is the grader's, not the students'.
    pub pass_rate: Option<f64>,
    /// The values students wrote that failed the check: the most common, by count
    /// descending then value ascending, at most [`TOP_WRONG`]. A failure with no value
    /// found (a file missing) is no wrong value.
    pub wrong_values: Vec<WrongValue>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct WrongValue {
    pub value: String,
    pub count: usize,
}

pub fn stats(subs: &[Submission]) -> ClassStats {
    let first = subs.first().map(|s| s.result);
    let submission_scores: Vec<SubmissionScore> = subs
        .iter()
        .map(|s| SubmissionScore {
            name: s.name.to_string(),
            report: s.report.to_string(),
            score: s.result.score(),
            max_score: s.result.max_score(),
            status: status(s.result),
        })
        .collect();
    ClassStats {
        lab: first.map(|r| r.lab.clone()).unwrap_or_default(),
        title: first.map(|r| r.title.clone()).unwrap_or_default(),
        submissions: subs.len(),
        max_score: submission_scores.iter().map(|s| s.max_score).max().unwrap_or(0),
        scores: scores(submission_scores.iter().map(|s| s.score).collect()),
        submission_scores,
        steps: steps(subs),
        checks: checks(subs),
        left_out: Vec::new(),
    }
}

/// `num / den` rounded to 4 decimals, so that every format shows the same number;
/// `None` when there is nothing to divide by.
fn ratio(num: f64, den: usize) -> Option<f64> {
    (den > 0).then(|| (num / den as f64 * 10_000.0).round() / 10_000.0)
}

fn scores(mut totals: Vec<u32>) -> Scores {
    totals.sort_unstable();
    let n = totals.len();
    let median = match n {
        0 => None,
        _ if n % 2 == 1 => Some(f64::from(totals[n / 2])),
        _ => ratio(f64::from(totals[n / 2 - 1]) + f64::from(totals[n / 2]), 2),
    };
    let mut distribution: Vec<ScoreCount> = Vec::new();
    for &score in &totals {
        match distribution.last_mut() {
            Some(d) if d.score == score => d.count += 1,
            _ => distribution.push(ScoreCount { score, count: 1 }),
        }
    }
    Scores {
        mean: ratio(totals.iter().map(|&t| f64::from(t)).sum(), n),
        median,
        min: totals.first().copied(),
        max: totals.last().copied(),
        distribution,
    }
}

/// A submission's outcome, in the gradebook's words.
pub fn status(r: &SubmissionResult) -> &'static str {
    match r.worst() {
        Status::Pass | Status::Skip => "all passed",
        Status::Fail => "some failed",
        Status::Error => "could not be graded",
    }
}

fn steps(subs: &[Submission]) -> Vec<StepStats> {
    // Every step a submission lists or a check names, so that every check has its step.
    let mut titles: BTreeMap<u32, &str> = BTreeMap::new();
    for s in subs {
        for st in &s.result.steps {
            titles.entry(st.step).or_insert(&st.title);
        }
    }
    for c in subs.iter().flat_map(|s| &s.result.checks) {
        titles.entry(c.step).or_insert("");
    }
    titles
        .into_iter()
        .map(|(step, title)| {
            let (mut passed, mut graded_n, mut errors, mut score_sum, mut max_score) = (0, 0, 0, 0.0, 0);
            let mut scores = Vec::with_capacity(subs.len());
            for s in subs {
                let (mut score, mut max) = (0, 0);
                for c in s.result.checks.iter().filter(|c| c.step == step) {
                    passed += usize::from(c.status == Status::Pass);
                    graded_n += usize::from(matches!(c.status, Status::Pass | Status::Fail));
                    errors += usize::from(c.status == Status::Error);
                    score += c.points;
                    max += c.max_points;
                }
                score_sum += f64::from(score);
                max_score = max_score.max(max);
                scores.push(score);
            }
            // Of the step's maximum, not each submission's own: a check not graded for
            // one (another step charges its mistake) lowers that one's alone.
            let full_marks = scores.iter().filter(|s| max_score > 0 && **s == max_score).count();
            StepStats {
                step,
                title: title.to_string(),
                passed,
                graded: graded_n,
                errors,
                pass_rate: ratio(passed as f64, graded_n),
                full_marks,
                mean_score: ratio(score_sum, subs.len()).unwrap_or(0.0),
                max_score,
            }
        })
        .collect()
}

fn checks(subs: &[Submission]) -> Vec<CheckStats> {
    // Wrong values keyed in a BTreeMap: ascending, so a stable sort by count keeps ties in order.
    let mut acc: IndexMap<&str, (CheckStats, BTreeMap<&str, usize>)> = IndexMap::new();
    for c in subs.iter().flat_map(|s| &s.result.checks) {
        let (st, wrong) = acc.entry(&c.id).or_insert_with(|| {
            let st = CheckStats {
                id: c.id.clone(),
                step: c.step,
                title: c.title.clone(),
                passed: 0,
                failed: 0,
                errors: 0,
                skipped: 0,
                pass_rate: None,
                wrong_values: Vec::new(),
            };
            (st, BTreeMap::new())
        });
        match c.status {
            Status::Pass => st.passed += 1,
            Status::Fail => {
                st.failed += 1;
                if let Some(found) = &c.found {
                    *wrong.entry(found).or_default() += 1;
                }
            }
            Status::Error => st.errors += 1,
            Status::Skip => st.skipped += 1,
        }
    }
    acc.into_values()
        .map(|(mut st, wrong)| {
            st.pass_rate = ratio(st.passed as f64, st.passed + st.failed);
            let mut values: Vec<WrongValue> =
                wrong.into_iter().map(|(value, count)| WrongValue { value: value.to_string(), count }).collect();
            values.sort_by_key(|w| std::cmp::Reverse(w.count));
            values.truncate(TOP_WRONG);
            st.wrong_values = values;
            st
        })
        .collect()
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::result::{CheckResult, StepScore};

    pub fn check(id: &str, step: u32, status: Status, points: u32, max_points: u32, found: Option<&str>) -> CheckResult {
        CheckResult {
            id: id.into(),
            step,
            title: format!("Title of {id}"),
            status,
            points,
            max_points,
            expected: None,
            found: found.map(String::from),
            message: format!("{id}: {}", status.word()),
            place: None,
            hint: None,
            hidden: false,
            file_problem: None,
            charged_by: None,
            saved_as: None,
        }
    }

    pub fn result(checks: Vec<CheckResult>) -> SubmissionResult {
        crate::result::tests::submission("x", checks, vec![StepScore { step: 1, title: "One".into(), score: 0, max_score: 0, not_started: Vec::new() }])
    }

    pub fn batch(results: &[SubmissionResult]) -> ClassStats {
        let subs: Vec<Submission> = results.iter().map(|r| Submission { name: &r.submission, report: &r.submission, result: r }).collect();
        stats(&subs)
    }

    #[test]
    fn median_of_even_and_odd_counts() {
        assert_eq!(scores(vec![3, 1, 2]).median, Some(2.0));
        assert_eq!(scores(vec![4, 1, 2, 3]).median, Some(2.5));
        let s = scores(vec![1, 1, 2]);
        assert_eq!(s.mean, Some(1.3333));
        assert_eq!(s.distribution, vec![ScoreCount { score: 1, count: 2 }, ScoreCount { score: 2, count: 1 }]);
    }

    #[test]
    fn an_empty_batch_has_nulls_not_nans() {
        let s = batch(&[]);
        assert_eq!((s.submissions, s.max_score, s.scores.mean, s.scores.min), (0, 0, None, None));
        assert!(s.steps.is_empty() && s.checks.is_empty());
    }

    #[test]
    fn wrong_values_by_count_then_value_at_most_five() {
        let found = ["f", "e", "d", "c", "b", "a", "z", "z"];
        let results: Vec<_> = found.iter().map(|f| result(vec![check("c", 1, Status::Fail, 0, 1, Some(f))])).collect();
        let values: Vec<_> = batch(&results).checks[0].wrong_values.iter().map(|w| (w.value.clone(), w.count)).collect();
        let want = [("z", 2), ("a", 1), ("b", 1), ("c", 1), ("d", 1)];
        assert_eq!(values, want.map(|(v, c)| (v.to_string(), c)));
    }

    #[test]
    fn only_values_students_wrote_are_wrong_values_and_errors_are_not_failures() {
        let results = [
            result(vec![check("c", 1, Status::Fail, 0, 1, None)]),
            result(vec![check("c", 1, Status::Error, 0, 1, Some("x"))]),
            result(vec![check("c", 1, Status::Fail, 0, 1, Some("y"))]),
            result(vec![check("c", 1, Status::Pass, 1, 1, None)]),
        ];
        let s = batch(&results);
        let c = &s.checks[0];
        assert_eq!(c.wrong_values, vec![WrongValue { value: "y".into(), count: 1 }]);
        assert_eq!((c.failed, c.errors, c.pass_rate), (2, 1, Some(0.3333)));
        assert_eq!((s.steps[0].graded, s.steps[0].errors, s.steps[0].pass_rate), (3, 1, Some(0.3333)));
        let status: Vec<&str> = s.submission_scores.iter().map(|s| s.status).collect();
        assert_eq!(status, ["some failed", "could not be graded", "some failed", "all passed"]);
    }

    #[test]
    fn a_step_only_named_by_a_check_is_listed() {
        let s = batch(&[result(vec![check("c", 2, Status::Skip, 0, 0, None)])]);
        let steps: Vec<_> = s.steps.iter().map(|s| (s.step, s.title.as_str(), s.graded, s.pass_rate)).collect();
        assert_eq!(steps, vec![(1, "One", 0, None), (2, "", 0, None)]);
    }
}
