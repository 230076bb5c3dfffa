//! `text_contains` and `text_matches`: the artifact's text holds the string, or a match
//! of the regex, the grader derived (line endings normalised first).

use super::{compiled, expected, need, Cx, Verdict};
use crate::display::value_text;
use crate::spec::{Pattern, Want};
use serde_json::Value;

#[allow(clippy::result_large_err)]
fn normalised(cx: &Cx) -> Result<String, Verdict> {
    cx.artifact.text().map(|t| t.replace("\r\n", "\n")).map_err(Verdict::fail)
}

pub fn contains(cx: &Cx, expect: crate::jq::ExprId) -> Verdict {
    let text = need!(normalised(cx));
    let exp = need!(expected(cx, expect));
    let needle = value_text(&exp);
    let line = text.find(&needle).map(|at| text[..at].matches('\n').count() + 1);
    let mut v = Verdict::judge(line.is_some(), "the expected text is not in the file").expected(exp).wrong_value();
    v.slip = only_exit_code(&text);
    match line {
        Some(l) => v.line(l),
        None => v,
    }
}

pub fn matches(cx: &Cx, pattern: &Want) -> Verdict {
    let text = need!(normalised(cx));
    let derived;
    let pattern = match pattern {
        Want::Matches(p) => p,
        Want::Equals(id) => {
            let exp = need!(expected(cx, *id));
            derived = match Pattern::new(&value_text(&exp), true) {
                Ok(p) => p,
                Err(e) => return Verdict::could_not(format_args!("the derived pattern is not a regex: {e}")),
            };
            &derived
        }
    };
    let line = need!(compiled(pattern, &text)).find(&text).map(|at| text[..at].matches('\n').count() + 1);
    let mut v = Verdict::judge(line.is_some(), "no part of the file has the expected form")
        .expected(Value::String(format!("text matching /{pattern}/")))
        .wrong_value();
    v.slip = only_exit_code(&text);
    match line {
        Some(l) => v.line(l),
        None => v,
    }
}

/// A file that holds nothing but `rc=` lines lacks what the command printed: said
/// plainly, since "not in the file" alone sends the student looking at the wrong part.
fn only_exit_code(text: &str) -> Option<String> {
    let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty()).peekable();
    let only_rc = lines.peek().is_some() && lines.all(|l| super::rc_line::parse_rc(l).is_some());
    only_rc.then(|| "the file holds only the exit code, not what the command printed (its errors go to stderr: 2>&1 keeps them)".to_string())
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
