//! `rc_line`: the last line is `rc=N`, with N as the grader derived it (`expect`), or
//! non-zero (`nonzero: true`).

use crate::lang::{checks::Checks, t};
use super::{Kind, KindDef, RcWant};
use crate::check::{need, Cx, Verdict};
use crate::spec::fields::Fields;
use serde_json::Value;

pub const KIND: KindDef = KindDef { name: "rc_line", fields: &["expect", "nonzero"], compile };

struct RcLine {
    want: RcWant,
}

fn compile(f: &mut Fields) -> Option<Box<dyn Kind>> {
    Some(Box::new(RcLine { want: RcWant::compile(f)? }))
}

impl Kind for RcLine {
    fn run(&self, cx: &Cx) -> Verdict {
        let text = need!(cx.artifact.text().map_err(Verdict::fail));
        let Some((line_no, last)) = crate::input::lines(text)
            .enumerate()
            .map(|(i, l)| (i + 1, l.trim()))
            .filter(|(_, l)| !l.is_empty())
            .last()
        else {
            return Verdict::fail(t!(Checks::NoLines));
        };
        let found = Value::String(last.to_string());
        let Some(rc) = parse_rc(last) else {
            return Verdict::fail(t!(Checks::LastLineNotRc)).found(found).line(line_no);
        };
        let why = t!(Checks::RcNotCode, rc = rc);
        self.want.judge(cx, rc, &t!(Checks::RcZero), why).found(found).line(line_no)
    }

    fn needs(&self) -> Vec<crate::jq::ExprId> {
        self.want.needs()
    }

    fn reads_text(&self) -> bool {
        true
    }
}

/// `rc=N` (spaces around `=` allowed): N. Also how a text check tells a file of only exit codes.
pub(super) fn parse_rc(line: &str) -> Option<i64> {
    let (k, v) = line.split_once('=')?;
    if k.trim() != "rc" {
        return None;
    }
    v.trim().parse().ok()
}

#[cfg(test)]
mod tests {
    #[test]
    fn parses_rc_lines() {
        assert_eq!(super::parse_rc("rc=1"), Some(1));
        assert_eq!(super::parse_rc("rc = 0"), Some(0));
        assert_eq!(super::parse_rc("rc=x"), None);
        assert_eq!(super::parse_rc("exit=1"), None);
    }
}
