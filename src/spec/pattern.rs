//! A regex from a spec (or derived while grading), compiled once with the regex crate,
//! within a size limit.

use regex::{Regex, RegexBuilder};
use std::fmt;

/// Compiled automata stay small: a pattern from a spec is short.
const SIZE_LIMIT: usize = 1 << 20;

pub struct Pattern {
    regex: Regex,
}

/// Why a pattern cannot be used.
#[derive(Debug, PartialEq, Eq)]
pub enum PatternError {
    /// It is not a regex at all.
    Syntax(String),
    /// It is a regex, but compiles to more than the size limit.
    TooBig(String),
}

impl fmt::Display for PatternError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PatternError::Syntax(e) | PatternError::TooBig(e) => f.write_str(e),
        }
    }
}

impl Pattern {
    pub fn new(source: &str, multi_line: bool) -> Result<Pattern, PatternError> {
        match RegexBuilder::new(source).multi_line(multi_line).size_limit(SIZE_LIMIT).build() {
            Ok(regex) => Ok(Pattern { regex }),
            Err(e @ regex::Error::CompiledTooBig(_)) => Err(PatternError::TooBig(e.to_string())),
            Err(e) => Err(PatternError::Syntax(e.to_string())),
        }
    }

    pub fn is_match(&self, haystack: &str) -> bool {
        self.regex.is_match(haystack)
    }

    /// Where the first match starts.
    pub fn find(&self, haystack: &str) -> Option<usize> {
        self.regex.find(haystack).map(|m| m.start())
    }
}

impl fmt::Display for Pattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.regex.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn syntax_errors_and_size_are_told_apart() {
        let e = Pattern::new("a(b", false).err().unwrap();
        assert!(matches!(&e, PatternError::Syntax(m) if m.contains("unclosed group")), "{e}");
        assert!(matches!(Pattern::new(r"\p{NoSuchClass}", false), Err(PatternError::Syntax(_))));
        let e = Pattern::new(r"\w{1000}\w{1000}", false).err().unwrap();
        assert!(matches!(&e, PatternError::TooBig(m) if m.contains("size limit")), "{e}");
    }

    #[test]
    fn multi_line_anchors_lines() {
        let p = Pattern::new(r"^- \S", true).unwrap();
        assert_eq!(p.find("x\n- 启动"), Some(2));
        assert!(!p.is_match("-  \n"));
        assert_eq!(p.to_string(), r"^- \S");
    }
}
