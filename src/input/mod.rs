//! Reading what the grader is given: submission files (untrusted) and lab files.
//!
//! Nothing here writes: the grader never changes a submission.

pub mod file;
pub mod json;
pub mod kv;
pub mod tree;
pub mod yaml;

pub use file::{FileProblem, MAX_SUBMISSION_BYTES};
