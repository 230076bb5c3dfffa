//! Reading what the grader is given: submission files (untrusted) and lab files.
//!
//! Nothing here writes: the grader never changes a submission.

pub mod envoy_scalars;
pub mod file;
pub mod json;
pub mod kv;
pub mod near_name;
pub mod proto_names;
pub mod tree;
pub mod yaml;

pub use file::{FileProblem, MAX_SUBMISSION_BYTES};

/// Lines of a text file without their line endings, so CRLF reads like LF. Here, not in
/// `kv.rs`: the checks that scan or count a text file's lines read them this way too.
pub fn lines(text: &str) -> impl Iterator<Item = &str> {
    text.split('\n').map(|l| l.strip_suffix('\r').unwrap_or(l))
}

/// How many letters of any script a text has (what a regex's `\p{Alphabetic}` matches).
pub fn letters(text: &str) -> usize {
    text.chars().filter(|c| c.is_alphabetic()).count()
}

/// A text's letters and digits, in lower case: what tells two lines apart as words
/// (`- ab` and `- A\u{200B}b.` say the same).
pub fn alnum(text: &str) -> String {
    text.chars().filter(|c| c.is_alphanumeric()).flat_map(char::to_lowercase).collect()
}
