//! The check kinds, one module each, behind one registry.
//!
//! A kind's module owns all of it: the fields a spec gives it (`KIND.fields`), their
//! compile (`KIND.compile`: required fields, expressions, regexes), its verdict
//! ([`Kind::run`]) and what look-alike characters mean for it. Adding a kind is one
//! new module here and its name on the `registry!` line below.

mod want;

use super::{Cx, Verdict};
use crate::jq::ExprId;
use crate::slot::Unavailable;
use crate::spec::fields::Fields;

pub use want::{RcWant, Want};

/// A compiled check of one kind.
pub trait Kind: Send + Sync {
    /// The verdict on the check's file.
    fn run(&self, cx: &Cx) -> Verdict;

    /// The expressions the verdict needs (not `explain`'s, which only add words).
    fn needs(&self) -> Vec<ExprId> {
        Vec::new()
    }

    /// Whether the verdict reads Envoy's validation of the check's file.
    fn reads_validation(&self) -> bool {
        false
    }

    /// Why the check is not graded, if it is not: decided before the file is looked at.
    /// A run's skip leaves every submission of the run scored out of the same maximum; a
    /// value not graded for a mistake another check charges (`Blame::Elsewhere`) lowers
    /// that submission's maximum only.
    fn skipped<'a>(&self, cx: &'a Cx) -> Option<&'a Unavailable> {
        self.needs().into_iter().find_map(|id| cx.env.skipped(id))
    }

    /// Whether the file, read, alone fails the check whatever value were expected (no
    /// line for a key, or two): such a check fails even where the run does not derive
    /// its expected value, as no value could make it pass.
    fn fails_whatever_expected(&self, _cx: &Cx) -> bool {
        false
    }

    /// Whether the check reads its file as text, where look-alike characters (a
    /// full-width `＝`) can be why it fails (see `look_alike`).
    fn reads_text(&self) -> bool {
        false
    }

    /// Given the verdict `passed` on the file with its look-alikes made plain (`plain`),
    /// the lines that made it pass; `original` is the file as it is.
    fn lines_used(&self, _original: &Cx, _plain: &Cx, passed: &Verdict) -> Vec<usize> {
        passed.line.into_iter().collect()
    }
}

/// A kind as the registry knows it.
pub struct KindDef {
    /// Its name in a spec (`kind: kv_line`).
    pub name: &'static str,
    /// Its own fields, besides those every check has.
    pub fields: &'static [&'static str],
    /// The check from its fields; `None` after reporting what is wrong with them.
    pub compile: fn(&mut Fields) -> Option<Box<dyn Kind>>,
}

macro_rules! registry {
    ($($kind:ident),* $(,)?) => {
        $(mod $kind;)*
        /// Every kind, in the order `labcheck` lists them.
        pub const KINDS: &[KindDef] = &[$($kind::KIND),*];
    };
}

registry!(exists, kv_line, rc_line, json_equals, json_subset, jq_value, text_contains, text_matches, line_count, envoy_validate);

pub fn by_name(name: &str) -> Option<&'static KindDef> {
    KINDS.iter().find(|k| k.name == name)
}
