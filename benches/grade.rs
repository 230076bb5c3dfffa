//! `make bench`: the speed goals, each measured side by side in one run.
//!
//! (a) a full grade (`--no-live`, both validations) against Envoy alone doing the same
//!     two validations at once: goal 1.2x or less;
//! (b) one submission with `--no-envoy`, whole process: goal 10 ms or less;
//! (c) 1000 submissions with `--no-envoy --out DIR`: goal 2 s or less (2 cores).
//!
//! Figures, not pass/fail: a loaded machine should not fail a build, but a person
//! running this sees at once whether a change made grading slower. Runs of the things
//! compared alternate, so that what else the machine does slows both alike.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const PARAMS: &str = "sample-answers/lab/params.yaml";
const SAMPLE: &str = "sample-answers/ist2-boot";

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn labcheck(args: &[&str]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_labcheck"));
    c.current_dir(root()).args(["grade", "--params", PARAMS]).args(args).stdout(Stdio::null()).stderr(Stdio::null());
    c
}

/// How long `c` takes; it must exit with `code`, or the figure would be of something else.
fn time(c: &mut Command, code: i32) -> Duration {
    let start = Instant::now();
    let status = c.status().expect("the command runs");
    let took = start.elapsed();
    assert_eq!(status.code(), Some(code), "{c:?} exited with {status}");
    took
}

fn median(mut times: Vec<Duration>) -> Duration {
    times.sort();
    times[times.len() / 2]
}

fn ms(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1000.0)
}

fn verdict(ok: bool) -> &'static str {
    if ok { "within the goal" } else { "ABOVE the goal" }
}

/// (a): the grader with both validations, and Envoy validating the same two files at
/// once, as the grader does, alternately.
fn full_grade(envoy: &Path) {
    let files = ["bootstrap.yaml", "boot-typo.yaml"];
    let envoy_alone = || {
        let start = Instant::now();
        let running: Vec<_> = files
            .iter()
            .map(|f| {
                Command::new(envoy)
                    .current_dir(root().join(SAMPLE))
                    .args(["--mode", "validate", "-c", f, "--disable-hot-restart", "--log-level", "info"])
                    .stdout(Stdio::null())
                    .stderr(Stdio::null())
                    .spawn()
                    .expect("Envoy starts")
            })
            .collect();
        for mut r in running {
            r.wait().expect("Envoy ends");
        }
        start.elapsed()
    };
    let envoy_flag = envoy.to_str().expect("a UTF-8 path");
    let (mut grader, mut alone) = (Vec::new(), Vec::new());
    for _ in 0..20 {
        alone.push(envoy_alone());
        grader.push(time(&mut labcheck(&["--no-live", "--envoy", envoy_flag, SAMPLE]), 0));
    }
    let (g, e) = (median(grader), median(alone));
    let ratio = g.as_secs_f64() / e.as_secs_f64();
    println!("(a) full grade, --no-live: {} ; Envoy alone, the same two validations at once: {} ; {ratio:.2}x, goal 1.2x: {}", ms(g), ms(e), verdict(ratio <= 1.2));
}

/// (b): one submission without Envoy, beside `true` for the machine's own start-up cost.
fn one_submission() {
    let (mut grader, mut base) = (Vec::new(), Vec::new());
    for _ in 0..200 {
        base.push(time(&mut Command::new("true"), 0));
        grader.push(time(&mut labcheck(&["--no-envoy", "--format", "json", SAMPLE]), 0));
    }
    let g = median(grader);
    println!("(b) one submission, --no-envoy, whole process: {} (true: {}), goal 10 ms: {}", ms(g), ms(median(base)), verdict(g <= Duration::from_millis(10)));
}

/// (c): a class of 1000 copies of the reference, with every report written.
fn class_of_1000() {
    let class = tempfile::tempdir().expect("tempdir");
    for i in 0..1000 {
        let d = class.path().join(format!("s{i:04}"));
        std::fs::create_dir(&d).unwrap();
        for e in std::fs::read_dir(root().join(SAMPLE)).unwrap() {
            let e = e.unwrap();
            std::fs::copy(e.path(), d.join(e.file_name())).unwrap();
        }
    }
    let out = tempfile::tempdir().expect("tempdir");
    let (out_s, class_s) = (out.path().to_str().unwrap(), class.path().to_str().unwrap());
    let runs: Vec<Duration> = (0..3).map(|_| time(&mut labcheck(&["--no-envoy", "--out", out_s, "--batch", class_s]), 0)).collect();
    let m = median(runs);
    println!("(c) 1000 submissions, --no-envoy --out DIR, whole process: {}, goal 2 s: {}", ms(m), verdict(m <= Duration::from_secs(2)));
}

fn main() {
    println!("labcheck bench on {} cores", std::thread::available_parallelism().map_or(1, |n| n.get()));
    let envoy = std::env::var_os("LABCHECK_TEST_ENVOY").filter(|e| !e.is_empty()).map(PathBuf::from).or_else(labcheck::envoy::binary::from_python);
    match envoy {
        Some(e) => full_grade(&e),
        None => println!("(a) Envoy not found (run `make envoy`): no figure"),
    }
    one_submission();
    class_of_1000();
}
