//! What several kinds want of a value, as their fields say it: `expect` (a derived
//! value) or `matches` (a regex); and of an exit code: `expect` or `nonzero: true`.

use crate::lang::{checks::Checks, t};
use crate::check::{expected_text, need, Cx, Verdict};
use crate::display::value_text;
use crate::jq::ExprId;
use crate::spec::fields::Fields;
use crate::spec::Pattern;
use serde_json::Value;

pub enum Want {
    Equals(ExprId),
    Matches(Pattern),
}

impl Want {
    /// From `expect` or `matches`, exactly one of them.
    pub fn compile(f: &mut Fields) -> Option<Want> {
        match (f.text("expect"), f.text("matches")) {
            (Some(e), None) => Some(Want::Equals(f.expr("expect", &e))),
            (None, Some(m)) => f.regex("matches", &m, false).map(Want::Matches),
            _ => {
                f.error("", "give exactly one of `expect` and `matches`");
                None
            }
        }
    }

    pub fn needs(&self) -> Vec<ExprId> {
        match self {
            Want::Equals(id) => vec![*id],
            Want::Matches(_) => Vec::new(),
        }
    }
}

pub enum RcWant {
    Equals(ExprId),
    NonZero,
}

impl RcWant {
    /// From `expect` or `nonzero: true`, exactly one of them.
    pub fn compile(f: &mut Fields) -> Option<RcWant> {
        match (f.text("expect"), f.flag("nonzero")) {
            (Some(e), false) => Some(RcWant::Equals(f.expr("expect", &e))),
            (None, true) => Some(RcWant::NonZero),
            _ => {
                f.error("", "give exactly one of `expect` and `nonzero: true`");
                None
            }
        }
    }

    pub fn needs(&self) -> Vec<ExprId> {
        match self {
            RcWant::Equals(id) => vec![*id],
            RcWant::NonZero => Vec::new(),
        }
    }

    /// An exit code against what is wanted: non-zero, or the derived code.
    /// `differs` says why an exit code that is not the derived one is wrong.
    pub fn judge(&self, cx: &Cx, rc: i64, nonzero: &str, differs: String) -> Verdict {
        match self {
            RcWant::NonZero => Verdict::judge(rc != 0, nonzero).expected(Value::String("rc=<non-zero>".into())).wrong_value(),
            RcWant::Equals(id) => {
                let exp = need!(expected_text(cx, *id));
                let Some(want) = exit_code(&exp) else {
                    return Verdict::could_not(t!(Checks::RcNotInteger, value = value_text(&exp)));
                };
                Verdict::judge(want == rc, differs).expected(Value::String(format!("rc={want}"))).wrong_value()
            }
        }
    }
}

/// An expected exit code as a number: a JSON integer, or a string holding one (a value
/// read from a `kv` file, such as `rc=1`, is text).
fn exit_code(v: &Value) -> Option<i64> {
    match v {
        Value::Number(n) => n.as_i64().or_else(|| n.as_f64().filter(|f| f.fract() == 0.0 && f.abs() < 1e15).map(|f| f as i64)),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    #[test]
    fn an_exit_code_may_be_written_as_text() {
        assert_eq!(super::exit_code(&json!(1)), Some(1));
        assert_eq!(super::exit_code(&json!("1")), Some(1));
        assert_eq!(super::exit_code(&json!(" 0\n")), Some(0));
        assert_eq!(super::exit_code(&json!(2.0)), Some(2));
        for not in [json!("one"), json!("1.5"), json!(1.5), json!(null), json!(true), json!([1])] {
            assert_eq!(super::exit_code(&not), None, "{not}");
        }
    }
}
