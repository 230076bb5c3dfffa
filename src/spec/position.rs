//! Where in the spec file a piece of it stands, so errors can say `file:line:col`.
//!
//! serde_yaml gives no positions for values it has already read, so the text of the
//! spec is searched: an anchor (such as `id: env.ca_addr`) narrows the search, and the
//! first occurrence of the needle after it is taken. Both are matched as whole tokens
//! where they can be, or `id: a` would find `id: a_more` and `cluster:` `xds_cluster:`.

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pos {
    pub line: usize,
    pub col: usize,
}

pub fn locate(text: &str, anchor: Option<&str>, needle: &str) -> Option<Pos> {
    let from = anchor.and_then(|a| find_anchor(text, a)).unwrap_or(0);
    if !needle.is_empty() {
        let rest = &text[from..];
        if let Some(i) = find_word(rest, needle).or_else(|| rest.find(needle)) {
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
    anchor.and_then(|a| find_anchor(text, a)).map(|i| pos_at(text, i))
}

/// Where `anchor` first stands whole: not the end of a longer key (`cluster:` within
/// `xds_cluster:`), nor, for `key: value`, the start of a longer value (`id: a` within
/// `id: a_more` or `id: a.b`).
fn find_anchor(text: &str, anchor: &str) -> Option<usize> {
    text.match_indices(anchor).map(|(i, _)| i).find(|&i| {
        let starts = text[..i].chars().next_back().is_none_or(|c| !is_key_char(c));
        let after = &text[i + anchor.len()..];
        let ends = if anchor.ends_with(':') { after.chars().next().is_none_or(char::is_whitespace) } else { value_ends(after) };
        starts && ends
    })
}

fn is_key_char(c: char) -> bool {
    c.is_alphanumeric() || "_-.".contains(c)
}

/// Does a plain YAML value end here: at the end of its line, at a comment, or at what
/// ends it in a flow collection (`{id: a, step: 1}`)?
fn value_ends(after: &str) -> bool {
    let rest = after.trim_start_matches([' ', '\t']);
    match rest.chars().next() {
        None | Some('\n' | '\r' | ',' | '}' | ']') => true,
        Some('#') => rest.len() < after.len(),
        _ => false,
    }
}

/// The first occurrence of `needle` that is not part of a longer word (`$env` within
/// `$envelope`). Only the ends that are word characters are checked.
fn find_word(text: &str, needle: &str) -> Option<usize> {
    let word = |c: char| c.is_alphanumeric() || c == '_';
    let (first, last) = (needle.chars().next()?, needle.chars().next_back()?);
    text.match_indices(needle).map(|(i, _)| i).find(|&i| {
        let before_ok = !word(first) || text[..i].chars().next_back().is_none_or(|c| !word(c));
        let after_ok = !word(last) || text[i + needle.len()..].chars().next().is_none_or(|c| !word(c));
        before_ok && after_ok
    })
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

    #[test]
    fn anchors_and_needles_match_whole_tokens() {
        let text = "- id: a_more\n  expect: x\n- id: a.b\n  expect: x\n- id: a # here\n  expect: x\n";
        assert_eq!(locate(text, Some("id: a"), "x"), Some(Pos { line: 6, col: 11 }));
        assert_eq!(locate(text, Some("id: a"), ""), Some(Pos { line: 5, col: 3 }));
        let flow = "- {id: a_more, step: 1}\n- {id: a, step: 2}\n";
        assert_eq!(locate(flow, Some("id: a"), "step:"), Some(Pos { line: 2, col: 11 }));
        let lets = "let:\n  xds_cluster: '1'\n  my-cluster: '2'\n  cluster: '3'\n";
        assert_eq!(locate(lets, Some("cluster:"), "'"), Some(Pos { line: 4, col: 12 }));
        let defs = "defs: |\n  def f: $envelope;\n  def g: $env;\n";
        assert_eq!(locate(defs, Some("defs:"), "$env"), Some(Pos { line: 3, col: 10 }));
        // A needle found only inside a longer word is still found.
        assert_eq!(locate(defs, Some("defs:"), "$enve"), Some(Pos { line: 2, col: 10 }));
    }
}
