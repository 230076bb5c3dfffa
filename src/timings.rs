//! How long each stage of a run took, on stderr when `LABCHECK_TIMINGS` is set to
//! anything but `0` or nothing: the tool for finding where a slow run goes, without a
//! profiler.
//!
//! Page faults are counted too: on a VM a first touch of a page costs one to two
//! microseconds, so memory a stage touches is often more of its time than its code.

use std::time::Instant;

pub struct Timings {
    last: Option<(Instant, i64)>,
}

impl Timings {
    pub fn from_env() -> Timings {
        let last = std::env::var_os("LABCHECK_TIMINGS").filter(|v| on(v)).map(|_| (Instant::now(), faults()));
        if let Some((_, f)) = last {
            eprintln!("labcheck: start-up: {f} page faults");
        }
        Timings { last }
    }

    /// Say how long `stage`, which just ended, took.
    pub fn lap(&mut self, stage: &str) {
        if let Some((last, faulted)) = self.last {
            let (now, f) = (Instant::now(), faults());
            eprintln!("labcheck: {stage}: {:.3} ms, {} page faults", (now - last).as_secs_f64() * 1000.0, f - faulted);
            self.last = Some((now, f));
        }
    }
}

/// `LABCHECK_TIMINGS=0` (or set empty) means off, as a reader of `=0` expects.
fn on(value: &std::ffi::OsStr) -> bool {
    !value.is_empty() && value != "0"
}

/// Minor page faults of this process so far.
fn faults() -> i64 {
    // SAFETY: getrusage only writes the struct it is given.
    let mut u: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut u) };
    u.ru_minflt
}

#[cfg(test)]
mod tests {
    #[test]
    fn zero_and_empty_are_off() {
        for (v, want) in [("1", true), ("yes", true), ("0", false), ("", false)] {
            assert_eq!(super::on(std::ffi::OsStr::new(v)), want, "{v:?}");
        }
    }
}
