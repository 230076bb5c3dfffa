//! Why an Envoy the grader ran (to validate or to launch) gave no answer, and whose
//! that is: the file's (a limit it ran into, a crash, an exit) or the grader's (its
//! set-up, a timeout). Callers decide on the kind; `Display` says it in the run's
//! language.

use super::limits::Ended;
use crate::lang::{envoy_run::EnvoyRun, t};
use crate::slot::Unavailable;
use std::fmt;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Failure {
    /// The grader could not prepare a run; `error` is the system's own words.
    Setup { step: Setup, error: String },
    /// The Envoy binary could not be started.
    Start { envoy: String, error: String },
    /// Ended by a signal (a limit, a crash, a kill): `validating`, with no verdict.
    Ended { end: Ended, validating: bool },
    /// A launched Envoy exited with a code, with what it logged last.
    Exited { code: i32, said: String, admin_open: bool },
    /// A launched Envoy did not open its admin port in time.
    NoAdminPort { seconds: u64 },
    /// A validation did not finish in time.
    NoVerdictInTime { seconds: u64 },
}

/// What the grader prepares before Envoy starts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Setup {
    PrivateDir,
    ClosedPort,
    /// The grader's copy of the named file.
    Copy(String),
    LogFile,
}

impl Failure {
    pub fn setup(step: Setup) -> impl FnOnce(std::io::Error) -> Failure {
        move |e| Failure::Setup { step, error: e.to_string() }
    }

    /// The file made it so: the student's to fix (else the grader's).
    pub fn students(&self) -> bool {
        match self {
            Failure::Ended { end, .. } => end.students(),
            Failure::Exited { .. } => true,
            Failure::Setup { .. } | Failure::Start { .. } | Failure::NoAdminPort { .. } | Failure::NoVerdictInTime { .. } => false,
        }
    }

    /// As a value that cannot be had, blamed on whoever [`Failure::students`] says.
    pub fn unavailable(&self) -> Unavailable {
        if self.students() { Unavailable::student(self.to_string()) } else { Unavailable::grader(self.to_string()) }
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(&match self {
            Failure::Setup { step: Setup::PrivateDir, error } => t!(EnvoyRun::PrivateDir, error = error),
            Failure::Setup { step: Setup::ClosedPort, error } => t!(EnvoyRun::ClosedPort, error = error),
            Failure::Setup { step: Setup::Copy(file), error } => t!(EnvoyRun::WriteCopy, file = file, error = error),
            Failure::Setup { step: Setup::LogFile, error } => t!(EnvoyRun::LogFile, error = error),
            Failure::Start { envoy, error } => t!(EnvoyRun::CannotStart, envoy = envoy, error = error),
            Failure::Ended { end, validating: true } => t!(EnvoyRun::NoVerdict, end = end),
            Failure::Ended { end, validating: false } => end.to_string(),
            Failure::Exited { code, said, admin_open: false } => t!(EnvoyRun::ExitedBefore, code = code, said = said),
            Failure::Exited { code, said, admin_open: true } => t!(EnvoyRun::ExitedAfter, code = code, said = said),
            Failure::NoAdminPort { seconds } => t!(EnvoyRun::NoAdminPort, n = seconds),
            Failure::NoVerdictInTime { seconds } => t!(EnvoyRun::ValidateTimeout, n = seconds),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whose_failure_it_is_follows_its_kind() {
        let memory = Ended::OutOfMemory { file: "b.yaml".into(), mib: 20 };
        assert!(Failure::Ended { end: memory.clone(), validating: true }.students());
        assert!(!Failure::Ended { end: Ended::Killed, validating: false }.students());
        assert!(Failure::Exited { code: 1, said: "x".into(), admin_open: true }.students());
        assert!(!Failure::NoAdminPort { seconds: 15 }.students());
        let said = Failure::Ended { end: memory, validating: true }.to_string();
        assert!(said.starts_with("envoy --mode validate gave no verdict: Envoy needed more than 20 MiB of memory for b.yaml"), "{said}");
    }
}
