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
use std::sync::{Arc, Mutex, OnceLock};
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

/// Run a validation of `data` (already screened) as the file `name`. An Envoy that ran
/// out of its memory or CPU time ([`super::limits`]), or crashed, gives no verdict:
/// that is the file's doing, the student's; a timeout or a failure to start is the
/// grader's ([`Failure::students`]).
pub fn run(envoy: &Path, name: &str, data: &Value) -> Result<Validation, Failure> {
    let dir = PrivateDir::new().map_err(Failure::setup(Setup::PrivateDir))?;
    let config = dir.path().join(name);
    std::fs::write(&config, serde_json::to_vec(&super::offline::without_dns(&super::logs::to_dev_null(data))).unwrap_or_default())
        .map_err(Failure::setup(Setup::Copy(name.to_string())))?;
    let log_path = dir.path().join("envoy.log");
    let log = std::fs::File::create(&log_path).map_err(Failure::setup(Setup::LogFile))?;
    let log2 = log.try_clone().map_err(Failure::setup(Setup::LogFile))?;

    let mut cmd = Command::new(envoy);
    cmd.current_dir(dir.path())
        .args(["--mode", "validate", "-c", name, "--disable-hot-restart", "--log-level", "info"])
        .stdin(Stdio::null())
        .stdout(Stdio::from(log))
        .stderr(Stdio::from(log2));
    let start = Instant::now();
    let mut child = process::spawn(cmd).map_err(|e| Failure::Start { envoy: crate::display::path(envoy), error: e.to_string() })?;
    let status = child.wait_for(TIMEOUT);
    let elapsed = start.elapsed();
    child.stop();
    let Some(status) = status else {
        return Err(Failure::NoVerdictInTime { seconds: TIMEOUT.as_secs() });
    };
    let output = std::fs::read(&log_path).map(|b| String::from_utf8_lossy(&b).into_owned()).unwrap_or_default();
    if let Some(end) = limits::ended(status, child.cpu(), &output, name, Limits::get()) {
        return Err(Failure::Ended { end, validating: true });
    }
    let rc = status.code().unwrap_or_else(|| 128 + std::os::unix::process::ExitStatusExt::signal(&status).unwrap_or(0));
    Ok(Validation { rc, output, elapsed })
}

/// A file name and the content validated under it.
type CacheKey = (String, Vec<u8>);
/// One validation, run by whoever asks first; the others wait for it.
type Slot = Arc<OnceLock<Result<Validation, Failure>>>;

/// Validations shared by a whole run (which runs one Envoy), keyed by file name and
/// content: a class of identical bootstraps is validated once.
#[derive(Default, Clone)]
pub struct Cache {
    map: Arc<Mutex<HashMap<CacheKey, Slot>>>,
}

impl Cache {
    pub fn validate(&self, envoy: &Path, name: &str, data: &Value) -> Result<Validation, Failure> {
        let key = (name.to_string(), serde_json::to_vec(data).unwrap_or_default());
        let cell = {
            let mut map = self.map.lock().unwrap_or_else(|e| e.into_inner());
            map.entry(key).or_default().clone()
        };
        // Others asking for the same content wait here for the one run.
        cell.get_or_init(|| run(envoy, name, data)).clone()
    }
}
