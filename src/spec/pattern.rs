//! A regex from a spec: its syntax is checked when the spec loads; it is compiled when
//! a check first uses it, and for ASCII alone when the text it searches is ASCII.
//!
//! Why: compiling a pattern that can match a non-ASCII character (`\S`, `.`, `[^x]`)
//! builds a UTF-8 automaton, and the first such compile in a process costs about
//! 0.2 ms, as much as reading a lab file. On ASCII text the pattern compiled with
//! Unicode off finds exactly the same matches at the same offsets (every Unicode class
//! meets ASCII in its ASCII part; case folding and `\b` agree there too), and costs a
//! tenth of that. Text with any non-ASCII byte gets the Unicode compile, as does a
//! pattern that has no ASCII form (`\p{Han}`, a literal `é`).

use regex::bytes;
use regex::{Regex, RegexBuilder};
use std::fmt;
use std::sync::OnceLock;

/// Compiled automata stay small: a pattern from a spec is short.
const SIZE_LIMIT: usize = 1 << 20;

pub struct Pattern {
    source: String,
    multi_line: bool,
    /// `None`: the pattern needs Unicode to be written at all.
    ascii: OnceLock<Option<bytes::Regex>>,
    unicode: OnceLock<Result<Regex, String>>,
}

/// A pattern compiled for one text; [`Compiled::Ascii`] is only for ASCII haystacks.
#[derive(Clone, Copy)]
pub enum Compiled<'p> {
    Ascii(&'p bytes::Regex),
    Unicode(&'p Regex),
}

impl Pattern {
    /// Checks the syntax (with Unicode, as the pattern reads) without compiling.
    pub fn new(source: &str, multi_line: bool) -> Result<Pattern, String> {
        regex_syntax::ParserBuilder::new()
            .multi_line(multi_line)
            .build()
            .parse(source)
            .map_err(|e| e.to_string())?;
        Ok(Pattern { source: source.to_string(), multi_line, ascii: OnceLock::new(), unicode: OnceLock::new() })
    }

    pub fn as_str(&self) -> &str {
        &self.source
    }

    /// The pattern compiled to search `text` and its substrings.
    pub fn for_text(&self, text: &str) -> Result<Compiled<'_>, String> {
        if text.is_ascii()
            && let Some(re) = self.ascii.get_or_init(|| self.build_ascii())
        {
            return Ok(Compiled::Ascii(re));
        }
        match self.unicode.get_or_init(|| self.build_unicode()) {
            Ok(re) => Ok(Compiled::Unicode(re)),
            Err(e) => Err(e.clone()),
        }
    }

    pub fn is_match(&self, text: &str) -> Result<bool, String> {
        self.for_text(text).map(|re| re.is_match(text))
    }

    fn build_ascii(&self) -> Option<bytes::Regex> {
        bytes::RegexBuilder::new(&self.source)
            .unicode(false)
            .multi_line(self.multi_line)
            .size_limit(SIZE_LIMIT)
            .build()
            .ok()
    }

    fn build_unicode(&self) -> Result<Regex, String> {
        RegexBuilder::new(&self.source)
            .multi_line(self.multi_line)
            .size_limit(SIZE_LIMIT)
            .build()
            .map_err(|e| e.to_string())
    }
}

impl Compiled<'_> {
    pub fn is_match(self, haystack: &str) -> bool {
        self.find(haystack).is_some()
    }

    /// Where the first match starts.
    pub fn find(self, haystack: &str) -> Option<usize> {
        match self {
            Compiled::Ascii(re) => {
                debug_assert!(haystack.is_ascii());
                re.find(haystack.as_bytes()).map(|m| m.start())
            }
            Compiled::Unicode(re) => re.find(haystack).map(|m| m.start()),
        }
    }
}

impl fmt::Display for Pattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.source)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Both compiles of `pattern`, run on the same text, must agree.
    fn same(pattern: &str, text: &str) {
        let p = Pattern::new(pattern, true).unwrap();
        let unicode = RegexBuilder::new(pattern).multi_line(true).build().unwrap();
        let want = unicode.find(text).map(|m| m.start());
        assert_eq!(p.for_text(text).unwrap().find(text), want, "/{pattern}/ on {text:?}");
    }

    #[test]
    fn ascii_text_gets_the_ascii_compile() {
        let p = Pattern::new(r"^- \S", true).unwrap();
        assert!(matches!(p.for_text("- a").unwrap(), Compiled::Ascii(_)));
        assert!(matches!(p.for_text("- 启动").unwrap(), Compiled::Unicode(_)));
        assert!(p.is_match("- 启动").unwrap());
        assert!(!p.is_match("-  ").unwrap());
    }

    #[test]
    fn both_compiles_find_the_same_matches() {
        let patterns = [r"\S", r"^- \S", r"(?i)kelvin", r"\bword\b", r"^[0-9]+$", r".", r"[^a]", r"\w+\s\d", r"^$", r"x*"];
        let texts = ["", "   ", "\t\n- x", "a b 1", "word words", "KELVIN", "line\n\nnext", "aaa", "_x 9"];
        for p in patterns {
            for t in texts {
                same(p, t);
            }
        }
    }

    #[test]
    fn a_pattern_with_no_ascii_form_uses_unicode() {
        let p = Pattern::new(r"\p{Han}|é", false).unwrap();
        assert!(matches!(p.for_text("abc").unwrap(), Compiled::Unicode(_)));
        assert!(!p.is_match("abc").unwrap());
        assert!(p.is_match("启").unwrap());
    }

    #[test]
    fn syntax_errors_show_when_the_spec_loads() {
        let e = Pattern::new("a(b", false).err().unwrap();
        assert!(e.contains("unclosed group"), "{e}");
        assert!(Pattern::new(r"\p{NoSuchClass}", false).is_err());
        // As with the regex crate itself: text is UTF-8, a pattern must not split it.
        assert!(Pattern::new(r"(?-u:\S)", false).is_err());
    }

    #[test]
    fn a_pattern_too_big_to_compile_is_an_error_on_use() {
        let p = Pattern::new(r"\w{1000}\w{1000}", false).unwrap();
        assert!(p.is_match("é").is_err());
    }
}
