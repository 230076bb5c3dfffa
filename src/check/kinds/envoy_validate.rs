//! `envoy_validate`: the grader's own `envoy --mode validate` of the check's file exits
//! as the lab says (`expect`: a derived code, or `nonzero: true`). The file must be one
//! an `envoy_validate` source of the spec names: sources say what is validated.

use crate::lang::{checks::Checks, t};
use super::{Kind, KindDef, RcWant};
use crate::check::{need, Cx, Verdict};
use crate::slot::{Blame, Unavailable};
use crate::spec::fields::Fields;
use serde_json::Value;

pub const KIND: KindDef = KindDef { name: "envoy_validate", fields: &["expect", "nonzero"], compile };

struct EnvoyValidate {
    want: RcWant,
}

fn compile(f: &mut Fields) -> Option<Box<dyn Kind>> {
    let want = RcWant::compile(f)?;
    if !f.validated() {
        let file = f.file().to_string();
        f.error("", &format!("no source validates {file}: add one such as `validate: {{envoy_validate: {file}}}` to `sources`"));
        return None;
    }
    Some(Box::new(EnvoyValidate { want }))
}

impl Kind for EnvoyValidate {
    fn run(&self, cx: &Cx) -> Verdict {
        let view = match cx.validation {
            Some(Ok(v)) => v,
            Some(Err(u)) => return Verdict::unavailable(u),
            None => return Verdict::unavailable(&Unavailable::grader(t!(Checks::NoValidation))),
        };
        let rc = need!(exit_code(view));
        let message = view["message"].as_str().unwrap_or_default();
        let found = Value::String(format!("rc={rc}: {message}"));
        let why = if rc == 0 { t!(Checks::EnvoyAccepts) } else { t!(Checks::EnvoyRejects, message = message) };
        self.want.judge(cx, rc, &t!(Checks::EnvoyMustReject), why).found(found)
    }

    fn needs(&self) -> Vec<crate::jq::ExprId> {
        self.want.needs()
    }

    fn reads_validation(&self) -> bool {
        true
    }

    /// A validation this run does not make (`--no-envoy`) skips the check too.
    fn skipped<'a>(&self, cx: &'a Cx) -> Option<&'a Unavailable> {
        match cx.validation {
            Some(Err(u)) if u.blame == Blame::Skip => Some(u),
            _ => self.needs().into_iter().find_map(|id| cx.env.skipped(id)),
        }
    }
}

/// The validation's exit code. None would be the grader's own fault: a made-up code
/// (-1 had been one) would count as Envoy rejecting the file.
#[allow(clippy::result_large_err)]
fn exit_code(view: &Value) -> Result<i64, Verdict> {
    view["rc"].as_i64().ok_or_else(|| Verdict::could_not(t!(Checks::NoExitCode)))
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
