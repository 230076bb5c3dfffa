//! `text_contains`: the artifact's text holds the string the grader derived (`expect`),
//! line endings normalised first.

use crate::lang::{checks::Checks, t};
use super::{Kind, KindDef};
use crate::check::{expected_text, need, Cx, Verdict};
use crate::display::value_text;
use crate::jq::ExprId;
use crate::spec::fields::Fields;

pub const KIND: KindDef = KindDef { name: "text_contains", fields: &["expect"], compile };

struct TextContains {
    expect: ExprId,
}

fn compile(f: &mut Fields) -> Option<Box<dyn Kind>> {
    let e = f.need("expect")?;
    Some(Box::new(TextContains { expect: f.expr("expect", &e) }))
}

impl Kind for TextContains {
    fn run(&self, cx: &Cx) -> Verdict {
        let text = need!(normalised(cx));
        let exp = need!(expected_text(cx, self.expect));
        let needle = value_text(&exp);
        let line = text.find(&needle).map(|at| text[..at].matches('\n').count() + 1);
        let mut v = Verdict::judge(line.is_some(), t!(Checks::TextAbsent)).expected(exp).wrong_value();
        v.slip = only_exit_code(&text);
        match line {
            Some(l) => v.line(l),
            None => v,
        }
    }

    fn needs(&self) -> Vec<ExprId> {
        vec![self.expect]
    }

    fn reads_text(&self) -> bool {
        true
    }
}

/// The file's text with CRLF line ends made LF.
#[allow(clippy::result_large_err)]
pub(super) fn normalised(cx: &Cx) -> Result<String, Verdict> {
    cx.artifact.text().map(|t| t.replace("\r\n", "\n")).map_err(Verdict::fail)
}

/// A file that holds nothing but `rc=` lines lacks what the command printed: said
/// plainly, since "not in the file" alone sends the student looking at the wrong part.
pub(super) fn only_exit_code(text: &str) -> Option<String> {
    let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty()).peekable();
    let only_rc = lines.peek().is_some() && lines.all(|l| super::rc_line::parse_rc(l).is_some());
    only_rc.then(|| t!(Checks::OnlyExitCode))
}

#[cfg(test)]
mod tests {
    use super::only_exit_code;

    #[test]
    fn a_file_of_only_rc_lines_is_named() {
        assert!(only_exit_code("rc=1\n").is_some());
        assert!(only_exit_code("\nrc = 1\r\n\n").is_some());
        assert!(only_exit_code("[critical] error ...\nrc=1\n").is_none());
        assert!(only_exit_code("").is_none());
    }
}
