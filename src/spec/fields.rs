//! A check's own fields, as its kind compiles them (see `check::kinds`): typed
//! reads, expressions and regexes added to the spec's program, and errors reported
//! with their place in the spec.

use super::compile::{Ctx, Exprs};
use super::model::CheckDef;
use super::pattern::{Pattern, PatternError};
use super::{Source, SourceKind};
use crate::jq::ExprId;

pub struct Fields<'a, 'c> {
    pub(super) def: &'a CheckDef,
    pub(super) kind: &'static str,
    /// Where the check starts in the spec's text (`id: <id>`), to place errors.
    pub(super) anchor: String,
    pub(super) cx: &'a mut Ctx<'c>,
    pub(super) exprs: &'a mut Exprs,
    pub(super) sources: &'a [Source],
}

impl Fields<'_, '_> {
    /// The submission file the check reads.
    pub fn file(&self) -> &str {
        &self.def.file
    }

    /// A mistake in this check, placed at `needle` (or at the check).
    pub fn error(&mut self, needle: &str, message: &str) {
        let message = format!("check `{}`: {message}", self.def.id);
        self.cx.err(Some(&self.anchor), needle, message);
    }

    /// Whether the check sets the field at all (well or not).
    pub fn given(&self, name: &str) -> bool {
        self.def.fields.contains_key(name)
    }

    /// A text field, if given.
    pub fn text(&mut self, name: &str) -> Option<String> {
        match self.def.fields.get(name)? {
            serde_yaml::Value::String(s) => Some(s.clone()),
            _ => {
                self.error(&format!("{name}:"), &format!("`{name}` must be text (in quotes, for a jq expression or a regex)"));
                None
            }
        }
    }

    /// A text field the kind cannot do without.
    pub fn need(&mut self, name: &str) -> Option<String> {
        if !self.given(name) {
            let kind = self.kind;
            self.error("", &format!("kind {kind} needs `{name}`"));
        }
        self.text(name)
    }

    /// A `true`/`false` field; absent is false.
    pub fn flag(&mut self, name: &str) -> bool {
        match self.def.fields.get(name) {
            None => false,
            Some(serde_yaml::Value::Bool(b)) => *b,
            Some(_) => {
                self.error(&format!("{name}:"), &format!("`{name}` must be true or false"));
                false
            }
        }
    }

    /// A count (a whole number, 0 or more), if given.
    pub fn count(&mut self, name: &str) -> Option<u64> {
        let v = self.def.fields.get(name)?;
        let n = v.as_u64();
        if n.is_none() {
            self.error(&format!("{name}:"), &format!("`{name}` must be a whole number, 0 or more"));
        }
        n
    }

    /// A jq expression of field `field`, added to the spec's program.
    pub fn expr(&mut self, field: &str, code: &str) -> ExprId {
        self.exprs.add(Some(self.anchor.clone()), code, format!("check `{}`, field `{field}`", self.def.id))
    }

    /// A regex of field `field`, compiled now.
    pub fn regex(&mut self, field: &str, source: &str, multi_line: bool) -> Option<Pattern> {
        match Pattern::new(source, multi_line) {
            Ok(p) => Some(p),
            Err(PatternError::Syntax(e)) => {
                self.error(source, &format!("`{field}` is not a valid regex: {e}"));
                None
            }
            Err(PatternError::TooBig(e)) => {
                self.error(source, &format!("`{field}` does not compile: {e}"));
                None
            }
        }
    }

    /// Whether an `envoy_validate` source of the spec validates the check's file.
    pub fn validated(&self) -> bool {
        self.sources.iter().any(|s| matches!(&s.kind, SourceKind::EnvoyValidate { file } if *file == self.def.file))
    }
}
