//! How long each stage of a run took, on stderr when `LABCHECK_TIMINGS` is set: the
//! tool for finding where a slow run goes, without a profiler.

use std::time::Instant;

pub struct Timings {
    last: Option<Instant>,
}

impl Timings {
    pub fn from_env() -> Timings {
        Timings { last: std::env::var_os("LABCHECK_TIMINGS").map(|_| Instant::now()) }
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
