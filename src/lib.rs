//! labcheck grades a lab submission against a declarative check spec.
//!
//! The modules follow the data flow:
//! `spec` (load and compile a check spec, its jq in `jq`) ->
//! `source` (where each jq variable's value comes from: params, submission and lab
//! files, Envoy's validation, a live Envoy; built on `input`, which reads files without
//! trusting them, and `envoy`, which screens, validates, launches and probes) ->
//! `derive` (values the grader derives itself) -> `check` (a verdict per check, one
//! module per kind in `check::kinds`; values compared by `compare`) -> `result` ->
//! `report` (text, JSON, ...). `slot` is what sources, derivations and checks share:
//! a value, or why there is none and whose fault that is. See ARCHITECTURE.md.
//! `grade` runs that flow for one submission; `app` and `cli` are the command line.

pub mod app;
pub mod batch;
pub mod check;
pub mod class;
pub mod cli;
pub mod compare;
pub mod derive;
pub mod display;
pub mod envoy;
pub mod exit;
pub mod grade;
pub mod input;
pub mod jq;
pub mod lang;
pub mod out;
pub mod parallel;
pub mod report;
pub mod result;
pub mod slot;
pub mod source;
pub mod spec;
pub mod timings;
