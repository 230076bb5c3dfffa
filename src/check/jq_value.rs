//! `jq_value`: the value at a jq path of a YAML or JSON artifact equals the value the
//! grader derived (or, for a string, matches a regex).

use super::{compiled, expected, need, Cx, Verdict};
use crate::compare::equal;
use crate::display::value_text;
use crate::jq::{ExprId, Outcome};
use crate::spec::Want;
use serde_json::Value;

pub fn run(cx: &Cx, path: ExprId, want: &Want) -> Verdict {
    let input = need!(cx.artifact.jaq_data().map_err(Verdict::fail));
    let code = cx.env_code(path);
    let found = match cx.env.run(path, input, None, None) {
        Err(u) => return Verdict::unavailable(&u),
        Ok(Outcome::Value(v)) => crate::jq::convert::from_jaq(&v),
        // Said without the jq: the place (the spec's `where`, else the path) says where.
        Ok(Outcome::Empty) => return Verdict::fail("there is no such value in the file").detail(code),
        Ok(Outcome::Error(e)) => return Verdict::fail(format!("the value cannot be read there: {e}")).detail(code),
    };
    let v = match want {
        Want::Equals(id) => {
            let exp = need!(expected(cx, *id));
            if found.is_null() && !exp.is_null() {
                return Verdict::fail("the value is not set").expected(exp).found(found).detail(code);
            }
            Verdict::judge(equal(&exp, &found), "the value is not the expected one").expected(exp)
        }
        Want::Matches(re) => {
            let wanted = Value::String(format!("a value matching /{re}/"));
            if found.is_null() {
                return Verdict::fail("the value is not set").expected(wanted).found(found).detail(code);
            }
            let text = value_text(&found);
            Verdict::judge(need!(compiled(re, &text)).is_match(&text), format!("the value is not of the form /{re}/")).expected(wanted)
        }
    };
    v.found(found).detail(code).wrong_value()
}
