//! `line_count`: how many lines match a regex, within `min` and `max`.

use super::{compiled, need, Cx, Verdict};
use crate::spec::Pattern;
use serde_json::Value;

pub fn run(cx: &Cx, pattern: &Pattern, min: Option<u64>, max: Option<u64>) -> Verdict {
    let text = need!(cx.artifact.text().map_err(Verdict::fail));
    let re = need!(compiled(pattern, text));
    let n = crate::input::lines(text).filter(|l| re.is_match(l)).count() as u64;
    let range = match (min, max) {
        (Some(a), Some(b)) => format!("between {a} and {b}"),
        (Some(a), None) => format!("at least {a}"),
        (None, Some(b)) => format!("at most {b}"),
        (None, None) => "any number of".into(),
    };
    let ok = min.is_none_or(|a| n >= a) && max.is_none_or(|b| n <= b);
    let lines = if n == 1 { "1 line matches".to_string() } else { format!("{n} lines match") };
    Verdict::judge(ok, format!("{lines} /{pattern}/; {range} are needed"))
        .expected(Value::String(format!("{range} lines matching /{pattern}/")))
        .found(Value::from(n))
        .wrong_value()
}
