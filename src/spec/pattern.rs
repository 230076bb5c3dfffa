//! A regex from a spec: its syntax is checked when the spec loads; it is compiled when
//! a check first uses it, and with regex-lite when the text it searches is short ASCII.
//!
//! Why: the regex crate's compile is built for fast searching of large texts; a grading
//! run compiles each pattern once to search a few short lines, and its compiles took
//! 0.3 ms of a 5 ms run, the first one that can match a non-ASCII character (`\S`, `.`,
//! `[^x]`) 0.2 ms alone. regex-lite, from the same project, compiles in a tenth of that.
//! It knows no Unicode classes or case folding, so it is used only where they cannot
//! matter: a pattern that is ASCII, names no code point by escape, and reads without
//! Unicode finds exactly the same matches at the same offsets in ASCII text. Other
//! patterns and other texts get the regex crate, with Unicode.

use regex::{Regex, RegexBuilder};
use std::fmt;
use std::sync::OnceLock;

/// Compiled automata stay small: a pattern from a spec is short.
const SIZE_LIMIT: usize = 1 << 20;
/// Above this, search speed matters more than compile time.
const LITE_MAX_TEXT: usize = 64 << 10;

pub struct Pattern {
    source: String,
    multi_line: bool,
    /// `None`: the pattern needs Unicode to be written at all.
    lite: OnceLock<Option<regex_lite::Regex>>,
    unicode: OnceLock<Result<Regex, String>>,
}

/// A pattern compiled for one text; [`Compiled::Lite`] is only for ASCII haystacks.
#[derive(Clone, Copy)]
pub enum Compiled<'p> {
    Lite(&'p regex_lite::Regex),
    Unicode(&'p Regex),
}

impl Pattern {
    /// Checks the syntax (with Unicode, as the pattern reads) without compiling.
    pub fn new(source: &str, multi_line: bool) -> Result<Pattern, String> {
        regex_syntax::ParserBuilder::new().multi_line(multi_line).build().parse(source).map_err(|e| e.to_string())?;
        Ok(Pattern { source: source.to_string(), multi_line, lite: OnceLock::new(), unicode: OnceLock::new() })
    }

    /// Compile now the form any text may need (the regex crate's, with Unicode), and
    /// keep it: what `labcheck spec` does, so a pattern too large to compile shows
    /// there, with its place, and not first while grading.
    pub fn compile_fully(&self) -> Result<(), String> {
        self.unicode.get_or_init(|| self.build_unicode()).as_ref().map(|_| ()).map_err(Clone::clone)
    }

    /// The pattern compiled to search `text` and its substrings.
    pub fn for_text(&self, text: &str) -> Result<Compiled<'_>, String> {
        if text.len() <= LITE_MAX_TEXT
            && text.is_ascii()
            && let Some(re) = self.lite.get_or_init(|| self.build_lite())
        {
            return Ok(Compiled::Lite(re));
        }
        match self.unicode.get_or_init(|| self.build_unicode()) {
            Ok(re) => Ok(Compiled::Unicode(re)),
            Err(e) => Err(e.clone()),
        }
    }

    fn build_lite(&self) -> Option<regex_lite::Regex> {
        // Only ASCII can be written in it: then Unicode's classes and case folding can
        // differ from regex-lite's only on non-ASCII text. (`(?i)ſ`, or `(?i)\x{212A}`,
        // the Kelvin sign, match ASCII letters with Unicode; escapes that name a code
        // point are refused wholesale, `\\x` included, which costs only speed.)
        let escapes_a_code_point = ["\\x", "\\u", "\\U"].iter().any(|e| self.source.contains(e));
        if !self.source.is_ascii() || escapes_a_code_point {
            return None;
        }
        // What the regex project itself can read without Unicode.
        regex_syntax::ParserBuilder::new()
            .unicode(false)
            .utf8(false)
            .multi_line(self.multi_line)
            .build()
            .parse(&self.source)
            .ok()?;
        regex_lite::RegexBuilder::new(&self.source).multi_line(self.multi_line).size_limit(SIZE_LIMIT).build().ok()
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
            Compiled::Lite(re) => {
                debug_assert!(haystack.is_ascii());
                re.find(haystack).map(|m| m.start())
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

    fn is_match(p: &Pattern, text: &str) -> Result<bool, String> {
        p.for_text(text).map(|re| re.is_match(text))
    }

    /// Both compiles of `pattern`, run on the same text, must agree.
    fn same(pattern: &str, text: &str) {
        let p = Pattern::new(pattern, true).unwrap();
        let unicode = RegexBuilder::new(pattern).multi_line(true).build().unwrap();
        let want = unicode.find(text).map(|m| m.start());
        assert_eq!(p.for_text(text).unwrap().find(text), want, "/{pattern}/ on {text:?}");
    }

    #[test]
    fn short_ascii_text_gets_the_lite_compile() {
        let p = Pattern::new(r"^- \S", true).unwrap();
        assert!(matches!(p.for_text("- a").unwrap(), Compiled::Lite(_)));
        assert!(matches!(p.for_text("- 启动").unwrap(), Compiled::Unicode(_)));
        assert!(is_match(&p, "- 启动").unwrap());
        assert!(!is_match(&p, "-  ").unwrap());
    }

    #[test]
    fn both_compiles_find_the_same_matches() {
        let patterns = [
            r"\S", r"^- \S", r"(?i)kelvin", r"(?i)[k-s]+", r"\bword\b", r"\Bor", r"^[0-9]+$", r".", r"(?s).+", r"[^a]",
            r"\w+\s\d", r"^$", r"x*", r"a+?", r"(a|ab)(c|bcd)", r"[[:alpha:]]+", r"[[:^space:]]", r"[a-z&&[^aeiou]]+",
            r"[\x00-\xff]", r"[^\x80-\xff]+", r"\x41", r"(?i)[\x{100}-\x{300}]", r"\\x", r"\\", r"(?x) a b # comment", r"a{2,3}", r"\d{3}\z", r"\Aline",
            r"(?m)^next$", r"(?U)a+", r"[\[\]]", r"\.", r"(?i)\xb5", r"(?-u:\w)+", r"(?i)[j-l]", r"(?i)S+",
        ];
        let texts = ["", "   ", "\t\n- x", "a b 1", "word words", "KELVIN kelvin", "line\n\nnext", "aaa", "_x 9", "abcd", "Mississippi", "[503]", "\u{0b}\u{0c}", "a.b 123", "s\\x"];
        for p in patterns {
            for t in texts {
                same(p, t);
            }
        }
        // The comparison means something only if regex-lite did most of the matching.
        let lite = patterns.iter().filter(|p| matches!(Pattern::new(p, true).unwrap().for_text("a"), Ok(Compiled::Lite(_)))).count();
        assert!(lite >= 25, "only {lite} of {} patterns went to regex-lite", patterns.len());
    }

    #[test]
    fn a_pattern_with_no_ascii_form_uses_unicode() {
        for source in [r"\p{Han}", "é", "(?i)ſ", r"(?i)\x{212A}", r"\u{17F}"] {
            let p = Pattern::new(source, false).unwrap();
            assert!(matches!(p.for_text("abc").unwrap(), Compiled::Unicode(_)), "{source}");
        }
        // The Kelvin sign folds to an ASCII k: with Unicode it matches "k", as it must.
        assert!(is_match(&Pattern::new(r"(?i)\x{212A}", false).unwrap(), "k").unwrap());
        assert!(is_match(&Pattern::new("(?i)ſ", false).unwrap(), "S").unwrap());
        let p = Pattern::new(r"\p{Han}|é", false).unwrap();
        assert!(matches!(p.for_text("abc").unwrap(), Compiled::Unicode(_)));
        assert!(!is_match(&p, "abc").unwrap());
        assert!(is_match(&p, "启").unwrap());
    }

    #[test]
    fn long_text_gets_the_regex_crate() {
        let p = Pattern::new(r"^- \S", true).unwrap();
        let long = "x\n".repeat(LITE_MAX_TEXT);
        assert!(matches!(p.for_text(&long).unwrap(), Compiled::Unicode(_)));
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
        assert!(is_match(&p, "é").is_err());
        let e = p.compile_fully().unwrap_err();
        assert!(e.contains("size limit"), "{e}");
        assert!(Pattern::new(r"^- \S", true).unwrap().compile_fully().is_ok());
    }
}
