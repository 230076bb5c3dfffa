//! `envoy --mode validate`, run by the grader on its own copy of a bootstrap.
//!
//! Envoy is handed the screened data re-serialized as JSON (valid YAML), in a private
//! directory under the artifact's own file name, so its messages name the file as the
//! student's run did, and a YAML construct that our parser and Envoy's might read
//! differently cannot slip past the screen. In that copy the admin's access logs go to
//! /dev/null (`logs.rs`) and DNS clusters name 127.0.0.1 (`offline.rs`).

use super::limits::{self, Limits};
use super::process::{self, PrivateDir};
use crate::slot::Unavailable;
use super::said::Said;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
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
/// grader's.
pub fn run(envoy: &Path, name: &str, data: &Value) -> Result<Validation, Unavailable> {
    let dir = PrivateDir::new().map_err(|e| Unavailable::grader(format!("cannot make a private directory: {e}")))?;
    let config = dir.path().join(name);
    std::fs::write(&config, serde_json::to_vec(&super::offline::without_dns(&super::logs::to_dev_null(data))).unwrap_or_default())
        .map_err(|e| Unavailable::grader(format!("cannot write the grader's copy of {name}: {e}")))?;
    let log_path = dir.path().join("envoy.log");
    let log = std::fs::File::create(&log_path).map_err(|e| Unavailable::grader(format!("cannot create a log file: {e}")))?;
    let log2 = log.try_clone().map_err(|e| Unavailable::grader(e.to_string()))?;

    let mut cmd = Command::new(envoy);
    cmd.current_dir(dir.path())
        .args(["--mode", "validate", "-c", name, "--disable-hot-restart", "--log-level", "info"])
        .stdin(Stdio::null())
        .stdout(Stdio::from(log))
        .stderr(Stdio::from(log2));
    let start = Instant::now();
    let mut child = process::spawn(cmd)
        .map_err(|e| Unavailable::grader(format!("cannot start Envoy ({}): {e}", crate::display::path(envoy))))?;
    let status = child.wait_for(TIMEOUT);
    let elapsed = start.elapsed();
    child.stop();
    let Some(status) = status else {
        return Err(Unavailable::grader(format!("envoy --mode validate did not finish within {}s; the grader stopped it", TIMEOUT.as_secs())));
    };
    let output = std::fs::read(&log_path).map(|b| String::from_utf8_lossy(&b).into_owned()).unwrap_or_default();
    if let Some(end) = limits::ended(status, child.cpu(), &output, name, Limits::get()) {
        let said = format!("envoy --mode validate gave no verdict: Envoy {}", end.what);
        return Err(if end.students { Unavailable::student(said) } else { Unavailable::grader(said) });
    }
    let rc = status.code().unwrap_or_else(|| 128 + std::os::unix::process::ExitStatusExt::signal(&status).unwrap_or(0));
    Ok(Validation { rc, output, elapsed })
}

/// A file name and the content validated under it.
type CacheKey = (String, Vec<u8>);
/// One validation, run by whoever asks first; the others wait for it.
type Slot = Arc<OnceLock<Result<Validation, Unavailable>>>;

/// Validations shared by a whole run, keyed by file name and content: a class of
/// identical bootstraps is validated once.
#[derive(Default, Clone)]
pub struct Cache {
    map: Arc<Mutex<HashMap<CacheKey, Slot>>>,
    envoy: Option<PathBuf>,
}

impl Cache {
    pub fn new(envoy: PathBuf) -> Cache {
        Cache { map: Arc::default(), envoy: Some(envoy) }
    }

    pub fn validate(&self, name: &str, data: &Value) -> Result<Validation, Unavailable> {
        let envoy = self.envoy.as_ref().ok_or_else(|| Unavailable::grader("no Envoy"))?;
        let key = (name.to_string(), serde_json::to_vec(data).unwrap_or_default());
        let cell = {
            let mut map = self.map.lock().unwrap_or_else(|e| e.into_inner());
            map.entry(key).or_default().clone()
        };
        // Others asking for the same content wait here for the one run.
        cell.get_or_init(|| run(envoy, name, data)).clone()
    }
}
