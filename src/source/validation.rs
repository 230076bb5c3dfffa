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
pub fn all(sources: &Sources, artifacts: &HashMap<String, Artifact>) -> HashMap<String, Slot> {
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
    let mut slots = all_of(sources, artifacts, &files);
    slots.extend(unread.into_iter().map(|f| (f.to_string(), Err(Unavailable::skip(t!(Run::NotThisStep))))));
    slots
}

fn all_of(sources: &Sources, artifacts: &HashMap<String, Artifact>, files: &[&str]) -> HashMap<String, Slot> {
    if sources.opts.no_envoy || sources.envoy.is_err() || files.len() < 2 {
        // Nothing to wait for in parallel: no Envoy will run, or only once.
        return files.iter().map(|f| (f.to_string(), one(sources, &artifacts[*f]))).collect();
    }
    std::thread::scope(|scope| {
        let handles: Vec<_> = files
            .iter()
            .map(|f| {
                let artifact = &artifacts[*f];
                (f.to_string(), scope.spawn(move || one(sources, artifact)))
            })
            .collect();
        handles
            .into_iter()
            .map(|(f, h)| (f, h.join().unwrap_or_else(|_| Err(Unavailable::grader("the validation thread failed")))))
            .collect()
    })
}

fn one(sources: &Sources, artifact: &Artifact) -> Slot {
    let data = sources.envoy_input(artifact)?;
    let envoy = sources.envoy_path()?;
    match sources.cache.validate(envoy, &artifact.name, &data) {
        Ok(v) => Ok(v.to_value(&artifact.name)),
        Err(f) => Err(f.unavailable()),
    }
}
