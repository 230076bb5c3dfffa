//! `envoy_validate`: the grader's own `envoy --mode validate` of the artifact exits as
//! the lab says (0, non-zero, or a derived code).

use super::{judge_rc, need, Cx, Verdict};
use crate::derive::Unavailable;
use crate::spec::RcWant;
use serde_json::Value;

pub fn run(cx: &Cx, want: &RcWant) -> Verdict {
    let view = match cx.validation {
        Some(Ok(v)) => v,
        Some(Err(u)) => return Verdict::unavailable(u),
        None => return Verdict::unavailable(&Unavailable::grader("no validation was run for this file")),
    };
    let rc = need!(exit_code(view));
    let message = view["message"].as_str().unwrap_or_default();
    let found = Value::String(format!("rc={rc}: {message}"));
    let why = if rc == 0 { "Envoy accepts this file".to_string() } else { format!("Envoy rejects this file: {message}") };
    judge_rc(cx, want, rc, "Envoy accepts this file, but the lab needs it rejected", why).found(found)
}

/// The validation's exit code. None would be the grader's own fault: a made-up code
/// (-1 had been one) would count as Envoy rejecting the file.
#[allow(clippy::result_large_err)]
fn exit_code(view: &Value) -> Result<i64, Verdict> {
    view["rc"].as_i64().ok_or_else(|| Verdict::could_not("the validation gave no exit code"))
}

#[cfg(test)]
mod tests {
    use crate::result::Status;
    use serde_json::json;

    #[test]
    fn no_exit_code_is_the_graders_error() {
        assert_eq!(super::exit_code(&json!({"rc": 1, "message": "x"})).unwrap(), 1);
        for view in [json!({"message": "x"}), json!({"rc": null}), json!({"rc": "1"})] {
            let v = super::exit_code(&view).unwrap_err();
            assert_eq!(v.status, Status::Error, "{view}");
            assert_eq!(v.message, "could not check: the validation gave no exit code");
        }
    }
}
