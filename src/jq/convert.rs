//! Values cross between serde_json (the grader's own) and jaq (the expression engine).

use jaq_json::Val;
use serde::Deserialize;
use serde_json::Value;

pub fn to_jaq(v: &Value) -> Val {
    // serde_json values are always representable, so this cannot fail.
    Val::deserialize(v).unwrap_or(Val::Null)
}

pub fn from_jaq(v: &Val) -> Value {
    match v {
        Val::Null => Value::Null,
        Val::Bool(b) => Value::Bool(*b),
        Val::Num(n) => {
            let text = n.to_string();
            serde_json::from_str::<serde_json::Number>(&text)
                .map(Value::Number)
                .unwrap_or(Value::Null)
        }
        Val::TStr(b) | Val::BStr(b) => Value::String(String::from_utf8_lossy(b).into_owned()),
        Val::Arr(a) => Value::Array(a.iter().map(from_jaq).collect()),
        Val::Obj(o) => Value::Object(
            o.iter()
                .map(|(k, v)| (key_text(k), from_jaq(v)))
                .collect(),
        ),
    }
}

fn key_text(k: &Val) -> String {
    match k {
        Val::TStr(b) | Val::BStr(b) => String::from_utf8_lossy(b).into_owned(),
        other => other.to_string(),
    }
}

/// The text of a jq error: a string raised with `error("...")` reads without quotes.
pub fn error_text(e: jaq_core::Error<Val>) -> String {
    match e.into_val() {
        Val::TStr(b) | Val::BStr(b) => String::from_utf8_lossy(&b).into_owned(),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn round_trips() {
        let v = json!({"a": [1, 2.5, "x", null, true], "b": {"c": -3}});
        assert_eq!(from_jaq(&to_jaq(&v)), v);
    }
}
