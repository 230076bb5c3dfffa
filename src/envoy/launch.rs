//! Starting Envoy from a submission's (screened) bootstrap, for CI where no Envoy runs.
//!
//! The grader's copy runs in a private directory with hot restart off (so parallel
//! launches do not clash on its shared-memory socket) and the admin address overridden
//! to 127.0.0.1:0; Envoy writes the port it bound to `--admin-address-path`.
//!
//! Every cluster endpoint is pointed at a port that refuses connections: the lab's
//! Envoy runs with no istiod, and a launched one must not fetch listeners or
//! extensions from a server a submission names (the screen only sees the bootstrap).
//! The admin's access logs go to /dev/null (`logs.rs`).

use super::closed_port::ClosedPort;
use super::failure::{Failure, Setup};
use super::limits::{self, Limits};
use super::process::{self, Guarded, PrivateDir};
use serde_json::Value;
use std::path::Path;
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// How long Envoy gets to open its admin port.
pub const START_TIMEOUT: Duration = Duration::from_secs(15);

const ADMIN_OVERRIDE: &str = r#"{"admin": {"address": {"socket_address": {"address": "127.0.0.1", "port_value": 0}}}}"#;

/// A running Envoy; dropping it stops it (by PID) and removes its directory.
pub struct Launched {
    child: Guarded,
    _dir: PrivateDir,
    _upstream: ClosedPort,
    log: std::path::PathBuf,
    /// The bootstrap's file name, as Envoy's messages name it.
    name: String,
    /// `http://127.0.0.1:PORT`
    pub admin: String,
}

impl Launched {
    pub fn pid(&self) -> u32 {
        self.child.pid()
    }

    /// The CPU time it has used so far.
    pub fn cpu_so_far(&self) -> Option<Duration> {
        self.child.cpu_so_far()
    }

    pub fn stop(mut self) {
        self.child.stop();
    }

    /// If Envoy exits within `limit` (it may write its admin address and then reject
    /// the bootstrap), how, with the last thing it logged.
    pub fn exited_within(&mut self, limit: Duration) -> Option<Failure> {
        let status = self.child.wait_for(limit)?;
        Some(exited(&self.child, status, &self.log, &self.name, true))
    }
}

/// How Envoy exited, with the last thing it logged; in words, when it ran out of a
/// limit or crashed. `admin_open`: after it opened its admin port.
fn exited(child: &Guarded, status: ExitStatus, log: &Path, name: &str, admin_open: bool) -> Failure {
    let log = std::fs::read_to_string(log).unwrap_or_default();
    match limits::ended(status, child.cpu(), &log, name, Limits::get()) {
        Some(end) => Failure::Ended { end, validating: false },
        None => Failure::Exited { code: status.code().unwrap_or_default(), said: super::said::Said::from_launch_log(&log).text(), admin_open },
    }
}

pub fn launch(envoy: &Path, name: &str, data: &Value) -> Result<Launched, Failure> {
    let dir = PrivateDir::new().map_err(Failure::setup(Setup::PrivateDir))?;
    let upstream = ClosedPort::new().map_err(Failure::setup(Setup::ClosedPort))?;
    std::fs::write(dir.path().join(name), serde_json::to_vec(&super::offline::isolated(&super::logs::to_dev_null(data), upstream.port)).unwrap_or_default())
        .map_err(Failure::setup(Setup::Copy(name.to_string())))?;
    let addr_file = dir.path().join("admin.address");
    let log_path = dir.path().join("envoy.log");
    let log = std::fs::File::create(&log_path).map_err(Failure::setup(Setup::LogFile))?;
    let log2 = log.try_clone().map_err(Failure::setup(Setup::LogFile))?;

    let mut cmd = Command::new(envoy);
    cmd.current_dir(dir.path())
        .args(["-c", name, "--config-yaml", ADMIN_OVERRIDE, "--disable-hot-restart"])
        .arg("--admin-address-path")
        .arg(&addr_file)
        .args(["--log-level", "warn", "--concurrency", "1"])
        .stdin(Stdio::null())
        .stdout(Stdio::from(log))
        .stderr(Stdio::from(log2));
    let mut child = process::spawn(cmd).map_err(|e| Failure::Start { envoy: crate::display::path(envoy), error: e.to_string() })?;

    let start = Instant::now();
    loop {
        if let Some(addr) = std::fs::read_to_string(&addr_file).ok().filter(|a| a.trim().contains(':')) {
            let admin = format!("http://{}", addr.trim());
            return Ok(Launched { child, _dir: dir, _upstream: upstream, log: log_path, name: name.to_string(), admin });
        }
        if let Some(status) = child.exited() {
            return Err(exited(&child, status, &log_path, name, false));
        }
        if start.elapsed() > START_TIMEOUT {
            child.stop();
            return Err(Failure::NoAdminPort { seconds: START_TIMEOUT.as_secs() });
        }
        // A look every 2 ms: the wait past Envoy's write of its address is 1 ms on
        // average (it was 5 at 10 ms), for about 50 looks at a missing file a launch.
        std::thread::sleep(Duration::from_millis(2));
    }
}
