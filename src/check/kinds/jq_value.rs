//! `jq_value`: the value at a jq `path` of a YAML or JSON artifact equals the value
//! the grader derived (`expect`), or, written as text, matches a regex (`matches`).

use crate::lang::{checks::Checks, t};
use super::{Kind, KindDef, Want};
use crate::check::{expected_json, need, Cx, JsonUse, Verdict};
use crate::compare::equal;
use crate::display::value_text;
use crate::jq::{ExprId, Outcome};
use crate::spec::fields::Fields;
use serde_json::Value;

pub const KIND: KindDef = KindDef { name: "jq_value", fields: &["path", "expect", "matches"], compile };

struct JqValue {
    path: ExprId,
    want: Want,
}

fn compile(f: &mut Fields) -> Option<Box<dyn Kind>> {
    let path = f.need("path")?;
    let path = f.expr("path", &path);
    Some(Box::new(JqValue { path, want: Want::compile(f)? }))
}

impl Kind for JqValue {
    fn run(&self, cx: &Cx) -> Verdict {
        let input = need!(cx.artifact.jaq_data().map_err(Verdict::fail));
        let code = key_path(&cx.env.code(self.path)).to_string();
        let found = match cx.env.run(self.path, input, None, None) {
            Err(u) => return Verdict::unavailable(&u),
            Ok(Outcome::Value(v)) => crate::jq::convert::from_jaq(&v),
            // Said without the jq: the place (the spec's `where`, else the path) says where.
            Ok(Outcome::Empty) => return Verdict::fail(t!(Checks::NoSuchValue)).detail(code),
            Ok(Outcome::Error(e)) => return Verdict::fail(t!(Checks::CannotRead, error = e)).detail(code),
        };
        let v = match &self.want {
            Want::Equals(id) => {
                let exp = need!(expected_json(cx, *id, JsonUse::Value));
                if found.is_null() {
                    return Verdict::fail(t!(Checks::NotSet)).expected(exp).found(found).detail(code);
                }
                Verdict::judge(equal(&exp, &found), t!(Checks::NotTheOne)).expected(exp)
            }
            Want::Matches(re) => {
                let wanted = Value::String(format!("a value matching /{re}/"));
                if found.is_null() {
                    return Verdict::fail(t!(Checks::NotSet)).expected(wanted).found(found).detail(code);
                }
                Verdict::judge(re.is_match(&value_text(&found)), t!(Checks::ValueNotOfForm, pattern = re)).expected(wanted)
            }
        };
        v.found(found).detail(code).wrong_value()
    }

    fn needs(&self) -> Vec<ExprId> {
        let mut ids = vec![self.path];
        ids.extend(self.want.needs());
        ids
    }
}

/// A path of keys as the other places say one, without jq's leading dot
/// (`admin.address.socket_address.port_value`); any other expression as written.
fn key_path(code: &str) -> &str {
    match code.strip_prefix('.') {
        Some(keys) if !keys.is_empty() && keys.chars().all(|c| c.is_alphanumeric() || "_.[]".contains(c)) => keys,
        _ => code,
    }
}
