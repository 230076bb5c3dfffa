//! `make bench`: the speed goals, each measured side by side in one run.
//!
//! (a) a full grade (`--no-live`, both validations) against Envoy alone doing the same
//!     two validations at once: goal 1.2x or less;
//! (b) one submission with `--no-envoy`, whole process: goal 10 ms or less;
//! (c) 1000 submissions with `--no-envoy --out DIR`: goal 2 s or less (2 cores).
//!
//! Figures, not pass/fail: a loaded machine should not fail a build, but a person
//! running this sees at once whether a change made grading slower. Runs of the things
//! compared alternate, so that what else the machine does slows both alike; the load
//! average is printed with each figure. `LABCHECK_BENCH_BASELINE=PATH` adds another
//! build of labcheck (the one before a change) to every comparison, run in turn with
//! this one: the gain of a change, measured in the same minutes.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const PARAMS: &str = "sample-answers/lab/params.yaml";
const SAMPLE: &str = "sample-answers/ist2-boot";

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The builds measured: this one, then the baseline if one is given.
fn builds() -> Vec<(&'static str, PathBuf)> {
    let mut out = vec![("this build", PathBuf::from(env!("CARGO_BIN_EXE_labcheck")))];
    if let Some(b) = std::env::var_os("LABCHECK_BENCH_BASELINE").filter(|b| !b.is_empty()) {
        out.push(("baseline", PathBuf::from(b)));
    }
    out
}

fn labcheck(bin: &Path, args: &[&str]) -> Command {
    let mut c = Command::new(bin);
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

/// The machine's load average over the last minute, as /proc/loadavg says.
fn load() -> String {
    let avg = std::fs::read_to_string("/proc/loadavg").ok().and_then(|l| l.split_whitespace().next().map(String::from));
    format!("load {}", avg.as_deref().unwrap_or("unknown"))
}

fn verdict(ok: bool) -> &'static str {
    if ok { "MET" } else { "MISSED" }
}

/// (a): each build with both validations, and Envoy validating the same two files at
/// once, as the grader does, alternately.
fn full_grade(envoy: &Path, builds: &[(&str, PathBuf)]) -> bool {
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
    let mut alone = Vec::new();
    let mut graded: Vec<Vec<Duration>> = builds.iter().map(|_| Vec::new()).collect();
    // 60 rounds: a run's time varies by a few ms here, as much as a change may gain.
    for _ in 0..60 {
        alone.push(envoy_alone());
        for ((_, bin), times) in builds.iter().zip(&mut graded) {
            times.push(time(&mut labcheck(bin, &["--no-live", "--envoy", envoy_flag, SAMPLE]), 0));
        }
    }
    let e = median(alone);
    let ratios: Vec<(Duration, f64)> = graded.into_iter().map(median).map(|g| (g, g.as_secs_f64() / e.as_secs_f64())).collect();
    println!("(a) full grade, --no-live, against Envoy alone doing the same two validations at once ({}): Envoy alone {}", load(), ms(e));
    for ((name, _), (g, ratio)) in builds.iter().zip(&ratios) {
        println!("    {name}: {} , {ratio:.2}x", ms(*g));
    }
    let met = ratios[0].1 <= 1.2;
    println!("    goal 1.2x: {}", verdict(met));
    met
}

/// (b): one submission without Envoy, beside `true` for the machine's own start-up cost.
fn one_submission(builds: &[(&str, PathBuf)]) -> bool {
    let mut base = Vec::new();
    let mut graded: Vec<Vec<Duration>> = builds.iter().map(|_| Vec::new()).collect();
    for _ in 0..200 {
        base.push(time(&mut Command::new("true"), 0));
        for ((_, bin), times) in builds.iter().zip(&mut graded) {
            times.push(time(&mut labcheck(bin, &["--no-envoy", "--format", "json", SAMPLE]), 0));
        }
    }
    let medians: Vec<Duration> = graded.into_iter().map(median).collect();
    println!("(b) one submission, --no-envoy, whole process ({}): `true` takes {}", load(), ms(median(base)));
    for ((name, _), g) in builds.iter().zip(&medians) {
        println!("    {name}: {}", ms(*g));
    }
    let met = medians[0] <= Duration::from_millis(10);
    println!("    goal 10 ms: {}", verdict(met));
    met
}

/// (c): a class of 1000 copies of the reference, with every report written, each run
/// into a new folder.
fn class_of_1000(builds: &[(&str, PathBuf)]) -> bool {
    let class = tempfile::tempdir().expect("tempdir");
    for i in 0..1000 {
        let d = class.path().join(format!("s{i:04}"));
        std::fs::create_dir(&d).unwrap();
        for e in std::fs::read_dir(root().join(SAMPLE)).unwrap() {
            let e = e.unwrap();
            std::fs::copy(e.path(), d.join(e.file_name())).unwrap();
        }
    }
    let class_s = class.path().to_str().unwrap();
    let mut graded: Vec<Vec<Duration>> = builds.iter().map(|_| Vec::new()).collect();
    // Removed only at the end, the disk's own files too: ext4 passes over the inodes of
    // files removed in the last minutes when it makes new ones, so a run after a removal
    // of 5000 reports pays for it.
    let (disk, _files) = disk_alone();
    let mut outs = Vec::new();
    for _ in 0..3 {
        for ((_, bin), times) in builds.iter().zip(&mut graded) {
            let out = tempfile::tempdir().expect("tempdir");
            times.push(time(&mut labcheck(bin, &["--no-envoy", "--out", out.path().to_str().unwrap(), "--batch", class_s]), 0));
            outs.push(out);
        }
    }
    let medians: Vec<Duration> = graded.into_iter().map(median).collect();
    println!("(c) 1000 submissions, --no-envoy --out DIR, whole process ({}): the disk alone makes their 5000 files in {}", load(), ms(disk));
    for ((name, _), g) in builds.iter().zip(&medians) {
        println!("    {name}: {}", ms(*g));
    }
    let met = medians[0] <= Duration::from_secs(2);
    println!("    goal 2 s: {}", verdict(met));
    met
}

/// What the disk alone takes to make the files of (c): 5000 new files of 20 KB in a new
/// folder, as `--out` writes them. Beside (c)'s figure it tells a slow disk from a slow
/// grader: ext4 (without a journal) makes a file slowly for some minutes after many were
/// removed, as a build (or an earlier bench) does, and (c) then takes seconds more.
fn disk_alone() -> (Duration, tempfile::TempDir) {
    let dir = tempfile::tempdir().expect("tempdir");
    let content = vec![b'x'; 20_000];
    let start = Instant::now();
    for i in 0..5000 {
        std::fs::write(dir.path().join(format!("f{i}")), &content).expect("a file written");
    }
    (start.elapsed(), dir)
}

fn main() {
    println!("labcheck bench on {} cores, {}", std::thread::available_parallelism().map_or(1, |n| n.get()), load());
    let builds = builds();
    let envoy = std::env::var_os("LABCHECK_TEST_ENVOY").filter(|e| !e.is_empty()).map(PathBuf::from).or_else(labcheck::envoy::binary::from_python);
    let a = match envoy {
        Some(e) => Some(full_grade(&e, &builds)),
        None => {
            println!("(a) Envoy not found (run `make envoy`): no figure");
            None
        }
    };
    let b = one_submission(&builds);
    let c = class_of_1000(&builds);
    let said = |g: Option<bool>| g.map_or("no figure", verdict);
    println!("goals: (a) {}, (b) {}, (c) {}", said(a), said(Some(b)), said(Some(c)));
}
