//! `envoy --mode validate`, run by the grader on its own copy of a bootstrap.
//!
//! Envoy is handed the screened data re-serialized as JSON (valid YAML), in a private
//! directory under the artifact's own file name, so its messages name the file as the
//! student's run did, and a YAML construct that our parser and Envoy's might read
//! differently cannot slip past the screen.

use super::process::{self, PrivateDir};
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
    /// The spec's view: `{rc, output, message, pattern}`. `message` is Envoy's last
    /// word without its log prefix; `pattern` is a regex for that message that accepts
    /// the file named by any path (a student may have passed an absolute one).
    pub fn to_value(&self, file: &str) -> Value {
        let message = last_message(&self.output);
        let pattern = path_tolerant_pattern(&message, file);
        json!({"rc": self.rc, "output": self.output, "message": message, "pattern": pattern})
    }
}

/// The last non-empty line, without `[time][thread][level][logger] [source:line] `.
pub fn last_message(output: &str) -> String {
    let line = output.lines().rev().map(str::trim).find(|l| !l.is_empty()).unwrap_or("");
    let mut rest = line;
    // Log lines start with bracketed fields; the message follows the last of them.
    while let Some(stripped) = rest.strip_prefix('[') {
        match stripped.find(']') {
            Some(end) => rest = stripped[end + 1..].trim_start(),
            None => break,
        }
    }
    rest.to_string()
}

fn path_tolerant_pattern(message: &str, file: &str) -> String {
    let quoted = format!("'{file}'");
    let parts: Vec<String> = message.split(&quoted).map(regex::escape).collect();
    parts.join(&format!("'(?:[^'\\n]*/)?{}'", regex::escape(file)))
}

/// Run a validation of `data` (already screened) as the file `name`.
pub fn run(envoy: &Path, name: &str, data: &Value) -> Result<Validation, String> {
    let dir = PrivateDir::new().map_err(|e| format!("cannot make a private directory: {e}"))?;
    let config = dir.path().join(name);
    std::fs::write(&config, serde_json::to_vec(&super::offline::without_dns(data)).unwrap_or_default())
        .map_err(|e| format!("cannot write the grader's copy of {name}: {e}"))?;
    let log_path = dir.path().join("envoy.log");
    let log = std::fs::File::create(&log_path).map_err(|e| format!("cannot create a log file: {e}"))?;
    let log2 = log.try_clone().map_err(|e| e.to_string())?;

    let mut cmd = Command::new(envoy);
    cmd.current_dir(dir.path())
        .args(["--mode", "validate", "-c", name, "--disable-hot-restart", "--log-level", "info"])
        .stdin(Stdio::null())
        .stdout(Stdio::from(log))
        .stderr(Stdio::from(log2));
    let start = Instant::now();
    let mut child = process::spawn(cmd).map_err(|e| format!("cannot start Envoy ({}): {e}", crate::display::path(envoy)))?;
    let status = child.wait_for(TIMEOUT);
    let elapsed = start.elapsed();
    child.stop();
    let Some(status) = status else {
        return Err(format!("envoy --mode validate did not finish within {}s; the grader stopped it", TIMEOUT.as_secs()));
    };
    let output = std::fs::read(&log_path).map(|b| String::from_utf8_lossy(&b).into_owned()).unwrap_or_default();
    let rc = status.code().unwrap_or_else(|| 128 + std::os::unix::process::ExitStatusExt::signal(&status).unwrap_or(0));
    Ok(Validation { rc, output, elapsed })
}

/// A file name and the content validated under it.
type CacheKey = (String, Vec<u8>);
/// One validation, run by whoever asks first; the others wait for it.
type Slot = Arc<OnceLock<Result<Validation, String>>>;

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

    pub fn validate(&self, name: &str, data: &Value) -> Result<Validation, String> {
        let envoy = self.envoy.as_ref().ok_or("no Envoy")?;
        let key = (name.to_string(), serde_json::to_vec(data).unwrap_or_default());
        let cell = {
            let mut map = self.map.lock().unwrap_or_else(|e| e.into_inner());
            map.entry(key).or_default().clone()
        };
        // Others asking for the same content wait here for the one run.
        cell.get_or_init(|| run(envoy, name, data)).clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn message_loses_its_log_prefix() {
        let out = "[2026-11-29 21:28:27.279][8158][critical][main] [source/server/config_validation/server.cc:76] error initializing configuration 'boot-typo.yaml': Unknown gRPC client cluster 'istiod-xds'\n";
        assert_eq!(last_message(out), "error initializing configuration 'boot-typo.yaml': Unknown gRPC client cluster 'istiod-xds'");
        assert_eq!(last_message("x\nconfiguration 'bootstrap.yaml' OK\n\n"), "configuration 'bootstrap.yaml' OK");
    }

    #[test]
    fn pattern_accepts_any_directory() {
        let p = regex::Regex::new(&path_tolerant_pattern("configuration 'bootstrap.yaml' OK", "bootstrap.yaml")).unwrap();
        assert!(p.is_match("configuration '/root/ist2-boot/bootstrap.yaml' OK"));
        assert!(p.is_match("configuration 'bootstrap.yaml' OK"));
        assert!(!p.is_match("configuration 'other.yaml' OK"));
    }
}
