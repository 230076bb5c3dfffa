//! A broken spec is reported with its place, before anything is graded; a sound one
//! loads. Errors are compared whole, so an extra one (or one at the wrong place) shows.


use assert_cmd::Command;
use crate::common::*;

/// Run labcheck with `args`, where `SPEC` stands for a file holding `yaml`; the exit
/// code, stdout and stderr (the file's path shown as `bad.yaml`).
fn with_spec(yaml: &str, args: &[&str]) -> (Option<i32>, String, String) {
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("bad.yaml");
    std::fs::write(&spec, yaml).unwrap();
    let args: Vec<&str> = args.iter().map(|a| if *a == "SPEC" { spec.to_str().unwrap() } else { a }).collect();
    let out = Command::cargo_bin("labcheck").unwrap().args(&args).output().unwrap();
    let shown = |b: &[u8]| String::from_utf8_lossy(b).replace(spec.to_str().unwrap(), "bad.yaml");
    (out.status.code(), shown(&out.stdout), shown(&out.stderr))
}

/// Every error in the spec (each starts a line with the file's name), checked to be all
/// that `grade` and `spec` said, with exit code 2 and nothing graded.
fn spec_errors(yaml: &str) -> Vec<String> {
    let sample = sample();
    let (code, stdout, stderr) = with_spec(yaml, &["grade", "--no-envoy", "--spec", "SPEC", sample.to_str().unwrap()]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stdout.is_empty(), "graded anyway");
    let (head, rest) = stderr.split_once('\n').unwrap_or((&stderr, ""));
    let mut errors: Vec<String> = Vec::new();
    for line in rest.lines() {
        match errors.last_mut() {
            Some(e) if !line.starts_with("bad.yaml") => *e = format!("{e}\n{line}"),
            _ => errors.push(line.to_string()),
        }
    }
    assert_eq!(head, format!("labcheck: the spec has {} error(s):", errors.len()), "{stderr}");
    let (code, stdout, checked) = with_spec(yaml, &["spec", "--spec", "SPEC"]);
    assert_eq!((code, stdout.as_str(), checked.as_str()), (Some(2), "", stderr.as_str()), "`labcheck spec` says the same");
    errors
}

/// `labcheck spec` accepts it; what it lists.
fn spec_ok(yaml: &str) -> String {
    let (code, stdout, stderr) = with_spec(yaml, &["spec", "--spec", "SPEC"]);
    assert_eq!((code, stderr.as_str()), (Some(0), ""), "{stdout}");
    stdout
}

const HEAD: &str = "lab: t\ntitle: T\nsteps:\n  1: one\nparams:\n  word:\n    default: x\n";

#[test]
fn undefined_variable_with_line_and_column() {
    let e = spec_errors(&format!("{HEAD}checks:\n  - id: a\n    step: 1\n    title: t\n    kind: kv_line\n    file: f.txt\n    key: k\n    expect: '$word + $wrod'\n"));
    assert_eq!(e, ["bad.yaml:15:22: check `a`: jq: undefined variable `$wrod`"]);
}

#[test]
fn syntax_error_with_line() {
    let e = spec_errors(&format!("{HEAD}let:\n  x: 'if $word then 1'\ncheckss: []\n"));
    assert_eq!(e, ["bad.yaml:10:1: unknown field `checkss`, expected one of `lab`, `title`, `submission`, `translations`, `steps`, `params`, `defs`, `sources`, `let`, `checks`, `envoy`"]);
    let e = spec_errors(&format!("{HEAD}let:\n  x: 'if $word then 1'\nchecks: []\n"));
    assert_eq!(e, ["bad.yaml:9:22: let `x`: jq: expected else or end, found end of expression"]);
}

#[test]
fn kind_fields_are_checked() {
    let e = spec_errors(&format!("{HEAD}checks:\n  - id: a\n    step: 1\n    title: t\n    kind: rc_line\n    file: f.txt\n    key: k\n"));
    assert_eq!(e, [
        "bad.yaml:14:5: check `a`: `key` does not apply to kind rc_line",
        "bad.yaml:9:5: check `a`: give exactly one of `expect` and `nonzero: true`",
    ]);
    let e = spec_errors(&format!("{HEAD}checks:\n  - id: a\n    step: 2\n    title: t\n    kind: exists\n    file: ../etc/passwd\n"));
    assert_eq!(e, [
        "bad.yaml:10:5: check `a`: step 2 is not among `steps`",
        "bad.yaml:13:11: check `a`: `file` must be a plain file name inside the submission",
    ]);
}

#[test]
fn bad_regex_and_unknown_kind() {
    let e = spec_errors(&format!("{HEAD}checks:\n  - id: a\n    step: 1\n    title: t\n    kind: line_count\n    file: f\n    matches: '(('\n    min: 1\n"));
    assert_eq!(e, ["bad.yaml:14:15: check `a`: `matches` is not a valid regex: regex parse error:\n    ((\n     ^\nerror: unclosed group"]);
    let e = spec_errors(&format!("{HEAD}checks:\n  - id: a\n    step: 1\n    title: t\n    kind: kvline\n    file: f\n"));
    assert_eq!(e.len(), 1, "{e:?}");
    assert!(e[0].starts_with("bad.yaml:12:11: checks[0].kind: unknown variant `kvline`"), "{e:?}");
}

/// Grading compiles a regex when a check first uses it, but checking the spec compiles
/// them all: one too large to compile is a spec error there, with its place.
#[test]
fn a_regex_too_large_to_compile_is_found_by_spec() {
    let yaml = format!("{HEAD}checks:\n  - id: a\n    step: 1\n    title: t\n    kind: line_count\n    file: f\n    matches: '\\w{{1000}}\\w{{1000}}'\n    min: 1\n");
    let (code, stdout, stderr) = with_spec(&yaml, &["spec", "--spec", "SPEC"]);
    assert_eq!(code, Some(2), "{stdout}");
    assert_eq!(
        stderr,
        "labcheck: the spec has 1 error(s):\nbad.yaml:14:15: check `a`: `matches` does not compile: Compiled regex exceeds size limit of 1048576 bytes.\n"
    );
}

#[test]
fn lets_may_only_use_what_comes_before() {
    let e = spec_errors(&format!("{HEAD}let:\n  a: '$b'\n  b: '$word'\nchecks: []\n"));
    assert_eq!(e, ["bad.yaml:9:3: let `a` uses `$b`, which is defined at or after it"]);
}

#[test]
fn unknown_as_null_names_only_what_the_let_reads() {
    let e = spec_errors(&format!("{HEAD}let:\n  a: '$word'\n  b:\n    expr: '$a'\n    unknown_as_null: [a, word]\nchecks: []\n"));
    assert_eq!(e, ["bad.yaml:10:3: let `b`: `unknown_as_null` names `word`, which it does not read"]);
}

/// An error points into the check or let it is about, not into an earlier one whose
/// name starts the same (`a_more` for `a`, `xds_cluster` for `cluster`).
#[test]
fn errors_point_at_the_name_not_a_longer_one() {
    let e = spec_errors(&format!(
        "{HEAD}checks:\n  - id: a_more\n    step: 1\n    title: t\n    kind: kv_line\n    file: f.txt\n    key: k\n    expect: '$word'\n  - id: a\n    step: 1\n    title: t\n    kind: rc_line\n    file: f.txt\n    key: k\n    expect: '0'\n"
    ));
    assert_eq!(e, ["bad.yaml:21:5: check `a`: `key` does not apply to kind rc_line"]);
    let e = spec_errors(&format!("{HEAD}let:\n  xds_cluster: '$word'\n  cluster: '$later'\n  later: '$word'\nchecks: []\n"));
    assert_eq!(e, ["bad.yaml:10:3: let `cluster` uses `$later`, which is defined at or after it"]);
}

#[test]
fn the_builtin_spec_compiles_and_lists_itself() {
    Command::cargo_bin("labcheck").unwrap().arg("spec").assert().success().stdout(predicates::str::contains("mesh_config"));
    let printed = Command::cargo_bin("labcheck").unwrap().args(["spec", "--print"]).output().unwrap();
    assert_eq!(String::from_utf8(printed.stdout).unwrap(), std::fs::read_to_string(root().join("checks/ist2-boot.yaml")).unwrap());
}

#[test]
fn a_default_may_name_only_another_param() {
    let e = spec_errors(&format!("{HEAD}  url:\n    default: 'http://127.0.0.1:{{port}}'\nchecks: []\n"));
    assert_eq!(e, ["bad.yaml:9:32: param `url`: its default names `{port}`, which is not a param whose default names no other"]);
}

/// A spec whose checks need no jq expression at all loads, and grades.
#[test]
fn a_spec_without_expressions_loads() {
    let yaml = format!("{HEAD}checks:\n  - {{id: there, step: 1, title: the bootstrap is there, kind: exists, file: bootstrap.yaml}}\n");
    assert_eq!(spec_ok(&yaml), "t: T (1 checks in 1 steps)\nparams:\n  word           default x  \nsubmission files: bootstrap.yaml\n");
    let sample = sample();
    let (code, stdout, stderr) = with_spec(&yaml, &["grade", "--no-envoy", "--format", "json", "--spec", "SPEC", sample.to_str().unwrap()]);
    assert_eq!((code, stderr.as_str()), (Some(0), ""), "{stdout}");
}

/// `defs` may not read spec variables, but a name that only starts like one is its own.
#[test]
fn defs_are_checked_for_whole_variable_names() {
    let head = format!("{HEAD}  env:\n    default: y\n");
    spec_ok(&format!("{head}defs: 'def f($envelope): $envelope;'\nchecks: []\n"));
    let e = spec_errors(&format!("{head}defs: 'def f($envelope): $envelope + $env;'\nchecks: []\n"));
    // jaq, which compiles `defs` without the spec's variables, says so too.
    assert_eq!(e, ["bad.yaml:10:38: `defs` may not use spec variables such as `$env`", "bad.yaml:10:1: defs: jq: undefined variable `$env`"]);
}

/// Broken `defs` are said once, not once for every expression that could not use them.
#[test]
fn broken_defs_are_one_error() {
    let checks = "checks:\n  - {id: a, step: 1, title: t, kind: kv_line, file: f.txt, key: a, expect: '$word | twice'}\n  - {id: b, step: 1, title: t, kind: kv_line, file: f.txt, key: b, expect: '$word | twice | twice'}\n";
    let e = spec_errors(&format!("{HEAD}defs: 'def twice: . * 2 +;'\n{checks}"));
    assert_eq!(e.len(), 1, "{e:?}");
    assert!(e[0].starts_with("bad.yaml:8:1: defs: jq: expected"), "{e:?}");
}

#[test]
fn one_file_is_read_in_one_format() {
    let e = spec_errors(&format!("{HEAD}sources:\n  a: {{file: r.txt, format: kv}}\n  b: {{file: r.txt, format: text}}\nchecks: []\n"));
    assert_eq!(e.len(), 1, "{e:?}");
    assert!(e[0].ends_with("source `b` reads r.txt in another format than source `a`; a submission file has one format"), "{e:?}");
}

/// A kind owns its fields: one of no kind is said to be no field at all, and the
/// kind's own are listed.
#[test]
fn a_field_of_no_kind_is_named_with_the_fields_there_are() {
    let e = spec_errors(&format!("{HEAD}checks:\n  - id: a\n    step: 1\n    title: t\n    kind: exists\n    file: f.txt\n    hnit: h\n"));
    assert_eq!(e, ["bad.yaml:14:5: check `a`: `hnit` is not a field of a check (kind exists has: id, step, title, kind, file, hint, points, hidden, where, why, explain, needs)"]);
    let e = spec_errors(&format!("{HEAD}checks:\n  - id: a\n    step: 1\n    title: t\n    kind: line_count\n    file: f.txt\n    matches: x\n    min: lots\n"));
    assert_eq!(e, ["bad.yaml:15:5: check `a`: `min` must be a whole number, 0 or more"]);
}

/// What is validated is what the spec's sources say: an envoy_validate check of a file
/// no source validates is refused, with the source to add.
#[test]
fn an_envoy_validate_check_needs_its_source() {
    let e = spec_errors(&format!("{HEAD}checks:\n  - id: a\n    step: 1\n    title: t\n    kind: envoy_validate\n    file: b.yaml\n    nonzero: true\n"));
    assert_eq!(e.len(), 2, "{e:?}");
    assert!(e[0].contains("the spec runs Envoy, so it needs an `envoy:` section"), "{e:?}");
    assert_eq!(e[1], "bad.yaml:9:5: check `a`: no source validates b.yaml: add one such as `validate: {envoy_validate: b.yaml}` to `sources`");
}

/// A spec is read as a lab file is: a FIFO given as the spec is refused at once, never
/// opened (which would wait for a writer), and so is a file over the size cap.
#[test]
fn a_spec_that_is_no_regular_file_or_too_large_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("spec.fifo");
    assert!(std::process::Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let out = Command::cargo_bin("labcheck").unwrap().args(["spec", "--spec"]).arg(&fifo).timeout(std::time::Duration::from_secs(20)).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("is a named pipe, not a regular file"), "{}", String::from_utf8_lossy(&out.stderr));
    let big = dir.path().join("big.yaml");
    let f = std::fs::File::create(&big).unwrap();
    f.set_len(64 << 20).unwrap();
    let out = Command::cargo_bin("labcheck").unwrap().args(["spec", "--spec"]).arg(&big).timeout(std::time::Duration::from_secs(20)).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot read the spec"), "{}", String::from_utf8_lossy(&out.stderr));
}

/// A reader that stops early (`labcheck spec --print | head -1`) is no error: the
/// process ends quietly, exit 0, with no panic on stderr.
#[test]
fn a_reader_that_stops_early_is_no_error() {
    for args in [&["spec", "--print"][..], &["spec"]] {
        let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin!("labcheck"))
            .args(args)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
        assert!(out.stderr.is_empty(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    }
}

