//! The grader's own `envoy --mode validate` of a submission file.
//!
//! Each file an `envoy_validate` source of the spec names is validated once, all of
//! them at once, through the run's cache: a file whose name and content were already
//! validated in this run (by another submission) is not handed to Envoy again.

use super::artifacts::Artifact;
use super::Sources;
use crate::slot::{Slot, Unavailable};
use crate::lang::{run::Run, t};
use crate::spec::SourceKind;
use serde_json::Value;
use std::collections::HashMap;

/// The files the spec's sources validate and the graded steps read, and those they
/// do not read (`--step`), which are not run.
fn files<'a>(sources: &'a Sources) -> (Vec<&'a str>, Vec<&'a str>) {
    let mut files: Vec<&str> = sources
        .spec
        .sources
        .iter()
        .filter_map(|s| match &s.kind {
            SourceKind::EnvoyValidate { file } => Some(file.as_str()),
            _ => None,
        })
        .collect();
    files.sort();
    files.dedup();
    files.into_iter().partition(|f| sources.needs.validate.contains(*f))
}

/// Validations screened and ready to hand to Envoy, and the verdicts already known
/// (a file refused, a step not graded). Owns all it needs of the submission's files,
/// so that the others can be read while Envoy runs.
pub struct Prepared<'a> {
    sources: &'a Sources<'a>,
    slots: HashMap<String, Slot>,
    ready: Vec<(String, Value)>,
}

/// Every validation the spec's sources ask for, screened ([`Prepared::run`] runs them).
/// `artifacts` holds at least the files validated.
pub fn prepare<'a>(sources: &'a Sources<'a>, artifacts: &HashMap<String, Artifact>) -> Prepared<'a> {
    let (files, unread) = files(sources);
    let mut slots = HashMap::new();
    let mut ready = Vec::new();
    for f in files {
        match sources.envoy_input(&artifacts[f]).and_then(|data| sources.envoy_path().map(|_| data)) {
            Ok(data) => ready.push((f.to_string(), data)),
            Err(u) => {
                slots.insert(f.to_string(), Err(u));
            }
        }
    }
    charge_shared_refusals(sources, artifacts, &mut slots);
    slots.extend(unread.into_iter().map(|f| (f.to_string(), Err(Unavailable::skip(t!(Run::NotThisStep))))));
    Prepared { sources, slots, ready }
}

impl Prepared<'_> {
    /// All handed to Envoy at once ([`crate::envoy::validate::Cache`]); `meanwhile` is
    /// done once while Envoy runs (at once when nothing is run).
    pub fn run(self, meanwhile: impl FnOnce()) -> HashMap<String, Slot> {
        let Prepared { sources, mut slots, ready } = self;
        let envoy = match sources.envoy_path() {
            Ok(envoy) if !ready.is_empty() => envoy,
            _ => {
                meanwhile();
                return slots;
            }
        };
        let inputs: Vec<(&str, &Value)> = ready.iter().map(|(f, data)| (f.as_str(), data)).collect();
        for ((f, _), verdict) in ready.iter().zip(sources.cache.validate_all(envoy, &inputs, meanwhile)) {
            slots.insert(f.clone(), verdict.map(|v| v.to_value(f)).map_err(|e| e.unavailable()));
        }
        slots
    }
}

/// A file the screen refuses only for what a file of an earlier step is refused for
/// too (boot-typo.yaml, a copy of a bootstrap.yaml with a listener) makes no second
/// mistake: its refusal is charged to that file (see grade/charge.rs).
fn charge_shared_refusals(sources: &Sources, artifacts: &HashMap<String, Artifact>, slots: &mut HashMap<String, Slot>) {
    let refused: Vec<(String, Option<u32>, Vec<String>)> = slots
        .iter()
        .filter(|(_, s)| matches!(s, Err(u) if u.blame == crate::slot::Blame::Student))
        .filter_map(|(f, _)| Some((f.clone(), sources.spec.first_step(f), super::screened::refused(artifacts[f].data().ok()?))))
        .filter(|(_, _, r)| !r.is_empty())
        .collect();
    for (file, step, fields) in &refused {
        let earlier = refused.iter().find(|(_, s, r)| s < step && fields.iter().all(|f| r.contains(f)));
        if let (Some((by, ..)), Some(Err(u))) = (earlier, slots.get_mut(file)) {
            *u = std::mem::replace(u, Unavailable::student("")).of_file(by);
        }
    }
}
