//! Grading a class: many submissions in one run, reports per submission, class
//! statistics, Envoy validations shared by content, launches bounded.


use crate::common::*;
use serde_json::Value;

/// A class: three copies of the reference, two of them with the same wrong role.
fn class() -> tempfile::TempDir {
    let parent = tempfile::tempdir().unwrap();
    for name in ["alice", "bob", "carol"] {
        let c = Copy::sample();
        let dir = parent.path().join(name);
        std::fs::rename(c.dir.keep(), &dir).unwrap();
    }
    for name in ["bob", "carol"] {
        let f = parent.path().join(name).join("01-args.txt");
        let t = std::fs::read_to_string(&f).unwrap().replace("role=sidecar", "role=proxy");
        std::fs::write(f, t).unwrap();
    }
    std::fs::remove_file(parent.path().join("carol/08-report.md")).unwrap();
    parent
}

#[test]
fn a_batch_writes_reports_and_class_statistics() {
    let parent = class();
    let out = tempfile::tempdir().unwrap();
    let res = Grade::batch(parent.path()).no_envoy().args(&["--out", out.path().to_str().unwrap()]).text().command().output().unwrap();
    assert_eq!(res.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&res.stdout);
    assert!(stdout.contains("3 submissions: 1 with every check passed"), "{stdout}");
    assert!(res.stderr.is_empty(), "no progress bar outside a terminal: {}", String::from_utf8_lossy(&res.stderr));

    for name in ["alice", "bob", "carol"] {
        for ext in ["txt", "json", "junit.xml", "tap", "gradescope.json"] {
            assert!(out.path().join(format!("{name}.{ext}")).is_file(), "{name}.{ext}");
        }
    }
    let bob: Value = serde_json::from_str(&std::fs::read_to_string(out.path().join("bob.json")).unwrap()).unwrap();
    assert_eq!(bob["score"].as_u64().unwrap() + 1, bob["max_score"].as_u64().unwrap());

    let class: Value = serde_json::from_str(&std::fs::read_to_string(out.path().join("class.json")).unwrap()).unwrap();
    assert_eq!(class["submissions"], 3);
    let role = class["checks"].as_array().unwrap().iter().find(|c| c["id"] == "args.role").unwrap();
    assert_eq!(role["passed"], 1);
    assert_eq!(role["failed"], 2);
    assert_eq!(role["wrong_values"][0]["value"], "proxy");
    assert_eq!(role["wrong_values"][0]["count"], 2);
    assert!(out.path().join("class.csv").is_file() && out.path().join("class.html").is_file());
}

#[test]
fn one_validation_per_distinct_bootstrap() {
    let parent = class();
    let wrapper = Wrapper::new();
    let mut cmd = Grade::new(parent.path().join("alice")).also(parent.path().join("bob")).also(parent.path().join("carol")).arg("--no-live").command_with(Some(&wrapper));
    let out = cmd.output().unwrap();
    let reports: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(reports.as_array().unwrap().len(), 3);
    // Three identical bootstraps and three identical typo files: two runs of Envoy.
    assert_eq!(wrapper.starts().len(), 2, "{:?}", wrapper.starts());
    for r in reports.as_array().unwrap() {
        let v = r["checks"].as_array().unwrap().iter().find(|c| c["id"] == "bootstrap.validates").unwrap();
        assert_eq!(v["status"], "pass");
    }
}

#[test]
fn launches_are_bounded_by_jobs_and_all_stopped() {
    let parent = tempfile::tempdir().unwrap();
    let mut dirs = Vec::new();
    for i in 0..4 {
        let c = Copy::sample();
        let d = parent.path().join(format!("s{i}"));
        std::fs::rename(c.dir.keep(), &d).unwrap();
        dirs.push(d);
    }
    // Record when each launched Envoy starts and ends.
    let wrapper = Wrapper::with_body(
        r#"case "$*" in *admin-address-path*) K=launch;; *) K=validate;; esac
trap 'echo "end $K $(date +%s%N)" >> "$LOG.times"; exit 0' TERM
echo "start $K $(date +%s%N)" >> "$LOG.times"
"$REAL" "$@"
rc=$?
echo "end $K $(date +%s%N)" >> "$LOG.times"
exit $rc"#,
    );
    let mut g = Grade::new(&dirs[0]);
    for d in &dirs[1..] {
        g = g.also(d);
    }
    let out = g.launch().args(&["--jobs", "2"]).command_with(Some(&wrapper)).output().unwrap();
    let reports: Value = serde_json::from_slice(&out.stdout).unwrap();
    for r in reports.as_array().unwrap() {
        assert_eq!(r["score"], r["max_score"], "{}", r["submission"]);
    }
    let times = std::fs::read_to_string(wrapper.path.parent().unwrap().join("starts.times")).unwrap();
    let mut events: Vec<(u128, i32)> = times
        .lines()
        .filter(|l| l.contains(" launch "))
        .map(|l| {
            let p: Vec<&str> = l.split(' ').collect();
            (p[2].parse().unwrap(), if p[0] == "start" { 1 } else { -1 })
        })
        .collect();
    assert_eq!(events.iter().filter(|e| e.1 == 1).count(), 4, "{times}");
    assert_eq!(events.iter().filter(|e| e.1 == -1).count(), 4, "every launch ended: {times}");
    events.sort();
    let (mut now, mut most) = (0, 0);
    for (_, d) in events {
        now += d;
        most = most.max(now);
    }
    assert!(most <= 2, "{most} Envoys ran at once with --jobs 2");
    for pid in wrapper.pids() {
        assert!(!alive(pid));
    }
}

#[test]
fn a_batch_says_what_it_leaves_out() {
    let parent = class();
    std::fs::create_dir(parent.path().join(".git")).unwrap();
    std::fs::create_dir(parent.path().join(".dave")).unwrap();
    std::fs::write(parent.path().join(".DS_Store"), "").unwrap();
    std::fs::write(parent.path().join("frank.zip"), "PK").unwrap();
    std::os::unix::fs::symlink(parent.path().join("alice"), parent.path().join("eve")).unwrap();
    let out = tempfile::tempdir().unwrap();
    let res = Grade::batch(parent.path()).no_envoy().text().args(&["--out", out.path().to_str().unwrap()]).command().output().unwrap();
    let stdout = String::from_utf8_lossy(&res.stdout);
    let stderr = String::from_utf8_lossy(&res.stderr);
    assert!(stdout.contains("3 submissions"), "{stdout}");
    // The class files name them too: the instructor's gradebook does not just lack them.
    let class: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(out.path().join("class.json")).unwrap()).unwrap();
    let left: Vec<(&str, &str)> = class["left_out"].as_array().unwrap().iter().map(|l| (l["name"].as_str().unwrap(), l["why"].as_str().unwrap())).collect();
    assert_eq!(left, [(".dave", "a hidden folder"), (".git", "a hidden folder"), ("eve", "a symbolic link (not followed)"), ("frank.zip", "not a folder")]);
    let html = std::fs::read_to_string(out.path().join("class.html")).unwrap();
    assert!(html.contains("Left out, not graded") && html.contains("frank.zip (not a folder)"), "{html}");
    assert!(stderr.contains("skipped hidden directories (not graded): .dave, .git\n"), "{stderr}");
    assert!(stderr.contains("eve: a symbolic link, not a submission directory of its own"), "{stderr}");
    assert!(!stderr.contains(".DS_Store"), "hidden files are no submissions to mention: {stderr}");
    assert!(stderr.contains("skipped what is not a directory (not graded): frank.zip\n"), "{stderr}");
}

/// A submission named `class`, or `x` beside `x.gradescope`, must not overwrite another
/// submission's report or the class statistics in `--out`.
#[test]
fn out_files_never_collide() {
    let parent = tempfile::tempdir().unwrap();
    for name in ["class", "x", "x.gradescope"] {
        std::fs::rename(Copy::sample().dir.keep(), parent.path().join(name)).unwrap();
    }
    // `x` alone fails a check, so its reports differ from the others'.
    let f = parent.path().join("x/01-args.txt");
    std::fs::write(&f, std::fs::read_to_string(&f).unwrap().replace("role=sidecar", "role=proxy")).unwrap();
    let out = tempfile::tempdir().unwrap();
    let res = Grade::batch(parent.path()).no_envoy().args(&["--out", out.path().to_str().unwrap()]).text().command().output().unwrap();
    assert_eq!(res.status.code(), Some(1), "{}", String::from_utf8_lossy(&res.stderr));
    let read = |f: &str| -> Value { serde_json::from_str(&std::fs::read_to_string(out.path().join(f)).unwrap()).unwrap() };

    let class = read("class.json");
    assert_eq!(class["submissions"], 3, "class.json is the class statistics");
    // Each under its own name; its report files under a name of their own.
    let names: Vec<(&str, &str)> =
        class["submission_scores"].as_array().unwrap().iter().map(|s| (s["name"].as_str().unwrap(), s["report"].as_str().unwrap())).collect();
    assert_eq!(names, [("class", "class-2"), ("x", "x"), ("x.gradescope", "x_gradescope")]);
    assert!(read("class-2.json")["submission"].as_str().unwrap().ends_with("/class"));

    // x's Gradescope results, not the JSON report of x.gradescope.
    let x = read("x.gradescope.json");
    assert!(x["tests"].is_array(), "{x}");
    assert!(x["score"].as_f64().unwrap() < read("x_gradescope.gradescope.json")["score"].as_f64().unwrap());
    assert!(read("x_gradescope.json")["submission"].as_str().unwrap().ends_with("/x.gradescope"));
}
