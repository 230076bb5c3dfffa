//! What to do when the student's own Envoy could not be used, in the spec's words
//! (`envoy.live`): start it as the lab says, or stop the one that runs another file.

use crate::source::artifacts::Artifact;
use crate::spec::envoy::{fill, LiveTexts};
use std::path::Path;

/// The lab's command that starts Envoy with the submission's bootstrap, by its full path.
fn command(texts: &LiveTexts, dir: &Path, file: &str) -> String {
    let sub = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
    fill(&texts.command, &[("bootstrap", &sub.join(file).display().to_string())])
}

/// A probe that failed (`problem`), said so the reader knows what to do next.
pub fn start(texts: &LiveTexts, problem: &str, dir: &Path, bootstrap: &Artifact) -> String {
    let then = crate::lang::sentences(&fill(&texts.start, &[("command", &command(texts, dir, &bootstrap.name))]), &texts.launch_instead);
    crate::lang::sentences(problem, &then)
}

/// The Envoy at `admin` runs another bootstrap than `file` (in `dir`): its identity is
/// `id`, or it differs in `differ`.
pub fn not_same(texts: &LiveTexts, admin: &str, dir: &Path, file: &str, id: &str, differ: Option<&[String]>) -> String {
    let said = match differ {
        None => fill(&texts.not_running, &[("admin", admin), ("file", file), ("id", id)]),
        Some(names) => fill(&texts.older, &[("admin", admin), ("file", file), ("differ", &names.join(", "))]),
    };
    crate::lang::sentences(&said, &fill(&texts.restart, &[("command", &command(texts, dir, file))]))
}
