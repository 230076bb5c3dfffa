//! `line_count`: how many lines match a regex (`matches`) and not another (`except`),
//! within `min` and `max`; with `letters: N`, only lines with N letters at least (of
//! any script); with `distinct: true`, a line written again counts once.

use crate::lang::{checks::Checks, t};
use super::{Kind, KindDef};
use crate::check::{need, Cx, Verdict};
use crate::spec::fields::Fields;
use crate::spec::Pattern;
use serde_json::Value;

pub const KIND: KindDef = KindDef { name: "line_count", fields: &["matches", "except", "min", "max", "letters", "distinct"], compile };

struct LineCount {
    pattern: Pattern,
    /// Lines that match it do not count (Rust's regexes have no look-ahead).
    except: Option<Pattern>,
    min: Option<u64>,
    max: Option<u64>,
    /// Letters a line has at least, to count (a regex's `\p{Alphabetic}` would cost
    /// a millisecond to compile, at every start).
    letters: usize,
    /// Lines alike in their letters and digits, case aside, count once: four copies
    /// of one explanation are one explanation, with other spaces, punctuation or
    /// invisible characters in them too.
    distinct: bool,
}

fn compile(f: &mut Fields) -> Option<Box<dyn Kind>> {
    let m = f.need("matches")?;
    let (min, max) = (f.count("min"), f.count("max"));
    if !f.given("min") && !f.given("max") {
        f.error("", "line_count needs `min`, `max` or both");
    }
    let except = match f.text("except") {
        Some(e) => Some(f.regex("except", &e, false)?),
        None => None,
    };
    let distinct = f.flag("distinct");
    let letters = f.count("letters").unwrap_or(0) as usize;
    Some(Box::new(LineCount { pattern: f.regex("matches", &m, false)?, except, min, max, letters, distinct }))
}

impl LineCount {
    fn matching<'t>(&self, text: &'t str) -> impl Iterator<Item = (usize, &'t str)> {
        crate::input::lines(text)
            .enumerate()
            .filter(|(_, l)| self.pattern.is_match(l) && !self.except.as_ref().is_some_and(|e| e.is_match(l)))
            .filter(|(_, l)| self.letters == 0 || crate::input::letters(l) >= self.letters)
            .map(|(i, l)| (i + 1, l))
    }
}

impl Kind for LineCount {
    fn run(&self, cx: &Cx) -> Verdict {
        let text = need!(cx.artifact.text().map_err(Verdict::fail));
        let n = if self.distinct {
            self.matching(text).map(|(_, l)| crate::input::alnum(l)).collect::<std::collections::HashSet<_>>().len()
        } else {
            self.matching(text).count()
        } as u64;
        let (min, max, pattern) = (self.min, self.max, &self.pattern);
        // The expected value, an instructor's, is notation the same in every language.
        let (said, mut expected) = match (min, max) {
            (Some(a), Some(b)) => (t!(Checks::LinesBetween, pattern = pattern, n = n, min = a, max = b), format!("between {a} and {b} lines matching /{pattern}/")),
            (None, Some(b)) => (t!(Checks::LinesAtMost, pattern = pattern, n = n, max = b), format!("at most {b} lines matching /{pattern}/")),
            (a, None) => {
                let a = a.unwrap_or(0);
                (t!(Checks::LinesAtLeast, pattern = pattern, n = n, min = a), format!("at least {a} lines matching /{pattern}/"))
            }
        };
        if self.letters > 0 {
            expected.push_str(&format!(", with {} letters at least", self.letters));
        }
        if self.distinct {
            expected.push_str(", lines alike in letters and digits once");
        }
        let ok = min.is_none_or(|a| n >= a) && max.is_none_or(|b| n <= b);
        Verdict::judge(ok, said)
            .expected(Value::String(expected))
            .found(Value::from(n))
            .wrong_value()
    }

    fn reads_text(&self) -> bool {
        true
    }

    /// The lines that match only once made plain.
    fn lines_used(&self, original: &Cx, plain: &Cx, _passed: &Verdict) -> Vec<usize> {
        let (Ok(before), Ok(after)) = (original.artifact.text(), plain.artifact.text()) else { return Vec::new() };
        let before: std::collections::HashSet<usize> = self.matching(before).map(|(n, _)| n).collect();
        self.matching(after).map(|(n, _)| n).filter(|n| !before.contains(n)).collect()
    }
}
