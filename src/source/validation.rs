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
use std::collections::HashMap;

/// Every validation the spec's sources ask for, run at once (they are independent).
/// `meanwhile` is done while Envoy runs.
pub fn all(sources: &Sources, artifacts: &HashMap<String, Artifact>, meanwhile: impl FnOnce()) -> HashMap<String, Slot> {
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
    // Those the graded steps do not read are not run (--step).
    let (files, unread): (Vec<&str>, Vec<&str>) = files.into_iter().partition(|f| sources.needs.validate.contains(*f));
    let mut slots = all_of(sources, artifacts, &files, meanwhile);
    slots.extend(unread.into_iter().map(|f| (f.to_string(), Err(Unavailable::skip(t!(Run::NotThisStep))))));
    slots
}

/// Each file screened, then all of them handed to Envoy at once ([`crate::envoy::validate::Cache`]).
fn all_of(sources: &Sources, artifacts: &HashMap<String, Artifact>, files: &[&str], meanwhile: impl FnOnce()) -> HashMap<String, Slot> {
    let mut slots = HashMap::new();
    let mut ready = Vec::new();
    for f in files {
        match sources.envoy_input(&artifacts[*f]).and_then(|data| Ok((sources.envoy_path()?, data))) {
            Ok((envoy, data)) => ready.push((*f, envoy, data)),
            Err(u) => {
                slots.insert(f.to_string(), Err(u));
            }
        }
    }
    charge_shared_refusals(sources, artifacts, &mut slots);
    let Some((_, envoy, _)) = ready.first() else { return slots };
    let inputs: Vec<(&str, &serde_json::Value)> = ready.iter().map(|(f, _, data)| (*f, data)).collect();
    for ((f, _, _), verdict) in ready.iter().zip(sources.cache.validate_all(envoy, &inputs, meanwhile)) {
        slots.insert(f.to_string(), verdict.map(|v| v.to_value(f)).map_err(|e| e.unavailable()));
    }
    slots
}

/// A file the screen refuses only for what a file of an earlier step is refused for
/// too (boot-typo.yaml, a copy of a bootstrap.yaml with a listener) makes no second
/// mistake: its refusal is charged to that file (see grade/charge.rs).
fn charge_shared_refusals(sources: &Sources, artifacts: &HashMap<String, Artifact>, slots: &mut HashMap<String, Slot>) {
    let first_step = |f: &str| sources.spec.checks.iter().find(|c| c.file == f).map(|c| c.step);
    let refused: Vec<(String, Option<u32>, Vec<String>)> = slots
        .iter()
        .filter(|(_, s)| matches!(s, Err(u) if u.blame == crate::slot::Blame::Student))
        .filter_map(|(f, _)| Some((f.clone(), first_step(f), super::screened::refused(artifacts[f].data().ok()?))))
        .filter(|(_, _, r)| !r.is_empty())
        .collect();
    for (file, step, fields) in &refused {
        let earlier = refused.iter().find(|(_, s, r)| s < step && fields.iter().all(|f| r.contains(f)));
        if let (Some((by, ..)), Some(Err(u))) = (earlier, slots.get_mut(file)) {
            *u = std::mem::replace(u, Unavailable::student("")).of_file(by);
        }
    }
}
