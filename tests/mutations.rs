//! The mutation table: one-change mistakes that must fail exactly the steps they touch,
//! and allowed variants of a correct answer that must keep full marks, graded in every
//! lab environment with the real Envoy (one `--batch` run per environment and live mode).

mod bootstrap;
mod edit;
mod inject;
mod ops;
mod paths;
mod table;

use crate::common::*;
use ops::{Ctx, Op, Sub};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// A lab environment and its reference submission (sample-answers/README.md).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Env {
    A,
    B,
    C,
    D,
}

impl Env {
    fn submission(self) -> PathBuf {
        match self {
            Env::A => sample(),
            Env::B => sample_b(),
            Env::C => fixture("ist2-boot-c"),
            Env::D => fixture("ist2-boot-d"),
        }
    }

    fn params(self) -> PathBuf {
        match self {
            Env::A => sample_lab(),
            Env::B => lab_b(),
            Env::C => fixture("lab-c/params.yaml"),
            Env::D => fixture("lab-d/params.yaml"),
        }
    }

    /// A and B grade every row, with a launched Envoy where the row touches steps 4-6 or
    /// 8. C and D, to keep the run short (each bootstrap row costs four Envoy runs, each
    /// live row a launch), grade in one run without the live Envoy the rows where their
    /// own values enter differently: the rows of steps 0-3 and 7, the allowed bootstrap
    /// variants (their HTTP/2 form and cluster names), and the rows written for them.
    fn full(self) -> bool {
        matches!(self, Env::A | Env::B)
    }

    /// The environment whose files stand for "another bootstrap's".
    fn other(self) -> Env {
        match self {
            Env::A => Env::B,
            Env::B => Env::A,
            Env::C => Env::D,
            Env::D => Env::C,
        }
    }
}

/// One row: a mutation and the steps it must fail (none: it must keep full marks).
pub struct Row {
    pub id: &'static str,
    pub fail: &'static [u64],
    /// Steps with a check the grader cannot evaluate (`error`). No row expects one
    /// today: every mutation is the student's, so an `error` is always a mismatch.
    pub error: &'static [u64],
    pub op: Op,
    pub only: &'static [Env],
    /// Why a variant is allowed, or which reading of the lab the row takes.
    pub rule: &'static str,
}

/// A mistake that must fail exactly these steps.
pub fn r(id: &'static str, fail: &'static [u64], op: Op) -> Row {
    Row { id, fail, error: &[], op, only: &[], rule: "" }
}

/// An allowed variant: full marks.
pub fn p(id: &'static str, op: Op) -> Row {
    r(id, &[], op)
}

impl Row {
    pub fn only(self, only: &'static [Env]) -> Row {
        Row { only, ..self }
    }

    pub fn rule(self, rule: &'static str) -> Row {
        Row { rule, ..self }
    }

    fn applies(&self, env: Env) -> bool {
        self.only.is_empty() || self.only.contains(&env)
    }
}

/// Files whose checks need the live Envoy, directly or through a step that copies them.
const LIVE_FILES: [&str; 7] = [ops::BOOT, ops::TYPO, ops::VAL, ops::TYPO_TXT, ops::NODE, ops::READY, ops::REP];
const LIVE_STEPS: [u64; 4] = [4, 5, 6, 8];

fn read_dir(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap())
        .filter(|e| e.file_type().unwrap().is_file())
        .map(|e| (e.file_name().into_string().unwrap(), std::fs::read(e.path()).unwrap()))
        .collect()
}

/// The params of an environment: the spec's defaults, then its params file.
fn params(env: Env) -> BTreeMap<String, String> {
    let text = |v: &serde_yaml::Value| match v {
        serde_yaml::Value::String(s) => Some(s.clone()),
        serde_yaml::Value::Number(n) => Some(n.to_string()),
        _ => None,
    };
    let spec: serde_yaml::Value = serde_yaml::from_str(&std::fs::read_to_string(root().join("checks/ist2-boot.yaml")).unwrap()).unwrap();
    let mut out: BTreeMap<String, String> =
        spec["params"].as_mapping().unwrap().iter().filter_map(|(k, v)| Some((k.as_str()?.to_string(), text(&v["default"])?))).collect();
    let own: serde_yaml::Value = serde_yaml::from_str(&std::fs::read_to_string(env.params()).unwrap()).unwrap();
    for (k, v) in own.as_mapping().unwrap() {
        if let (Some(k), Some(v)) = (k.as_str(), text(v)) {
            out.insert(k.to_string(), v);
        }
    }
    out
}

fn ctx(env: Env) -> Ctx {
    let params = params(env);
    let target = env.params().parent().unwrap().join(&params["inject_target"]);
    Ctx { params, target, envoy: envoy(), reference: read_dir(&env.submission()), other: read_dir(&env.other().submission()) }
}

/// A row as built in one environment.
struct Built {
    index: usize,
    /// Its directory in the batch.
    name: String,
    /// Graded in the batch with a launched Envoy.
    live: bool,
    /// Why the row could not be built here: a mismatch of its own.
    problem: Option<String>,
}

/// Build every row of the environment into `parent/live` or `parent/nolive`, two at a time.
fn build(env: Env, rows: &[Row], parent: &Path) -> Vec<Built> {
    let ctx = ctx(env);
    let next = AtomicUsize::new(0);
    let built = Mutex::new(Vec::new());
    let work = parent.join("work");
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    let Some(row) = rows.get(i) else { break };
                    if !row.applies(env) {
                        continue;
                    }
                    if let Some(b) = build_row(env, &ctx, i, row, &work, parent) {
                        built.lock().unwrap().push(b);
                    }
                }
            });
        }
    });
    let mut built = built.into_inner().unwrap();
    built.sort_by_key(|b| b.index);
    built
}

fn build_row(env: Env, ctx: &Ctx, index: usize, row: &Row, work: &Path, parent: &Path) -> Option<Built> {
    let short = !env.full() && !row.only.contains(&env);
    if short && row.op.runs_envoy() && !row.fail.is_empty() {
        return None;
    }
    let name = format!("{index:03}-{}", row.id.replace(|c: char| !c.is_ascii_alphanumeric() && c != '-', "_"));
    let dir = work.join(&name);
    std::fs::create_dir_all(&dir).unwrap();
    let mut sub = Sub { files: ctx.reference.clone(), dir: &dir, ctx };
    let mut problem = sub.apply(&row.op).err();
    let changed: BTreeSet<&String> = ctx.reference.keys().chain(sub.files.keys()).filter(|f| ctx.reference.get(*f) != sub.files.get(*f)).collect();
    if problem.is_none() && changed.is_empty() && !matches!(row.op, Op::Nop) {
        problem = Some("the mutation changes nothing in this environment".into());
    }
    let live = changed.iter().any(|f| LIVE_FILES.contains(&f.as_str())) || row.fail.iter().chain(row.error).any(|s| LIVE_STEPS.contains(s));
    std::fs::remove_dir_all(&dir).unwrap();
    let variant = row.fail.is_empty() && changed.iter().any(|f| [ops::BOOT, ops::TYPO].contains(&f.as_str()));
    if short && live && !variant && !matches!(row.op, Op::Nop) {
        return None;
    }
    let live = live && env.full();
    for mode in modes(env, row, live) {
        let out = parent.join(mode).join(&name);
        std::fs::create_dir_all(&out).unwrap();
        for (f, content) in &sub.files {
            std::fs::write(out.join(f), content).unwrap();
        }
    }
    Some(Built { index, name, live, problem })
}

/// The batches a row is graded in: the reference in both, as the baseline of each.
fn modes(env: Env, row: &Row, live: bool) -> &'static [&'static str] {
    match (matches!(row.op, Op::Nop), live) {
        (true, _) if env.full() => &["nolive", "live"],
        (_, true) => &["live"],
        _ => &["nolive"],
    }
}

/// One `--batch` run: the JSON report of each submission, by directory name.
fn grade(env: Env, parent: &Path, live: bool) -> BTreeMap<String, Value> {
    let g = Grade::batch(parent).params(env.params()).arg(if live { "--launch-envoy" } else { "--no-live" });
    let wrapper = Wrapper::new();
    // A guard against a hang only; the run takes well under a minute.
    let out = g.command_with(Some(&wrapper)).timeout(std::time::Duration::from_secs(900)).output().unwrap();
    for pid in wrapper.pids() {
        assert!(!alive(pid), "Envoy {pid} outlived the grading run");
    }
    let reports: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("no JSON report ({e}); stderr:\n{}", String::from_utf8_lossy(&out.stderr)));
    reports
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (Path::new(r["submission"].as_str().unwrap()).file_name().unwrap().to_string_lossy().into_owned(), r.clone()))
        .collect()
}

fn steps_with(report: &Value, status: &str) -> BTreeSet<u64> {
    report["checks"].as_array().unwrap().iter().filter(|c| c["status"] == status).map(|c| c["step"].as_u64().unwrap()).collect()
}

fn ids_with(report: &Value, status: &str) -> BTreeSet<String> {
    report["checks"].as_array().unwrap().iter().filter(|c| c["status"] == status).map(|c| c["id"].as_str().unwrap().to_string()).collect()
}

/// The failing and erroring checks, each with its message and values.
fn failures(report: &Value) -> String {
    let mut s = String::new();
    for c in report["checks"].as_array().unwrap().iter().filter(|c| c["status"] == "fail" || c["status"] == "error") {
        let cut = |v: &Value| {
            let t = if v.is_string() { v.as_str().unwrap().to_string() } else { v.to_string() };
            if t.chars().count() > 160 { format!("{}...", t.chars().take(160).collect::<String>()) } else { t }
        };
        let _ = writeln!(
            s,
            "      {} {} (step {}): {} [expected {}; found {}]",
            c["status"].as_str().unwrap(),
            c["id"].as_str().unwrap(),
            c["step"],
            cut(&c["message"]),
            cut(&c["expected"]),
            cut(&c["found"])
        );
    }
    s
}

fn set(s: &BTreeSet<u64>) -> String {
    format!("{{{}}}", s.iter().map(u64::to_string).collect::<Vec<_>>().join(","))
}

/// Grade every row of the table in `env`; panic listing every row whose verdict differs.
fn run(env: Env) {
    let rows = table::rows();
    let tmp = tempfile::tempdir().unwrap();
    let started = std::time::Instant::now();
    let built = build(env, &rows, tmp.path());
    let t_build = started.elapsed();
    let nolive = grade(env, &tmp.path().join("nolive"), false);
    let t_nolive = started.elapsed();
    let live = if env.full() { grade(env, &tmp.path().join("live"), true) } else { BTreeMap::new() };
    eprintln!("[{env:?}] built in {t_build:.1?}, no-live batch {:.1?}, live batch {:.1?}", t_nolive - t_build, started.elapsed() - t_nolive);
    let base = |mode: &BTreeMap<String, Value>| -> BTreeSet<String> {
        let b = built.iter().find(|b| matches!(rows[b.index].op, Op::Nop)).expect("the table has a reference row");
        mode.get(&b.name).map(|r| ids_with(r, "skip")).unwrap_or_default()
    };
    let (skip_nolive, skip_live) = (base(&nolive), base(&live));

    let mut bad = String::new();
    let mut count = 0;
    for b in &built {
        let row = &rows[b.index];
        let head = format!("[{env:?}] {} (row {}): {:?}{}", row.id, b.index, row.op, if row.rule.is_empty() { String::new() } else { format!("\n    rule: {}", row.rule) });
        if let Some(p) = &b.problem {
            let _ = writeln!(bad, "{head}\n    cannot build: {p}");
            count += 1;
            continue;
        }
        for mode in modes(env, row, b.live) {
            let (reports, skips) = if *mode == "live" { (&live, &skip_live) } else { (&nolive, &skip_nolive) };
            let Some(rep) = reports.get(&b.name) else {
                let _ = writeln!(bad, "{head}\n    no report in the {mode} batch");
                count += 1;
                continue;
            };
            let (fail, error) = (steps_with(rep, "fail"), steps_with(rep, "error"));
            let want_fail: BTreeSet<u64> = row.fail.iter().copied().collect();
            let want_error: BTreeSet<u64> = row.error.iter().copied().collect();
            let extra_skips: BTreeSet<String> = if want_fail.is_empty() && want_error.is_empty() { ids_with(rep, "skip").difference(skips).cloned().collect() } else { BTreeSet::new() };
            if fail != want_fail || error != want_error || !extra_skips.is_empty() {
                let want = if want_fail.is_empty() && want_error.is_empty() { "full marks".to_string() } else { format!("fail {}, error {}", set(&want_fail), set(&want_error)) };
                let _ = writeln!(
                    bad,
                    "{head}\n    {mode}: expected {want}; got fail {}, error {}{}\n{}",
                    set(&fail),
                    set(&error),
                    if extra_skips.is_empty() { String::new() } else { format!(", skipped {extra_skips:?}") },
                    failures(rep)
                );
                count += 1;
            }
        }
    }
    eprintln!("[{env:?}] {} rows ({} live) graded in {:.1?}", built.len(), built.iter().filter(|b| b.live).count(), started.elapsed());
    assert!(bad.is_empty(), "{count} of {} rows differ from the table in environment {env:?}:\n\n{bad}", built.len());
}

#[test]
fn table_rows_are_many_and_named_once() {
    let rows = table::rows();
    assert!(rows.len() >= 300, "{} rows", rows.len());
    let mut seen = BTreeSet::new();
    for r in &rows {
        assert!(seen.insert(r.id), "row id {} twice", r.id);
    }
    assert_eq!(rows.iter().filter(|r| matches!(r.op, Op::Nop)).count(), 1, "one reference row");
}

#[test]
fn in_lab_a() {
    run(Env::A);
}

#[test]
fn in_lab_b() {
    run(Env::B);
}

#[test]
fn in_lab_c() {
    run(Env::C);
}

#[test]
fn in_lab_d() {
    run(Env::D);
}
