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
    let v = Verdict::judge(line.is_some(), "the expected text is not in the file").expected(exp).wrong_value();
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
    let v = Verdict::judge(line.is_some(), "no part of the file has the expected form")
        .expected(Value::String(format!("text matching /{pattern}/")))
        .wrong_value();
    match line {
        Some(l) => v.line(l),
        None => v,
    }
}
