//! `envoy_validate`: the grader's own `envoy --mode validate` of the artifact exits as
//! the lab says (0, non-zero, or a derived code).

use super::{judge_rc, Cx, Verdict};
use crate::derive::Unavailable;
use crate::spec::RcWant;
use serde_json::Value;

pub fn run(cx: &Cx, want: &RcWant) -> Verdict {
    let view = match cx.validation {
        Some(Ok(v)) => v,
        Some(Err(u)) => return Verdict::unavailable(u),
        None => return Verdict::unavailable(&Unavailable::grader("no validation was run for this file")),
    };
    let rc = view["rc"].as_i64().unwrap_or(-1);
    let message = view["message"].as_str().unwrap_or_default();
    let found = Value::String(format!("rc={rc}: {message}"));
    let why = if rc == 0 { "Envoy accepts this file".to_string() } else { format!("Envoy rejects this file: {message}") };
    judge_rc(cx, want, rc, "Envoy accepts this file, but the lab needs it rejected", why).found(found)
}
