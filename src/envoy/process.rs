//! Processes the grader starts: tracked by PID, stopped by PID, never outliving a run.
//!
//! Every child is registered while it runs. SIGINT, SIGTERM and SIGHUP stop all
//! registered children before the grader exits, and each child also asks the kernel
//! to kill it if the grader dies without cleaning up (PR_SET_PDEATHSIG).

use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::{Child, Command, ExitStatus};
use std::sync::{Mutex, Once};
use std::time::{Duration, Instant};

static CHILDREN: Mutex<Vec<u32>> = Mutex::new(Vec::new());
/// Private directories to remove if a signal ends the run (Drop will not run then).
static DIRS: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());
static INSTALL: Once = Once::new();

/// Stop registered children when the grader is told to stop.
pub fn install_signal_handlers() {
    INSTALL.call_once(|| {
        use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
        let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) else {
            return;
        };
        std::thread::spawn(move || {
            if let Some(sig) = signals.forever().next() {
                stop_all();
                std::process::exit(128 + sig);
            }
        });
    });
}

/// Kill every registered child and remove private directories.
pub fn stop_all() {
    let pids: Vec<u32> = CHILDREN.lock().map(|c| c.clone()).unwrap_or_default();
    for pid in pids {
        kill(pid, libc::SIGKILL);
        // Reap it so it does not linger as a zombie until we exit.
        unsafe {
            libc::waitpid(pid as i32, std::ptr::null_mut(), 0);
        }
    }
    let dirs: Vec<PathBuf> = DIRS.lock().map(|d| d.clone()).unwrap_or_default();
    for d in dirs {
        let _ = std::fs::remove_dir_all(d);
    }
}

/// Signal a child and the process group it leads (anything it started, such as an
/// Envoy behind a wrapper script). By PID only: a student's own Envoy may run beside
/// the grader, and it is in neither.
fn kill(pid: u32, sig: i32) {
    signal_group(pid, sig);
    // SAFETY: kill(2) with a PID we started and have not reaped.
    unsafe {
        libc::kill(pid as i32, sig);
    }
}

fn signal_group(pid: u32, sig: i32) {
    // SAFETY: kill(2) on the group our unreaped child leads.
    unsafe {
        libc::kill(-(pid as i32), sig);
    }
}

/// A private temporary directory, removed on drop or when a signal ends the run.
pub struct PrivateDir {
    dir: Option<tempfile::TempDir>,
}

impl PrivateDir {
    pub fn new() -> std::io::Result<PrivateDir> {
        let dir = tempfile::Builder::new().prefix("labcheck-").tempdir()?;
        if let Ok(mut d) = DIRS.lock() {
            d.push(dir.path().to_path_buf());
        }
        Ok(PrivateDir { dir: Some(dir) })
    }

    pub fn path(&self) -> &std::path::Path {
        self.dir.as_ref().expect("dir present until drop").path()
    }
}

impl Drop for PrivateDir {
    fn drop(&mut self) {
        if let Some(dir) = self.dir.take()
            && let Ok(mut d) = DIRS.lock() {
                d.retain(|p| p != dir.path());
            }
    }
}

/// A running child that is stopped (and reaped) when dropped.
pub struct Guarded {
    child: Child,
    pid: u32,
    done: Option<ExitStatus>,
}

/// Start `cmd` as a tracked child in its own process group.
pub fn spawn(mut cmd: Command) -> std::io::Result<Guarded> {
    install_signal_handlers();
    cmd.process_group(0);
    unsafe {
        cmd.pre_exec(|| {
            // Die with the grader, whatever way it goes.
            libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
            Ok(())
        });
    }
    // Register under the lock so a signal arriving now cannot miss this child.
    let mut reg = CHILDREN.lock().unwrap_or_else(|e| e.into_inner());
    let child = cmd.spawn()?;
    let pid = child.id();
    reg.push(pid);
    drop(reg);
    Ok(Guarded { child, pid, done: None })
}

impl Guarded {
    pub fn pid(&self) -> u32 {
        self.pid
    }

    /// Has it exited? (Non-blocking.) An exited child is reaped here, and only here.
    pub fn exited(&mut self) -> Option<ExitStatus> {
        if self.done.is_none() && self.is_zombie() {
            self.reap();
        }
        self.done
    }

    /// Exited but not yet reaped, asked without reaping it (`WNOWAIT`).
    fn is_zombie(&self) -> bool {
        // SAFETY: waitid writes only into `info`, a zeroed siginfo_t we own.
        unsafe {
            let mut info: libc::siginfo_t = std::mem::zeroed();
            let r = libc::waitid(libc::P_PID, self.pid as libc::id_t, &mut info, libc::WEXITED | libc::WNOHANG | libc::WNOWAIT);
            r == 0 && info.si_pid() != 0
        }
    }

    /// Kill what the child left in its process group, then reap the child. In this
    /// order: until it is reaped its PID, which is also the group's ID, cannot be
    /// given to another process, so the group signal cannot reach a stranger.
    fn reap(&mut self) {
        signal_group(self.pid, libc::SIGKILL);
        // Unregistered first, so a signal arriving now does not signal a reaped PID.
        if let Ok(mut c) = CHILDREN.lock() {
            c.retain(|p| *p != self.pid);
        }
        self.done = self.child.wait().ok();
    }

    /// Wait up to `limit` for the child to exit by itself.
    pub fn wait_for(&mut self, limit: Duration) -> Option<ExitStatus> {
        let start = Instant::now();
        let mut pause = Duration::from_millis(1);
        loop {
            if let Some(s) = self.exited() {
                return Some(s);
            }
            if start.elapsed() >= limit {
                return None;
            }
            std::thread::sleep(pause);
            pause = (pause * 2).min(Duration::from_millis(20));
        }
    }

    /// Stop it: SIGTERM, a short grace period, then SIGKILL; always reaped. A child
    /// already reaped is not signalled again: its PID may belong to someone else now.
    pub fn stop(&mut self) {
        if self.exited().is_some() {
            return;
        }
        kill(self.pid, libc::SIGTERM);
        if self.wait_for(Duration::from_secs(2)).is_none() {
            kill(self.pid, libc::SIGKILL);
            self.reap();
        }
    }
}

impl Drop for Guarded {
    fn drop(&mut self) {
        self.stop();
    }
}
