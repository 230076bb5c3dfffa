//! Comparing JSON values as values: key order never matters, `9982` equals `9982.0`,
//! and a number equals the same number written as a string.
//!
//! Not under `check/`: the live source compares a running Envoy's bootstrap with the
//! file this way too, and sources come before checks.

use crate::lang::{checks::Checks, files::Files, t, tr};
use serde_json::Value;

pub fn equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => num_eq(x, y),
        (Value::Number(n), Value::String(s)) | (Value::String(s), Value::Number(n)) => match s.parse::<serde_json::Number>() {
            Ok(m) => num_eq(n, &m),
            Err(_) => number_in_text(s).is_some_and(|m| n.as_f64() == Some(m)),
        },
        (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(p, q)| equal(p, q)),
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| equal(v, w)))
        }
        _ => a == b,
    }
}

/// A number written as a string, as Envoy reads one into a numeric field (protobuf's
/// JSON parser tries an integer, then a double): a sign, leading zeros (`09982` is
/// decimal), a fraction, an exponent, or hex (`0x26FE`); no space around it, which
/// Envoy refuses. (Hex with an exponent, `0x1p4`, which Envoy also reads, is not read.)
pub fn number_in_text(t: &str) -> Option<f64> {
    let (negative, body) = match t.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, t.strip_prefix('+').unwrap_or(t)),
    };
    let magnitude = match body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
        Some(hex) => u64::from_str_radix(hex, 16).ok()? as f64,
        // Digits first: Rust would also read `inf`, `NaN` and `.5`.
        None if body.starts_with(|c: char| c.is_ascii_digit()) => body.parse::<f64>().ok().filter(|f| f.is_finite())?,
        None => return None,
    };
    Some(if negative { -magnitude } else { magnitude })
}

fn num_eq(x: &serde_json::Number, y: &serde_json::Number) -> bool {
    match (x.as_i64(), y.as_i64()) {
        (Some(a), Some(b)) => a == b,
        _ => match (x.as_u64(), y.as_u64()) {
            (Some(a), Some(b)) => a == b,
            _ => x.as_f64() == y.as_f64(),
        },
    }
}

/// The first place two values differ.
#[derive(Debug, PartialEq)]
pub struct Diff {
    /// jq-style path, `.` for the whole value.
    pub path: String,
    /// The same place as a JSON pointer, to pick the values there.
    pub pointer: String,
    pub what: What,
}

#[derive(Debug, PartialEq)]
pub enum What {
    Missing,
    Unexpected,
    Differs,
    Length { found: usize },
    /// A map or a list where a value of another kind is expected, or the other way
    /// round: the kinds, in words (a shape gives away no value).
    Kind { found: &'static str, wanted: &'static str },
}

impl Diff {
    /// A sentence about the difference that does not reveal the expected value.
    pub fn sentence(&self) -> String {
        match self.what {
            What::Missing => t!(Checks::DiffMissing, path = self.path),
            What::Unexpected => t!(Checks::DiffExtra, path = self.path),
            What::Differs => t!(Checks::DiffValue, path = self.path),
            What::Length { found } => t!(Checks::DiffLength, path = self.path, n = found),
            What::Kind { found, wanted } => t!(Checks::DiffKind, path = self.path, found = found, wanted = wanted),
        }
    }
}

/// Where `found` first departs from `expected`. With `subset`, `found` may have
/// more keys than `expected` (arrays still compare item by item).
pub fn diff(expected: &Value, found: &Value, subset: bool) -> Option<Diff> {
    walk(expected, found, subset, &mut Vec::new())
}

/// The part of `found` that `expected` covers, as a subset comparison sees it: an
/// object keeps only the keys `expected` has; anything else is as it is.
pub fn covered(found: &Value, expected: &Value) -> Value {
    match (found, expected) {
        (Value::Object(f), Value::Object(e)) => {
            Value::Object(f.iter().filter_map(|(k, v)| e.get(k).map(|ev| (k.clone(), covered(v, ev)))).collect())
        }
        (Value::Array(f), Value::Array(e)) => Value::Array(f.iter().zip(e).map(|(v, ev)| covered(v, ev)).chain(f.iter().skip(e.len()).cloned()).collect()),
        _ => found.clone(),
    }
}

/// A step into a value: an object key or an array index.
enum Step<'a> {
    Key(&'a str),
    Index(usize),
}

fn walk<'a>(e: &'a Value, f: &'a Value, subset: bool, at: &mut Vec<Step<'a>>) -> Option<Diff> {
    let inside = |at: &mut Vec<Step<'a>>, step: Step<'a>, e: &'a Value, f: Option<&'a Value>| {
        at.push(step);
        let r = match f {
            None => Some(here(at, What::Missing)),
            Some(f) => walk(e, f, subset, at),
        };
        at.pop();
        r
    };
    match (e, f) {
        (Value::Object(em), Value::Object(fm)) => {
            for (k, ev) in em {
                if let Some(d) = inside(at, Step::Key(k), ev, fm.get(k)) {
                    return Some(d);
                }
            }
            let extra = fm.keys().find(|k| !em.contains_key(*k)).filter(|_| !subset)?;
            at.push(Step::Key(extra));
            let d = here(at, What::Unexpected);
            at.pop();
            Some(d)
        }
        (Value::Array(ea), Value::Array(fa)) => {
            for (i, (ev, fv)) in ea.iter().zip(fa).enumerate() {
                if let Some(d) = inside(at, Step::Index(i), ev, Some(fv)) {
                    return Some(d);
                }
            }
            (ea.len() != fa.len()).then(|| here(at, What::Length { found: fa.len() }))
        }
        (Value::Object(_) | Value::Array(_), _) | (_, Value::Object(_) | Value::Array(_)) => {
            Some(here(at, What::Kind { found: kind(f), wanted: kind(e) }))
        }
        _ => (!equal(e, f)).then(|| here(at, What::Differs)),
    }
}

/// What kind of value `v` is, in words ("a map"), in the run's language.
fn kind(v: &Value) -> &'static str {
    match v {
        Value::Object(_) => tr(Checks::KindMap),
        Value::Array(_) => tr(Checks::KindList),
        Value::String(_) => tr(Files::AString),
        Value::Number(_) => tr(Files::ANumber),
        Value::Bool(_) => tr(Files::ABoolean),
        Value::Null => "null",
    }
}

/// Where the first `null` inside `v` is (jq-style path), if there is one: in a derived
/// expected value, a place with nothing to compare with.
pub fn null_within(v: &Value) -> Option<String> {
    fn find<'a>(v: &'a Value, at: &mut Vec<Step<'a>>) -> bool {
        let inside = |step: Step<'a>, x: &'a Value, at: &mut Vec<Step<'a>>| {
            at.push(step);
            let found = find(x, at);
            if !found {
                at.pop();
            }
            found
        };
        match v {
            Value::Null => true,
            Value::Object(m) => m.iter().any(|(k, x)| inside(Step::Key(k), x, at)),
            Value::Array(a) => a.iter().enumerate().any(|(i, x)| inside(Step::Index(i), x, at)),
            _ => false,
        }
    }
    let mut at = Vec::new();
    find(v, &mut at).then(|| here(&at, What::Differs).path)
}

fn here(at: &[Step], what: What) -> Diff {
    let mut path = String::new();
    let mut pointer = String::new();
    for s in at {
        match s {
            Step::Key(k) => {
                push_key(&mut path, k);
                pointer.push('/');
                pointer.push_str(&k.replace('~', "~0").replace('/', "~1"));
            }
            Step::Index(i) => {
                path.push_str(&format!("[{i}]"));
                pointer.push_str(&format!("/{i}"));
            }
        }
    }
    if path.is_empty() {
        path.push('.');
    }
    Diff { path, pointer, what }
}

fn push_key(path: &mut String, k: &str) {
    if !k.is_empty() && k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') && !k.starts_with(|c: char| c.is_ascii_digit()) {
        path.push('.');
        path.push_str(k);
    } else {
        path.push_str(&format!("[{}]", serde_json::to_string(k).unwrap_or_default()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn numbers_in_text_as_envoy_reads_them() {
        for (text, n) in [("9982", 9982.0), ("9982.0", 9982.0), ("9.982e3", 9982.0), ("0x26FE", 9982.0), ("+9982", 9982.0), ("09982", 9982.0), ("023376", 23376.0), ("-0", 0.0)] {
            assert_eq!(number_in_text(text), Some(n), "{text}");
            assert!(equal(&json!(n as u64), &json!(text)), "{text}");
        }
        for text in ["", "x9982", "9982s", "inf", "NaN", ".5", "0x", "++1", "0o23376", " 9982", "9982\n", "1e400"] {
            assert_eq!(number_in_text(text), None, "{text}");
        }
    }

    #[test]
    fn order_and_number_form_do_not_matter() {
        assert!(equal(&json!({"a": 1, "b": [1.0]}), &json!({"b": [1], "a": "1"})));
        assert!(!equal(&json!({"a": 1}), &json!({"a": 2})));
    }

    #[test]
    fn a_null_inside_is_found() {
        assert_eq!(null_within(&json!({"a": 1, "m": {"X": null}})), Some(".m.X".into()));
        assert_eq!(null_within(&json!([1, [2, null]])), Some("[1][1]".into()));
        assert_eq!(null_within(&json!(null)), Some(".".into()));
        assert_eq!(null_within(&json!({"a": [], "b": {}})), None);
    }

    #[test]
    fn diff_names_the_first_difference() {
        let e = json!({"id": "x", "metadata": {"MESH_ID": "m"}});
        assert_eq!(diff(&e, &json!({"id": "x", "metadata": {"MESH_ID": "n"}}), false).unwrap().path, ".metadata.MESH_ID");
        assert_eq!(diff(&e, &json!({"id": "x", "metadata": {"MESH_ID": "m"}, "extra": 1}), false).unwrap().what, What::Unexpected);
        assert_eq!(diff(&e, &json!({"id": "x", "metadata": {"MESH_ID": "m"}, "extra": 1}), true), None);
        assert_eq!(diff(&json!({"a-b": 1}), &json!({}), true).unwrap().path, "[\"a-b\"]");
        let d = diff(&e, &json!([e.clone()]), false).unwrap();
        assert_eq!((d.path.as_str(), &d.what), (".", &What::Kind { found: "a list", wanted: "a map" }));
        assert_eq!(d.sentence(), "`.` is a list where a map is expected");
        let d = diff(&e, &json!({"id": "x", "metadata": "MESH_ID=m"}), false).unwrap();
        assert_eq!(d.sentence(), "`.metadata` is a string where a map is expected");
        assert_eq!(covered(&json!({"a": {"x": 1, "y": 2}, "b": 3}), &json!({"a": {"x": 1}})), json!({"a": {"x": 1}}));
    }
}
