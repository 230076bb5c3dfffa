//! Sources: where the value of each of the spec's jq variables comes from.
//!
//! Each `source` of a spec is read from one place: a file of the submission
//! (`artifacts.rs`). A value that cannot be had carries why, and who is to blame.

pub mod artifacts;
