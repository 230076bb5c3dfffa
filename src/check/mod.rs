//! Checks: one verdict per check of the spec, from the artifact it names and the
//! values the grader derived. One file per kind of check.

mod envoy_validate;
mod exists;
mod json;
mod jq_value;
mod kv_line;
mod line_count;
mod look_alike;
mod rc_line;
mod skip;
mod text;

use crate::derive::{Blame, Env, Slot, Unavailable};
use crate::display::{safe, safe_max, value_text};
use crate::result::{CheckResult, Status};
use crate::source::artifacts::Artifact;
use crate::spec::{Check, CheckKind};
use serde_json::Value;

/// What a check needs to decide.
pub struct Cx<'a> {
    pub env: &'a Env<'a>,
    pub artifact: &'a Artifact,
    /// The grader's own `envoy --mode validate` of this file, as the spec sees it.
    pub validation: Option<&'a Slot>,
}

/// A check's verdict before it is dressed for a report.
#[derive(Debug)]
pub struct Verdict {
    pub status: Status,
    pub expected: Option<Value>,
    pub found: Option<Value>,
    pub message: String,
    /// 1-based line in the file, when the check looked at one line.
    pub line: Option<usize>,
    /// Which part of the file: a key or a jq path.
    pub detail: Option<String>,
    /// The file holds a value there, just not the one wanted: the check's own `why`
    /// may say so better than the kind's sentence.
    pub wrong_value: bool,
    /// A sentence on the slip that makes the value wrong, said whatever the `why`.
    pub slip: Option<String>,
}

impl Verdict {
    pub fn pass() -> Verdict {
        Verdict { status: Status::Pass, expected: None, found: None, message: String::new(), line: None, detail: None, wrong_value: false, slip: None }
    }

    pub fn fail(message: impl Into<String>) -> Verdict {
        Verdict { status: Status::Fail, message: message.into(), ..Verdict::pass() }
    }

    /// The grader's own failure to check (not the student's): "could not check: ...".
    pub fn could_not(message: impl std::fmt::Display) -> Verdict {
        Verdict { status: Status::Error, ..Verdict::fail(format!("could not check: {message}")) }
    }

    /// Pass or fail on `ok`, with the message used on failure.
    pub fn judge(ok: bool, message: impl Into<String>) -> Verdict {
        if ok { Verdict::pass() } else { Verdict::fail(message) }
    }

    /// The check could not be decided because a value it needs is unavailable.
    pub fn unavailable(u: &Unavailable) -> Verdict {
        let (status, lead) = match u.blame {
            Blame::Student => (Status::Fail, "cannot check"),
            Blame::Grader => (Status::Error, "could not check"),
            Blame::Skip => (Status::Skip, "skipped"),
        };
        Verdict { status, message: format!("{lead}: {}", u.message), ..Verdict::pass() }
    }

    pub fn expected(mut self, v: Value) -> Verdict {
        self.expected = Some(v);
        self
    }

    pub fn found(mut self, v: Value) -> Verdict {
        self.found = Some(v);
        self
    }

    /// Marks a failure as a wrong value (see `Check::why`).
    pub fn wrong_value(mut self) -> Verdict {
        self.wrong_value = true;
        self
    }

    pub fn line(mut self, line: usize) -> Verdict {
        self.line = Some(line);
        self
    }

    pub fn detail(mut self, d: impl Into<String>) -> Verdict {
        self.detail = Some(d.into());
        self
    }
}

/// A spec pattern compiled for `text`, or the grader's error if it does not compile.
#[allow(clippy::result_large_err)]
pub fn compiled<'p>(pattern: &'p crate::spec::Pattern, text: &str) -> Result<crate::spec::pattern::Compiled<'p>, Verdict> {
    pattern.for_text(text).map_err(|e| Verdict::could_not(format_args!("/{pattern}/ does not compile: {e}")))
}

/// `?` for verdicts: an early verdict, or the value to go on with.
macro_rules! need {
    ($e:expr) => {
        match $e {
            Ok(v) => v,
            Err(verdict) => return verdict,
        }
    };
}
pub(crate) use need;

/// An exit code against what the check wants: non-zero, or the derived code.
/// `differs` says why an exit code that is not the derived one is wrong.
pub fn judge_rc(cx: &Cx, want: &crate::spec::RcWant, rc: i64, nonzero: &str, differs: String) -> Verdict {
    match want {
        crate::spec::RcWant::NonZero => Verdict::judge(rc != 0, nonzero).expected(Value::String("rc=<non-zero>".into())).wrong_value(),
        crate::spec::RcWant::Equals(id) => {
            let exp = need!(expected(cx, *id));
            let Some(want) = exit_code(&exp) else {
                return Verdict::could_not(format_args!("the expected exit code is not an integer: {}", value_text(&exp)));
            };
            Verdict::judge(want == rc, differs).expected(Value::String(format!("rc={want}"))).wrong_value()
        }
    }
}

/// An expected exit code as a number: a JSON integer, or a string holding one (a value
/// read from a `kv` file, such as `rc=1`, is text).
fn exit_code(v: &Value) -> Option<i64> {
    match v {
        Value::Number(n) => n.as_i64().or_else(|| n.as_f64().filter(|f| f.fract() == 0.0 && f.abs() < 1e15).map(|f| f as i64)),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
}

/// An expected value from the environment, or the verdict that it is unavailable.
// A verdict is built once per check; boxing it would buy nothing.
#[allow(clippy::result_large_err)]
pub fn expected(cx: &Cx, id: crate::jq::ExprId) -> Result<Value, Verdict> {
    cx.env.eval(id, jaq_json::Val::Null, None, None).map_err(|u| Verdict::unavailable(&u))
}

pub fn run(check: &Check, cx: &Cx) -> CheckResult {
    if let Some(v) = skip::verdict(check, cx) {
        return dress(check, v);
    }
    // Every check of a missing file fails for that, said in one sentence (with the near
    // name it was saved under, if any), whatever its kind.
    if let (true, Err(said)) = (cx.artifact.is_missing(), cx.artifact.text()) {
        let mut r = dress(check, Verdict::fail(said));
        r.missing_file = Some(check.file.clone());
        return r;
    }
    let mut v = by_kind(check, cx);
    if let (Status::Fail, true, Some(why)) = (v.status, v.wrong_value, &check.why) {
        v.message = with_found(why, &v);
    }
    if let (Status::Fail, Some(slip)) = (v.status, &v.slip) {
        v.message = crate::lang::clauses(&v.message, slip);
    }
    if let Some(note) = look_alike::note(check, cx, &v, |cx| by_kind(check, cx)) {
        v.message = crate::lang::clauses(&v.message, &note);
    }
    if v.status == Status::Fail {
        for e in &check.explain {
            if cx.env.holds(e.when, v.found.as_ref(), v.expected.as_ref()) {
                let say = with_found(&e.say, &v);
                v.message = crate::lang::clauses(&v.message, &say);
            }
        }
    }
    dress(check, v)
}

/// A spec's sentence with `{found}` made the value found (the student's own, so never
/// an answer).
/// `{said}`, the kind's own sentence (a JSON comparison's "`.metadata.MESH_ID` has
/// another value" names a place in the student's file, so no answer either).
fn with_found(sentence: &str, v: &Verdict) -> String {
    let mut s = match &v.found {
        Some(f) if sentence.contains("{found}") => sentence.replace("{found}", &value_text(f)),
        _ => sentence.to_string(),
    };
    if s.contains("{said}") {
        s = s.replace("{said}", &v.message);
    }
    s
}

fn by_kind(check: &Check, cx: &Cx) -> Verdict {
    match &check.kind {
        CheckKind::Exists => exists::run(cx),
        CheckKind::KvLine { key, want } => kv_line::run(cx, key, want),
        CheckKind::RcLine { want } => rc_line::run(cx, want),
        CheckKind::Json { path, expect, subset } => json::run(cx, *path, *expect, *subset),
        CheckKind::JqValue { path, want } => jq_value::run(cx, *path, want),
        CheckKind::TextContains { expect } => text::contains(cx, *expect),
        CheckKind::TextMatches { pattern } => text::matches(cx, pattern),
        CheckKind::LineCount { pattern, min, max } => line_count::run(cx, pattern, *min, *max),
        CheckKind::EnvoyValidate { want } => envoy_validate::run(cx, want),
    }
}

fn dress(check: &Check, v: Verdict) -> CheckResult {
    let mut place = check.file.clone();
    if let Some(line) = v.line {
        place.push_str(&format!(":{line}"));
    }
    if let Some(d) = check.location.as_ref().or(v.detail.as_ref()) {
        place.push_str(&format!(" ({d})"));
    }
    let max_points = if v.status == Status::Skip { 0 } else { check.points };
    CheckResult {
        id: check.id.clone(),
        step: check.step,
        title: check.title.clone(),
        status: v.status,
        points: if v.status == Status::Pass { check.points } else { 0 },
        max_points,
        expected: v.expected.as_ref().map(|e| safe(&value_text(e))),
        // A found value that is not the student's text (`false`), said in words.
        found: match (&check.found, &v.found) {
            (Some(words), Some(_)) if v.status == Status::Fail => Some(safe(&with_found(words, &v))),
            _ => v.found.as_ref().map(|f| safe(&value_text(f))),
        },
        // Messages quote submission text: escaped, but not cut as short as values.
        message: safe_max(&v.message, 1000),
        place: Some(safe(&place)),
        hint: check.hint.clone(),
        hidden: check.hidden,
        missing_file: None,
    }
}

impl Cx<'_> {
    /// An expression's text on one line, to say where a check looked.
    pub fn env_code(&self, id: crate::jq::ExprId) -> String {
        self.env.code(id)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    #[test]
    fn an_exit_code_may_be_written_as_text() {
        assert_eq!(super::exit_code(&json!(1)), Some(1));
        assert_eq!(super::exit_code(&json!("1")), Some(1));
        assert_eq!(super::exit_code(&json!(" 0\n")), Some(0));
        assert_eq!(super::exit_code(&json!(2.0)), Some(2));
        for not in [json!("one"), json!("1.5"), json!(1.5), json!(null), json!(true), json!([1])] {
            assert_eq!(super::exit_code(&not), None, "{not}");
        }
    }
}
