//! The results of grading: what every report format is a view of.

use serde::Serialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, PartialOrd, Ord, Hash)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Pass,
    Fail,
    /// The grader could not evaluate the check.
    Error,
    /// Not graded in this run, with the reason in the message.
    Skip,
}

impl Status {
    pub fn word(self) -> &'static str {
        match self {
            Status::Pass => "pass",
            Status::Fail => "fail",
            Status::Error => "error",
            Status::Skip => "skip",
        }
    }
}

/// One check's verdict, with everything any audience may be shown.
#[derive(Debug, Clone, Serialize)]
pub struct CheckResult {
    pub id: String,
    pub step: u32,
    pub title: String,
    pub status: Status,
    pub points: u32,
    pub max_points: u32,
    /// Instructor-only: never shown to students.
    pub expected: Option<String>,
    pub found: Option<String>,
    /// What happened, in a sentence that never contains the expected value.
    pub message: String,
    /// File and line, or file and key.
    #[serde(rename = "where")]
    pub place: Option<String>,
    pub hint: Option<String>,
    #[serde(skip)]
    pub hidden: bool,
    /// The check failed because its own file is missing or cannot be read as text
    /// (empty, not UTF-8, ...): that file. The text report says such checks once per file.
    #[serde(skip)]
    pub file_problem: Option<String>,
    /// That file, missing, saved under a near name instead (`bootstrap.yml`, or
    /// `folder/bootstrap.yaml` one folder down): where an annotation can point.
    #[serde(skip)]
    pub saved_as: Option<String>,
    /// The check could not be decided because of these other files of the submission
    /// (one missing, or lacking a value): if a check of one of them fails, that check
    /// charges the mistake and this one is not graded (`grade::charged`).
    #[serde(skip)]
    pub charged_by: Option<Charge>,
}

/// Why a check could not be decided, when other files of the submission are why.
#[derive(Debug, Clone)]
pub struct Charge {
    pub files: Vec<String>,
    /// The reason, as the lead-less sentence of the value that is missing.
    pub reason: String,
    /// The check is not graded already (a `blame: elsewhere` value of the spec), rather
    /// than failing until a check of those files is found to charge it.
    pub skipped: bool,
}

#[derive(Debug, Clone, Serialize)]
pub struct StepScore {
    pub step: u32,
    pub title: String,
    pub score: u32,
    pub max_score: u32,
    /// The step's files, when every one is missing (and none is there under a near
    /// name): the step is not started.
    #[serde(skip)]
    pub not_started: Vec<String>,
}

impl StepScore {
    /// "not started: 03-mesh.txt is missing", when the step is not started.
    pub fn not_started_said(&self) -> Option<String> {
        use crate::lang::{list, report::Report, t};
        let files = list(&self.not_started);
        match self.not_started.len() {
            0 => None,
            1 => Some(t!(Report::NotStartedOne, files = files)),
            _ => Some(t!(Report::NotStartedMany, files = files)),
        }
    }
}

/// Everything about one submission.
#[derive(Debug, Clone)]
pub struct SubmissionResult {
    pub lab: String,
    pub title: String,
    /// The submission's directory, made safe to show (see `display::safe`).
    pub submission: String,
    pub checks: Vec<CheckResult>,
    pub steps: Vec<StepScore>,
    /// Where the live values came from, when any were used; made safe to show.
    pub live_source: Option<String>,
    pub elapsed: std::time::Duration,
    /// Of `elapsed`, the time Envoy itself ran (validations, launch).
    pub envoy_time: std::time::Duration,
}

impl SubmissionResult {
    pub fn score(&self) -> u32 {
        self.checks.iter().map(|c| c.points).sum()
    }

    pub fn max_score(&self) -> u32 {
        self.checks.iter().map(|c| c.max_points).sum()
    }

    pub fn count(&self, s: Status) -> usize {
        self.checks.iter().filter(|c| c.status == s).count()
    }

    /// Step `step`'s score, when the step is not started (every file of it missing).
    pub fn not_started(&self, step: u32) -> Option<&StepScore> {
        self.steps.iter().find(|s| s.step == step && !s.not_started.is_empty())
    }

    /// The most serious outcome: error, then fail, then pass.
    pub fn worst(&self) -> Status {
        if self.count(Status::Error) > 0 {
            Status::Error
        } else if self.count(Status::Fail) > 0 {
            Status::Fail
        } else {
            Status::Pass
        }
    }
}

#[cfg(test)]
pub mod tests {
    use super::{CheckResult, Status, StepScore, SubmissionResult};

    /// A submission `name` of lab `demo` with these checks and steps.
    pub fn submission(name: &str, checks: Vec<CheckResult>, steps: Vec<StepScore>) -> SubmissionResult {
        SubmissionResult {
            lab: "demo".into(),
            title: "Demo lab".into(),
            submission: name.into(),
            checks,
            steps,
            live_source: None,
            elapsed: Default::default(),
            envoy_time: Default::default(),
        }
    }

    /// A check `c` of step 1 worth a point, with this status and nothing else said.
    pub fn check(status: Status) -> CheckResult {
        CheckResult {
            id: "c".into(),
            step: 1,
            title: "Title of c".into(),
            status,
            points: u32::from(status == Status::Pass),
            max_points: u32::from(status != Status::Skip),
            expected: None,
            found: None,
            message: format!("c: {}", status.word()),
            place: None,
            hint: None,
            hidden: false,
            file_problem: None,
            charged_by: None,
            saved_as: None,
        }
    }
}
