//! Report formats and exit codes.


use assert_cmd::Command;
use crate::common::*;

#[test]
fn json_report_follows_the_contract() {
    let c = Copy::sample();
    c.edit("03-mesh.txt", "ca_addr_same=yes", "ca_addr_same=no");
    let g = c.grade().no_envoy().run();
    let r = g.report();
    for k in ["lab", "submission", "score", "max_score", "checks"] {
        assert!(r.get(k).is_some(), "no {k}");
    }
    assert_eq!(r["lab"], "ist2-boot");
    let check = g.check("mesh.ca_addr_same");
    for k in ["id", "step", "title", "status", "points", "max_points", "expected", "found", "message"] {
        assert!(check.get(k).is_some(), "no {k}");
    }
    assert_eq!(check["status"], "fail");
    assert_eq!(check["expected"], "yes");
    assert_eq!(check["found"], "no");
    assert_eq!(check["where"], "03-mesh.txt:4 (ca_addr_same)");
    assert_eq!(g.check("bootstrap.validates")["status"], "skip");
    assert_eq!(g.check("bootstrap.validates")["max_points"], 0);
    assert_eq!(r["score"].as_u64().unwrap() + 1, r["max_score"].as_u64().unwrap());
}

#[test]
fn text_report_for_a_student_shows_where_why_and_hint_but_not_the_answer() {
    let c = Copy::sample();
    c.edit("03-mesh.txt", "trust_domain=cluster.local", "trust_domain=example.org");
    let g = c.grade().no_envoy().text().run();
    let out = &g.stdout;
    assert!(out.contains("FAIL   mesh.trust_domain"), "{out}");
    assert!(out.contains("where:    03-mesh.txt:3 (trust_domain)"), "{out}");
    assert!(out.contains("found:    example.org"));
    assert!(out.contains("hint:     Read it from the lab's mesh-config.yaml."));
    assert!(!out.contains("expected:"), "a student saw the expected value");
    let i = c.grade().no_envoy().text().args(&["--audience", "instructor"]).run();
    assert!(i.stdout.contains("expected: cluster.local"), "{}", i.stdout);
    assert_eq!(g.code, Some(1));
}

#[test]
fn colour_follows_the_flag_and_no_color() {
    let always = Grade::sample().no_envoy().text().args(&["--color", "always"]).run();
    // A step that passed is one line, its score green.
    assert!(always.stdout.contains("\u{1b}[32m22/22"), "{}", always.stdout);
    let never = Grade::sample().no_envoy().text().args(&["--color", "never"]).run();
    assert!(!never.stdout.contains('\u{1b}'));
    // auto: not a terminal here, and NO_COLOR is honoured anyway.
    let auto = Grade::sample().no_envoy().text().env("NO_COLOR", "1").run();
    assert!(!auto.stdout.contains('\u{1b}'));
}

#[test]
fn exit_codes() {
    assert_eq!(Grade::sample().no_envoy().run().code, Some(0));
    let c = Copy::sample();
    c.remove("08-report.md");
    assert_eq!(c.grade().no_envoy().run().code, Some(1));
    // A required lab file missing: checks that need it could not be evaluated.
    let g = Grade::sample().no_envoy().param("mesh_config=/nonexistent/mesh.yaml").run();
    assert_eq!(g.code, Some(2));
    assert_eq!(g.status("mesh.trust_domain"), "error");
    assert!(g.message("mesh.trust_domain").contains("the lab file `mesh_config` (/nonexistent/mesh.yaml) is missing"), "{}", g.message("mesh.trust_domain"));
    assert!(g.stderr.contains("warning"));
    // Bad usage.
    Command::cargo_bin("labcheck").unwrap().args(["grade", "--format", "xml"]).assert().code(2);
    Command::cargo_bin("labcheck").unwrap().args(["grade", "/nonexistent/dir"]).env_remove("LANG").env_remove("LC_ALL").assert().code(2).stderr(predicates::str::contains("/nonexistent/dir does not exist"));
    Command::cargo_bin("labcheck").unwrap().args(["grade", "--lang", "ko", "/nonexistent/dir"]).assert().code(2).stderr(predicates::str::contains("/nonexistent/dir 폴더가 없습니다"));
    Command::cargo_bin("labcheck").unwrap().arg("grade").arg(sample().join("01-args.txt")).args(["--lang", "zh"]).assert().code(2).stderr(predicates::str::contains("01-args.txt 不是目录"));
    Command::cargo_bin("labcheck").unwrap().args(["grade", "--param", "nope=1"]).arg(sample()).assert().code(2).stderr(predicates::str::contains("no param `nope`"));
}

#[test]
fn optional_lab_files_absent_skip_what_needs_them() {
    let g = Grade::sample().no_params().no_envoy().args(&[
        "--param", &format!("mesh_config={}", root().join("sample-answers/lab/mesh-config.yaml").display()),
        "--param", &format!("inject_target={}", root().join("sample-answers/lab/inject-target.yaml").display()),
    ]).run();
    // /opt/istio/inject-values.yaml and inject-config.yaml do not exist here.
    assert_eq!(g.status("inject.cluster_id"), "skip");
    assert!(g.message("inject.cluster_id").contains("inject_"), "{}", g.message("inject.cluster_id"));
    assert_eq!(g.status("inject.template"), "skip");
    // What needs only the mesh config is still checked, and the later steps are graded
    // against inject.yaml alone.
    assert_eq!(g.status("inject.discovery"), "pass");
    for id in ["args.role", "env.ca_addr", "identity.token_mount", "bootstrap.node_id"] {
        assert_eq!(g.status(id), "pass", "{id}");
    }
    assert_eq!(g.code, Some(0));
}
