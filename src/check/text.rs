//! `text_contains` and `text_matches`: the artifact's text holds the string, or a match
//! of the regex, the grader derived (line endings normalised first).

use super::{expected, need, Cx, Verdict};
use crate::display::value_text;
use crate::spec::Want;
use regex::RegexBuilder;
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
    let v = Verdict::judge(line.is_some(), "the expected text is not in the file").expected(exp);
    match line {
        Some(l) => v.line(l),
        None => v,
    }
}

pub fn matches(cx: &Cx, pattern: &Want) -> Verdict {
    let text = need!(normalised(cx));
    let re = match pattern {
        Want::Matches(re) => re.clone(),
        Want::Equals(id) => {
            let exp = need!(expected(cx, *id));
            let built = RegexBuilder::new(&value_text(&exp)).multi_line(true).size_limit(1 << 20).build();
            match built {
                Ok(re) => re,
                Err(e) => return Verdict { status: crate::result::Status::Error, ..Verdict::fail(format!("could not check: the derived pattern is not a regex: {e}")) },
            }
        }
    };
    let line = re.find(&text).map(|m| text[..m.start()].matches('\n').count() + 1);
    let v = Verdict::judge(line.is_some(), "no part of the file has the expected form")
        .expected(Value::String(format!("text matching /{}/", re.as_str())));
    match line {
        Some(l) => v.line(l),
        None => v,
    }
}
