//! Sources: where the value of each of the spec's jq variables comes from.
//!
//! The spec's params are variables too, given to the run (`params.rs`); they also name
//! the lab files and the admin URL that sources read. Each `source` of a spec is read
//! from one place: a file of the submission (`artifacts.rs`) or a lab file a param
//! names (`lab.rs`). A value that cannot be had carries why, and who is to blame.

pub mod artifacts;
pub mod lab;
pub mod params;
