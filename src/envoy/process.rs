//! Processes the grader starts: tracked by PID, stopped by PID, never outliving a run.
//!
//! Every child is registered while it runs. SIGINT, SIGTERM and SIGHUP stop all
//! registered children before the grader exits, and each child also asks the kernel
//! to kill it if the grader dies without cleaning up (PR_SET_PDEATHSIG).
//!
//! A PID is signalled only while its child is registered, under the registry's lock,
//! and a child is reaped only under that lock as it leaves the registry: so a PID the
//! kernel may since have given to another process is never signalled.

use std::fs::Permissions;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::PathBuf;
use std::process::{Child, Command, ExitStatus};
use std::sync::{Mutex, MutexGuard, Once};
use std::time::{Duration, Instant};
use super::limits::Limits;

/// Children started and not yet reaped. Lock it before [`DIRS`] when taking both.
static CHILDREN: Mutex<Vec<u32>> = Mutex::new(Vec::new());
/// Private directories to remove if a signal ends the run (Drop will not run then).
static DIRS: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());
static INSTALL: Once = Once::new();

fn children() -> MutexGuard<'static, Vec<u32>> {
    CHILDREN.lock().unwrap_or_else(|e| e.into_inner())
}

fn dirs() -> MutexGuard<'static, Vec<PathBuf>> {
    DIRS.lock().unwrap_or_else(|e| e.into_inner())
}

/// Stop registered children when the grader is told to stop. Called before the first
/// child or private directory exists, not at start-up: a run without Envoy then
/// starts no signal thread, which would cost it a tenth of a millisecond.
pub fn install_signal_handlers() {
    INSTALL.call_once(|| {
        use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
        let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) else {
            return;
        };
        std::thread::spawn(move || {
            if let Some(sig) = signals.forever().next() {
                // Both locks are held until the process is gone: no thread starts,
                // signals or reaps a child, or makes a directory, after this.
                let (mut c, mut d) = (children(), dirs());
                stop_locked(&mut c, &mut d);
                // Else a CI log shows a run that ended with no report and no reason.
                let name = match sig { SIGINT => "SIGINT", SIGTERM => "SIGTERM", _ => "SIGHUP" };
                eprintln!("labcheck: {}", crate::lang::t!(crate::lang::run::Run::Interrupted, signal = name));
                std::process::exit(128 + sig);
            }
        });
    });
}

/// Kill and reap every registered child and remove private directories.
pub fn stop_all() {
    // Held across the signalling: a worker reaping one of these waits, so no PID is
    // reaped (and free for the kernel to reuse) between being listed and signalled.
    let (mut c, mut d) = (children(), dirs());
    stop_locked(&mut c, &mut d);
}

fn stop_locked(children: &mut Vec<u32>, dirs: &mut Vec<PathBuf>) {
    for pid in children.drain(..) {
        kill(pid, libc::SIGKILL);
        // Reap it so it does not linger as a zombie until we exit.
        unsafe {
            libc::waitpid(pid as i32, std::ptr::null_mut(), 0);
        }
    }
    for d in dirs.drain(..) {
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
        // A signal from here on removes the directory, which is made and registered
        // under the lock, so none arrives in between.
        install_signal_handlers();
        let mut registered = dirs();
        // Made 0700 (the umask can only take from that), then set 0700 whatever the
        // umask did: it holds the grader's copy of a student's bootstrap and Envoy's log.
        let dir = tempfile::Builder::new().prefix("labcheck-").permissions(Permissions::from_mode(0o700)).tempdir()?;
        registered.push(dir.path().to_path_buf());
        let dir = PrivateDir { dir: Some(dir) };
        std::fs::set_permissions(dir.path(), Permissions::from_mode(0o700))?;
        Ok(dir)
    }

    pub fn path(&self) -> &std::path::Path {
        self.dir.as_ref().expect("dir present until drop").path()
    }
}

impl Drop for PrivateDir {
    fn drop(&mut self) {
        if let Some(dir) = self.dir.take() {
            let mut registered = dirs();
            registered.retain(|p| p != dir.path());
            drop(dir);
        }
    }
}

/// A running child that is stopped (and reaped) when dropped.
pub struct Guarded {
    child: Child,
    pid: u32,
    done: Option<ExitStatus>,
    /// The CPU time it used, known once it is reaped.
    cpu: Option<Duration>,
    /// Readable once the child exits (pidfd_open(2)), so a wait ends when it does, not
    /// at the next look; `None` on a kernel without pidfds, where waiting polls.
    exit_fd: Option<OwnedFd>,
}

/// Start `cmd` as a tracked child in its own process group, within the run's
/// [`Limits`] of memory and CPU time.
pub fn spawn(mut cmd: Command) -> std::io::Result<Guarded> {
    install_signal_handlers();
    let limits = Limits::get();
    cmd.process_group(0);
    // Nothing of the grader's environment (a CI job's tokens) for a bootstrap to read
    // (`/proc/self/environ`, `%ENVIRONMENT()%`): only where programs are.
    cmd.env_clear();
    if let Some(path) = std::env::var_os("PATH") {
        cmd.env("PATH", path);
    }
    let grader = std::process::id();
    // SAFETY: prctl(2), getppid(2) and setrlimit(2) are async-signal-safe, as code
    // between fork and exec must be.
    unsafe {
        cmd.pre_exec(move || {
            // Die with the grader, whatever way it goes; if it died before the request
            // took hold, nothing would kill this child, so it does not go on.
            libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
            if libc::getppid() as u32 != grader {
                return Err(std::io::ErrorKind::Other.into());
            }
            limits.apply()
        });
    }
    // Register under the lock so a signal arriving now cannot miss this child.
    let mut reg = children();
    let child = cmd.spawn()?;
    let pid = child.id();
    reg.push(pid);
    drop(reg);
    // Opened while the child is ours and unreaped: the PID cannot name another process.
    let exit_fd = pidfd(pid);
    Ok(Guarded { child, pid, done: None, cpu: None, exit_fd })
}

/// A pidfd of our unreaped child `pid`.
fn pidfd(pid: u32) -> Option<OwnedFd> {
    // SAFETY: pidfd_open(2) takes a PID and flags and returns a new descriptor we own.
    let fd = unsafe { libc::syscall(libc::SYS_pidfd_open, pid as libc::pid_t, 0) };
    // SAFETY: a non-negative result is an open descriptor that nothing else owns.
    (fd >= 0).then(|| unsafe { OwnedFd::from_raw_fd(fd as i32) })
}

impl Guarded {
    pub fn pid(&self) -> u32 {
        self.pid
    }

    /// The CPU time it used, once it has exited and been reaped.
    pub fn cpu(&self) -> Option<Duration> {
        self.cpu
    }

    /// The CPU time (user and system) a child still running has used so far, from
    /// /proc (in USER_HZ, which Linux fixes at 100 a second for /proc).
    pub fn cpu_so_far(&self) -> Option<Duration> {
        let stat = std::fs::read_to_string(format!("/proc/{}/stat", self.pid)).ok()?;
        // After the command name, which may hold spaces and parentheses.
        let fields: Vec<&str> = stat.get(stat.rfind(')')? + 1..)?.split_whitespace().collect();
        let ticks = |i: usize| fields.get(i).and_then(|f| f.parse::<u64>().ok());
        Some(Duration::from_millis((ticks(11)? + ticks(12)?) * 10))
    }

    /// Has it exited? (Non-blocking.) An exited child is reaped here (or by
    /// [`stop_all`]), and only here.
    pub fn exited(&mut self) -> Option<ExitStatus> {
        if self.done.is_none() {
            self.while_registered(|g, children| {
                if g.is_zombie() {
                    g.reap(children);
                }
            });
        }
        self.done
    }

    /// Run `f` with the registry locked, if the child is still in it. If it is not,
    /// [`stop_all`] has killed and reaped it, and its PID must not be signalled again.
    fn while_registered(&mut self, f: impl FnOnce(&mut Guarded, &mut Vec<u32>)) {
        let mut children = children();
        if children.contains(&self.pid) {
            f(self, &mut children);
        } else if self.done.is_none() {
            self.done = Some(ExitStatus::from_raw(libc::SIGKILL));
        }
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
    /// given to another process, so the group signal cannot reach a stranger. The
    /// caller holds the registry's lock: [`stop_all`] cannot list the PID and signal
    /// it after it is reaped here.
    fn reap(&mut self, children: &mut Vec<u32>) {
        signal_group(self.pid, libc::SIGKILL);
        children.retain(|p| *p != self.pid);
        // wait4, not Child::wait: it also tells the CPU time the child used.
        let mut status = 0;
        // SAFETY: an all-zero rusage is valid; wait4 writes only into `status` and `usage`.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        if unsafe { libc::wait4(self.pid as i32, &mut status, 0, &mut usage) } == self.pid as i32 {
            self.done = Some(ExitStatus::from_raw(status));
            let time = |t: libc::timeval| Duration::from_secs(t.tv_sec as u64) + Duration::from_micros(t.tv_usec as u64);
            self.cpu = Some(time(usage.ru_utime) + time(usage.ru_stime));
        } else {
            self.done = self.child.wait().ok();
        }
    }

    /// Wait up to `limit` for the child to exit by itself: woken by its exit through
    /// its pidfd, else looking at growing intervals.
    pub fn wait_for(&mut self, limit: Duration) -> Option<ExitStatus> {
        let start = Instant::now();
        let mut pause = Duration::from_millis(1);
        loop {
            if let Some(s) = self.exited() {
                return Some(s);
            }
            let left = limit.saturating_sub(start.elapsed());
            if left.is_zero() {
                return None;
            }
            if !self.exit_fd.as_ref().is_some_and(|fd| waited(fd, left)) {
                std::thread::sleep(pause.min(left));
                pause = (pause * 2).min(Duration::from_millis(20));
            }
        }
    }

    /// Stop it: SIGTERM, a short grace period, then SIGKILL; always reaped. A child
    /// already reaped is not signalled again: its PID may belong to someone else now.
    pub fn stop(&mut self) {
        if self.exited().is_some() {
            return;
        }
        self.while_registered(|g, _| kill(g.pid, libc::SIGTERM));
        if self.wait_for(Duration::from_secs(2)).is_none() {
            self.while_registered(|g, children| {
                kill(g.pid, libc::SIGKILL);
                g.reap(children);
            });
        }
    }
}

/// Wait until the pidfd `fd` is readable (the child exited) or `limit` has passed;
/// false when poll(2) failed, and the caller waits its own way.
fn waited(fd: &OwnedFd, limit: Duration) -> bool {
    let mut p = libc::pollfd { fd: fd.as_raw_fd(), events: libc::POLLIN, revents: 0 };
    // Rounded up, so a wait never ends just short of the limit and spins.
    let ms = limit.as_micros().div_ceil(1000).min(i32::MAX as u128) as i32;
    // SAFETY: poll(2) on one pollfd we own, for at most `ms` milliseconds.
    unsafe { libc::poll(&mut p, 1, ms) >= 0 }
}

impl Drop for Guarded {
    fn drop(&mut self) {
        self.stop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::process::Stdio;

    /// `sh -c script` in `dir`, its stdout and stderr into `output`.
    fn sh_in(script: &str, dir: &std::path::Path, output: Option<&std::fs::File>) -> Guarded {
        let mut cmd = Command::new("sh");
        cmd.args(["-c", script]).current_dir(dir).stdin(Stdio::null());
        if let Some(f) = output {
            cmd.stdout(f.try_clone().unwrap()).stderr(f.try_clone().unwrap());
        }
        spawn(cmd).expect("sh starts")
    }

    fn sh(script: &str) -> Guarded {
        sh_in(script, std::path::Path::new("/"), None)
    }

    /// What `script` writes, run as a child in a new directory, after that directory's
    /// path.
    fn output_of(script: &str) -> String {
        let dir = tempfile::tempdir().unwrap();
        let out = std::fs::File::create(dir.path().join("out")).unwrap();
        let mut child = sh_in(script, dir.path(), Some(&out));
        assert_eq!(child.wait_for(Duration::from_secs(30)).and_then(|s| s.code()), Some(0), "{script}");
        format!("{}\n{}", dir.path().canonicalize().unwrap().display(), std::fs::read_to_string(dir.path().join("out")).unwrap())
    }

    /// A child that exits is seen to, with its status; one that does not is given up on
    /// at the limit, and stopping it reaps it.
    #[test]
    fn a_wait_ends_with_the_exit_or_at_the_limit() {
        let mut quick = sh("exit 3");
        assert_eq!(quick.wait_for(Duration::from_secs(30)).and_then(|s| s.code()), Some(3));
        let mut slow = sh("sleep 30");
        assert_eq!(slow.wait_for(Duration::from_millis(50)), None);
        slow.stop();
        assert!(slow.exited().is_some(), "stopped and reaped");
        assert!(!children().contains(&slow.pid()));
    }

    /// A child sees none of the grader's environment but PATH: a bootstrap could read
    /// its own (`/proc/self/environ`), and a CI job's holds tokens.
    #[test]
    fn a_child_gets_path_alone_of_the_environment() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("env");
        let mut cmd = Command::new("sh");
        cmd.args(["-c", "env > \"$0\"", out.to_str().unwrap()]).env("LABCHECK_TEST_SECRET", "s3cret");
        let mut child = spawn(cmd).expect("sh starts");
        assert_eq!(child.wait_for(Duration::from_secs(30)).and_then(|s| s.code()), Some(0));
        let env = std::fs::read_to_string(&out).unwrap();
        let names: Vec<&str> = env.lines().filter_map(|l| l.split('=').next()).filter(|n| !["PWD", "SHLVL", "_"].contains(n)).collect();
        assert_eq!(names, ["PATH"], "{env}");
    }

    /// A child runs in its directory, in a process group it leads, with SIGPIPE at its
    /// default (Rust ignores it in the grader) and no signal blocked.
    #[test]
    fn a_child_runs_in_its_directory_and_group() {
        let said = output_of("pwd; cut -d' ' -f5 /proc/$$/stat; echo $$; grep -E '^Sig(Ign|Blk)' /proc/self/status");
        let lines: Vec<&str> = said.lines().collect();
        assert_eq!(lines[1], lines[0], "not in its directory: {said}");
        assert_eq!(lines[2], lines[3], "not its own group leader: {said}");
        let mask = |name: &str| {
            let line = lines.iter().find_map(|l| l.strip_prefix(name)).unwrap_or_else(|| panic!("no {name} in {said}"));
            u64::from_str_radix(line.trim(), 16).unwrap_or_else(|_| panic!("{said}"))
        };
        // SIGPIPE is signal 13: bit 12.
        assert_eq!(mask("SigIgn:") & (1 << 12), 0, "SIGPIPE ignored: {said}");
        assert_eq!(mask("SigBlk:"), 0, "{said}");
    }

    /// A child is within its limits from its first instruction: it reads them itself.
    #[test]
    fn a_child_starts_within_its_limits() {
        let said = output_of("grep -E '^Max (data size|cpu time)' /proc/self/limits");
        let l = Limits::get();
        let row = |name: &str| -> Vec<String> {
            let line = said.lines().find_map(|l| l.strip_prefix(name)).unwrap_or_else(|| panic!("no {name} in {said}"));
            line.split_whitespace().take(2).map(String::from).collect()
        };
        let bytes = (l.memory_mib << 20).to_string();
        assert_eq!(row("Max data size"), [bytes.clone(), bytes], "{said}");
        assert_eq!(row("Max cpu time"), [l.cpu_seconds.to_string(), (l.cpu_seconds + 2).to_string()], "{said}");
    }
}
