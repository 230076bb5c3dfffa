//! `json_equals` and `json_subset`: the artifact (or the part a jq path picks) equals,
//! or contains, the value the grader derived, compared as JSON values.

use super::{expected, need, Cx, Verdict};
use crate::compare::diff;
use crate::jq::{ExprId, Outcome};

pub fn run(cx: &Cx, path: Option<ExprId>, expect: ExprId, subset: bool) -> Verdict {
    let data = need!(cx.artifact.data().map_err(Verdict::fail));
    let input = need!(cx.artifact.jaq_data().map_err(Verdict::fail));
    let (found, detail) = match path {
        None => (data.clone(), None),
        Some(p) => {
            let code = cx.env_code(p);
            match cx.env.run(p, input.clone(), None, None) {
                Err(u) => return Verdict::unavailable(&u),
                Ok(Outcome::Value(v)) => (crate::jq::convert::from_jaq(&v), Some(code)),
                Ok(Outcome::Empty) => return Verdict::fail(format!("there is nothing at `{code}`")).detail(code),
                Ok(Outcome::Error(e)) => return Verdict::fail(format!("`{code}`: {e}")).detail(code),
            }
        }
    };
    let exp = need!(expected(cx, expect));
    let (v, detail) = match diff(&exp, &found, subset) {
        None => (Verdict::pass().expected(exp).found(found), detail),
        // Show the values where they part, not two whole documents.
        Some(d) => {
            let mut v = Verdict::fail(d.sentence()).wrong_value();
            if let Some(e) = exp.pointer(&d.pointer) {
                v = v.expected(e.clone());
            }
            if let Some(f) = found.pointer(&d.pointer) {
                v = v.found(f.clone());
            }
            // Under a plain path (`.node.metadata`), the place reads in full: `.node.metadata.MESH_ID`.
            let at = match detail {
                _ if d.path == "." => detail,
                Some(base) if is_plain_path(&base) => Some(format!("{base}{}", d.path)),
                _ => Some(d.path.clone()),
            };
            (v, at)
        }
    };
    match detail {
        Some(d) => v.detail(d),
        None => v,
    }
}

fn is_plain_path(code: &str) -> bool {
    code.starts_with('.') && code.len() > 1 && code.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
}
