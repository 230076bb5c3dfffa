//! YAML (and JSON written as YAML) into JSON values, refusing what would make the
//! parser hang or blow up: deep flow nesting, alias bombs, duplicate keys.

use serde::Deserialize;
use serde_json::{Map, Number, Value};
use serde_yaml::Value as Yaml;

/// Deeper flow nesting is refused before parsing: libyaml slows down sharply with it
/// (100 000 nested `{a: ` took over a minute).
pub const MAX_FLOW_DEPTH: usize = 100;

/// One YAML document.
pub fn parse_doc(text: &str) -> Result<Value, String> {
    precheck(text)?;
    let yaml: Yaml = serde_yaml::from_str(text).map_err(describe)?;
    Ok(to_json(yaml))
}

/// Every document of a YAML stream; empty documents (such as the one after a
/// trailing `---`) are dropped.
pub fn parse_stream(text: &str) -> Result<Vec<Value>, String> {
    precheck(text)?;
    let mut docs = Vec::new();
    for (i, de) in serde_yaml::Deserializer::from_str(text).enumerate() {
        let yaml = Yaml::deserialize(de).map_err(|e| format!("document {}: {}", i + 1, describe(e)))?;
        if !yaml.is_null() {
            docs.push(to_json(yaml));
        }
    }
    Ok(docs)
}

fn describe(e: serde_yaml::Error) -> String {
    let text = e.to_string();
    if text.contains("repetition limit exceeded") {
        "too many alias expansions (a YAML alias bomb?)".into()
    } else if text.contains("recursion limit exceeded") {
        "nested too deeply".into()
    } else {
        text
    }
}

/// Bound the flow nesting depth cheaply, without parsing. Inside flow collections the
/// count is exact; in block context brackets in plain text can only over-count, and a
/// stray closer never lowers the count below zero.
fn precheck(text: &str) -> Result<(), String> {
    // Fewer openers than the limit cannot nest past it (the common case, and cheap).
    if text.bytes().filter(|b| *b == b'[' || *b == b'{').count() <= MAX_FLOW_DEPTH {
        return Ok(());
    }
    let mut depth = 0usize;
    let mut line = 1usize;
    let mut prev = b'\n';
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        match b {
            b'\n' => line += 1,
            b'[' | b'{' => {
                depth += 1;
                if depth > MAX_FLOW_DEPTH {
                    return Err(format!("line {line}: brackets nested more than {MAX_FLOW_DEPTH} deep"));
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            b'#' if prev == b' ' || prev == b'\t' || prev == b'\n' => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'"' | b'\'' if matches!(prev, b' ' | b'\t' | b'\n' | b'[' | b'{' | b',' | b':' | b'-' | b'?') => {
                i += 1;
                while i < bytes.len() && bytes[i] != b {
                    if bytes[i] == b'\\' && b == b'"' {
                        i += 1;
                    }
                    if i < bytes.len() && bytes[i] == b'\n' {
                        line += 1;
                    }
                    i += 1;
                }
            }
            _ => {}
        }
        prev = if i < bytes.len() { bytes[i] } else { b };
        i += 1;
    }
    Ok(())
}

fn to_json(y: Yaml) -> Value {
    match y {
        Yaml::Null => Value::Null,
        Yaml::Bool(b) => Value::Bool(b),
        Yaml::Number(n) => number(&n),
        Yaml::String(s) => Value::String(s),
        Yaml::Sequence(seq) => Value::Array(seq.into_iter().map(to_json).collect()),
        Yaml::Mapping(m) => {
            let mut out = Map::with_capacity(m.len());
            for (k, v) in m {
                out.insert(key_text(k), to_json(v));
            }
            Value::Object(out)
        }
        // A tag (`!foo 1`) means nothing to this grader; keep the value.
        Yaml::Tagged(t) => to_json(t.value),
    }
}

fn number(n: &serde_yaml::Number) -> Value {
    if let Some(i) = n.as_i64() {
        Value::Number(i.into())
    } else if let Some(u) = n.as_u64() {
        Value::Number(u.into())
    } else {
        n.as_f64()
            .and_then(Number::from_f64)
            .map(Value::Number)
            // .nan and .inf have no JSON form; keep them readable.
            .unwrap_or_else(|| Value::String(n.to_string()))
    }
}

fn key_text(k: Yaml) -> String {
    match k {
        Yaml::String(s) => s,
        Yaml::Null => "null".into(),
        Yaml::Bool(b) => b.to_string(),
        Yaml::Number(n) => n.to_string(),
        Yaml::Tagged(t) => key_text(t.value),
        other => serde_json::to_string(&to_json(other)).unwrap_or_default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn stream_drops_empty_documents() {
        let docs = parse_stream("a: 1\n---\nkind: Deployment\n---\n").unwrap();
        assert_eq!(docs, vec![json!({"a": 1}), json!({"kind": "Deployment"})]);
    }

    #[test]
    fn refuses_duplicates_bombs_and_deep_nesting() {
        assert!(parse_doc("a: 1\na: 2\n").unwrap_err().contains("duplicate"));
        let bomb = "a: &a [x,x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\nf: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]\ng: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]\n";
        assert!(parse_doc(bomb).unwrap_err().contains("alias"));
        assert!(parse_doc(&"{a: ".repeat(100_000)).unwrap_err().contains("nested"));
        assert!(parse_doc(&"- ".repeat(100_000)).unwrap_err().contains("nested"));
    }

    #[test]
    fn quoted_and_commented_brackets_do_not_count() {
        let text = format!("a: \"{}\"\n# {}\nb: it's [1]\n", "[".repeat(500), "{".repeat(500));
        assert_eq!(parse_doc(&text).unwrap()["b"], json!("it's [1]"));
    }

    #[test]
    fn json_is_yaml() {
        assert_eq!(parse_doc("{\"a\": [1, 2.5]}").unwrap(), json!({"a": [1, 2.5]}));
    }
}
