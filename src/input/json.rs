//! JSON that refuses duplicate keys instead of silently keeping the last one.

use super::tree::{Keys, Strict};
use serde::de::DeserializeSeed;
use serde_json::Value;

pub fn parse(text: &str) -> Result<Value, String> {
    let mut de = serde_json::Deserializer::from_str(text);
    // JSON has no aliases: the budget only caps a lab file's size in values.
    let budget = super::yaml::budget(text);
    let v = Strict(&budget, Keys::Unique).deserialize(&mut de).map_err(describe)?;
    de.end().map_err(describe)?;
    Ok(v)
}

/// The error in words a student reads. serde_json's recursion limit has no type of its
/// own (`classify()` calls it syntax): its message is matched to explain it, nothing else.
fn describe(e: serde_json::Error) -> String {
    let text = e.to_string();
    if text.starts_with("recursion limit exceeded") {
        crate::lang::t!(crate::lang::files::Files::TooDeepAt, line = e.line(), column = e.column())
    } else {
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn duplicates_are_reported_with_their_line() {
        let e = parse("{\n\"a\": 1,\n\"a\": 2}").unwrap_err();
        assert!(e.contains("duplicate key `a`") && e.contains("line 3"), "{e}");
    }

    #[test]
    fn deep_nesting_is_refused() {
        assert!(parse(&"[".repeat(100_000)).unwrap_err().contains("nested too deeply"));
    }
}
