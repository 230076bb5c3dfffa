//! Starting a child within its limits: by posix_spawn(3) when it ends by itself, by
//! fork(2) when it must die with the grader.
//!
//! Why not `std::process::Command` for both: in a static glibc build it cannot find
//! `posix_spawn_file_actions_addchdir_np` (it looks it up with dlsym), so any command
//! with a working directory is started by fork(2), a copy of the grader's page tables
//! and of every page the grader writes to next: 1.5 ms of a full grade's 70 (two
//! validations; `make bench`'s (a)). posix_spawn starts the child with vfork semantics
//! instead, but runs none of our code in the child: its limits are set by prlimit(2) as
//! soon as it has started (they are totals, so what it took before counts too), and it
//! does not die with the grader. A validation may go so: it ends by itself, within its
//! CPU time, and the screen keeps it from reading a file that could block it. A child
//! that runs until stopped (a launched Envoy) is forked, and sets its limits and asks
//! the kernel to kill it with the grader (PR_SET_PDEATHSIG) before it execs.

use std::ffi::{CString, OsStr};
use std::fs::File;
use std::io;
use std::os::fd::AsRawFd;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use super::limits::Limits;

/// Whether a child ends by itself or must be made to die with the grader.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lifetime {
    /// It exits by itself, within its CPU limit (Envoy validating a file).
    EndsByItself,
    /// It runs until stopped (a launched Envoy): it dies with the grader, whatever way
    /// the grader goes.
    DiesWithGrader,
}

/// What to start: `program` with `args`, in `dir`, its stdin /dev/null, its stdout and
/// stderr `output` (/dev/null when `None`), in a process group of its own, with no
/// environment but the grader's `PATH`.
pub struct Program<'a> {
    pub program: &'a Path,
    pub args: &'a [&'a str],
    pub dir: &'a Path,
    pub output: Option<&'a File>,
}

impl Program<'_> {
    /// The program's path, made absolute against the grader's directory (the child
    /// resolves it after moving to `dir`); a bare name is looked up on PATH.
    fn resolved(&self) -> io::Result<PathBuf> {
        if self.bare() { Ok(self.program.to_path_buf()) } else { std::path::absolute(self.program) }
    }

    /// A name without a slash, which exec looks up on PATH.
    fn bare(&self) -> bool {
        !self.program.as_os_str().as_bytes().contains(&b'/')
    }
}

/// Start `p` as `lifetime` asks, within `limits`; its PID. The caller holds the
/// registry's lock (`process.rs`), so the PID names this child until it registers it.
pub(super) fn start(p: &Program, lifetime: Lifetime, limits: Limits) -> io::Result<u32> {
    match lifetime {
        Lifetime::EndsByItself => {
            let pid = spawn(p)?;
            if let Err(e) = limits.apply_to(pid) {
                // Not registered yet: ours alone to kill and reap.
                // SAFETY: kill(2) and waitpid(2) on our own unreaped child.
                unsafe {
                    libc::kill(pid as i32, libc::SIGKILL);
                    libc::waitpid(pid as i32, std::ptr::null_mut(), 0);
                }
                return Err(e);
            }
            Ok(pid)
        }
        Lifetime::DiesWithGrader => fork_tied(p, limits),
    }
}

/// Start `p` by fork and exec, within `limits`, dying with the grader.
fn fork_tied(p: &Program, limits: Limits) -> io::Result<u32> {
    let output = |f: Option<&File>| f.map_or_else(|| Ok(Stdio::null()), |f| f.try_clone().map(Stdio::from));
    let mut cmd = Command::new(p.resolved()?);
    cmd.args(p.args).current_dir(p.dir).stdin(Stdio::null()).stdout(output(p.output)?).stderr(output(p.output)?);
    cmd.process_group(0).env_clear();
    if let Some(path) = std::env::var_os("PATH") {
        cmd.env("PATH", path);
    }
    let grader = std::process::id();
    // SAFETY: prctl(2), getppid(2) and setrlimit(2) are async-signal-safe, as code
    // between fork and exec must be.
    unsafe {
        cmd.pre_exec(move || {
            libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
            // The grader died before the request took hold: nothing would kill us.
            if libc::getppid() as u32 != grader {
                return Err(io::ErrorKind::Other.into());
            }
            limits.apply()
        });
    }
    // The handle goes; the PID stays ours until `process` reaps it.
    Ok(cmd.spawn()?.id())
}

fn cstring(s: &OsStr) -> io::Result<CString> {
    CString::new(s.as_bytes()).map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "a NUL byte in a program's argument"))
}

/// Check a posix_spawn family return value (an errno, not -1).
fn check(rc: libc::c_int) -> io::Result<()> {
    if rc == 0 { Ok(()) } else { Err(io::Error::from_raw_os_error(rc)) }
}

/// Start `p` by posix_spawn.
fn spawn(p: &Program) -> io::Result<u32> {
    let program = p.resolved()?;
    let program_c = cstring(program.as_os_str())?;
    let mut argv_c = vec![program_c.clone()];
    for a in p.args {
        argv_c.push(cstring(OsStr::new(a))?);
    }
    let envp_c: Vec<CString> = match std::env::var_os("PATH") {
        Some(path) => vec![cstring(OsStr::from_bytes(&[b"PATH=", path.as_bytes()].concat()))?],
        None => Vec::new(),
    };
    let dir_c = cstring(p.dir.as_os_str())?;
    let dev_null = c"/dev/null";
    let argv: Vec<*mut libc::c_char> = argv_c.iter().map(|c| c.as_ptr() as *mut _).chain([std::ptr::null_mut()]).collect();
    let envp: Vec<*mut libc::c_char> = envp_c.iter().map(|c| c.as_ptr() as *mut _).chain([std::ptr::null_mut()]).collect();
    let dev_null_out;
    let out_fd = match p.output {
        Some(f) => f.as_raw_fd(),
        None => {
            dev_null_out = File::options().write(true).open("/dev/null")?;
            dev_null_out.as_raw_fd()
        }
    };

    // SAFETY: every pointer handed over points into the CStrings and vectors above,
    // alive until posix_spawn returns; the attribute and action objects are initialised
    // before use and destroyed after, on every path.
    unsafe {
        let mut actions: libc::posix_spawn_file_actions_t = std::mem::zeroed();
        check(libc::posix_spawn_file_actions_init(&mut actions))?;
        let mut attr: libc::posix_spawnattr_t = std::mem::zeroed();
        if let Err(e) = check(libc::posix_spawnattr_init(&mut attr)) {
            libc::posix_spawn_file_actions_destroy(&mut actions);
            return Err(e);
        }
        let result = (|| {
            check(libc::posix_spawn_file_actions_adddup2(&mut actions, out_fd, 1))?;
            check(libc::posix_spawn_file_actions_adddup2(&mut actions, out_fd, 2))?;
            check(libc::posix_spawn_file_actions_addopen(&mut actions, 0, dev_null.as_ptr(), libc::O_RDONLY, 0))?;
            check(libc::posix_spawn_file_actions_addchdir_np(&mut actions, dir_c.as_ptr()))?;
            // Its own process group (so a stop reaches what it starts), no signal
            // blocked, and SIGPIPE back to its default: Rust ignores it in the grader,
            // and an ignored signal stays ignored across exec.
            let mut none: libc::sigset_t = std::mem::zeroed();
            libc::sigemptyset(&mut none);
            let mut default: libc::sigset_t = std::mem::zeroed();
            libc::sigemptyset(&mut default);
            libc::sigaddset(&mut default, libc::SIGPIPE);
            check(libc::posix_spawnattr_setsigmask(&mut attr, &none))?;
            check(libc::posix_spawnattr_setsigdefault(&mut attr, &default))?;
            check(libc::posix_spawnattr_setpgroup(&mut attr, 0))?;
            let flags = libc::POSIX_SPAWN_SETPGROUP | libc::POSIX_SPAWN_SETSIGMASK | libc::POSIX_SPAWN_SETSIGDEF;
            check(libc::posix_spawnattr_setflags(&mut attr, flags as libc::c_short))?;
            let mut pid: libc::pid_t = 0;
            // posix_spawnp for a bare name: it searches the grader's PATH, the child's too.
            let spawn = if p.bare() { libc::posix_spawnp } else { libc::posix_spawn };
            check(spawn(&mut pid, program_c.as_ptr(), &actions, &attr, argv.as_ptr(), envp.as_ptr()))?;
            Ok(pid as u32)
        })();
        libc::posix_spawnattr_destroy(&mut attr);
        libc::posix_spawn_file_actions_destroy(&mut actions);
        result
    }
}
