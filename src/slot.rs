//! A value the grader could not have, and who is to blame: what sources give and
//! derivations pass on, and what decides the status of every check that needs it.

use serde_json::Value;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Blame {
    /// The submission is wrong or incomplete.
    Student,
    /// The submission is why, and another check (the message names it) charges it: this
    /// one is not graded (`skip`), so that one mistake costs one step. Unlike `Skip`,
    /// it is one submission's, so `max_score` may differ within a run.
    Elsewhere,
    /// The grader could not find out (lab file missing, Envoy not found, ...).
    Grader,
    /// Not graded in this run (an optional lab file absent, `--no-envoy`).
    Skip,
}

#[derive(Debug, Clone)]
pub struct Unavailable {
    pub blame: Blame,
    pub message: String,
    /// The submission's files whose state is why (a file missing, or lacking what a
    /// value was to come from): a check of another file that needs the value is not
    /// graded when a check of one of these fails for it (`grade::charged`).
    pub files: Vec<String>,
}

impl Unavailable {
    pub fn new(blame: Blame, message: impl Into<String>) -> Self {
        Unavailable { blame, message: message.into(), files: Vec::new() }
    }
    /// The same, said to be because of the submission's `file`.
    pub fn of_file(mut self, file: &str) -> Self {
        if !self.files.iter().any(|f| f == file) {
            self.files.push(file.to_string());
        }
        self
    }
    pub fn student(message: impl Into<String>) -> Self {
        Unavailable::new(Blame::Student, message)
    }
    pub fn grader(message: impl Into<String>) -> Self {
        Unavailable::new(Blame::Grader, message)
    }
    pub fn skip(message: impl Into<String>) -> Self {
        Unavailable::new(Blame::Skip, message)
    }
}

/// A value, or why there is none.
pub type Slot = Result<Value, Unavailable>;
