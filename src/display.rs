//! Making untrusted text safe to print: control characters, ANSI escapes and
//! bidirectional overrides become visible escapes, and long values are cut.

use serde_json::Value;

/// Longest value shown, in characters.
pub const MAX_SHOWN: usize = 240;

/// A value as a student would write it: strings bare, anything else as compact JSON
/// with keys sorted (key order never matters here, and Envoy's varies run to run).
pub fn value_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => serde_json::to_string(&sorted(other)).unwrap_or_default(),
    }
}

fn sorted(v: &Value) -> Value {
    match v {
        Value::Object(m) => {
            let mut keys: Vec<&String> = m.keys().collect();
            keys.sort();
            Value::Object(keys.into_iter().map(|k| (k.clone(), sorted(&m[k]))).collect())
        }
        Value::Array(a) => Value::Array(a.iter().map(sorted).collect()),
        other => other.clone(),
    }
}

/// Escape what could move a cursor, colour a terminal or reorder text, and cut to
/// [`MAX_SHOWN`] characters.
pub fn safe(s: &str) -> String {
    safe_max(s, MAX_SHOWN)
}

/// [`safe`], cut at `max` characters.
pub fn safe_max(s: &str, max: usize) -> String {
    let mut out = String::with_capacity(s.len().min(max + 16));
    for (shown, (at, c)) in s.char_indices().enumerate() {
        if shown >= max {
            out.push_str(&format!("… ({} more characters)", s[at..].chars().count()));
            break;
        }
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{1b}' => out.push_str("\\e"),
            c if c.is_control() || is_format_char(c) => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    out
}

/// Invisible characters that change how text displays (bidi overrides, zero-width).
fn is_format_char(c: char) -> bool {
    matches!(c as u32, 0x200B..=0x200F | 0x202A..=0x202E | 0x2060..=0x2069 | 0xFEFF | 0x061C)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_terminal_tricks() {
        assert_eq!(safe("a\u{1b}[31mred\u{7}\u{202e}"), "a\\e[31mred\\u{7}\\u{202e}");
        assert!(safe(&"x".repeat(1000)).ends_with("(760 more characters)"));
    }
}
