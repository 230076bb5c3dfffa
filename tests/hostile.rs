//! Submissions built to cost the grader memory or time, or to make it blame itself:
//! each gets a verdict on its own file, within bounds the tests set through rlimits
//! (memory) and generous upper bounds (time), and one submission's failure never costs
//! the class its results.

use crate::common::*;
use labcheck::envoy::process;
use serde_json::Value;
use std::os::unix::process::CommandExt;
use std::time::{Duration, Instant};

/// A YAML document of 53 KB whose one alias, naming a list of 1,000 values, is
/// repeated 17,000 times: 17 million values. It took 2.3 GB and 7 s.
fn wide_bomb() -> String {
    format!("a: &a [{}]\nb: [{}]\n", vec!["x"; 1000].join(","), vec!["*a"; 17_000].join(","))
}

/// The grader, run with at most `mib` MiB of address space. Measured: a run on the
/// reference, or with a wide bomb, fits in 64 MiB (before, the bomb aborted at 256).
fn within(mut cmd: std::process::Command, mib: u64) -> std::process::Output {
    let limit = libc::rlimit { rlim_cur: mib << 20, rlim_max: mib << 20 };
    // SAFETY: setrlimit in the child before exec, reading only `limit`.
    unsafe {
        cmd.pre_exec(move || {
            if libc::setrlimit(libc::RLIMIT_AS, &limit) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    cmd.output().unwrap()
}

fn json(out: &std::process::Output) -> Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|_| panic!("no JSON; stderr: {}", String::from_utf8_lossy(&out.stderr)))
}

fn check<'a>(report: &'a Value, id: &str) -> &'a Value {
    report["checks"].as_array().unwrap().iter().find(|c| c["id"] == id).unwrap_or_else(|| panic!("no check {id}"))
}

#[test]
fn a_wide_alias_bomb_gets_a_verdict_within_128_mib() {
    let c = Copy::sample();
    c.write("bootstrap.yaml", wide_bomb());
    c.write("inject.yaml", format!("kind: Deployment\n---\n{}", wide_bomb()));
    let start = Instant::now();
    let out = within(c.grade().no_envoy().std_command_with(None), 128);
    assert!(start.elapsed() < Duration::from_secs(30), "{:?}", start.elapsed());
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
    let report = json(&out);
    let exists = check(&report, "bootstrap.exists");
    assert_eq!(exists["status"], "fail");
    let says = exists["message"].as_str().unwrap();
    assert!(says.contains("expands to more than 100000 values, counting each value an alias repeats"), "{says}");
    assert_eq!(check(&report, "bootstrap.node_id")["status"], "fail");
    assert!(check(&report, "inject.exists")["message"].as_str().unwrap().contains("document 2: it expands to more than"));
    // Files that do not hold a bomb, nor derive from one, are graded as ever.
    for id in ["node.exists", "typo_txt.exists", "typo.exists", "report.explanations"] {
        assert_eq!(check(&report, id)["status"], "pass", "{id}");
    }
}

/// One long string, repeated by aliases in three files: few values, but 400 MB of text
/// each (it took 2.7 GB and 10 s, and a larger one aborted the grader and its class).
#[test]
fn a_long_string_repeated_by_aliases_gets_a_verdict_within_128_mib() {
    let bomb = format!("x: &x {}\ny: [{}]\n", "a".repeat(400_000), vec!["*x"; 1000].join(","));
    let c = Copy::sample();
    for f in ["bootstrap.yaml", "boot-typo.yaml", "inject.yaml"] {
        c.write(f, &bomb);
    }
    let out = within(c.grade().no_envoy().std_command_with(None), 128);
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
    let report = json(&out);
    for id in ["bootstrap.exists", "typo.exists", "inject.exists"] {
        let c = check(&report, id);
        assert_eq!(c["status"], "fail", "{id}");
        assert!(c["message"].as_str().unwrap().contains("bytes of text, counting each text an alias repeats"), "{c}");
    }
    assert_eq!(check(&report, "node.exists")["status"], "pass");
}

#[test]
fn an_alias_bomb_from_the_instructor_side_is_refused_too() {
    let lab = tempfile::tempdir().unwrap();
    for f in std::fs::read_dir(sample_lab().parent().unwrap()).unwrap() {
        let f = f.unwrap();
        std::fs::copy(f.path(), lab.path().join(f.file_name())).unwrap();
    }
    // A lab file: the checks that need it cannot be checked, the grader's trouble.
    std::fs::write(lab.path().join("mesh-config.yaml"), wide_bomb()).unwrap();
    let out = within(Grade::sample().params(lab.path().join("params.yaml")).no_envoy().std_command_with(None), 128);
    assert_eq!(out.status.code(), Some(2));
    let mesh = check(&json(&out), "mesh.ca_addr_same").clone();
    assert_eq!(mesh["status"], "error");
    assert!(mesh["message"].as_str().unwrap().contains("does not parse: it expands to more than"), "{mesh}");
    // The params file and a spec: refused before grading, with the reason.
    std::fs::write(lab.path().join("bomb.yaml"), wide_bomb()).unwrap();
    let bomb = lab.path().join("bomb.yaml");
    for args in [vec!["--params", bomb.to_str().unwrap()], vec!["--spec", bomb.to_str().unwrap()]] {
        let out = within(Grade::sample().no_params().no_envoy().args(&args).std_command_with(None), 128);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains("it expands to more than 100000 values"), "{args:?}: {stderr}");
    }
}

/// boot-typo.yaml with this ADS cluster name.
fn typo_named(name: &str) -> Copy {
    let c = Copy::sample();
    let typo = c.read("boot-typo.yaml");
    let ads = typo.lines().find(|l| l.trim_start().starts_with("cluster_name:")).unwrap().to_string();
    let indent = &ads[..ads.len() - ads.trim_start().len()];
    c.edit("boot-typo.yaml", &ads, &format!("{indent}cluster_name: '{name}'"));
    c
}

/// Envoy's own words on each colon took the grader 33 s for a million colons (5 s for
/// 400,000); Envoy itself takes 0.1 s. Now 1.7 s in a debug build.
#[test]
fn a_cluster_name_of_a_million_colons_costs_linear_time() {
    let c = typo_named(&":".repeat(1_000_000));
    let start = Instant::now();
    let g = c.grade().arg("--no-live").run();
    assert!(start.elapsed() < Duration::from_secs(30), "{:?}", start.elapsed());
    assert_eq!(g.status("typo.rejected"), "pass");
    assert_eq!(g.status("typo_txt.rejection"), "fail", "{}", g.message("typo_txt.rejection"));
    assert_eq!(g.code, Some(1));
}

/// Envoy quotes a 10,000-word cluster name in full; the pattern made of its words was
/// too large for the regex size limit, and the check an `error` (exit 2).
#[test]
fn a_ten_thousand_word_cluster_name_is_the_students_not_the_graders() {
    let words: Vec<String> = (0..10_000).map(|i| format!("w{}", i % 13)).collect();
    let c = typo_named(&words.join(" "));
    // The student's own run of Envoy on the file, kept as the lab asks.
    let run = std::process::Command::new(envoy())
        .args(["--mode", "validate", "-c", "boot-typo.yaml", "--disable-hot-restart"])
        .current_dir(c.path())
        .output()
        .unwrap();
    let mut kept = run.stdout;
    kept.extend(run.stderr);
    kept.extend(format!("rc={}\n", run.status.code().unwrap()).bytes());
    c.write("05-typo.txt", &kept);
    let g = c.grade().arg("--no-live").run();
    assert_eq!(g.status("typo_txt.rejection"), "pass", "{}", g.message("typo_txt.rejection"));
    assert_eq!(g.status("typo.rejected"), "pass");
    // Another file's words fail, as the student's, with the reason whole.
    c.write("05-typo.txt", Copy::sample().read("05-typo.txt"));
    let g = c.grade().arg("--no-live").run();
    assert_eq!(g.status("typo_txt.rejection"), "fail");
    assert!(g.message("typo_txt.rejection").contains("05-typo.txt does not hold what envoy --mode validate prints for your boot-typo.yaml"), "{}", g.message("typo_txt.rejection"));
    assert_eq!(g.code, Some(1));
}

/// 50,000 static clusters in 940 KB passed the screen; each Envoy then took 1-1.7 GB
/// and over 30 s, and the live checks timed out as `error`.
#[test]
fn a_bootstrap_too_heavy_for_envoy_is_refused_before_envoy_sees_it() {
    let c = Copy::sample();
    let boot = c.read("bootstrap.yaml");
    let many: String = (0..50_000).map(|i| format!("  - {{name: c{i}}}\n")).collect();
    c.edit("bootstrap.yaml", "static_resources:\n  clusters:\n", &format!("static_resources:\n  clusters:\n{many}"));
    assert!(c.read("bootstrap.yaml").len() < 1 << 20 && boot.len() < 2000);
    let wrapper = Wrapper::new();
    let start = Instant::now();
    let out = c.grade().launch().command_with(Some(&wrapper)).output().unwrap();
    assert!(start.elapsed() < Duration::from_secs(60), "{:?}", start.elapsed());
    assert_eq!(out.status.code(), Some(1));
    let report = json(&out);
    let said = check(&report, "bootstrap.validates")["message"].as_str().unwrap().to_string();
    assert!(said.contains("it has 50001 static clusters, more than the 100 the grader gives Envoy"), "{said}");
    assert_eq!(check(&report, "node.live")["status"], "skip");
    assert!(check(&report, "node.live")["message"].as_str().unwrap().contains("bootstrap.validates (step 4) charges it"));
    // Only boot-typo.yaml, which is light, reached Envoy.
    let starts = wrapper.starts();
    assert_eq!(starts.len(), 1, "{starts:?}");
    assert!(starts[0].contains("boot-typo.yaml"));
}

/// Envoy given less memory than it needs (here through the documented variable, as a
/// heavy file would need more than the default): the file's checks fail and say so,
/// in validation and launch alike, never as the grader's error.
#[test]
fn an_envoy_out_of_memory_fails_the_file() {
    let g = Grade::sample().launch().env("LABCHECK_ENVOY_MEMORY_MIB", "20").run();
    let validates = g.message("bootstrap.validates");
    assert_eq!(g.status("bootstrap.validates"), "fail");
    assert!(validates.contains("Envoy needed more than 20 MiB of memory for bootstrap.yaml"), "{validates}");
    assert_eq!(g.status("typo.rejected"), "fail", "a rejection by running out is no rejection");
    assert!(g.message("typo.rejected").contains("for boot-typo.yaml"));
    assert_eq!(g.status("node.live"), "skip");
    // A file Envoy could not validate is not launched: the live checks say why.
    assert!(g.message("node.live").contains("Envoy needed more than 20 MiB of memory for bootstrap.yaml"), "{}", g.message("node.live"));
    assert!(g.with("error").is_empty(), "{:?}", g.with("error"));
    assert_eq!(g.code, Some(1));
}

/// An Envoy spinning on the CPU (a real one, on a file within the screen's bounds,
/// takes 0.15 s at most; this stands in for one that would not stop): stopped at its
/// CPU limit, and the file's checks fail.
#[test]
fn an_envoy_out_of_cpu_time_fails_the_file() {
    let spinning = Wrapper::with_body("while :; do :; done");
    let start = Instant::now();
    let out = Grade::sample().arg("--no-live").env("LABCHECK_ENVOY_CPU_SECONDS", "1").command_with(Some(&spinning)).output().unwrap();
    assert!(start.elapsed() < Duration::from_secs(25), "{:?}", start.elapsed());
    let report = json(&out);
    let validates = check(&report, "bootstrap.validates");
    assert_eq!(validates["status"], "fail");
    assert!(validates["message"].as_str().unwrap().contains("Envoy needed more than 1 s of CPU time for bootstrap.yaml"), "{validates}");
    assert_eq!(out.status.code(), Some(1));
}

/// A private directory stays private under any umask: Envoy runs in it, and records
/// its mode as it starts (validation and launch alike).
#[test]
fn private_directories_are_0700_whatever_the_umask() {
    for umask in [0o000, 0o022] {
        let recording = Wrapper::with_body("stat -c %a . >> \"$LOG.modes\"\nexec \"$REAL\" \"$@\"");
        let mut cmd = Grade::sample().launch().std_command_with(Some(&recording));
        // SAFETY: umask in the child before exec.
        unsafe {
            cmd.pre_exec(move || {
                libc::umask(umask);
                Ok(())
            });
        }
        let out = cmd.output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stdout));
        let modes = std::fs::read_to_string(recording.path.with_file_name("starts.modes")).unwrap();
        assert_eq!(modes.lines().collect::<Vec<_>>(), vec!["700"; 3], "umask {umask:o}");
    }
}

/// One submission's grading panics (through the debug-only test hook: no submission is
/// known to make the grader panic): it gets an error result that says so, the others
/// are graded and reported, and no Envoy outlives the run.
#[test]
fn one_panicking_submission_costs_only_itself() {
    let parent = tempfile::tempdir().unwrap();
    for name in ["alice", "bob", "carol"] {
        std::fs::rename(Copy::sample().dir.keep(), parent.path().join(name)).unwrap();
    }
    let out_dir = tempfile::tempdir().unwrap();
    for jobs in ["1", "3"] {
        let g = Grade::batch(parent.path())
            .launch()
            .args(&["--jobs", jobs, "--out", out_dir.path().to_str().unwrap()])
            .env("LABCHECK_TEST_PANIC_ON", "bob")
            .run();
        assert_eq!(g.code, Some(2));
        let reports = g.json.as_ref().unwrap().as_array().unwrap();
        for r in reports {
            let bob = r["submission"].as_str().unwrap().ends_with("/bob");
            for c in r["checks"].as_array().unwrap() {
                if bob {
                    assert_eq!(c["status"], "error");
                    assert!(c["message"].as_str().unwrap().contains("grading this submission failed (the grader panicked: LABCHECK_TEST_PANIC_ON names this submission)"), "{c}");
                } else {
                    assert_eq!(c["status"], "pass", "{c}");
                }
            }
        }
        assert_eq!(reports.len(), 3);
        // Two validations, shared by the three identical bootstraps, and two launches.
        assert_eq!(g.envoy_pids.len(), 4, "{:?}", g.envoy_pids);
        for name in ["alice", "bob", "carol", "class"] {
            assert!(out_dir.path().join(format!("{name}.json")).is_file(), "{name}.json (--jobs {jobs})");
        }
    }
}

/// A panic unwinding through a running child's guard stops the child.
#[test]
fn a_panic_stops_the_children_it_unwinds_past() {
    let pid = std::sync::Mutex::new(0);
    let caught = std::panic::catch_unwind(|| {
        let mut cmd = std::process::Command::new("sleep");
        cmd.arg("30");
        let child = process::spawn(cmd).unwrap();
        *pid.lock().unwrap() = child.pid() as i32;
        panic!("while the child runs");
    });
    assert!(caught.is_err());
    let pid = *pid.lock().unwrap();
    assert!(pid > 0 && !alive(pid), "{pid} outlived the panic");
}
