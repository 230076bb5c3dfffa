//! Checks: one verdict per check of the spec, from the artifact it names and the
//! values the grader derived. Each kind of check is a module of `kinds`.

pub mod kinds;
mod look_alike;
mod verdict;

use crate::compare;
use crate::derive::Env;
use crate::display::{safe, safe_max, value_text};
use crate::result::{CheckResult, Status};
use crate::lang::{checks::Checks, t};
use crate::slot::Slot;
use crate::source::artifacts::Artifact;
use crate::spec::{Check, Format};
use serde_json::Value;

pub use kinds::{Kind, KindDef};
pub use look_alike::Diagnosis;
pub use verdict::Verdict;

/// What a check needs to decide.
pub struct Cx<'a> {
    pub env: &'a Env<'a>,
    pub artifact: &'a Artifact,
    /// The grader's own `envoy --mode validate` of this file, as the spec sees it.
    pub validation: Option<&'a Slot>,
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

/// An expected value to compare a text with: a string, number or boolean. Anything
/// else (nothing, `null`, an empty string, a list) is nothing to compare with.
// A verdict is built once per check; boxing it would buy nothing.
#[allow(clippy::result_large_err)]
pub fn expected_text(cx: &Cx, id: crate::jq::ExprId) -> Result<Value, Verdict> {
    let exp = cx.env.expected(id).map_err(|u| Verdict::unavailable(&u))?;
    if matches!(exp, Value::Array(_) | Value::Object(_)) {
        return Err(Verdict::unavailable(&cx.env.unusable(id)));
    }
    Ok(exp)
}

/// How a kind compares JSON with the expected value, which decides what in a derived
/// expected value is nothing to compare with.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum JsonUse {
    /// A value the spec builds (`jq_value`): empty lists and objects, and `null`
    /// anywhere inside, are nothing.
    Value,
    /// The file contains it (`json_subset`): as `Value`, but an empty object asks for
    /// nothing, and is an answer.
    Subset,
    /// The file equals it (`json_equals`), a document often copied from another file:
    /// a `null` inside is that document's own.
    Equals,
}

/// An expected value to compare JSON with. Derived (not a constant of the spec), it
/// is nothing to compare with when it is `null`, an empty string, or as `how` says.
#[allow(clippy::result_large_err)]
pub fn expected_json(cx: &Cx, id: crate::jq::ExprId, how: JsonUse) -> Result<Value, Verdict> {
    let exp = cx.env.expected(id).map_err(|u| Verdict::unavailable(&u))?;
    if !cx.env.derived(id) {
        return Ok(exp);
    }
    let empty = match &exp {
        Value::Array(a) => a.is_empty(),
        Value::Object(o) => o.is_empty() && how != JsonUse::Subset,
        _ => false,
    };
    if empty {
        return Err(Verdict::unavailable(&cx.env.unusable(id)));
    }
    if how != JsonUse::Equals
        && let Some(place) = compare::null_within(&exp)
    {
        return Err(Verdict::unavailable(&cx.env.absent_within(id, &place)));
    }
    Ok(exp)
}

pub fn run(check: &Check, cx: &Cx, diagnosis: &Diagnosis) -> CheckResult {
    if let Some(u) = check.kind.skipped(cx).or_else(|| check.also_needs.and_then(|id| cx.env.skipped(id)))
        && !check.kind.fails_whatever_expected(cx)
    {
        return dress(check, Verdict::unavailable(u));
    }
    // Every check of a file that is missing (or saved under a near name) or cannot be
    // read as text, or, for a check that reads it as data, does not read as its YAML or
    // JSON, fails for that, said in one sentence, whatever its kind and whatever the
    // grader could derive: the student has that file to write first.
    let reads_data = !check.kind.reads_text() && matches!(check.format, Format::Yaml | Format::YamlStream | Format::Json);
    let unreadable = if reads_data { cx.artifact.data().err() } else { cx.artifact.text().err() };
    if let Some(said) = unreadable {
        // A copy of an earlier step's file, mistake and all: charged there, once (or, when
        // that step is not graded, here: `grade::charge`).
        let (said, because_of) = match &cx.artifact.copies {
            Some(by) if reads_data => {
                let why = t!(Checks::CopiedMistake, file = check.file, by = by, said = said);
                (why.clone(), Some((vec![by.clone()], why)))
            }
            _ => (said, None),
        };
        let mut r = dress(check, Verdict { because_of, ..Verdict::fail(said) });
        r.file_problem = Some(check.file.clone());
        r.saved_as = cx.artifact.near().map(|n| n.path().to_string());
        return r;
    }
    // A value the grader cannot derive is its trouble whatever the file holds: a student
    // is not failed for a line the lab gave them no way to write.
    if let Some(u) = check.needs().into_iter().find_map(|id| cx.env.grader_missing(id)) {
        return dress(check, Verdict::unavailable(u));
    }
    let mut v = check.kind.run(cx);
    if v.status == Status::Fail
        && let Some(e) = check.explain.iter().find(|e| e.instead && cx.env.holds(e.when, v.found.as_ref(), v.expected.as_ref()))
    {
        v.message = with_found(&e.say, &v);
        // What a look-alike character is stays true whatever the spec says instead.
        if let Some(note) = diagnosis.note(check, cx) {
            v.add(&note);
        }
        return dress(check, v);
    }
    if let (Status::Fail, true, Some(why)) = (v.status, v.wrong_value, &check.why) {
        v.message = with_found(why, &v);
    }
    if let (Status::Fail, Some(slip)) = (v.status, v.slip.clone()) {
        v.add(&slip);
    }
    if v.status == Status::Fail
        && let Some(note) = diagnosis.note(check, cx)
    {
        v.add(&note);
    }
    if v.status == Status::Fail {
        for e in check.explain.iter().filter(|e| !e.instead) {
            if cx.env.holds(e.when, v.found.as_ref(), v.expected.as_ref()) {
                let say = with_found(&e.say, &v);
                v.add(&say);
            }
        }
    }
    dress(check, v)
}

/// A spec's sentence with `{found}` made the value found (the student's own, so never
/// an answer), and `{said}` the kind's own sentence (a JSON comparison's
/// "`.metadata.MESH_ID` has another value" names a place in the student's file, so no
/// answer either).
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
            // Not JSON's word, which the student never wrote.
            (_, Some(Value::Null)) => Some(t!(crate::lang::report::Report::NotSet)),
            _ => v.found.as_ref().map(|f| safe(&value_text(f))),
        },
        // Messages quote submission text: escaped, but not cut as short as values.
        message: safe_max(&v.message, 1000),
        place: Some(safe(&place)),
        hint: check.hint.clone(),
        hidden: check.hidden,
        file_problem: None,
        // Only other files: a check of its own file's missing value fails for it.
        saved_as: None,
        charged_by: match &v.because_of {
            Some((files, reason)) if v.status == Status::Fail && !files.contains(&check.file) => {
                Some(crate::result::Charge { files: files.clone(), reason: reason.clone(), skipped: false })
            }
            // Not graded for a mistake of another file: graded here after all when the
            // step that charges it is not graded (`grade::charge`).
            Some((files, reason)) if v.status == Status::Skip => {
                let others: Vec<String> = files.iter().filter(|f| **f != check.file).cloned().collect();
                (!others.is_empty()).then(|| crate::result::Charge { files: others, reason: reason.clone(), skipped: true })
            }
            _ => None,
        },
    }
}
