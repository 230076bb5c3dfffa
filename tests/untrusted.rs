//! Hostile or broken submissions: each case gets a clear verdict on its own check,
//! every other check is left intact, nothing hangs, nothing outside the submission is
//! read, and nothing is written into the submission.


use crate::common::*;
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

/// Statuses of the reference without Envoy: every check passes or is skipped.
fn reference() -> BTreeMap<String, String> {
    statuses(&Grade::sample().no_envoy().run())
}

fn statuses(g: &Graded) -> BTreeMap<String, String> {
    g.checks().iter().map(|c| (c["id"].as_str().unwrap().to_string(), c["status"].as_str().unwrap().to_string())).collect()
}

/// Grade `c`, then assert that checks on `file` fail, the `exists` check says `says`,
/// and every other check is as in the reference: those on another file, and those the
/// run skips (no file can change a choice of the run).
fn isolated(c: &Copy, file: &str, exists_id: &str, says: &str) -> Graded {
    let start = Instant::now();
    let g = c.grade().no_envoy().run();
    assert!(start.elapsed() < Duration::from_secs(20), "grading took {:?}", start.elapsed());
    let msg = g.message(exists_id);
    assert_eq!(g.status(exists_id), "fail");
    assert!(msg.contains(says), "{exists_id}: {msg}");
    let reference = reference();
    for c in g.checks() {
        let id = c["id"].as_str().unwrap();
        let on_file = c["where"].as_str().unwrap_or("").starts_with(file);
        if on_file && reference[id] != "skip" {
            assert_eq!(c["status"], "fail", "{id} is on {file}");
        } else {
            assert_eq!(c["status"].as_str().unwrap(), reference[id], "{id} changed");
        }
    }
    assert_eq!(g.code, Some(1));
    g
}

#[test]
fn file_problem() {
    let c = Copy::sample();
    c.remove("07-identity.txt");
    isolated(&c, "07-identity.txt", "identity.exists", "07-identity.txt is missing");
}

#[test]
fn empty_file() {
    let c = Copy::sample();
    c.write("07-identity.txt", "");
    isolated(&c, "07-identity.txt", "identity.exists", "is empty");
}

#[test]
fn random_bytes() {
    // A fixed pseudo-random stream, so the case is the same every run.
    let mut x: u32 = 0x2545_f491;
    let bytes: Vec<u8> = (0..4096)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            (x >> 24) as u8
        })
        .collect();
    let c = Copy::sample();
    c.write("06-node.json", &bytes);
    isolated(&c, "06-node.json", "node.exists", "is not UTF-8 text");
}

#[test]
fn garbage_text_is_not_json() {
    let c = Copy::sample();
    c.write("06-node.json", "id=sidecar\n{{{ not json");
    isolated(&c, "06-node.json", "node.exists", "06-node.json is not valid JSON");
}

#[test]
fn file_of_60_mb_is_refused_unread() {
    let c = Copy::sample();
    let f = std::fs::File::create(c.file("07-identity.txt")).unwrap();
    f.set_len(60 << 20).unwrap();
    isolated(&c, "07-identity.txt", "identity.exists", "is too large (62914560 bytes; the limit is 1 MiB)");
}

#[test]
fn symlink_outside_is_never_followed() {
    let c = Copy::sample();
    c.remove("07-identity.txt");
    std::os::unix::fs::symlink("/etc/passwd", c.file("07-identity.txt")).unwrap();
    let g = isolated(&c, "07-identity.txt", "identity.exists", "symbolic link");
    assert!(!g.stdout.contains("root:"), "the target's content leaked");
    let text = c.grade().no_envoy().text().run();
    assert!(!text.stdout.contains("root:"));
}

#[test]
fn fifo_does_not_hang() {
    let c = Copy::sample();
    c.remove("07-identity.txt");
    let status = std::process::Command::new("mkfifo").arg(c.file("07-identity.txt")).status().unwrap();
    assert!(status.success());
    isolated(&c, "07-identity.txt", "identity.exists", "named pipe");
}

#[test]
fn directory_in_place_of_a_file() {
    let c = Copy::sample();
    c.remove("07-identity.txt");
    std::fs::create_dir(c.file("07-identity.txt")).unwrap();
    isolated(&c, "07-identity.txt", "identity.exists", "directory");
}

#[test]
fn invalid_utf8() {
    let c = Copy::sample();
    c.write("07-identity.txt", b"token_volume=istio-token\n\xff\xfe\n");
    isolated(&c, "07-identity.txt", "identity.exists", "not UTF-8 text (bad byte at offset 25)");
}

#[test]
fn deeply_nested_json() {
    let c = Copy::sample();
    c.write("06-node.json", "[".repeat(100_000));
    isolated(&c, "06-node.json", "node.exists", "nested too deeply");
}

#[test]
fn yaml_bombs_and_deep_nesting_in_the_bootstrap() {
    let bomb = "a: &a [x,x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\nf: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]\ng: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]\nh: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]\n";
    for (content, says) in [(bomb.to_string(), "alias"), ("{a: ".repeat(100_000), "nested more than"), ("[".repeat(100_000), "nested more than")] {
        let c = Copy::sample();
        c.write("bootstrap.yaml", &content);
        let start = Instant::now();
        // With Envoy: a bootstrap that does not parse is never handed to it.
        let g = c.grade().launch().run();
        assert!(start.elapsed() < Duration::from_secs(20));
        assert!(g.message("bootstrap.exists").contains(says), "{}", g.message("bootstrap.exists"));
        assert_eq!(g.status("bootstrap.validates"), "fail");
        // Steps that do not read the bootstrap are untouched.
        for id in ["inject.cluster_id", "args.domain", "env.ca_addr", "mesh.ca_addr_same", "identity.ca_mount", "typo_txt.rc"] {
            assert_eq!(g.status(id), "pass", "{id}");
        }
    }
}

#[test]
fn terminal_escapes_are_shown_escaped_in_every_format() {
    let c = Copy::sample();
    c.write("07-identity.txt", "token_volume=\u{1b}[2J\u{1b}[31mpwned\u{7}\u{202e}txt.exe\ntoken_audience=istio-ca\n");
    let text = c.grade().no_envoy().text().args(&["--color", "never", "--audience", "instructor"]).run();
    assert!(!text.stdout.contains('\u{1b}') && !text.stdout.contains('\u{7}') && !text.stdout.contains('\u{202e}'));
    assert!(text.stdout.contains("\\e[2J\\e[31mpwned\\u{7}\\u{202e}txt.exe"), "{}", text.stdout);
    let json = c.grade().no_envoy().run();
    assert!(!json.stdout.contains('\u{1b}'));
    assert_eq!(json.status("identity.token_volume"), "fail");
    assert_eq!(json.status("identity.token_audience"), "pass");
}

#[test]
fn duplicates_are_reported_not_guessed() {
    let c = Copy::sample();
    c.write("07-identity.txt", format!("{}token_volume=other\n", c.read("07-identity.txt")));
    let g = c.grade().no_envoy().run();
    assert_eq!(g.status("identity.token_volume"), "fail");
    assert!(g.message("identity.token_volume").contains("more than once (lines 1 and 6)"), "{}", g.message("identity.token_volume"));
    // A Kubernetes document: which one was meant would be a guess.
    let c = Copy::sample();
    c.edit("inject.yaml", "  replicas: 1\n", "  replicas: 1\n  replicas: 1\n");
    let g = c.grade().no_envoy().run();
    assert!(g.message("inject.exists").contains("duplicate key `replicas`"), "{}", g.message("inject.exists"));
    // An Envoy config is read as Envoy reads it: the last one (tests/envoy_modes.rs).
    let c = Copy::sample();
    c.edit("bootstrap.yaml", "  cluster: payments.default\n", "  cluster: payments.default\n  cluster: payments.default\n");
    assert_eq!(c.grade().no_envoy().run().status("bootstrap.exists"), "pass");
    let c = Copy::sample();
    c.edit("06-node.json", "\"cluster\": \"payments.default\",", "\"cluster\": \"payments.default\", \"cluster\": \"x\",");
    let g = c.grade().no_envoy().run();
    assert!(g.message("node.exists").contains("duplicate key `cluster`"), "{}", g.message("node.exists"));
}

#[test]
fn careful_variations_are_still_right() {
    // CRLF, trailing spaces, no final newline, other line order, JSON key order,
    // a bootstrap written as JSON.
    let c = Copy::sample();
    let env: Vec<String> = c.read("02-env.txt").lines().rev().map(|l| format!("{l}  \r\n")).collect();
    c.write("02-env.txt", env.concat().trim_end());
    c.write("03-mesh.txt", c.read("03-mesh.txt").replace('\n', "\r\n"));
    let node: serde_json::Value = serde_json::from_str(&c.read("06-node.json")).unwrap();
    let reordered = serde_json::json!({"metadata": node["metadata"], "cluster": node["cluster"], "id": node["id"]});
    c.write("06-node.json", reordered.to_string());
    let boot: serde_json::Value = serde_yaml::from_str(&c.read("bootstrap.yaml")).unwrap();
    c.write("bootstrap.yaml", serde_json::to_string_pretty(&boot).unwrap());
    let typo: serde_json::Value = serde_yaml::from_str(&c.read("boot-typo.yaml")).unwrap();
    c.write("boot-typo.yaml", serde_json::to_string(&typo).unwrap());
    c.grade().launch().run().assert_full_marks();
}

#[test]
fn grading_never_writes_into_the_submission() {
    let c = Copy::sample();
    let snapshot = |c: &Copy| -> Vec<(String, u64, std::time::SystemTime)> {
        let mut v: Vec<_> = std::fs::read_dir(c.path())
            .unwrap()
            .map(|e| {
                let e = e.unwrap();
                let m = e.metadata().unwrap();
                (e.file_name().to_string_lossy().into_owned(), m.len(), m.modified().unwrap())
            })
            .collect();
        v.sort();
        v
    };
    let before = snapshot(&c);
    c.grade().launch().run().assert_full_marks();
    c.grade().text().run();
    assert_eq!(before, snapshot(&c));
}

#[test]
fn a_submission_named_with_escapes_is_shown_escaped_in_every_format() {
    let parent = tempfile::tempdir().unwrap();
    let dir = parent.path().join("ep\u{1b}[31m\u{202e}\u{7}x");
    std::fs::rename(Copy::sample().dir.keep(), &dir).unwrap();
    let shown = format!("{}/ep\\e[31m\\u{{202e}}\\u{{7}}x", parent.path().display());
    let out = tempfile::tempdir().unwrap();
    for format in ["text", "json", "junit", "tap", "gradescope"] {
        let g = Grade::new(&dir)
            .also(&dir)
            .no_envoy()
            .text()
            .args(&["--format", format, "--out", out.path().to_str().unwrap()])
            .run();
        for raw in ['\u{1b}', '\u{202e}', '\u{7}'] {
            assert!(!g.stdout.contains(raw), "{format}: {raw:?} in\n{}", g.stdout);
        }
        if format != "gradescope" {
            // Gradescope's results.json does not name the submission.
            // JSON and TAP escape the backslashes of the escapes once more.
            let shown = if ["json", "tap"].contains(&format) { shown.replace('\\', "\\\\") } else { shown.clone() };
            assert!(g.stdout.contains(&shown), "{format}: no {shown} in\n{}", g.stdout);
        }
    }
    // The report files keep their names: the directory's, made file-name-safe.
    let json = std::fs::read_to_string(out.path().join("ep__31m__x.json")).unwrap();
    let report: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(report["submission"], shown);
    // The class files name it by its own name, escaped.
    let class: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(out.path().join("class.json")).unwrap()).unwrap();
    assert_eq!(class["submission_scores"][0]["name"], "ep\\e[31m\\u{202e}\\u{7}x", "{class}");
    assert_eq!(class["submission_scores"][0]["report"], "ep__31m__x", "{class}");
    for file in std::fs::read_dir(out.path()).unwrap() {
        let text = std::fs::read_to_string(file.unwrap().path()).unwrap();
        assert!(!text.contains('\u{1b}') && !text.contains('\u{202e}'));
    }
}

#[test]
fn paths_and_names_on_stderr_are_shown_escaped() {
    let tmp = tempfile::tempdir().unwrap();
    let hostile = tmp.path().join("\u{1b}]0;pwn\u{7}\u{1b}[2J\u{202e}x\ny");
    let h = hostile.to_str().unwrap();
    let shown = format!("{}/\\e]0;pwn\\u{{7}}\\e[2J\\u{{202e}}x\\ny", tmp.path().display());
    let runs = [
        Grade::new(&hostile).no_envoy(),
        Grade::batch(&hostile).no_envoy(),
        Grade::sample().params(&hostile).no_envoy(),
        Grade::sample().args(&["--spec", h]).no_envoy(),
        Grade::sample().param(&format!("mesh_config={h}")).no_envoy(),
        Grade::sample().param(&format!("{h}=1")).no_envoy(),
        Grade::sample().args(&["--report-json", &format!("{h}/r.json")]).no_envoy(),
        Grade::sample().args(&["--jobs", h]).no_envoy(),
    ];
    for g in runs {
        let g = g.run();
        for raw in ['\u{1b}', '\u{7}', '\u{202e}'] {
            assert!(!g.stderr.contains(raw), "{raw:?} in {}", g.stderr);
        }
        assert!(g.stderr.contains(&shown), "no {shown} in {}", g.stderr);
    }
}

#[test]
fn a_long_submission_path_is_shown_whole() {
    // Escaped like a value, but a path is never cut: CI paths run long.
    let root = tempfile::tempdir().unwrap();
    let deep = root.path().join("d".repeat(120)).join("e".repeat(120)).join("student");
    std::fs::create_dir_all(&deep).unwrap();
    for e in std::fs::read_dir(sample()).unwrap() {
        let e = e.unwrap();
        std::fs::copy(e.path(), deep.join(e.file_name())).unwrap();
    }
    let g = Grade::new(&deep).no_envoy().run();
    assert_eq!(g.report()["submission"], deep.to_str().unwrap());
}

/// A port spelled as YAML 1.2 allows but Envoy's YAML reader does not: Envoy reads
/// `0o23376` as text and refuses it, `023376` as octal 9982, and so does the grader.
#[test]
fn numbers_are_read_as_envoy_reads_them() {
    let spelled = |port: &str| {
        let c = Copy::sample();
        c.edit("bootstrap.yaml", "port_value: 9982", &format!("port_value: {port}"));
        c.grade().arg("--no-live").run()
    };
    let g = spelled("0o23376");
    assert_eq!((g.status("bootstrap.admin_port"), g.status("bootstrap.validates")), ("fail".into(), "fail".into()));
    assert_eq!(g.failing_steps(), [4].into());
    let g = spelled("023376");
    assert_eq!((g.status("bootstrap.admin_port"), g.status("bootstrap.validates")), ("pass".into(), "pass".into()));
}
