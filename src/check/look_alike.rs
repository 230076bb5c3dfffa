//! Characters that look like the ASCII a lab asks for but are not: an input method's
//! full-width forms (`＝`, `：`, `－`), its full-width space, dashes, Cyrillic and Greek
//! letters that look like Latin ones (`і`, `о`), and invisible ones a copy from a web
//! page or a chat can carry (a zero-width space). When a failing text check would pass
//! with them made plain, the failure says which one, on which line.
//! The check is re-run once, on the whole file made plain: linear in the file, and
//! bounded per submission.
//!
//! Why: `typo_rc＝1` reads as right on screen, and "there is no `typo_rc=` line" alone
//! leaves a student typing in Chinese or Japanese mode no way to see the mistake.

use crate::lang::{checks::Checks, t};
use super::Cx;
use crate::result::Status;
use crate::source::artifacts::Artifact;
use crate::spec::Check;
use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::rc::Rc;

/// Bytes of text re-checked with look-alikes made plain, per submission: a few times
/// the largest file a submission may hold, so every ordinary failure is diagnosed and
/// a file of look-alikes on every line costs a bounded, linear amount of work.
const BUDGET: usize = 4 * crate::input::file::MAX_SUBMISSION_BYTES as usize;
/// Lines named in one note.
const MAX_LINES_NAMED: usize = 3;

/// The look-alike diagnosis of one submission: each file made plain at most once, and
/// at most [`BUDGET`] bytes of checks re-run on plain text.
#[derive(Default)]
pub struct Diagnosis {
    /// Per file name: the file with its look-alikes made plain, or `None` if it has none.
    plain: RefCell<HashMap<String, Option<Rc<Artifact>>>>,
    spent: Cell<usize>,
}

impl Diagnosis {
    /// The sentence to add to the failure of `check`, if making the look-alikes plain
    /// passes it: which character, on which line(s). One re-run of the check, on the
    /// whole file made plain; the kind says which lines its pass rests on.
    pub fn note(&self, check: &Check, cx: &Cx) -> Option<String> {
        if !check.kind.reads_text() {
            return None;
        }
        let plain = self.plain_of(cx.artifact)?;
        let size = plain.text().map_or(0, str::len);
        if self.spent.get() + size > BUDGET {
            return None;
        }
        self.spent.set(self.spent.get() + size);
        let plain_cx = Cx { artifact: &plain, ..*cx };
        let passed = check.kind.run(&plain_cx);
        if passed.status != Status::Pass {
            return None;
        }
        let text = cx.artifact.text().ok()?;
        let lines: Vec<&str> = text.split_inclusive('\n').collect();
        let has = |n: &usize| lines.get(n.wrapping_sub(1)).is_some_and(|l| l.chars().any(|c| plain_char(c).is_some()));
        let blamed: Vec<usize> = check.kind.lines_used(cx, &plain_cx, &passed).into_iter().filter(has).collect();
        let c = suspect(blamed.first().map_or(text, |n| lines[n - 1]))?;
        let mut numbers: Vec<String> = blamed.iter().take(MAX_LINES_NAMED).map(usize::to_string).collect();
        let what = describe(c);
        Some(match numbers.as_slice() {
            [] => t!(Checks::LookAlikeFile, what = what),
            [one] => t!(Checks::LookAlikeLine, lines = one, what = what),
            _ if blamed.len() > MAX_LINES_NAMED => {
                // Not "lines 6, 7 and 8" where lines 9 to 11 have it too.
                numbers.push("…".to_string());
                t!(Checks::LookAlikeLines, lines = crate::lang::ids(&numbers), what = what)
            }
            many => t!(Checks::LookAlikeLines, lines = crate::lang::list(many), what = what),
        })
    }

    /// The artifact with its look-alikes made plain, made once per file.
    fn plain_of(&self, artifact: &Artifact) -> Option<Rc<Artifact>> {
        let mut cache = self.plain.borrow_mut();
        cache
            .entry(artifact.name.clone())
            .or_insert_with(|| {
                let text = artifact.text().ok()?;
                text.chars().any(|c| plain_char(c).is_some()).then(|| Rc::new(artifact.with_text(made_plain(text))))
            })
            .clone()
    }
}

/// Cyrillic and Greek letters a reader takes for the Latin ones beside them.
const LETTERS: &[(char, char)] = &[
    ('а', 'a'), ('е', 'e'), ('о', 'o'), ('р', 'p'), ('с', 'c'), ('у', 'y'), ('х', 'x'), ('і', 'i'), ('ј', 'j'),
    ('ѕ', 's'), ('ԁ', 'd'), ('һ', 'h'), ('ӏ', 'l'), ('ԛ', 'q'), ('ԝ', 'w'), ('А', 'A'), ('В', 'B'), ('Е', 'E'),
    ('К', 'K'), ('М', 'M'), ('Н', 'H'), ('О', 'O'), ('Р', 'P'), ('С', 'C'), ('Т', 'T'), ('Х', 'X'), ('І', 'I'),
    ('Ј', 'J'), ('Ѕ', 'S'), ('Ү', 'Y'), ('ο', 'o'), ('ι', 'i'), ('ν', 'v'), ('Α', 'A'), ('Β', 'B'), ('Ε', 'E'),
    ('Ζ', 'Z'), ('Η', 'H'), ('Ι', 'I'), ('Κ', 'K'), ('Μ', 'M'), ('Ν', 'N'), ('Ο', 'O'), ('Ρ', 'P'), ('Τ', 'T'),
    ('Υ', 'Y'), ('Χ', 'X'),
];

/// What `c` stands in for, if it is a look-alike: an ASCII character, or nothing for an
/// invisible one.
fn plain_char(c: char) -> Option<Option<char>> {
    match c {
        '\u{FF01}'..='\u{FF5E}' => Some(char::from_u32(c as u32 - 0xFEE0)),
        '\u{3000}' => Some(Some(' ')),
        '\u{2010}'..='\u{2015}' | '\u{2212}' | '\u{FE63}' => Some(Some('-')),
        '\u{200B}'..='\u{200D}' | '\u{2060}' | '\u{FEFF}' => Some(None),
        _ => LETTERS.iter().find(|(l, _)| *l == c).map(|(_, p)| Some(*p)),
    }
}

/// The look-alike to name in `text`: one beside an ASCII letter or digit (the Cyrillic
/// `а` of `vаlidate`) or one that is no letter, before a letter of a word in another
/// script (`Проверка`) or a byte order mark at the start; else the first.
fn suspect(text: &str) -> Option<char> {
    let chars: Vec<char> = text.chars().collect();
    let ascii_beside = |i: usize| [i.checked_sub(1), i.checked_add(1)].into_iter().flatten().any(|j| chars.get(j).is_some_and(char::is_ascii_alphanumeric));
    let likely = |i: usize, c: char| match c {
        '\u{FEFF}' => i > 0,
        _ if LETTERS.iter().any(|(l, _)| *l == c) => ascii_beside(i),
        _ => true,
    };
    let look_alikes = || chars.iter().copied().enumerate().filter(|(_, c)| plain_char(*c).is_some());
    look_alikes().find(|(i, c)| likely(*i, *c)).or_else(|| look_alikes().next()).map(|(_, c)| c)
}

fn made_plain(line: &str) -> String {
    line.chars().filter_map(|c| plain_char(c).unwrap_or(Some(c))).collect()
}

fn describe(c: char) -> String {
    let code = format!("U+{:04X}", c as u32);
    match (c, plain_char(c)) {
        ('\u{3000}', _) => t!(Checks::FullWidthSpace, code = code),
        ('\u{FF01}'..='\u{FF5E}', Some(Some(p))) => t!(Checks::FullWidth, char = c, code = code, plain = p),
        (_, Some(None)) => t!(Checks::Invisible, code = code),
        ('\u{0370}'..='\u{03FF}', Some(Some(p))) => t!(Checks::LooksLatin, char = c, code = code, plain = p, script = t!(Checks::Greek)),
        (_, Some(Some(p))) if !p.is_ascii_punctuation() => t!(Checks::LooksLatin, char = c, code = code, plain = p, script = t!(Checks::Cyrillic)),
        _ => t!(Checks::Dash, char = c, code = code),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn look_alikes_map_to_their_ascii() {
        assert_eq!(made_plain("typo_rc＝１\n"), "typo_rc=1\n");
        assert_eq!(made_plain("role=sіdecar\n\u{200B}domain=x\n"), "role=sidecar\ndomain=x\n");
        assert_eq!(made_plain("istοd ΡRE"), "istod PRE");
        assert_eq!(made_plain("svc：15012"), "svc:15012");
        assert_eq!(made_plain("－　x—y−z"), "- x-y-z");
        assert_eq!(made_plain("启动失败。"), "启动失败。");
    }

    #[test]
    fn the_look_alike_named_is_the_one_among_ascii() {
        assert_eq!(suspect("- Проверка: envoy --mode v\u{0430}lidate"), Some('\u{0430}'));
        assert_eq!(suspect("\u{FEFF}role=s\u{0456}decar"), Some('\u{0456}'));
        assert_eq!(suspect("typo_rc＝1"), Some('＝'));
        assert_eq!(suspect("Проверка"), Some('р'));
        assert_eq!(suspect("plain"), None);
    }

    #[test]
    fn descriptions_name_the_character() {
        assert_eq!(describe('＝'), "`＝` (U+FF1D), a full-width `=` (an input method in full-width mode types it)");
        assert_eq!(describe('і'), "`і` (U+0456), a Cyrillic letter that looks like `i`");
        assert_eq!(describe('ο'), "`ο` (U+03BF), a Greek letter that looks like `o`");
        assert_eq!(describe('\u{200B}'), "an invisible character (U+200B)");
        assert!(describe('\u{3000}').contains("full-width space (U+3000)"));
        assert!(describe('—').contains("(U+2014), a dash"));
    }
}
