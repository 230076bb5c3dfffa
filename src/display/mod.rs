//! Making untrusted text safe to print: control characters, ANSI escapes, bidirectional
//! overrides and other invisible characters become visible escapes; long values are cut.

mod invisible;

use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::Value;
use std::path::Path;

/// Longest value shown, in characters.
pub const MAX_SHOWN: usize = 240;

/// A value as a student would write it: strings bare, anything else as compact JSON
/// with keys sorted (key order never matters here, and Envoy's varies run to run).
pub fn value_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => serde_json::to_string(&Sorted(other)).unwrap_or_default(),
    }
}

/// A value that serialises with its keys sorted, without copying it.
struct Sorted<'a>(&'a Value);

impl Serialize for Sorted<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            Value::Object(m) => {
                let mut entries: Vec<(&String, &Value)> = m.iter().collect();
                entries.sort_unstable_by_key(|(k, _)| *k);
                let mut map = s.serialize_map(Some(entries.len()))?;
                for (k, v) in entries {
                    map.serialize_entry(k, &Sorted(v))?;
                }
                map.end()
            }
            Value::Array(a) => s.collect_seq(a.iter().map(Sorted)),
            other => other.serialize(s),
        }
    }
}

/// Escape what could move a cursor, colour a terminal, reorder or hide text, and cut to
/// [`MAX_SHOWN`] characters.
pub fn safe(s: &str) -> String {
    safe_max(s, MAX_SHOWN)
}

/// A path, from the command line or a param, made safe to print: escaped like a value,
/// and cut only where no real path reaches (Linux's PATH_MAX is 4096 bytes).
pub fn path(p: &Path) -> String {
    os_text(p.as_os_str())
}

/// A file name or path made safe to print: a byte that is not UTF-8 as `\xff`, so that
/// two such names never read the same (as U+FFFD they would).
pub fn os_text(s: &std::ffi::OsStr) -> String {
    use std::os::unix::ffi::OsStrExt;
    let mut text = String::new();
    for chunk in s.as_bytes().utf8_chunks() {
        text.push_str(chunk.valid());
        chunk.invalid().iter().for_each(|b| text.push_str(&format!("\\x{b:02x}")));
    }
    safe_max(&text, 4096)
}

/// A message for stderr, made safe line by line and never cut: what a path or a name in
/// it did not already escape is escaped here, and the lines of the message stay lines.
pub fn safe_lines(s: &str) -> String {
    s.split('\n').map(|line| safe_max(line, usize::MAX)).collect::<Vec<_>>().join("\n")
}

/// [`safe`], cut at `max` characters.
pub fn safe_max(s: &str, max: usize) -> String {
    // The common case, printable ASCII that fits, needs no look at each character.
    if s.len() <= max && s.bytes().all(|b| (b' '..=b'~').contains(&b)) && !s.contains("##[") {
        return s.to_string();
    }
    let mut out = String::with_capacity(s.len().min(max.saturating_add(16)));
    for (shown, (at, c)) in s.char_indices().enumerate() {
        if shown >= max {
            // Notation, as "a value matching /re/": the same in every language, so that
            // machine-read values compare across languages.
            out.push_str(&format!("… ({} more characters)", s[at..].chars().count()));
            break;
        }
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{1b}' => out.push_str("\\e"),
            // `##[` starts a command anywhere in a line of a GitHub Actions log (its
            // older syntax), whatever the report's format.
            '#' if s[at + 1..].starts_with('[') && s[..at].ends_with('#') => out.push_str("\\u{23}"),
            c if c.is_control() || invisible::is_invisible(c) || is_noncharacter(c) => {
                out.push_str(&format!("\\u{{{:x}}}", c as u32))
            }
            c => out.push(c),
        }
    }
    out
}

/// Unicode's noncharacters (U+FDD0..U+FDEF and the last two of every plane): never
/// text, and U+FFFE and U+FFFF are not even allowed in an XML document.
pub fn is_noncharacter(c: char) -> bool {
    let n = c as u32;
    (0xFDD0..=0xFDEF).contains(&n) || n & 0xFFFE == 0xFFFE
}

/// Text's width in terminal columns: a CJK character takes two.
pub fn width(s: &str) -> usize {
    unicode_width::UnicodeWidthStr::width(s)
}

/// `s` padded with spaces to `columns` terminal columns.
pub fn pad(s: &str, columns: usize) -> String {
    format!("{s}{}", " ".repeat(columns.saturating_sub(width(s))))
}

/// Whether this run is in CI: `CI` set to anything but empty, `0` or `false` (as CI
/// services set it: `true`, `1`, or a service's name).
pub fn in_ci() -> bool {
    ci_says(std::env::var("CI").ok().as_deref())
}

fn ci_says(value: Option<&str>) -> bool {
    value.is_some_and(|v| !matches!(v.trim().to_ascii_lowercase().as_str(), "" | "0" | "false" | "no" | "off"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_terminal_tricks() {
        assert_eq!(safe("a\u{1b}[31mred\u{7}\u{202e}"), "a\\e[31mred\\u{7}\\u{202e}");
        assert_eq!(safe("q/##[error]fake # [x] ##"), "q/#\\u{23}[error]fake # [x] ##");
        assert!(safe(&"x".repeat(1000)).ends_with("(760 more characters)"));
    }

    #[test]
    fn escapes_every_invisible_character() {
        let hidden = "\u{2028}\u{2029}\u{ad}\u{180e}\u{fff9}\u{fffb}\u{e0001}\u{e0020}\u{e007f}\u{fe00}\u{fe0f}\u{e0100}\u{e01ef}\u{61c}\u{2064}\u{2066}\u{206f}\u{feff}\u{85}";
        let shown = safe(&format!("a{hidden}b"));
        assert_eq!(shown.chars().filter(|c| !c.is_ascii()).count(), 0, "{shown}");
        assert!(shown.starts_with("a\\u{2028}\\u{2029}\\u{ad}") && shown.ends_with("\\u{feff}\\u{85}b"), "{shown}");
    }

    #[test]
    fn escapes_noncharacters() {
        assert_eq!(safe("a\u{fffe}\u{ffff}\u{fdd0}\u{10ffff}\u{1fffe}b\u{fffd}"), "a\\u{fffe}\\u{ffff}\\u{fdd0}\\u{10ffff}\\u{1fffe}b\u{fffd}");
    }

    #[test]
    fn ci_is_a_yes() {
        for yes in ["true", "1", "TRUE", "gitlab", "yes"] {
            assert!(ci_says(Some(yes)), "{yes}");
        }
        for no in [None, Some(""), Some("0"), Some("false"), Some("False"), Some(" "), Some("no"), Some("off")] {
            assert!(!ci_says(no), "{no:?}");
        }
    }

    #[test]
    fn pads_by_columns() {
        assert_eq!(pad("张伟", 6), "张伟  ");
        assert_eq!(pad("bob", 6), "bob   ");
        assert_eq!(width("李娜x"), 5);
    }

    #[test]
    fn paths_and_messages_for_stderr() {
        let p = Path::new("/nonexistent/\u{1b}]0;pwn\u{7}\u{1b}[2J\nx");
        assert_eq!(path(p), "/nonexistent/\\e]0;pwn\\u{7}\\e[2J\\nx");
        let message = format!("cannot read {}: gone\nsecond \u{1b}[1mline", path(p));
        assert_eq!(safe_lines(&message), "cannot read /nonexistent/\\e]0;pwn\\u{7}\\e[2J\\nx: gone\nsecond \\e[1mline");
        assert_eq!(safe_lines(&"z".repeat(5000)), "z".repeat(5000));
        // Bytes that are not UTF-8, each its own: two such names never read the same.
        use std::os::unix::ffi::OsStrExt;
        let odd = |b: &[u8]| path(Path::new(std::ffi::OsStr::from_bytes(b)));
        assert_eq!(odd(b"\xff\xfebad"), "\\xff\\xfebad");
        assert_ne!(odd(b"\xff\xfebad"), odd(b"\xfe\xffbad"));
    }

    #[test]
    fn values_read_with_sorted_keys() {
        let v = serde_json::json!({"b": 1, "a": [{"d": null, "c": "x"}], "s": "t"});
        assert_eq!(value_text(&v), r#"{"a":[{"c":"x","d":null}],"b":1,"s":"t"}"#);
        assert_eq!(value_text(&serde_json::json!("bare")), "bare");
    }

    #[test]
    fn plain_text_is_kept_as_it_is() {
        assert_eq!(safe("ready_code=503 {\"a\": [1]}"), "ready_code=503 {\"a\": [1]}");
        assert_eq!(safe(&"y".repeat(MAX_SHOWN)), "y".repeat(MAX_SHOWN));
        assert_eq!(safe("副本 ok"), "副本 ok");
        assert_eq!(safe("café naïve Ωμέγα ÿ ½ ‘quoted’ — ok"), "café naïve Ωμέγα ÿ ½ ‘quoted’ — ok");
        assert_eq!(safe("👍 🚀 한국어 עברית"), "👍 🚀 한국어 עברית");
        assert!(safe(&"y".repeat(MAX_SHOWN + 1)).ends_with("(1 more characters)"));
    }
}
