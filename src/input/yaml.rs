//! YAML (and JSON written as YAML) into JSON values, refusing what would make the
//! parser hang or blow up: deep flow nesting, alias bombs, duplicate keys.

use super::tree::{Budget, Count, Spent, Strict};
pub use super::tree::Keys;
use serde::de::{DeserializeOwned, DeserializeSeed};
use crate::lang::{files::Files, t};
use serde_json::Value;

/// Deeper flow nesting is refused before parsing: libyaml slows down sharply with it
/// (100 000 nested `{a: ` took over a minute).
pub const MAX_FLOW_DEPTH: usize = 100;

/// The fewest values any text may be read into (see [`max_values`]).
pub const MIN_VALUES: usize = 100_000;
/// The most values any text is read into (see [`max_values`]).
pub const MAX_VALUES: usize = 1 << 20;

/// How many values (nodes: scalars, lists, mappings, keys) a text may be read into,
/// counting every value an alias repeats each time: as many as it has bytes, within
/// [`MIN_VALUES`] and [`MAX_VALUES`]. A text without aliases never reaches that (a value
/// takes at least one byte), so only aliases are refused, when they would make the
/// text cost more than a text of its size without any; and a submission file (1 MiB at
/// most) without aliases always fits.
pub fn max_values(text: &str) -> usize {
    text.len().clamp(MIN_VALUES, MAX_VALUES)
}

/// How many bytes of text (strings and keys) a text may be read into, counting every
/// string an alias repeats each time: twice its size, and at least 1 MiB. Without
/// aliases a text never reaches that: an escape (`\L`) makes at most three bytes of
/// two; with them, a long string repeated is refused however few values it makes.
pub fn max_text(text: &str) -> usize {
    text.len().saturating_mul(2).max(1 << 20)
}

/// The budget a text is read within.
pub fn budget(text: &str) -> Budget {
    Budget::new(max_values(text), max_text(text))
}

/// One YAML document. Empty documents after it are fine (a trailing `---`); an empty
/// document before it, or a second document with content, is refused rather than
/// guessed at.
pub fn parse_doc(text: &str) -> Result<Value, String> {
    parse_docs(text, Keys::Unique, usize::MAX)
}

/// An Envoy config, read as Envoy reads it: its first document only (what follows is
/// not read at all, as Envoy does not), a key said twice the last one.
pub fn parse_envoy_doc(text: &str) -> Result<Value, String> {
    match parse_docs(text, Keys::LastWins, 1)? {
        // Envoy finds nothing in it either; said as parse_doc says why.
        Value::Null => parse_docs(text, Keys::LastWins, usize::MAX),
        first => Ok(super::envoy_scalars::as_envoy_reads(text, first, max_values(text))),
    }
}

/// [`parse_doc`], with a key said twice taken as `keys` says, and no more than `most`
/// documents read.
fn parse_docs(text: &str, keys: Keys, most: usize) -> Result<Value, String> {
    precheck(text)?;
    let budget = budget(text);
    let mut docs = Vec::new();
    for (i, de) in serde_yaml::Deserializer::from_str(text).enumerate().take(most) {
        // An error in the first document is said as of the file; in a later one, with
        // the document's number.
        docs.push(Strict(&budget, keys).deserialize(de).map_err(|e| match i {
            0 => describe_in(text, e, &budget),
            _ => t!(Files::InDocument, n = i + 1, said = describe_in(text, e, &budget)),
        })?);
    }
    let with_content = docs.iter().filter(|d| !d.is_null()).count();
    match (with_content, docs.first()) {
        (0, _) => Ok(Value::Null),
        (1, Some(first)) if !first.is_null() => Ok(docs.swap_remove(0)),
        (1, _) => Err(t!(Files::EmptyFirst)),
        (n, _) => Err(t!(Files::Documents, n = n)),
    }
}

/// Every document of a YAML stream; empty documents (such as the one after a
/// trailing `---`) are dropped.
pub fn parse_stream(text: &str) -> Result<Vec<Value>, String> {
    precheck(text)?;
    // One budget for the whole stream: each document may hold its own aliases.
    let budget = budget(text);
    let mut docs = Vec::new();
    for (i, de) in serde_yaml::Deserializer::from_str(text).enumerate() {
        let doc = Strict(&budget, Keys::Unique).deserialize(de).map_err(|e| t!(Files::InDocument, n = i + 1, said = describe_in(text, e, &budget)))?;
        if !doc.is_null() {
            docs.push(doc);
        }
    }
    Ok(docs)
}

/// YAML read into any type (a spec, a params file) within the same bounds as
/// [`parse_doc`]: the nesting is checked and the values counted (none made) first, then
/// the text is read as serde_yaml reads it, its errors and their places unchanged.
pub fn from_str<T: DeserializeOwned>(text: &str) -> Result<T, serde_yaml::Error> {
    use serde::de::Error;
    precheck(text).map_err(serde_yaml::Error::custom)?;
    let budget = budget(text);
    for de in serde_yaml::Deserializer::from_str(text) {
        match Count(&budget).deserialize(de) {
            Err(e) if budget.spent().is_some() => return Err(serde_yaml::Error::custom(describe(e, &budget))),
            // Any other error is the reading's own to report, with its place.
            Err(_) => break,
            Ok(()) => {}
        }
    }
    serde_yaml::from_str(text)
}

/// libyaml's error, with a plain sentence first when the line it stops at is indented
/// with a tab: its own words ("cannot start any token") name the rule, not the fix.
fn describe_in(text: &str, e: serde_yaml::Error, budget: &Budget) -> String {
    let tabbed = e
        .location()
        .and_then(|l| text.lines().nth(l.line().saturating_sub(1)))
        .is_some_and(|line| line.trim_start_matches(' ').starts_with('\t'));
    let said = describe(e, budget);
    if tabbed { t!(Files::Tab, said = said) } else { said }
}

/// The error in words a student reads. libyaml's own limits have no type of their own in
/// serde_yaml, only their message: matched to explain them, never to decide anything.
fn describe(e: serde_yaml::Error, budget: &Budget) -> String {
    // Without serde_yaml's path and place: where the budget ran out says nothing useful.
    match budget.spent() {
        Some(Spent::Values) => return t!(Files::AliasBomb, n = budget.limit()),
        Some(Spent::Text) => return t!(Files::AliasTextBomb, n = budget.text_limit()),
        None => {}
    }
    let text = e.to_string();
    if text.contains("repetition limit exceeded") {
        t!(Files::AliasRepeats)
    } else if text.contains("recursion limit exceeded") {
        t!(Files::TooDeep)
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
    // Only these bytes matter; the rest are skipped a table lookup at a time (a lab's
    // injection config, full of `{{` templates, is 26 KB scanned on every run).
    const STOPS: [bool; 256] = {
        let mut t = [false; 256];
        let mut i = 0;
        let stops = b"\n[{]}#\"'";
        while i < stops.len() {
            t[stops[i] as usize] = true;
            i += 1;
        }
        t
    };
    let mut depth = 0usize;
    let mut line = 1usize;
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if !STOPS[b as usize] {
            i += 1;
            continue;
        }
        let prev = if i == 0 { b'\n' } else { bytes[i - 1] };
        match b {
            b'\n' => line += 1,
            b'[' | b'{' => {
                depth += 1;
                if depth > MAX_FLOW_DEPTH {
                    return Err(t!(Files::Brackets, line = line, max = MAX_FLOW_DEPTH));
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
        i += 1;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_tab_indent_is_named() {
        let e = parse_doc("node:\n\tid: x\n").unwrap_err();
        assert!(e.starts_with("a line is indented with a tab, where YAML needs spaces ("), "{e}");
        let e = parse_doc("node: [\n").unwrap_err();
        assert!(!e.contains("tab"), "{e}");
    }

    #[test]
    fn stream_drops_empty_documents() {
        let docs = parse_stream("a: 1\n---\nkind: Deployment\n---\n").unwrap();
        assert_eq!(docs, vec![json!({"a": 1}), json!({"kind": "Deployment"})]);
    }

    #[test]
    fn one_document_may_have_empty_ones_after_it() {
        assert_eq!(parse_doc("---\na: 1\n---\n").unwrap(), json!({"a": 1}));
        assert_eq!(parse_doc("a: 1\n---\n---\n").unwrap(), json!({"a": 1}));
        assert!(parse_doc("a: 1\n---\nb: 2\n").unwrap_err().contains("2 YAML documents"));
        // Envoy reads the first document only: one that is empty leaves it nothing.
        for before in ["---\n---\n", "~\n---\n", "--- \n# c\n--- # c2\n"] {
            assert!(parse_doc(&format!("{before}a: 1\n")).unwrap_err().contains("empty YAML document comes before"), "{before:?}");
        }
    }

    /// As Envoy 1.40 reads its config (checked with it): the first document, whatever
    /// follows, even a broken one; an empty first one still said so.
    #[test]
    fn an_envoy_config_is_its_first_document() {
        assert_eq!(parse_envoy_doc("a: 1\n---\nb: 2\n").unwrap(), json!({"a": 1}));
        assert_eq!(parse_envoy_doc("a: 1\na: 2\n---\nb: [1\n  c: {\n").unwrap(), json!({"a": 2}));
        assert!(parse_envoy_doc("---\n---\na: 1\n").unwrap_err().contains("empty YAML document comes before"));
    }

    #[test]
    fn refuses_duplicates_bombs_and_deep_nesting() {
        assert!(parse_doc("a: 1\na: 2\n").unwrap_err().contains("duplicate"));
        let bomb = "a: &a [x,x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\nf: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]\ng: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]\n";
        assert!(parse_doc(bomb).unwrap_err().contains("alias"));
        assert!(parse_doc(&"{a: ".repeat(100_000)).unwrap_err().contains("nested"));
        assert!(parse_doc(&"- ".repeat(100_000)).unwrap_err().contains("nested"));
    }

    /// One list of 1,000 repeated by 10,000 aliases: few alias jumps, ten million values.
    fn wide_bomb(aliases: usize) -> String {
        format!("a: &a [{}]\nb: [{}]\n", vec!["x"; 1000].join(","), vec!["*a"; aliases].join(","))
    }

    #[test]
    fn a_wide_alias_bomb_is_refused_by_what_it_expands_to() {
        let bomb = wide_bomb(10_000);
        let e = parse_doc(&bomb).unwrap_err();
        assert_eq!(e, format!("it expands to more than {MIN_VALUES} values, counting each value an alias repeats (a YAML alias bomb?); the grader reads at most that many"));
        let e = parse_stream(&format!("a: 1\n---\n{bomb}")).unwrap_err();
        assert!(e.starts_with("document 2: it expands to more than"), "{e}");
        // The budget is the stream's: documents each within it are still too many together.
        let half = format!("a: &a [{}]\nb: [{}]\n", vec!["x"; 1000].join(","), vec!["*a"; 60].join(","));
        assert!(parse_doc(&half).is_ok());
        assert!(parse_stream(&format!("{half}---\n{half}")).unwrap_err().contains("alias bomb"));
        // Typed readers (a spec, a params file) are bounded the same way.
        let e = from_str::<serde_json::Value>(&bomb).unwrap_err().to_string();
        assert!(e.contains("alias bomb"), "{e}");
        assert!(from_str::<std::collections::BTreeMap<String, String>>("a: [1]\n").is_err());
        assert_eq!(from_str::<std::collections::BTreeMap<String, u8>>("a: 1\n").unwrap()["a"], 1);
    }

    /// One long string repeated by aliases: few values, much text.
    #[test]
    fn a_long_string_repeated_by_aliases_is_refused_by_its_bytes() {
        let bomb = format!("a: &a {}\nb: [{}]\n", "x".repeat(400_000), vec!["*a"; 1000].join(","));
        let e = parse_doc(&bomb).unwrap_err();
        assert_eq!(e, format!("it expands to more than {} bytes of text, counting each text an alias repeats (a YAML alias bomb?); the grader reads at most that much", 1 << 20));
        assert!(from_str::<serde_json::Value>(&bomb).unwrap_err().to_string().contains("bytes of text"));
        // A few repeats of a shorter one are fine.
        let few = format!("a: &a {}\nb: [*a, *a, *a]\n", "x".repeat(200_000));
        assert_eq!(parse_doc(&few).unwrap()["b"].as_array().unwrap().len(), 3);
    }

    #[test]
    fn a_text_without_aliases_never_reaches_the_budget() {
        // A value takes a byte at least (`{a,b,...}`: a key and its null), so the
        // budget, as many values as bytes, is never reached without aliases.
        let keys: Vec<String> = (0..200_000).map(|i| format!("k{i}")).collect();
        let flat = format!("{{{}}}", keys.join(","));
        assert_eq!(parse_doc(&flat).unwrap().as_object().unwrap().len(), 200_000);
        // Nor the text budget: a string's bytes are at most 3/2 of its escapes'.
        let escapes = format!("a: \"{}\"\n", "\\L".repeat(300_000));
        assert_eq!(parse_doc(&escapes).unwrap()["a"].as_str().unwrap().len(), 900_000);
        let list = format!("[{}]", vec!["0"; 300_000].join(","));
        assert_eq!(crate::input::json::parse(&list).unwrap().as_array().unwrap().len(), 300_000);
    }

    #[test]
    fn an_integer_past_64_bits_is_a_number() {
        assert_eq!(parse_doc("a: 18446744073709551616\nb: -18446744073709551617\n").unwrap(), json!({"a": 1.8446744073709552e19, "b": -1.8446744073709552e19}));
    }

    #[test]
    fn quoted_and_commented_brackets_do_not_count() {
        let text = format!("a: \"{}\"\n# {}\nb: it's [1]\n", "[".repeat(500), "{".repeat(500));
        assert_eq!(parse_doc(&text).unwrap()["b"], json!("it's [1]"));
    }

    #[test]
    fn an_envoy_config_takes_the_last_of_a_key_as_envoy_does() {
        assert_eq!(parse_envoy_doc("a: 1\na: 2\n").unwrap(), serde_json::json!({"a": 2}));
        assert!(parse_doc("a: 1\na: 2\n").unwrap_err().contains("duplicate"));
    }

    #[test]
    fn duplicates_name_key_and_line() {
        let e = parse_doc("a: 1\nb:\n  c: 1\n  c: 2\n").unwrap_err();
        assert!(e.contains("duplicate key `c`") && e.contains("line 3"), "{e}");
    }

    #[test]
    fn tags_keys_and_odd_numbers_read_as_before() {
        let doc = parse_doc("a: !foo 1\n1: x\n~: y\ntrue: z\nn: .nan\ni: -.inf\nf: 2.5\nbig: 18446744073709551615\n").unwrap();
        assert_eq!(doc, json!({"a": 1, "1": "x", "null": "y", "true": "z", "n": ".nan", "i": "-.inf", "f": 2.5, "big": 18446744073709551615u64}));
    }

    #[test]
    fn json_is_yaml() {
        assert_eq!(parse_doc("{\"a\": [1, 2.5]}").unwrap(), json!({"a": [1, 2.5]}));
    }
}

