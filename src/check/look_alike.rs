//! Characters that look like the ASCII a lab asks for but are not: an input method's
//! full-width forms (`＝`, `：`, `－`), its full-width space, and dashes. When a failing
//! text check would pass with them made plain, the failure says which one, on which line.
//!
//! Why: `typo_rc＝1` reads as right on screen, and "there is no `typo_rc=` line" alone
//! leaves a student typing in Chinese or Japanese mode no way to see the mistake.

use super::{Cx, Verdict};
use crate::result::Status;
use crate::spec::{Check, CheckKind};

/// Lines tried one at a time to find the one to blame; a file with more lines of such
/// characters gets the note for its first ones only (the check runs once per line tried).
const MAX_LINES_TRIED: usize = 50;
/// Lines named in one note.
const MAX_LINES_NAMED: usize = 3;

/// The sentence to add to `failed`, if making the look-alikes plain would pass the check.
pub fn note(check: &Check, cx: &Cx, failed: &Verdict, run: impl Fn(&Cx) -> Verdict) -> Option<String> {
    let text_kind = matches!(
        check.kind,
        CheckKind::KvLine { .. } | CheckKind::RcLine { .. } | CheckKind::TextContains { .. } | CheckKind::TextMatches { .. } | CheckKind::LineCount { .. }
    );
    let text = cx.artifact.text().ok()?;
    if !text_kind || failed.status != Status::Fail || !text.chars().any(|c| plain(c).is_some()) {
        return None;
    }
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let with = |plain_lines: &dyn Fn(usize) -> bool| {
        let changed: String = lines.iter().enumerate().map(|(i, l)| if plain_lines(i) { made_plain(l) } else { l.to_string() }).collect();
        let artifact = cx.artifact.with_text(changed);
        run(&Cx { artifact: &artifact, ..*cx })
    };
    if with(&|_| true).status != Status::Pass {
        return None;
    }
    let candidates: Vec<usize> = (0..lines.len()).filter(|i| lines[*i].chars().any(|c| plain(c).is_some())).take(MAX_LINES_TRIED).collect();
    // The one line that alone makes the difference; else every line that changes what
    // the check found (a count of lines, say).
    let blamed: Vec<usize> = match candidates.iter().find(|i| with(&|j| j == **i).status == Status::Pass) {
        Some(i) => vec![*i],
        None => candidates.into_iter().filter(|i| with(&|j| j == *i).found != failed.found).take(MAX_LINES_NAMED).collect(),
    };
    let first = *blamed.first()?;
    let c = lines[first].chars().find(|c| plain(*c).is_some())?;
    let numbers: Vec<String> = blamed.iter().map(|i| (i + 1).to_string()).collect();
    let which = match numbers.as_slice() {
        [one] => format!("line {one} has"),
        [init @ .., last] => format!("lines {} and {last} have", init.join(", ")),
        [] => return None,
    };
    Some(format!("{which} {}; typed as plain ASCII (an input method in half-width mode), it would pass", describe(c)))
}

/// The ASCII character `c` stands in for, if it is a look-alike.
fn plain(c: char) -> Option<char> {
    match c {
        '\u{FF01}'..='\u{FF5E}' => char::from_u32(c as u32 - 0xFEE0),
        '\u{3000}' => Some(' '),
        '\u{2010}'..='\u{2015}' | '\u{2212}' | '\u{FE63}' => Some('-'),
        _ => None,
    }
}

fn made_plain(line: &str) -> String {
    line.chars().map(|c| plain(c).unwrap_or(c)).collect()
}

fn describe(c: char) -> String {
    let code = format!("U+{:04X}", c as u32);
    match (c, plain(c)) {
        ('\u{3000}', _) => format!("a full-width space ({code}) where a plain space is meant"),
        ('\u{FF01}'..='\u{FF5E}', Some(p)) => format!("`{c}` ({code}), a full-width `{p}`"),
        _ => format!("`{c}` ({code}), a dash that looks like `-` but is not one"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn look_alikes_map_to_their_ascii() {
        assert_eq!(made_plain("typo_rc＝１\n"), "typo_rc=1\n");
        assert_eq!(made_plain("svc：15012"), "svc:15012");
        assert_eq!(made_plain("－　x—y−z"), "- x-y-z");
        assert_eq!(made_plain("启动失败。"), "启动失败。");
    }

    #[test]
    fn descriptions_name_the_character() {
        assert_eq!(describe('＝'), "`＝` (U+FF1D), a full-width `=`");
        assert!(describe('\u{3000}').contains("full-width space (U+3000)"));
        assert!(describe('—').contains("(U+2014), a dash"));
    }
}
