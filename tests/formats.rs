//! Each CI format holds what its readers expect, and agrees with the JSON contract.


use crate::common::*;
use quick_xml::events::Event;
use serde_json::Value;
use std::collections::BTreeMap;
use std::os::unix::fs::FileTypeExt;
use std::path::Path;

/// A broken copy with a failure, an error (Envoy missing) and skips (no live checks).
fn graded(format: &str, audience: &str) -> (String, Graded) {
    let c = Copy::sample();
    c.edit("03-mesh.txt", "ca_addr_same=yes", "ca_addr_same=no");
    let args = ["--envoy", "/nonexistent/envoy", "--no-live"];
    let json = c.grade().args(&args).run();
    let out = c.grade().args(&args).text().args(&["--format", format, "--audience", audience]).run();
    (out.stdout, json)
}

fn counts(json: &Graded) -> BTreeMap<String, usize> {
    let mut m = BTreeMap::new();
    for c in json.checks() {
        *m.entry(c["status"].as_str().unwrap().to_string()).or_default() += 1;
    }
    m
}

/// Checks that passed or failed: those the grader judged.
fn n_graded(json: &Graded) -> usize {
    json.checks().iter().filter(|c| c["status"] == "pass" || c["status"] == "fail").count()
}

fn t_of<'a>(tests: &'a [Value], id: &str) -> &'a Value {
    tests.iter().find(|t| t["name"].as_str().unwrap().starts_with(&format!("{id}:"))).unwrap_or_else(|| panic!("no test {id}"))
}

#[test]
fn junit_is_well_formed_and_counts_agree() {
    let (xml, json) = graded("junit", "instructor");
    let n = counts(&json);
    let mut reader = quick_xml::Reader::from_str(&xml);
    let (mut cases, mut failures, mut errors, mut skipped) = (0, 0, 0, 0);
    let mut suite_attrs = BTreeMap::new();
    loop {
        match reader.read_event().expect("well-formed XML") {
            Event::Eof => break,
            Event::Start(e) | Event::Empty(e) => match e.name().as_ref() {
                "testcase" => cases += 1,
                "failure" => failures += 1,
                "error" => errors += 1,
                "skipped" => skipped += 1,
                "testsuite" => {
                    for a in e.attributes().flatten() {
                        suite_attrs.insert(a.key.as_ref().to_string(), a.value.to_string());
                    }
                }
                _ => {}
            },
            _ => {}
        }
    }
    assert_eq!(cases, json.checks().len());
    assert_eq!(failures, n["fail"]);
    assert_eq!(errors, n["error"]);
    assert_eq!(skipped, n["skip"]);
    for k in ["name", "tests", "failures", "errors", "skipped", "time"] {
        assert!(suite_attrs.contains_key(k), "testsuite has no {k}: {suite_attrs:?}");
    }
    assert_eq!(suite_attrs["failures"], n["fail"].to_string());
    assert!(xml.contains(r#"<testcase name="mesh.ca_addr_same: ca_addr_same= says whether discoveryAddress and CA_ADDR are identical" classname="ist2-boot.step3">"#));
}

#[test]
fn tap_13_plan_and_points_agree() {
    let (tap, json) = graded("tap", "instructor");
    let n = counts(&json);
    let lines: Vec<&str> = tap.lines().collect();
    // Perl's TAP::Parser refuses any version after 13.
    assert_eq!(lines[0], "TAP version 13");
    assert_eq!(lines[1], format!("1..{}", json.checks().len()));
    let not_ok = lines.iter().filter(|l| l.starts_with("not ok ")).count();
    let skips = lines.iter().filter(|l| l.starts_with("ok ") && l.contains(" # SKIP ")).count();
    assert_eq!(not_ok, n["fail"] + n["error"]);
    assert_eq!(skips, n["skip"]);
    // The YAML block under a failure parses and carries the details.
    let start = lines.iter().position(|l| l.starts_with("not ok") && l.contains("mesh.ca_addr_same")).unwrap();
    assert_eq!(lines[start + 1], "  ---");
    let end = start + lines[start..].iter().position(|l| *l == "  ...").unwrap();
    let block: String = lines[start + 2..end].iter().map(|l| format!("{}\n", &l[2..])).collect();
    let y: serde_yaml::Value = serde_yaml::from_str(&block).unwrap();
    assert_eq!(y["severity"], "fail");
    // Quoted: a YAML 1.1 reader would take a bare yes and no for booleans.
    assert_eq!(y["expected"], "yes");
    assert_eq!(y["found"], "no");
    assert!(block.contains("found: \"no\"\n"), "{block}");
}

#[test]
fn gradescope_uses_its_own_field_names() {
    let (out, json) = graded("gradescope", "student");
    let g: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(g["score"], json.report()["score"]);
    assert!(g["execution_time"].is_number());
    assert!(g["output"].as_str().unwrap().starts_with("Score "));
    let tests = g["tests"].as_array().unwrap();
    // Skipped checks did not run, and checks the grader could not evaluate cost no
    // points: neither is a test.
    assert_eq!(tests.len(), n_graded(&json));
    assert!(n_graded(&json) < json.checks().len(), "the case needs skips or errors");
    let output = g["output"].as_str().unwrap();
    assert!(output.contains("could not be checked by the grader"), "{output}");
    assert!(!output.contains("/nonexistent"), "a grader path reached a student: {output}");
    for t in tests {
        for k in ["name", "number", "score", "max_score", "status", "output", "visibility"] {
            assert!(t.get(k).is_some(), "test without {k}: {t}");
        }
        assert!(t["number"].is_string());
        assert!(t["status"] == "passed" || t["status"] == "failed");
    }
    // Numbered within the step: step 3's checks are 3.1, 3.2, ...
    let numbers: Vec<&str> = json.checks().iter().filter(|c| c["step"] == 3).map(|c| c["id"].as_str().unwrap()).collect();
    assert_eq!(t_of(tests, "mesh.ca_addr_same")["number"], format!("3.{}", numbers.iter().position(|id| *id == "mesh.ca_addr_same").unwrap() + 1));
    let t = tests.iter().find(|t| t["name"].as_str().unwrap().starts_with("mesh.ca_addr_same")).unwrap();
    assert_eq!(t["status"], "failed");
    assert_eq!(t["score"], 0);
    assert!(t["output"].as_str().unwrap().contains("found: no"));
    assert!(!t["output"].as_str().unwrap().contains("expected:"));
}

#[test]
fn several_reports_in_one_run() {
    let out = tempfile::tempdir().unwrap();
    let f = |n: &str| out.path().join(n);
    let g = Grade::sample()
        .no_envoy()
        .args(&["--report-junit", f("r.xml").to_str().unwrap(), "--report-tap", f("r.tap").to_str().unwrap()])
        .args(&["--report-gradescope", f("results.json").to_str().unwrap(), "--report-text", f("r.txt").to_str().unwrap()])
        .run();
    assert_eq!(g.code, Some(0));
    assert!(std::fs::read_to_string(f("r.xml")).unwrap().starts_with("<?xml"));
    assert!(std::fs::read_to_string(f("r.tap")).unwrap().starts_with("TAP version 13"));
    // Every report tells the same score as the JSON on stdout.
    let score = &g.report()["score"];
    assert!(std::fs::read_to_string(f("r.txt")).unwrap().contains(&format!("Score {score}/{score}")));
    let gs: Value = serde_json::from_str(&std::fs::read_to_string(f("results.json")).unwrap()).unwrap();
    assert_eq!(&gs["score"], score);
}

#[test]
fn a_report_file_planted_as_a_link_is_replaced_not_followed() {
    let out = tempfile::tempdir().unwrap();
    let victim = out.path().join("victim");
    std::fs::write(&victim, "precious").unwrap();
    let report = out.path().join("r.json");
    std::os::unix::fs::symlink(&victim, &report).unwrap();
    let g = Grade::sample().no_envoy().args(&["--report-json", report.to_str().unwrap()]).run();
    assert_eq!(g.code, Some(0), "{}", g.stderr);
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
    assert!(std::fs::symlink_metadata(&report).unwrap().is_file());
    let written: Value = serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    assert_eq!(written["score"], g.report()["score"]);
}

#[test]
fn a_report_into_a_named_pipe_is_written_into_it() {
    let out = tempfile::tempdir().unwrap();
    let fifo = out.path().join("r.fifo");
    assert!(std::process::Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read_to_string(fifo).unwrap())
    };
    let g = Grade::sample().no_envoy().args(&["--report-json", fifo.to_str().unwrap()]).run();
    assert_eq!(g.code, Some(0), "{}", g.stderr);
    let read: Value = serde_json::from_str(&reader.join().unwrap()).unwrap();
    assert_eq!(read["score"], g.report()["score"]);
    assert!(std::fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo());
}

#[test]
fn a_github_annotation_points_at_a_file_saved_under_a_near_name() {
    let c = Copy::sample();
    std::fs::rename(c.file("bootstrap.yaml"), c.file("bootstrap.yml")).unwrap();
    let g = c.grade().no_envoy().text().args(&["--format", "github"]).current_dir(c.path()).run();
    assert!(g.stdout.contains("::error file=bootstrap.yml,title=bootstrap.exists::bootstrap.yaml is missing, but there is bootstrap.yml"), "{}", g.stdout);
}

#[test]
fn the_annotation_for_those_github_drops_says_where_the_rest_are() {
    let parent = tempfile::tempdir().unwrap();
    for n in 0..3 {
        std::fs::create_dir(parent.path().join(format!("s{n}"))).unwrap();
    }
    let more = |summary: Option<&Path>| {
        let mut g = Grade::batch(parent.path()).no_envoy().text().args(&["--format", "github"]);
        if let Some(s) = summary {
            g = g.env("GITHUB_STEP_SUMMARY", s.to_str().unwrap());
        }
        let out = g.run().stdout;
        let last = out.lines().filter(|l| l.starts_with("::error")).last().unwrap().to_string();
        assert_eq!(out.lines().filter(|l| l.starts_with("::error")).count(), 10, "{out}");
        last
    };
    // Outside GitHub Actions there is no job summary to point to.
    assert!(more(None).ends_with("more (GitHub shows ten annotations of a kind a step); labcheck --format text lists them all"), "{}", more(None));
    let out = tempfile::tempdir().unwrap();
    let summary = out.path().join("summary.md");
    assert!(more(Some(&summary)).ends_with("the job's summary and the report list them all"));
    assert!(std::fs::read_to_string(&summary).unwrap().contains("s2"));
}
