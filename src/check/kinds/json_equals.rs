//! `json_equals`: the artifact (or the part a jq `path` picks) equals the value the
//! grader derived (`expect`), or the second right answer `or` (when it can be had),
//! compared as JSON values (see `compare`).

use crate::lang::{checks::Checks, t};
use super::{Kind, KindDef};
use crate::check::{expected_json, need, Cx, JsonUse, Verdict};
use crate::compare::{covered, diff};
use crate::jq::{ExprId, Outcome};
use crate::spec::fields::Fields;

pub const KIND: KindDef = KindDef { name: "json_equals", fields: &["path", "expect", "or"], compile: |f| Some(Box::new(compile(f, false)?)) };

/// A JSON comparison: whole (`json_equals`) or as a subset (`json_subset`).
pub(super) struct Json {
    path: Option<ExprId>,
    expect: ExprId,
    /// Another right value (a later file copying what an earlier step asks for, where
    /// the earlier file is wrong): a failure is said against `expect`.
    or: Option<ExprId>,
    subset: bool,
}

pub(super) fn compile(f: &mut Fields, subset: bool) -> Option<Json> {
    let expect = f.need("expect")?;
    let path = f.text("path").map(|p| f.expr("path", &p));
    let or = f.text("or").map(|o| f.expr("or", &o));
    Some(Json { path, expect: f.expr("expect", &expect), or, subset })
}

impl Kind for Json {
    fn run(&self, cx: &Cx) -> Verdict {
        let data = need!(cx.artifact.data().map_err(Verdict::fail));
        let (found, detail) = match self.path {
            None => (data.clone(), None),
            Some(p) => {
                let input = need!(cx.artifact.jaq_data().map_err(Verdict::fail));
                let code = cx.env.code(p);
                match cx.env.run(p, input, None, None) {
                    Err(u) => return Verdict::unavailable(&u),
                    Ok(Outcome::Value(v)) => (crate::jq::convert::from_jaq(&v), Some(code)),
                    Ok(Outcome::Empty) => return Verdict::fail(t!(Checks::NothingAt, path = code)).detail(code),
                    Ok(Outcome::Error(e)) => return Verdict::fail(format!("`{code}`: {e}")).detail(code),
                }
            }
        };
        let how = if self.subset { JsonUse::Subset } else { JsonUse::Equals };
        let exp = need!(expected_json(cx, self.expect, how));
        // Of a subset, only what the expected value covers is the found value.
        let seen = |expected: &serde_json::Value| if self.subset { covered(&found, expected) } else { found.clone() };
        if let Some(alt) = self.or.and_then(|o| expected_json(cx, o, how).ok())
            && diff(&alt, &seen(&alt), self.subset).is_none()
        {
            return Verdict::pass().expected(alt).found(found);
        }
        let found = seen(&exp);
        let (v, detail) = match diff(&exp, &found, self.subset) {
            None => (Verdict::pass().expected(exp).found(found), detail),
            // Show the values where they part, not two whole documents.
            Some(d) => {
                // Nothing at a plain path (`.node.metadata` misspelt): said so, by its name.
                let said = match (&detail, &found) {
                    (Some(base), serde_json::Value::Null) if d.path == "." && is_plain_path(base) => t!(Checks::DiffMissing, path = base),
                    _ => d.sentence(),
                };
                let mut v = Verdict::fail(said).wrong_value();
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

    fn needs(&self) -> Vec<ExprId> {
        self.path.into_iter().chain([self.expect]).chain(self.or).collect()
    }
}

fn is_plain_path(code: &str) -> bool {
    code.starts_with('.') && code.len() > 1 && code.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
}
