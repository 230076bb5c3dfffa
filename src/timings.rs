//! How long each stage of a run took, on stderr when `LABCHECK_TIMINGS` is set to
//! anything but `0` or nothing: the tool for finding where a slow run goes, without a
//! profiler.

use std::time::Instant;

pub struct Timings {
    last: Option<Instant>,
}

impl Timings {
    pub fn from_env() -> Timings {
        Timings { last: std::env::var_os("LABCHECK_TIMINGS").filter(|v| on(v)).map(|_| Instant::now()) }
    }

    /// Say how long `stage`, which just ended, took.
    pub fn lap(&mut self, stage: &str) {
        if let Some(last) = self.last {
            let now = Instant::now();
            eprintln!("labcheck: {stage}: {:.3} ms", (now - last).as_secs_f64() * 1000.0);
            self.last = Some(now);
        }
    }
}

/// `LABCHECK_TIMINGS=0` (or set empty) means off, as a reader of `=0` expects.
fn on(value: &std::ffi::OsStr) -> bool {
    !value.is_empty() && value != "0"
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
