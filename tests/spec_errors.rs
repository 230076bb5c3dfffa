//! A broken spec is reported with its place, before anything is graded.

mod common;
use assert_cmd::Command;
use common::*;

fn spec_error(yaml: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("bad.yaml");
    std::fs::write(&spec, yaml).unwrap();
    let out = Command::cargo_bin("labcheck").unwrap().arg("grade").arg("--spec").arg(&spec).arg(sample()).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty(), "graded anyway");
    String::from_utf8_lossy(&out.stderr).replace(spec.to_str().unwrap(), "bad.yaml")
}

const HEAD: &str = "lab: t\ntitle: T\nsteps:\n  1: one\nparams:\n  word:\n    default: x\n";

#[test]
fn undefined_variable_with_line_and_column() {
    let e = spec_error(&format!("{HEAD}checks:\n  - id: a\n    step: 1\n    title: t\n    kind: kv_line\n    file: f.txt\n    key: k\n    expect: '$word + $wrod'\n"));
    assert!(e.contains("bad.yaml:15:22: check `a`: jq: undefined variable `$wrod`"), "{e}");
}

#[test]
fn syntax_error_with_line() {
    let e = spec_error(&format!("{HEAD}let:\n  x: 'if $word then 1'\ncheckss: []\n"));
    assert!(e.contains("unknown field `checkss`"), "{e}");
    let e = spec_error(&format!("{HEAD}let:\n  x: 'if $word then 1'\nchecks: []\n"));
    assert!(e.contains("bad.yaml:9:") && e.contains("let `x`: jq: expected else or end"), "{e}");
}

#[test]
fn kind_fields_are_checked() {
    let e = spec_error(&format!("{HEAD}checks:\n  - id: a\n    step: 1\n    title: t\n    kind: rc_line\n    file: f.txt\n    key: k\n"));
    assert!(e.contains("`key` does not apply to kind rc_line"), "{e}");
    assert!(e.contains("give exactly one of `expect` and `nonzero: true`"), "{e}");
    let e = spec_error(&format!("{HEAD}checks:\n  - id: a\n    step: 2\n    title: t\n    kind: exists\n    file: ../etc/passwd\n"));
    assert!(e.contains("step 2 is not among `steps`") && e.contains("plain file name"), "{e}");
}

#[test]
fn bad_regex_and_unknown_kind() {
    let e = spec_error(&format!("{HEAD}checks:\n  - id: a\n    step: 1\n    title: t\n    kind: line_count\n    file: f\n    matches: '(('\n    min: 1\n"));
    assert!(e.contains("not a valid regex"), "{e}");
    let e = spec_error(&format!("{HEAD}checks:\n  - id: a\n    step: 1\n    title: t\n    kind: kvline\n    file: f\n"));
    assert!(e.contains("unknown variant `kvline`") && e.contains("bad.yaml:12:11"), "{e}");
}

#[test]
fn lets_may_only_use_what_comes_before() {
    let e = spec_error(&format!("{HEAD}let:\n  a: '$b'\n  b: '$word'\nchecks: []\n"));
    assert!(e.contains("let `a` uses `$b`, which is defined at or after it"), "{e}");
}

#[test]
fn the_builtin_spec_compiles_and_lists_itself() {
    Command::cargo_bin("labcheck").unwrap().arg("spec").assert().success().stdout(predicates::str::contains("mesh_config"));
    let printed = Command::cargo_bin("labcheck").unwrap().args(["spec", "--print"]).output().unwrap();
    assert_eq!(String::from_utf8(printed.stdout).unwrap(), std::fs::read_to_string(root().join("checks/ist2-boot.yaml")).unwrap());
}

#[test]
fn a_default_may_name_only_another_param() {
    let e = spec_error(&format!("{HEAD}  url:\n    default: 'http://127.0.0.1:{{port}}'\nchecks: []\n"));
    assert!(e.contains("bad.yaml:9:") && e.contains("param `url`: its default names `{port}`, which is not a param"), "{e}");
}
