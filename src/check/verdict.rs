//! A check's verdict before it is dressed for a report.

use crate::lang::{checks::Checks, t};
use crate::result::Status;
use crate::slot::{Blame, Unavailable};
use serde_json::Value;

#[derive(Debug)]
pub struct Verdict {
    pub status: Status,
    pub expected: Option<Value>,
    pub found: Option<Value>,
    pub message: String,
    /// 1-based line in the file, when the check looked at one line.
    pub line: Option<usize>,
    /// Which part of the file: a key or a jq path.
    pub detail: Option<String>,
    /// The file holds a value there, just not the one wanted: the check's own `why`
    /// may say so better than the kind's sentence.
    pub wrong_value: bool,
    /// A sentence on the slip that makes the value wrong, said whatever the `why`.
    pub slip: Option<String>,
    /// The submission files whose state left a value it needs unavailable, and why.
    pub because_of: Option<(Vec<String>, String)>,
}

impl Verdict {
    pub fn pass() -> Verdict {
        Verdict { status: Status::Pass, expected: None, found: None, message: String::new(), line: None, detail: None, wrong_value: false, slip: None, because_of: None }
    }

    pub fn fail(message: impl Into<String>) -> Verdict {
        Verdict { status: Status::Fail, message: message.into(), ..Verdict::pass() }
    }

    /// The grader's own failure to check (not the student's): "could not check: ...".
    pub fn could_not(message: impl std::fmt::Display) -> Verdict {
        Verdict { status: Status::Error, ..Verdict::fail(t!(Checks::CouldNotCheck, message = message)) }
    }

    /// Pass or fail on `ok`, with the message used on failure.
    pub fn judge(ok: bool, message: impl Into<String>) -> Verdict {
        if ok { Verdict::pass() } else { Verdict::fail(message) }
    }

    /// The check could not be decided because a value it needs is unavailable.
    pub fn unavailable(u: &Unavailable) -> Verdict {
        let (status, lead) = match u.blame {
            Blame::Student => (Status::Fail, Checks::CannotCheck),
            Blame::Elsewhere => (Status::Skip, Checks::NotGraded),
            Blame::Grader => (Status::Error, Checks::CouldNotCheck),
            Blame::Skip => (Status::Skip, Checks::Skipped),
        };
        let because_of = (matches!(u.blame, Blame::Student | Blame::Elsewhere) && !u.files.is_empty()).then(|| (u.files.clone(), u.message.clone()));
        Verdict { status, message: t!(lead, message = crate::lang::clause(&u.message)), because_of, ..Verdict::pass() }
    }

    pub fn expected(mut self, v: Value) -> Verdict {
        self.expected = Some(v);
        self
    }

    pub fn found(mut self, v: Value) -> Verdict {
        self.found = Some(v);
        self
    }

    /// Marks a failure as a wrong value (see `Check::why`).
    pub fn wrong_value(mut self) -> Verdict {
        self.wrong_value = true;
        self
    }

    pub fn line(mut self, line: usize) -> Verdict {
        self.line = Some(line);
        self
    }

    pub fn detail(mut self, d: impl Into<String>) -> Verdict {
        self.detail = Some(d.into());
        self
    }

    /// Adds a sentence to the message, after a `;`.
    pub fn add(&mut self, sentence: &str) {
        self.message = crate::lang::clauses(&self.message, sentence);
    }
}
