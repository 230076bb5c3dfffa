//! The memory and CPU time each Envoy the grader starts may use, and what it means when
//! one ran out: the file it was given made it so, which is the student's to fix.
//!
//! Memory is bounded with RLIMIT_DATA (heap, thread stacks and other private writable
//! memory), not RLIMIT_AS: Envoy's allocator reserves about 4 GiB of address space at
//! start and does not start under less. Measured with Envoy 1.40 on this lab's
//! bootstrap: validating needs 40 MiB of it, a launched Envoy 55 MiB, and 65 MiB at
//! every weight bound of the screen at once (`weight.rs`); 0.05 to 0.15 s of CPU.

use crate::lang::{envoy_run::EnvoyRun, t};
use std::os::unix::process::ExitStatusExt;
use std::process::ExitStatus;
use std::sync::OnceLock;
use std::time::Duration;

/// Memory an Envoy may use, in MiB (`LABCHECK_ENVOY_MEMORY_MIB` sets another).
pub const MEMORY_MIB: u64 = 256;
/// CPU time an Envoy may use, in seconds (`LABCHECK_ENVOY_CPU_SECONDS` sets another).
/// CPU, not wall time: a busy machine makes Envoy slower, not hungrier, so running out
/// of it says something about the file. Wall time has its own timeouts, the grader's.
pub const CPU_SECONDS: u64 = 10;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    pub memory_mib: u64,
    pub cpu_seconds: u64,
}

impl Limits {
    /// The run's limits, read once; never above the grader's own hard limits, which
    /// its children cannot exceed anyway (so a message never names a larger one).
    pub fn get() -> Limits {
        static LIMITS: OnceLock<Limits> = OnceLock::new();
        *LIMITS.get_or_init(|| {
            let given = |var: &str, default: u64| {
                std::env::var(var).ok().and_then(|v| v.trim().parse::<u64>().ok()).filter(|n| *n > 0).unwrap_or(default)
            };
            let memory_mib = given("LABCHECK_ENVOY_MEMORY_MIB", MEMORY_MIB).min(hard(libc::RLIMIT_DATA) >> 20);
            let cpu_seconds = given("LABCHECK_ENVOY_CPU_SECONDS", CPU_SECONDS).min(hard(libc::RLIMIT_CPU));
            Limits { memory_mib, cpu_seconds }
        })
    }

    /// Set them on the calling process: in a child between fork and exec, so only
    /// setrlimit(2), which is async-signal-safe.
    pub fn apply(self) -> std::io::Result<()> {
        set(libc::RLIMIT_DATA, self.memory_mib << 20, self.memory_mib << 20)?;
        // SIGXCPU at the limit (Envoy leaves it to kill); SIGKILL two seconds later.
        set(libc::RLIMIT_CPU, self.cpu_seconds, self.cpu_seconds + 2)
    }
}

fn hard(resource: libc::__rlimit_resource_t) -> u64 {
    let mut r = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
    // SAFETY: getrlimit writes only into `r`, which we own.
    if unsafe { libc::getrlimit(resource, &mut r) } != 0 || r.rlim_max == libc::RLIM_INFINITY {
        return u64::MAX;
    }
    r.rlim_max
}

fn set(resource: libc::__rlimit_resource_t, soft: u64, hard: u64) -> std::io::Result<()> {
    let r = libc::rlimit { rlim_cur: soft, rlim_max: hard.max(soft) };
    // SAFETY: setrlimit reads only `r`.
    if unsafe { libc::setrlimit(resource, &r) } != 0 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(())
}

/// Why an Envoy ended other than by giving a verdict on its file; its `Display` is the
/// sentence, in the run's language, with Envoy as its subject.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ended {
    OutOfCpu { file: String, seconds: u64 },
    OutOfMemory { file: String, mib: u64 },
    /// A crash on the file, with what Envoy logged last.
    Crashed { file: String, signal: String, said: String },
    /// A crash before Envoy logged a word: nothing says the file is why (a memory limit
    /// set too low for Envoy to start ends so), so it is the grader's to look at.
    CrashedSilently { file: String, signal: String },
    /// A crash after Envoy logged only blank lines: it had started, and the file's log
    /// format is why nothing was said; the file is why.
    CrashedBlank { file: String, signal: String },
    /// Killed by something other than the grader: not the file's doing.
    Killed,
}

impl Ended {
    /// The file made Envoy run out of a limit, or crash: the student's to fix.
    pub fn students(&self) -> bool {
        !matches!(self, Ended::Killed | Ended::CrashedSilently { .. })
    }
}

impl std::fmt::Display for Ended {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str(&match self {
            Ended::OutOfCpu { file, seconds } => t!(EnvoyRun::OutOfCpu, n = seconds, file = file),
            Ended::OutOfMemory { file, mib } => t!(EnvoyRun::OutOfMemory, n = mib, file = file),
            Ended::Crashed { file, signal, said } => t!(EnvoyRun::Crashed, signal = signal, file = file, said = said),
            Ended::CrashedSilently { file, signal } => t!(EnvoyRun::CrashedSilently, signal = signal, file = file),
            Ended::CrashedBlank { file, signal } => t!(EnvoyRun::CrashedBlank, signal = signal, file = file),
            Ended::Killed => t!(EnvoyRun::Killed),
        })
    }
}

/// How the Envoy given `file` ended, if not by exiting with a code: killed by a signal
/// the grader did not send. `cpu` is the CPU time it used, when known.
pub fn ended(status: ExitStatus, cpu: Option<Duration>, log: &str, file: &str, limits: Limits) -> Option<Ended> {
    let signal = status.signal()?;
    let out_of_cpu = cpu.is_some_and(|c| c.as_secs() >= limits.cpu_seconds);
    let file = file.to_string();
    if signal == libc::SIGXCPU || (signal == libc::SIGKILL && out_of_cpu) {
        return Some(Ended::OutOfCpu { file, seconds: limits.cpu_seconds });
    }
    if signal == libc::SIGKILL {
        return Some(Ended::Killed);
    }
    if ran_out_of_memory(log) {
        return Some(Ended::OutOfMemory { file, mib: limits.memory_mib });
    }
    let said = super::said::Said::from_crash_log(log).text();
    if said.trim().is_empty() {
        // Nothing at all is a crash before Envoy started; blank lines are its log.
        if log.is_empty() {
            return Some(Ended::CrashedSilently { file, signal: name(signal) });
        }
        return Some(Ended::CrashedBlank { file, signal: name(signal) });
    }
    Some(Ended::Crashed { file, signal: name(signal), said })
}

/// What Envoy 1.40 logs when memory runs out under RLIMIT_DATA: its allocator's
/// refusal, or a thread it could not start. Read only after it died of a signal, so a
/// student cannot make a rejection look like this by naming a cluster so.
fn ran_out_of_memory(log: &str) -> bool {
    ["(new failed)", "Cannot allocate memory", "Unable to create a thread", "std::bad_alloc", "out of memory"]
        .iter()
        .any(|m| log.contains(m))
}

fn name(signal: i32) -> String {
    match signal {
        libc::SIGSEGV => "SIGSEGV".into(),
        libc::SIGABRT => "SIGABRT".into(),
        libc::SIGBUS => "SIGBUS".into(),
        libc::SIGILL => "SIGILL".into(),
        libc::SIGFPE => "SIGFPE".into(),
        n => format!("signal {n}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const L: Limits = Limits { memory_mib: 256, cpu_seconds: 10 };

    fn killed(signal: i32) -> ExitStatus {
        ExitStatus::from_raw(signal)
    }

    #[test]
    fn an_exit_code_is_a_verdict_not_an_end() {
        assert_eq!(ended(ExitStatus::from_raw(1 << 8), None, "(new failed)", "b.yaml", L), None);
    }

    #[test]
    fn running_out_is_the_files_doing() {
        let log = "Unable to allocate 8912904 (new failed)See https://github.com/google/tcmalloc";
        let e = ended(killed(libc::SIGABRT), None, log, "b.yaml", L).unwrap();
        assert_eq!(e, Ended::OutOfMemory { file: "b.yaml".into(), mib: 256 });
        assert!(e.students() && e.to_string().starts_with("Envoy needed more than 256 MiB of memory for b.yaml"), "{e}");
        let e = ended(killed(libc::SIGXCPU), None, "", "b.yaml", L).unwrap();
        assert!(e.students() && e.to_string().starts_with("Envoy needed more than 10 s of CPU time for b.yaml"), "{e}");
        let e = ended(killed(libc::SIGKILL), Some(Duration::from_secs(12)), "", "b.yaml", L).unwrap();
        assert_eq!(e, Ended::OutOfCpu { file: "b.yaml".into(), seconds: 10 });
        let e = ended(killed(libc::SIGSEGV), None, "[critical] caught Segmentation fault", "b.yaml", L).unwrap();
        assert!(e.students() && e.to_string().starts_with("Envoy crashed (SIGSEGV) on b.yaml: "), "{e}");
    }

    #[test]
    fn a_crash_before_envoy_logs_a_word_is_not_the_files() {
        // As with a memory limit too low for Envoy to start at all.
        let e = ended(killed(libc::SIGSEGV), None, "", "b.yaml", L).unwrap();
        assert_eq!(e, Ended::CrashedSilently { file: "b.yaml".into(), signal: "SIGSEGV".into() });
        assert!(!e.students() && e.to_string().contains("LABCHECK_ENVOY_MEMORY_MIB"), "{e}");
        // Blank lines are a log: Envoy had started, and its log format says nothing.
        let e = ended(killed(libc::SIGABRT), None, " \n \n", "b.yaml", L).unwrap();
        assert_eq!(e, Ended::CrashedBlank { file: "b.yaml".into(), signal: "SIGABRT".into() });
        assert!(e.students() && e.to_string().contains("only blank lines"), "{e}");
    }

    #[test]
    fn a_kill_the_file_did_not_earn_is_the_graders() {
        let e = ended(killed(libc::SIGKILL), Some(Duration::from_millis(50)), "", "b.yaml", L).unwrap();
        assert!(!e.students(), "{e:?}");
    }

    #[test]
    fn the_limits_are_never_above_the_graders_own() {
        let l = Limits::get();
        assert!(l.memory_mib <= hard(libc::RLIMIT_DATA) >> 20 && l.cpu_seconds <= hard(libc::RLIMIT_CPU));
    }
}
