//! The reports as their real readers read them: xmllint with the Jenkins JUnit schema
//! and junitparser for JUnit; Perl's TAP::Parser and `prove`, and node's tap-parser,
//! for TAP; cmark-gfm, GitHub's Markdown, for the step summary. `make consumers` (run by `make test`) installs them; a test fails, never
//! skips, when one is missing.

use crate::common::*;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn consumers() -> PathBuf {
    root().join("tests/consumers")
}

/// Run a reader; its absence fails the test with what to do.
fn run(program: &str, args: &[&str], stdin: Option<&str>) -> std::process::Output {
    let mut cmd = Command::new(program);
    cmd.args(args).stdin(if stdin.is_some() { Stdio::piped() } else { Stdio::null() }).stdout(Stdio::piped()).stderr(Stdio::piped());
    let mut child = cmd.spawn().unwrap_or_else(|e| panic!("{program} is needed by this test ({e}): run `make consumers`"));
    if let Some(input) = stdin {
        use std::io::Write;
        child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    }
    child.wait_with_output().unwrap()
}

fn saved(text: &str, name: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    std::fs::write(&path, text).unwrap();
    (dir, path)
}

/// xmllint validates the document against the Jenkins schema's constraints.
pub fn assert_valid_junit(xml: &str) {
    let (_dir, path) = saved(xml, "report.xml");
    let schema = consumers().join("junit-10.xsd");
    let out = run("xmllint", &["--noout", "--schema", schema.to_str().unwrap(), path.to_str().unwrap()], None);
    assert!(out.status.success(), "xmllint: {}\n{xml}", String::from_utf8_lossy(&out.stderr));
}

/// What junitparser read.
pub fn junitparser(xml: &str) -> Value {
    let (_dir, path) = saved(xml, "report.xml");
    let script = consumers().join("junit.py");
    let out = run("python3", &["-I", script.to_str().unwrap(), path.to_str().unwrap()], None);
    assert!(out.status.success(), "junitparser: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

/// The HTML GitHub's Markdown (cmark-gfm, with its table and autolink extensions)
/// makes of `markdown`.
pub fn github_markdown(markdown: &str) -> String {
    let out = run("cmark-gfm", &["-e", "table", "-e", "autolink"], Some(markdown));
    assert!(out.status.success(), "cmark-gfm: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

/// What TAP::Parser read, with no parse error.
pub fn perl_tap(tap: &str) -> Value {
    let (_dir, path) = saved(tap, "report.tap");
    let script = consumers().join("tap.pl");
    let out = run("perl", &[script.to_str().unwrap(), path.to_str().unwrap()], None);
    assert!(out.status.success(), "TAP::Parser: {}", String::from_utf8_lossy(&out.stderr));
    let read: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(read["parse_errors"], serde_json::json!([]), "TAP::Parser:\n{tap}");
    read
}

/// What node's tap-parser read, strict, with no error and no line it could not read;
/// every `# Subtest:` names its test point as that point does.
pub fn node_tap(tap: &str) -> Value {
    assert!(consumers().join("node_modules/tap-parser/package.json").is_file(), "tap-parser is needed by this test: run `make consumers`");
    let script = consumers().join("tap.mjs");
    let out = run("node", &[script.to_str().unwrap()], Some(tap));
    assert!(out.status.success(), "tap-parser: {}", String::from_utf8_lossy(&out.stderr));
    let read: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(read["tapErrors"], serde_json::json!([]), "tap-parser:\n{tap}");
    assert_eq!(read["extra"], serde_json::json!([]), "tap-parser:\n{tap}");
    let tops: Vec<&Value> = read["points"].as_array().unwrap().iter().filter(|p| p["depth"] == 0).collect();
    let subtests = read["subtests"].as_array().unwrap();
    if !subtests.is_empty() {
        let names: Vec<&Value> = subtests.iter().map(|s| &s["name"]).collect();
        let points: Vec<&Value> = tops.iter().map(|p| &p["name"]).collect();
        assert_eq!(names, points, "subtest names");
    }
    read
}

/// `prove` itself, as a Perl harness runs a test: no parse error, whatever the verdict.
pub fn prove(tap: &str) {
    let (_dir, path) = saved(tap, "report.tap");
    let out = run("prove", &["--exec", "cat", path.to_str().unwrap()], None);
    let said = String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert!(!said.contains("Parse errors"), "prove: {said}");
    assert!(said.contains("Files=1, Tests="), "prove: {said}");
}

/// A class: the reference, a copy with a failure, one with Envoy's checks errors
/// (params pointing at no lab file), a non-ASCII name and a name that would be a
/// directive.
fn class() -> tempfile::TempDir {
    let parent = tempfile::tempdir().unwrap();
    for name in ["alice", "张伟", "x # TODO later", "back\\slash"] {
        std::fs::rename(Copy::sample().dir.keep(), parent.path().join(name)).unwrap();
    }
    let f = parent.path().join("张伟/01-args.txt");
    std::fs::write(&f, std::fs::read_to_string(&f).unwrap().replace("role=sidecar", "role=proxy")).unwrap();
    std::fs::remove_file(parent.path().join("x # TODO later/08-report.md")).unwrap();
    parent
}

/// The class graded in this format, with some checks the grader cannot evaluate.
fn graded(parent: &Path, format: &str) -> Graded {
    Grade::batch(parent).no_envoy().param("mesh_config=/nonexistent/mesh.yaml").text().args(&["--format", format]).run()
}

fn statuses(json: &Value, status: &str) -> usize {
    json.as_array().unwrap().iter().flat_map(|r| r["checks"].as_array().unwrap()).filter(|c| c["status"] == status).count()
}

#[test]
fn junit_is_valid_for_jenkins_and_read_right_by_junitparser() {
    let parent = class();
    let json: Value = serde_json::from_str(&graded(parent.path(), "json").stdout).unwrap();
    let g = graded(parent.path(), "junit");
    assert_eq!(g.code, Some(2), "{}", g.stderr);
    assert_valid_junit(&g.stdout);
    let read = junitparser(&g.stdout);
    assert_eq!(read["suites"].as_array().unwrap().len(), 4);
    assert_eq!(read["failures"], statuses(&json, "fail"));
    assert_eq!(read["errors"], statuses(&json, "error"));
    let skipped: u64 = read["suites"].as_array().unwrap().iter().map(|s| s["skipped"].as_u64().unwrap()).sum();
    assert_eq!(skipped as usize, statuses(&json, "skip"));
    let zhang = read["suites"].as_array().unwrap().iter().find(|s| s["name"].as_str().unwrap().ends_with("/张伟")).unwrap();
    let case = zhang["cases"].as_array().unwrap().iter().find(|c| c["name"].as_str().unwrap().starts_with("args.role:")).unwrap();
    assert_eq!(case["classname"], "ist2-boot.step1");
    assert_eq!(case["results"][0]["kind"], "failure");
    assert!(case["results"][0]["text"].as_str().unwrap().contains("\nfound: proxy\n"), "{case}");
    let error = zhang["cases"].as_array().unwrap().iter().find(|c| c["results"][0]["kind"] == "error").expect("an error case");
    assert!(error["results"][0]["message"].as_str().unwrap().contains("mesh_config"), "{error}");
}

#[test]
fn tap_of_a_class_is_read_by_prove_and_tap_parser() {
    let parent = class();
    let json: Value = serde_json::from_str(&graded(parent.path(), "json").stdout).unwrap();
    let g = graded(parent.path(), "tap");
    let perl = perl_tap(&g.stdout);
    assert_eq!(perl["version"], "13");
    assert_eq!(perl["tests_run"], 4);
    // Every submission has a check the grader could not evaluate.
    assert_eq!(perl["failed"], 4);
    let node = node_tap(&g.stdout);
    assert_eq!(node["count"], 4);
    assert_eq!(node["fail"], 4);
    let inner: Vec<&Value> = node["points"].as_array().unwrap().iter().filter(|p| p["depth"] == 1).collect();
    assert_eq!(inner.iter().filter(|p| p["ok"] == false).count(), statuses(&json, "fail") + statuses(&json, "error"));
    assert_eq!(inner.iter().filter(|p| p["skip"] != false).count(), statuses(&json, "skip"));
    assert!(inner.iter().all(|p| p["todo"] == false), "a name made a TODO");
    let names: Vec<&str> = node["points"].as_array().unwrap().iter().filter(|p| p["depth"] == 0).map(|p| p["name"].as_str().unwrap()).collect();
    assert!(names.iter().any(|n| n.ends_with("/x # TODO later")), "{names:?}");
    assert!(names.iter().any(|n| n.ends_with("/back\\slash")), "{names:?}");
    prove(&g.stdout);
}

/// A YAML 1.1 reader (TAP::Parser's own) and a YAML 1.2 one (tap-parser's) read `no`
/// and `yes` back as the strings they are.
#[test]
fn tap_diagnostics_read_back_as_written() {
    let c = Copy::sample();
    c.edit("03-mesh.txt", "ca_addr_same=yes", "ca_addr_same=no");
    let g = c.grade().no_envoy().text().args(&["--format", "tap", "--audience", "instructor"]).run();
    let perl = perl_tap(&g.stdout);
    let point = perl["points"].as_array().unwrap().iter().find(|p| p["description"].as_str().unwrap().contains("mesh.ca_addr_same")).unwrap();
    assert_eq!((&point["yaml"]["found"], &point["yaml"]["expected"]), (&Value::from("no"), &Value::from("yes")), "{point}");
    let node = node_tap(&g.stdout);
    let point = node["points"].as_array().unwrap().iter().find(|p| p["name"].as_str().unwrap().contains("mesh.ca_addr_same")).unwrap();
    assert_eq!((&point["diag"]["found"], &point["diag"]["expected"]), (&Value::from("no"), &Value::from("yes")), "{point}");
    prove(&g.stdout);
}
