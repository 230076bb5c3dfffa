//! `envoy --mode validate`, run by the grader on its own copy of a bootstrap.
//!
//! Envoy is handed the screened data re-serialized as JSON (valid YAML), in a private
//! directory under the artifact's own file name, so its messages name the file as the
//! student's run did, and a YAML construct that our parser and Envoy's might read
//! differently cannot slip past the screen. In that copy the admin's access logs go to
//! /dev/null (`logs.rs`) and DNS clusters name 127.0.0.1 (`offline.rs`).

use super::failure::{Failure, Setup};
use super::limits::{self, Limits};
use super::process::{self, PrivateDir};
use super::said::Said;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A validation gets this long before the grader stops it.
pub const TIMEOUT: Duration = Duration::from_secs(30);

#[derive(Debug, Clone)]
pub struct Validation {
    pub rc: i32,
    /// stdout and stderr, interleaved as `2>&1` would.
    pub output: String,
    /// Wall time Envoy took, for the benchmark's "Envoy's own share".
    pub elapsed: Duration,
}

impl Validation {
    /// The spec's view: `{rc, output, message, pattern}`. `message` is Envoy's verdict
    /// without its log prefix and its echo of the grader's copy; `pattern` is a regex
    /// for it that accepts the student's own run (the file under any path, whatever
    /// Envoy echoed there; see [`Said`]).
    pub fn to_value(&self, file: &str) -> Value {
        let said = Said::from_log(&self.output, self.rc == 0);
        json!({"rc": self.rc, "output": self.output, "message": said.text(), "pattern": said.pattern(file)})
    }
}

/// A validation under way: Envoy running on the grader's copy of one file.
struct Started {
    name: String,
    /// Holds the copy and Envoy's log until the verdict is read.
    dir: PrivateDir,
    child: process::Guarded,
    start: Instant,
}

/// Start a validation of `data` (already screened) as the file `name`; a failure to
/// set it up or to start Envoy is the grader's ([`Failure::students`]).
fn start(envoy: &Path, name: &str, data: &Value) -> Result<Started, Failure> {
    let dir = PrivateDir::new().map_err(Failure::setup(Setup::PrivateDir))?;
    let config = dir.path().join(name);
    std::fs::write(&config, serde_json::to_vec(&super::offline::without_dns(&super::logs::to_dev_null(data))).unwrap_or_default())
        .map_err(Failure::setup(Setup::Copy(name.to_string())))?;
    let log = std::fs::File::create(dir.path().join("envoy.log")).map_err(Failure::setup(Setup::LogFile))?;
    let log2 = log.try_clone().map_err(Failure::setup(Setup::LogFile))?;

    let mut cmd = Command::new(envoy);
    cmd.current_dir(dir.path())
        .args(["--mode", "validate", "-c", name, "--disable-hot-restart", "--log-level", "info"])
        .stdin(Stdio::null())
        .stdout(Stdio::from(log))
        .stderr(Stdio::from(log2));
    let start = Instant::now();
    let child = process::spawn(cmd).map_err(|e| Failure::Start { envoy: crate::display::path(envoy), error: e.to_string() })?;
    Ok(Started { name: name.to_string(), dir, child, start })
}

impl Started {
    /// Envoy's verdict. One that ran out of its memory or CPU time ([`super::limits`]),
    /// or crashed, gives none: that is the file's doing, the student's; a timeout is
    /// the grader's.
    fn finish(mut self) -> Result<Validation, Failure> {
        let status = self.child.wait_for(TIMEOUT.saturating_sub(self.start.elapsed()));
        let elapsed = self.start.elapsed();
        self.child.stop();
        let Some(status) = status else {
            return Err(Failure::NoVerdictInTime { seconds: TIMEOUT.as_secs() });
        };
        let output = std::fs::read(self.dir.path().join("envoy.log")).map(|b| String::from_utf8_lossy(&b).into_owned()).unwrap_or_default();
        if let Some(end) = limits::ended(status, self.child.cpu(), &output, &self.name, Limits::get()) {
            return Err(Failure::Ended { end, validating: true });
        }
        let rc = status.code().unwrap_or_else(|| 128 + std::os::unix::process::ExitStatusExt::signal(&status).unwrap_or(0));
        Ok(Validation { rc, output, elapsed })
    }
}

/// A file name and the content validated under it.
type CacheKey = (String, Vec<u8>);
/// One validation: empty until whoever claimed it first (holding its lock) has run it.
type Slot = Arc<Mutex<Option<Result<Validation, Failure>>>>;

/// Validations shared by a whole run, keyed by file name and content: a class of
/// identical bootstraps is validated once.
#[derive(Default, Clone)]
pub struct Cache {
    map: Arc<Mutex<HashMap<CacheKey, Slot>>>,
}

impl Cache {
    /// Each `(name, data)` validated, in their order. Those not yet validated in this
    /// run are started together and only then waited for: two Envoys started a few
    /// milliseconds apart take longer than two started at once (`make bench`, (a)).
    /// `meanwhile` is done while they run.
    pub fn validate_all(&self, envoy: &Path, files: &[(&str, &Value)], meanwhile: impl FnOnce()) -> Vec<Result<Validation, Failure>> {
        let mut keyed: Vec<(CacheKey, usize)> =
            files.iter().enumerate().map(|(i, (name, data))| ((name.to_string(), serde_json::to_vec(data).unwrap_or_default()), i)).collect();
        // Claimed in the order of their keys, as every submission claims them, so two
        // submissions sharing files never wait for each other's second claim.
        keyed.sort();
        let slots: Vec<(Slot, usize)> = {
            let mut map = self.map.lock().unwrap_or_else(|e| e.into_inner());
            keyed.into_iter().map(|(key, i)| (map.entry(key).or_default().clone(), i)).collect()
        };
        // Another submission validating the same content holds its slot: wait for it.
        let mut claimed: Vec<_> = slots.iter().map(|(slot, i)| (slot.lock().unwrap_or_else(|e| e.into_inner()), *i)).collect();
        let started: Vec<_> = claimed.iter().map(|(done, i)| done.is_none().then(|| start(envoy, files[*i].0, files[*i].1))).collect();
        meanwhile();
        for ((done, _), started) in claimed.iter_mut().zip(started) {
            if let Some(s) = started {
                **done = Some(s.and_then(Started::finish));
            }
        }
        claimed.sort_by_key(|(_, i)| *i);
        claimed.iter().map(|(done, _)| (**done).clone().expect("every slot claimed is filled above")).collect()
    }
}
