//! Every kind of check, passing and failing, on a small spec of its own.


use crate::common::*;

const BOOT: &str = "static_resources:\n  clusters:\n  - name: a\n    type: STATIC\n    connect_timeout: 1s\n";
const BAD_BOOT: &str = "dynamic_resources:\n  ads_config:\n    api_type: GRPC\n    transport_api_version: V3\n    grpc_services:\n    - envoy_grpc:\n        cluster_name: nowhere\n";

/// A submission on which every check of tests/specs/kinds.yaml passes.
fn passing() -> Copy {
    let c = Copy { dir: tempfile::tempdir().unwrap() };
    c.write("data.yaml", "x: hellohello\ny: 15s\n")
        .write("kv.txt", "greeting=hello\ncode=503\n")
        .write("ok.txt", "hello world\nhello\n- one\n- two\nrc=0\n")
        .write("bad.txt", "oops\nrc=1\n")
        .write("data.json", "{\"n\": [1, 2], \"a\": \"hello\"}")
        .write("boot.yaml", BOOT)
        .write("bad.yaml", BAD_BOOT);
    c
}

fn grade(c: &Copy) -> Graded {
    c.grade().no_params().args(&["--spec", "tests/specs/kinds.yaml"]).arg("--no-live").run()
}

/// Break one file and assert that exactly the named check fails.
fn only_fails(id: &str, file: &str, content: &str) {
    let c = passing();
    c.write(file, content);
    let g = grade(&c);
    assert_eq!(g.with("fail"), vec![id.to_string()], "after writing {file}: {}", g.stdout);
    assert_eq!(g.code, Some(1));
}

#[test]
fn all_kinds_pass() {
    grade(&passing()).assert_full_marks();
}

#[test]
fn exists_fails_and_so_do_checks_on_that_file() {
    let c = passing();
    c.write("data.yaml", "x: [1\n");
    let g = grade(&c);
    assert_eq!(g.with("fail"), vec!["exists", "jq_value", "jq_form"]);
    assert!(g.message("exists").starts_with("data.yaml is not valid YAML"), "{}", g.message("exists"));
    c.remove("data.yaml");
    assert_eq!(grade(&c).message("jq_value"), "data.yaml is missing");
}
#[test]
fn kv_line_fails() { only_fails("kv_line", "kv.txt", "greeting=bye\ncode=503\n"); }
#[test]
fn kv_form_fails() { only_fails("kv_form", "kv.txt", "greeting=hello\ncode=5xx\n"); }
#[test]
fn rc_line_fails() { only_fails("rc_line", "ok.txt", "hello world\nhello\n- one\n- two\nrc=2\n"); }
#[test]
fn rc_nonzero_fails() { only_fails("rc_nonzero", "bad.txt", "oops\nrc=0\n"); }
#[test]
fn json_equals_fails_on_an_extra_key() { only_fails("json_equals", "data.json", "{\"n\": [1, 2], \"a\": \"hello\", \"b\": 1}"); }
#[test]
fn json_subset_fails() {
    let c = passing();
    c.write("data.json", "{\"a\": \"bye\"}");
    let g = grade(&c);
    assert_eq!(g.status("json_subset"), "fail");
    assert!(g.message("json_subset").contains("`.a`"), "{}", g.message("json_subset"));
}
#[test]
fn jq_value_fails() { only_fails("jq_value", "data.yaml", "x: hello\ny: 15s\n"); }
#[test]
fn jq_form_fails() { only_fails("jq_form", "data.yaml", "x: hellohello\ny: fifteen\n"); }
#[test]
fn line_count_fails() {
    let c = passing();
    c.write("ok.txt", "hello world\nhello\n- one\nrc=0\n");
    assert_eq!(grade(&c).with("fail"), vec!["line_count", "line_distinct"]);
    // The same line twice, with other spaces around it: two lines, one said once.
    only_fails("line_distinct", "ok.txt", "hello world\nhello\n- one\n- one  \nrc=0\n");
    // A line of fewer letters does not count.
    only_fails("line_distinct", "ok.txt", "hello world\nhello\n- one\n- t2\nrc=0\n");
}
#[test]
fn text_kinds_fail() {
    let c = passing();
    c.write("ok.txt", "goodbye\n- one\n- two\nrc=0\n");
    assert_eq!(grade(&c).with("fail"), vec!["text_contains", "text_matches", "text_matches_expr"]);
}
#[test]
fn envoy_validate_fails() { only_fails("envoy_validate", "boot.yaml", BAD_BOOT); }
#[test]
fn envoy_rejects_fails() { only_fails("envoy_rejects", "bad.yaml", BOOT); }

#[test]
fn params_change_expected_values() {
    let g = passing().grade().no_params().args(&["--spec", "tests/specs/kinds.yaml", "--no-live"]).param("word=bye").run();
    for id in ["kv_line", "json_equals", "json_subset", "jq_value", "text_contains", "text_matches_expr"] {
        assert_eq!(g.status(id), "fail", "{id}");
    }
    assert_eq!(g.check("jq_value")["expected"], "byebye");
}

/// An expected exit code read from a `kv` file is text (`rc=1` gives "1"): it compares
/// as a number. One that is no integer is the grader's trouble, not the student's.
#[test]
fn an_expected_exit_code_may_come_from_a_kv_file() {
    let spec_dir = tempfile::tempdir().unwrap();
    let spec = spec_dir.path().join("rc.yaml");
    std::fs::write(
        &spec,
        "lab: rc\ntitle: rc\nsteps: {1: one}\nsources:\n  rec: {file: rec.txt, format: kv}\nchecks:\n  - {id: rc, step: 1, title: out.txt ends with the recorded rc, kind: rc_line, file: out.txt, expect: '$rec.rc'}\n",
    )
    .unwrap();
    let c = Copy { dir: tempfile::tempdir().unwrap() };
    c.write("rec.txt", "rc=1\n").write("out.txt", "failed\nrc=1\n");
    let grade = |c: &Copy| c.grade().no_params().args(&["--spec", spec.to_str().unwrap()]).no_envoy().run();
    let g = grade(&c);
    g.assert_full_marks();
    assert_eq!(g.check("rc")["expected"], "rc=1");

    c.write("out.txt", "failed\nrc=2\n");
    let g = grade(&c);
    assert_eq!(g.status("rc"), "fail");
    assert_eq!(g.code, Some(1));

    c.write("rec.txt", "rc=one\n").write("out.txt", "failed\nrc=1\n");
    let g = grade(&c);
    assert_eq!(g.status("rc"), "error", "{}", g.message("rc"));
    assert_eq!(g.message("rc"), "could not check: the expected exit code is not an integer: one");
    assert_eq!(g.code, Some(2));
}

#[test]
fn a_key_set_more_than_once_names_every_line() {
    let c = passing();
    c.write("kv.txt", "greeting=hello\ncode=503\ncode=503\ncode=503\ncode=503\n");
    let g = grade(&c);
    assert_eq!(g.with("fail"), vec!["kv_form"]);
    assert_eq!(g.message("kv_form"), "`code` is set more than once (lines 2, 3, 4 and 5); keep one line");
}
