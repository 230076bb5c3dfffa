//! A value the grader could not have, and who is to blame: what sources give and
//! derivations pass on, and what decides the status of every check that needs it.

use serde_json::Value;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Blame {
    /// The submission is wrong or incomplete.
    Student,
    /// The grader could not find out (lab file missing, Envoy not found, ...).
    Grader,
    /// Not graded in this run (an optional lab file absent, `--no-envoy`).
    Skip,
}

#[derive(Debug, Clone)]
pub struct Unavailable {
    pub blame: Blame,
    pub message: String,
}

impl Unavailable {
    pub fn new(blame: Blame, message: impl Into<String>) -> Self {
        Unavailable { blame, message: message.into() }
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
