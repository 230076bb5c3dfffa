//! Where in the spec file a piece of it stands, so errors can say `file:line:col`.
//!
//! serde_yaml gives no positions for values it has already read, so the text of the
//! spec is searched: an anchor (such as `id: env.ca_addr`) narrows the search, and the
//! first occurrence of the needle after it is taken.

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pos {
    pub line: usize,
    pub col: usize,
}

pub fn locate(text: &str, anchor: Option<&str>, needle: &str) -> Option<Pos> {
    let from = anchor.and_then(|a| text.find(a)).unwrap_or(0);
    if !needle.is_empty() {
        if let Some(i) = text[from..].find(needle) {
            return Some(pos_at(text, from + i));
        }
        // A needle written as a folded or quoted scalar may not appear verbatim;
        // its first line usually does.
        let first = needle.lines().next().unwrap_or("").trim();
        if !first.is_empty()
            && let Some(i) = text[from..].find(first) {
                return Some(pos_at(text, from + i));
            }
    }
    anchor.and_then(|a| text.find(a)).map(|i| pos_at(text, i))
}

/// Position of the byte offset `at` (1-based line and column, column in characters).
pub fn pos_at(text: &str, at: usize) -> Pos {
    let before = &text[..at];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map(|i| i + 1).unwrap_or(0);
    Pos { line, col: text[line_start..at].chars().count() + 1 }
}

/// Move a position `offset` bytes further into `needle`, which starts at `pos`.
pub fn advance(pos: Pos, needle: &str, offset: usize) -> Pos {
    let mut offset = offset.min(needle.len());
    while !needle.is_char_boundary(offset) {
        offset -= 1;
    }
    let p = pos_at(needle, offset);
    if p.line == 1 {
        Pos { line: pos.line, col: pos.col + p.col - 1 }
    } else {
        Pos { line: pos.line + p.line - 1, col: p.col }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_needle_after_anchor() {
        let text = "a: val\n- id: one\n  expect: val\n";
        assert_eq!(locate(text, Some("id: one"), "val"), Some(Pos { line: 3, col: 11 }));
        assert_eq!(advance(Pos { line: 3, col: 11 }, "ab\ncd", 4), Pos { line: 4, col: 2 });
    }
}
