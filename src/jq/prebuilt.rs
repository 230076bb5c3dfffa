//! The built-in spec's own jq, parsed at build time (see build.rs), found by its text.
//!
//! Parsing is a third of compiling a spec's jq, and the built-in spec is the same on
//! every run; its syntax trees are built by generated code instead. Any other text, or
//! a spec edited since the build, simply misses and is parsed as usual.

use jaq_core::load::lex::StrPart;
use jaq_core::load::parse::{BinaryOp, Def, Pattern, Term};
use jaq_core::ops::{Cmp, Math};
use jaq_core::path::{Opt, Part, Path};

/// An expression's text and the function that builds its syntax tree.
type TermEntry = (&'static str, fn() -> Term<&'static str>);
/// The spec's `defs` text and the function that builds them.
type DefsEntry = (&'static str, fn() -> Vec<Def<&'static str>>);

include!(concat!(env!("OUT_DIR"), "/spec_jq.rs"));

/// The syntax tree of the expression `code`, if the built-in spec has it.
pub fn term(code: &str) -> Option<Term<&'static str>> {
    find(code).map(|i| (TERMS[i].1)())
}

/// Whether the built-in spec has the expression `code` (nothing is built).
pub fn has(code: &str) -> bool {
    find(code).is_some()
}

fn find(code: &str) -> Option<usize> {
    TERMS.binary_search_by(|(text, _)| (*text).cmp(code)).ok()
}

/// The definitions `code`, if they are the built-in spec's `defs`.
pub fn defs(code: &str) -> Option<Vec<Def<&'static str>>> {
    DEFS.filter(|(text, _)| *text == code).map(|(_, build)| build())
}

/// Whether `code` is the built-in spec's `defs` (nothing is built).
pub fn has_defs(code: &str) -> bool {
    DEFS.is_some_and(|(text, _)| text == code)
}

#[cfg(test)]
mod tests {
    use super::*;
    use jaq_core::load::parse;

    #[test]
    fn every_tree_is_what_jaq_parses() {
        assert!(TERMS.len() > 100, "the built-in spec has more expressions than {}", TERMS.len());
        for (text, build) in TERMS {
            let parsed = parse(text, |p| p.term()).unwrap();
            assert_eq!(format!("{:?}", build()), format!("{parsed:?}"), "{text}");
        }
        let (text, build) = DEFS.expect("the built-in spec's defs parse");
        assert_eq!(format!("{:?}", build()), format!("{:?}", parse(text, |p| p.defs()).unwrap()));
    }

    #[test]
    fn the_builtin_spec_parses_nothing_at_run_time() {
        let spec = crate::spec::Spec::builtin().unwrap();
        for e in &spec.program.exprs {
            assert!(term(&e.code).is_some(), "not embedded: {} ({})", e.code, e.label);
        }
    }

    #[test]
    fn other_text_misses() {
        assert!(term(". + 1 # not in the spec").is_none());
        assert!(defs("def other: 1;").is_none());
    }
}
