//! An Envoy config's plain scalars as Envoy reads them, where YAML 1.2 reads them
//! otherwise: `0o23376` is text to Envoy (which then refuses it as a port), `023376`
//! octal, `0X26FE` hex, `09982` the number 9982, `yes` and `on` true.
//!
//! Envoy reads YAML with yaml-cpp, then gives each plain scalar the first type it
//! converts to: bool, 64-bit integer (base from its prefix, as C++ streams read one),
//! double, else string (`ValueUtil::loadFromYaml`). The grader reads the file as
//! serde_yaml does (its errors, bounds and duplicate keys), then reads its events again
//! here and takes these values where both readings have the same shape.

use serde_json::{Map, Number, Value};
use yaml_rust2::parser::{Event, Parser};
use yaml_rust2::scanner::TScalarStyle;

/// `doc` (serde_yaml's reading of `text`, whose first document it is) with its scalars
/// as Envoy reads them. Unchanged when the events do not give a value of its shape, or
/// would take more than `most` values to build (aliases repeat theirs).
pub fn as_envoy_reads(text: &str, doc: Value, most: usize) -> Value {
    match first_document(text, most) {
        Some(envoys) if same_shape(&doc, &envoys) => envoys,
        _ => doc,
    }
}

enum Open {
    Seq(Vec<Value>, usize),
    /// The mapping, its anchor, and the key read whose value comes next.
    Map(Map<String, Value>, usize, Option<String>),
}

/// The first document, built from the parser's events; None on any error or past `most`.
fn first_document(text: &str, most: usize) -> Option<Value> {
    let mut parser = Parser::new_from_str(text);
    let mut stack: Vec<Open> = Vec::new();
    let mut anchors: std::collections::HashMap<usize, Value> = std::collections::HashMap::new();
    let mut made = 0usize;
    loop {
        let (event, _) = parser.next_token().ok()?;
        let done = match event {
            Event::StreamEnd | Event::DocumentEnd if stack.is_empty() => return Some(Value::Null),
            Event::StreamStart | Event::DocumentStart | Event::Nothing | Event::StreamEnd | Event::DocumentEnd => continue,
            Event::SequenceStart(anchor, _) => {
                stack.push(Open::Seq(Vec::new(), anchor));
                continue;
            }
            Event::MappingStart(anchor, _) => {
                stack.push(Open::Map(Map::new(), anchor, None));
                continue;
            }
            Event::SequenceEnd => match stack.pop()? {
                Open::Seq(items, anchor) => (Value::Array(items), anchor),
                Open::Map(..) => return None,
            },
            Event::MappingEnd => match stack.pop()? {
                Open::Map(map, anchor, None) => (Value::Object(map), anchor),
                _ => return None,
            },
            Event::Scalar(text, style, anchor, tag) => {
                // A key is its text, as Envoy takes it (`as<std::string>()`).
                if let Some(Open::Map(_, _, key @ None)) = stack.last_mut() {
                    *key = Some(text);
                    continue;
                }
                // A tag of `!` makes the scalar text, as quotes do; others change nothing.
                let plain = style == TScalarStyle::Plain && !tag.is_some_and(|t| matches!((t.handle.as_str(), t.suffix.as_str()), ("", "!") | ("!", "")));
                (if plain { scalar(&text)? } else { Value::String(text) }, anchor)
            }
            Event::Alias(id) => {
                let v = anchors.get(&id)?.clone();
                made += count(&v);
                (v, 0)
            }
        };
        let (value, anchor) = done;
        made += 1;
        if made > most {
            return None;
        }
        if anchor != 0 {
            anchors.insert(anchor, value.clone());
        }
        match stack.last_mut() {
            None => return Some(value),
            Some(Open::Seq(items, _)) => items.push(value),
            Some(Open::Map(map, _, key)) => {
                // A key said twice: the last value, where the key first stood (as
                // serde_yaml's reading has it; Envoy's order of keys means nothing).
                let k = key.take()?;
                map.insert(k, value);
            }
        }
    }
}

fn count(v: &Value) -> usize {
    match v {
        Value::Array(a) => 1 + a.iter().map(count).sum::<usize>(),
        Value::Object(o) => 1 + o.values().map(count).sum::<usize>(),
        _ => 1,
    }
}

/// A plain scalar: null, then the types Envoy tries in turn. None for what JSON cannot
/// hold (infinities, NaN): serde_yaml's reading is kept then.
fn scalar(s: &str) -> Option<Value> {
    if matches!(s, "" | "~" | "null" | "Null" | "NULL") {
        return Some(Value::Null);
    }
    if let Some(b) = boolean(s) {
        return Some(Value::Bool(b));
    }
    if let Some(i) = integer(s) {
        // Outside int32 Envoy writes the number as text, which proto JSON also reads.
        return Some(if i32::try_from(i).is_ok() { Value::from(i) } else { Value::String(i.to_string()) });
    }
    if let Some(f) = double(s) {
        return Number::from_f64(f).map(Value::Number);
    }
    Some(Value::String(s.to_string()))
}

/// yaml-cpp's booleans: y, yes, true, on and their opposites, all lower case, all
/// upper case, or capitalised.
fn boolean(s: &str) -> Option<bool> {
    let flexible = s == s.to_lowercase() || s == s.to_uppercase() || {
        let mut c = s.chars();
        c.next().is_some_and(char::is_uppercase) && c.as_str() == c.as_str().to_lowercase()
    };
    if !flexible {
        return None;
    }
    match s.to_lowercase().as_str() {
        "y" | "yes" | "true" | "on" => Some(true),
        "n" | "no" | "false" | "off" => Some(false),
        _ => None,
    }
}

/// A C++ stream's integer with its base left open: a sign, then `0x` hex, a leading `0`
/// octal, or decimal; the whole text, trailing spaces aside.
fn integer(s: &str) -> Option<i64> {
    let s = s.trim_end();
    let (negative, digits) = match s.as_bytes().first()? {
        b'-' => (true, &s[1..]),
        b'+' => (false, &s[1..]),
        _ => (false, s),
    };
    let (radix, digits) = if let Some(hex) = digits.strip_prefix("0x").or_else(|| digits.strip_prefix("0X")) {
        (16, hex)
    } else if digits.len() > 1 && digits.starts_with('0') {
        (8, &digits[1..])
    } else {
        (10, digits)
    };
    if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
        return None;
    }
    let magnitude = i128::from_str_radix(digits, radix).ok()?;
    i64::try_from(if negative { -magnitude } else { magnitude }).ok()
}

/// A C++ stream's double: decimal digits with an optional point and exponent.
fn double(s: &str) -> Option<f64> {
    let s = s.trim_end();
    let body = s.strip_prefix(['-', '+']).unwrap_or(s);
    let mantissa = body.split(['e', 'E']).next()?;
    let ok = !mantissa.is_empty() && mantissa != "." && body.chars().all(|c| c.is_ascii_digit() || matches!(c, '.' | 'e' | 'E' | '-' | '+'));
    if !ok {
        return None;
    }
    s.parse::<f64>().ok().filter(|f| f.is_finite())
}

/// Both readings give the same mappings, with the same keys in the same order, and the
/// same lists: only scalars may differ.
fn same_shape(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same_shape(x, y)),
        (Value::Object(x), Value::Object(y)) => x.len() == y.len() && x.iter().zip(y).all(|((kx, x), (ky, y))| kx == ky && same_shape(x, y)),
        (Value::Array(_) | Value::Object(_), _) | (_, Value::Array(_) | Value::Object(_)) => false,
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn port(spelled: &str) -> Value {
        let text = format!("admin:\n  port_value: {spelled}\n");
        let doc = crate::input::yaml::parse_envoy_doc(&text).unwrap();
        doc["admin"]["port_value"].clone()
    }

    /// What Envoy 1.40 did with each spelling of port 9982 (it listened on 9982, or
    /// refused the text as a number).
    #[test]
    fn numbers_read_as_envoy_reads_them() {
        for (spelled, read) in [
            ("9982", json!(9982)),
            ("+9982", json!(9982)),
            ("023376", json!(9982)),
            ("0X26FE", json!(9982)),
            ("0x26FE", json!(9982)),
            ("09982", json!(9982.0)),
            ("9982.0", json!(9982.0)),
            ("9982e0", json!(9982.0)),
            ("0o23376", json!("0o23376")),
            ("0b10011011111110", json!("0b10011011111110")),
            ("9_982", json!("9_982")),
            ("'023376'", json!("023376")),
            ("\"0o23376\"", json!("0o23376")),
            ("! 023376", json!("023376")),
            ("4294967296", json!("4294967296")),
        ] {
            assert_eq!(port(spelled), read, "{spelled}");
        }
    }

    #[test]
    fn booleans_and_nulls_read_as_yaml_cpp_reads_them() {
        for (spelled, read) in [("yes", json!(true)), ("On", json!(true)), ("N", json!(false)), ("oFF", json!("oFF")), ("~", json!(null)), ("", json!(null)), ("true", json!(true))] {
            assert_eq!(port(spelled), read, "{spelled:?}");
        }
    }

    #[test]
    fn structure_aliases_and_repeated_keys_are_kept() {
        let doc = crate::input::yaml::parse_envoy_doc("a: &p 010\nb: *p\nc: [1, {d: 0x10}]\na: 011\n---\nx: 1\n").unwrap();
        assert_eq!(doc, json!({"a": 9, "b": 8, "c": [1, {"d": 16}]}));
    }

    /// Where the events would give another shape, serde_yaml's reading stands.
    #[test]
    fn another_shape_keeps_the_first_reading() {
        let doc = json!({"a": {"b": 1}});
        assert_eq!(as_envoy_reads("a: [010]\n", doc.clone(), 100), doc);
        assert_eq!(as_envoy_reads("a: {b: 010}\n", doc.clone(), 100), json!({"a": {"b": 8}}));
        // Past the budget, nothing is built.
        assert_eq!(as_envoy_reads("a: {b: 010}\n", doc.clone(), 2), doc);
    }
}
