//! A choice of the run (--no-envoy, --no-live, an optional lab file absent) skips the
//! same checks for every submission, whatever the state of its files (missing, empty,
//! unreadable). Only a check not graded because another check charges the same mistake
//! (one mistake costs one step) lowers one submission's maximum, by that check's points;
//! and a key line a readable file lacks fails even where its value is not derived
//! (messages.rs), as no value could make it right.


use crate::common::*;
use serde_json::Value;
use std::collections::BTreeSet;

/// The reference, then copies with `files` missing, empty, and an empty directory.
fn broken_copies(files: &[&str]) -> Vec<Copy> {
    let missing = Copy::sample();
    let empty = Copy::sample();
    for f in files {
        missing.remove(f);
        empty.write(f, "");
    }
    let none = Copy { dir: tempfile::tempdir().unwrap() };
    vec![missing, empty, none]
}

/// The checks this run skips (not those not graded for another check's finding).
fn skipped(report: &Value) -> BTreeSet<String> {
    let checks = report["checks"].as_array().unwrap();
    checks.iter().filter(|c| c["status"] == "skip" && !not_graded(c)).map(|c| c["id"].as_str().unwrap().to_string()).collect()
}

fn not_graded(check: &Value) -> bool {
    check["message"].as_str().unwrap().starts_with("not graded:")
}

fn status<'a>(report: &'a Value, id: &str) -> &'a str {
    report["checks"].as_array().unwrap().iter().find(|c| c["id"] == id).unwrap()["status"].as_str().unwrap()
}

/// Grades the reference and the broken copies in one run; every report has the
/// reference's max score and skipped checks. Returns the reports, reference first.
fn graded_alike(copies: &[Copy], with: impl Fn(Grade) -> Grade) -> Vec<Value> {
    let g = copies.iter().fold(with(Grade::sample()), |g, c| g.also(c.path())).run();
    let reports = g.report().as_array().expect("an array of reports").clone();
    let reference = &reports[0];
    assert!(!skipped(reference).is_empty());
    let points = |id: &Value| reference["checks"].as_array().unwrap().iter().find(|c| c["id"] == *id).unwrap()["max_points"].as_u64().unwrap();
    for r in &reports[1..] {
        let not_graded: u64 = r["checks"].as_array().unwrap().iter().filter(|c| not_graded(c)).map(|c| points(&c["id"])).sum();
        assert_eq!(r["max_score"].as_u64().unwrap() + not_graded, reference["max_score"].as_u64().unwrap(), "{}", r["submission"]);
        assert_eq!(skipped(r), skipped(reference), "{}", r["submission"]);
    }
    reports
}

#[test]
fn without_envoy_file_problems_skip_what_the_reference_skips() {
    let copies = broken_copies(&["bootstrap.yaml", "06-ready.txt", "06-node.json"]);
    let reports = graded_alike(&copies, |g| g.no_envoy());
    let skips = skipped(&reports[0]);
    for id in ["bootstrap.validates", "typo.rejected", "node.live", "ready.code_live", "validate.output"] {
        assert!(skips.contains(id), "{id}");
    }
    // What can be evaluated still fails: the files' own checks; one of another step
    // whose expected value derives from a missing file is not graded, the missing
    // file's own check charges it.
    for r in &reports[1..3] {
        for id in ["bootstrap.exists", "node.exists", "ready.exists", "node.matches_bootstrap", "ready.code_form"] {
            assert_eq!(status(r, id), "fail", "{id} in {}", r["submission"]);
        }
        assert_eq!(status(r, "typo.only_change"), "skip", "{}", r["submission"]);
    }
}

#[test]
fn without_live_checks_file_problems_skip_what_the_reference_skips() {
    let copies = broken_copies(&["bootstrap.yaml", "06-ready.txt", "06-node.json"]);
    let reports = graded_alike(&copies, |g| g.arg("--no-live"));
    let skips = skipped(&reports[0]);
    for id in ["node.live", "ready.code_live", "ready.body_live", "ready.state_live"] {
        assert!(skips.contains(id), "{id}");
    }
    // Validation runs: a missing bootstrap.yaml fails it.
    assert_eq!(status(&reports[1], "bootstrap.validates"), "fail");
    assert_eq!(status(&reports[0], "bootstrap.validates"), "pass");
}

#[test]
fn optional_lab_files_absent_skip_alike_when_inject_yaml_is_missing() {
    let copies = broken_copies(&["inject.yaml"]);
    // /opt/istio/inject-values.yaml and inject-config.yaml do not exist here.
    let lab = |f: &str| root().join("sample-answers/lab").join(f).display().to_string();
    let reports = graded_alike(&copies, |g| {
        g.no_params().no_envoy().param(&format!("mesh_config={}", lab("mesh-config.yaml"))).param(&format!("inject_target={}", lab("inject-target.yaml")))
    });
    let skips = skipped(&reports[0]);
    for id in ["inject.cluster_id", "inject.template"] {
        assert!(skips.contains(id), "{id}");
    }
    assert_eq!(status(&reports[1], "inject.discovery"), "fail");
}
