//! The live source: what a running Envoy shows, from a probe of the student's own
//! Envoy, an Envoy the grader launches, or a recording.

mod advice;
mod same_bootstrap;

use super::artifacts::Artifact;
use super::Sources;
use crate::slot::{Slot, Unavailable};
use crate::envoy::{admin, launch, recording::Recording};
use crate::spec::SourceKind;
use serde_json::Value;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// Where live values come from.
#[derive(Debug, Clone)]
pub enum Live {
    /// Probe the Envoy already running at the spec's admin URL (the student's own).
    Probe,
    /// Start Envoy from the submission's bootstrap, probe it, stop it.
    Launch,
    /// Read a recording made with `--save-probe`.
    Replay(PathBuf),
    /// Do not look at a live Envoy.
    Off,
}

pub struct Acquired {
    pub slot: Slot,
    /// Said in reports: where the live values came from.
    pub described: String,
}

/// The live view the spec's `envoy_admin` source asks for (if it asks).
pub fn acquire(sources: &Sources, artifacts: &HashMap<String, Artifact>, dir: &Path) -> Option<Acquired> {
    let (bootstrap, admin_param) = sources.spec.sources.iter().find_map(|s| match &s.kind {
        SourceKind::EnvoyAdmin { bootstrap, admin } => Some((bootstrap.as_str(), *admin)),
        _ => None,
    })?;
    let artifact = &artifacts[bootstrap];
    // A recording needs no Envoy: --no-envoy --replay FILE re-grades without one.
    if sources.opts.no_envoy && !matches!(sources.opts.live, Live::Replay(_)) {
        return Some(skipped("Envoy is not run nor probed (--no-envoy)"));
    }
    let (recording, described) = match &sources.opts.live {
        Live::Off => return Some(skipped("live checks are off (--no-live)")),
        Live::Replay(file) => match Recording::load(file) {
            Ok(r) => {
                let d = format!("the recording {} ({} of {})", crate::display::path(file), r.mode, r.admin);
                (r, d)
            }
            Err(e) => return Some(failed(Unavailable::grader(e), "a recording that could not be read".into())),
        },
        Live::Probe => {
            let Some(url) = sources.params.values[admin_param].value.clone() else {
                return Some(failed(Unavailable::grader("no admin URL to probe"), "nothing".into()));
            };
            let r = admin::probe(&url, "probe");
            (r, format!("a probe of the Envoy at {url}"))
        }
        Live::Launch => match launched(sources, artifact) {
            Ok(r) => {
                let d = format!("an Envoy the grader launched from {bootstrap} (admin {}), stopped after the probe", r.admin);
                (r, d)
            }
            Err(u) => return Some(failed(u, format!("an Envoy launched from {bootstrap}"))),
        },
    };
    if let Some(path) = &sources.opts.save_probe
        && let Err(e) = recording.save(path) {
            eprintln!("labcheck: warning: {}", crate::display::safe_lines(&e));
        }
    let slot = admin::view(&recording)
        .map_err(|e| Unavailable::grader(advice::advice(sources.spec, &recording, dir, artifact, e)))
        .and_then(|view| same_bootstrap(&view, artifact, &recording.admin).map(|_| view));
    Some(Acquired { slot, described })
}

fn skipped(why: &str) -> Acquired {
    Acquired { slot: Err(Unavailable::skip(why)), described: "none (live checks skipped)".into() }
}

fn failed(u: Unavailable, described: String) -> Acquired {
    Acquired { slot: Err(u), described }
}

fn launched(sources: &Sources, artifact: &Artifact) -> Result<Recording, Unavailable> {
    let data = sources.envoy_input(artifact)?;
    let envoy = sources.envoy_path()?;
    let mut running = launch::launch(envoy, &artifact.name, &data).map_err(|e| {
        // Envoy refusing the student's bootstrap is the student's finding, not ours.
        if e.starts_with("Envoy exited") { Unavailable::student(e) } else { Unavailable::grader(e) }
    })?;
    let rec = admin::probe(&running.admin, "launch");
    // A probe that failed because Envoy rejected the bootstrap after opening its admin
    // port is the student's finding, said in Envoy's words.
    let failed = rec.exchanges.iter().any(|e| e.error.is_some());
    let rejected = if failed { running.exited_within(std::time::Duration::from_secs(1)) } else { None };
    running.stop();
    match rejected {
        Some(why) => Err(Unavailable::student(why)),
        None => Ok(rec),
    }
}

/// The live Envoy must be running this submission's bootstrap as the file is now: an
/// Envoy started from an older version would answer for that one (an earlier
/// bootstrap without `initial_fetch_timeout` turns Ready, which this lab's never does).
fn same_bootstrap(view: &Value, artifact: &Artifact, admin: &str) -> Result<(), Unavailable> {
    let data = artifact
        .data()
        .map_err(|e| Unavailable::student(format!("{e}, so the live Envoy cannot be matched to it")))?;
    let differ = same_bootstrap::differences(&view["bootstrap"], data);
    if differ.is_empty() {
        return Ok(());
    }
    let id = crate::display::value_text(&view["node"]["id"]);
    // Another node id is another bootstrap; anything else, an older version of this one.
    Err(Unavailable::grader(if differ.contains(&"node") {
        format!("the Envoy at {admin} is not running your {} (its node.id is {id}); stop it and start it again with the file", artifact.name)
    } else {
        format!(
            "the Envoy at {admin} runs your node but not your {} as it is now (they differ in {}); stop it and start it again with the file",
            artifact.name,
            differ.join(", ")
        )
    }))
}
