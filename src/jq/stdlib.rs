//! The part of jaq's standard library a program calls, built without parsing.
//!
//! jaq compiles every definition it is given, and parsing plus compiling its whole
//! standard library costs more than a spec's own expressions; a grader that runs once
//! per submission pays that on every run. build.rs embeds the library already parsed,
//! with the names each definition calls, so a run builds only what its code reaches.

use jaq_core::load::lex::StrPart;
use jaq_core::load::parse::{BinaryOp, Def, Pattern, Term};
use jaq_core::ops::{Cmp, Math};
use jaq_core::path::{Opt, Part, Path};

/// A standard definition: its name, the indices of those it may call, every name it
/// calls, and how to build it.
type Entry = (&'static str, &'static [usize], &'static [&'static str], fn() -> Def<&'static str>);

include!(concat!(env!("OUT_DIR"), "/jq_prelude.rs"));

/// A native filter, as jaq's compiler takes it.
pub type Native = jaq_core::native::Filter<jaq_core::Native<super::Data>>;

/// What jq code needs of jaq's library: the standard definitions it may call, and
/// the native filters that it or they may call.
pub struct Library {
    pub defs: Vec<Def<&'static str>>,
    pub natives: Vec<Native>,
}

/// The [`Library`] for the jq code in `pieces`.
pub fn library_for<'a>(pieces: impl IntoIterator<Item = &'a str>) -> Library {
    // Every word of the code counts as a call: a superset is harmless, and cheaper
    // than parsing the code twice.
    let mut names: Vec<&str> = pieces.into_iter().flat_map(words).collect();
    let mut keep = vec![false; PRELUDE.len()];
    for w in &names {
        if let Ok(k) = BY_NAME.binary_search_by(|(name, _)| (name.len(), *name).cmp(&(w.len(), *w))) {
            BY_NAME[k].1.iter().for_each(|i| keep[*i] = true);
        }
    }
    // A definition calls only itself and those before it, so one pass from the end
    // closes the set.
    for i in (0..PRELUDE.len()).rev() {
        if keep[i] {
            PRELUDE[i].1.iter().for_each(|j| keep[*j] = true);
        }
    }
    let mut defs = Vec::new();
    for ((_, _, called, build), k) in PRELUDE.iter().zip(keep) {
        if k {
            defs.push(build());
            names.extend_from_slice(called);
        }
    }
    // jaq looks a native up by going through the whole list for every call, so a
    // list of the few the code can reach compiles markedly faster than all of them.
    names.sort_unstable();
    names.dedup();
    let natives = jaq_core::funs()
        .chain(jaq_std::funs())
        .chain(jaq_json::funs())
        .chain(crate::source::gotemplate::natives())
        .filter(|(name, _, _)| names.binary_search(name).is_ok())
        .collect();
    Library { defs, natives }
}

/// Names in jq text that may call a definition: identifiers and `@format` names, but
/// not `$variables` nor the `__` names the grader gives its own definitions.
fn words(code: &str) -> impl Iterator<Item = &str> {
    let bytes = code.as_bytes();
    let is_word = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || b == b'@';
    let mut i = 0;
    std::iter::from_fn(move || {
        while i < bytes.len() {
            if !is_word(bytes[i]) {
                i += 1;
                continue;
            }
            let start = i;
            while i < bytes.len() && is_word(bytes[i]) {
                i += 1;
            }
            let word = &code[start..i];
            let variable = start > 0 && bytes[start - 1] == b'$';
            if !variable && !word.starts_with("__") && !bytes[start].is_ascii_digit() {
                return Some(word);
            }
        }
        None
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(code: &str) -> Vec<&'static str> {
        library_for([code]).defs.iter().map(|d| d.name).collect()
    }

    #[test]
    fn the_embedded_library_is_the_one_jaq_parses() {
        let parsed: Vec<Def<&'static str>> = jaq_core::defs().chain(jaq_std::defs()).chain(jaq_json::defs()).collect();
        let built: Vec<Def<&'static str>> = PRELUDE.iter().map(|(_, _, _, build)| build()).collect();
        assert_eq!(format!("{parsed:?}"), format!("{built:?}"));
    }

    #[test]
    fn keeps_what_is_called_and_what_that_calls() {
        let kept = names("map(.a) | from_entries");
        for n in ["map", "from_entries"] {
            assert!(kept.contains(&n), "{n} missing from {kept:?}");
        }
        assert!(!kept.contains(&"walk"), "{kept:?}");
        // `select` calls `empty`, which the code never names.
        assert!(names("select(.a)").contains(&"empty"));
    }

    #[test]
    fn keeps_the_natives_called_by_the_code_and_by_the_definitions_kept() {
        let natives = |code| library_for([code]).natives.iter().map(|(n, _, _)| *n).collect::<Vec<_>>();
        assert!(natives("length").contains(&"length"));
        // `keys` is `keys_unsorted | sort`, both natives the code never names.
        let via_keys = natives("keys");
        assert!(via_keys.contains(&"keys_unsorted") && via_keys.contains(&"sort"), "{via_keys:?}");
        assert!(!via_keys.contains(&"length"), "{via_keys:?}");
        assert!(natives(".").is_empty());
    }

    #[test]
    fn formats_count_as_calls() {
        let kept = names("@base64 \"x\"");
        assert!(kept.contains(&"@base64") && kept.contains(&"tostring"), "{kept:?}");
    }

    #[test]
    fn variables_and_own_names_are_not_calls() {
        let w: Vec<&str> = words("$__vars[3] as $map | __e1 | @sh \"\\(.)\" | not").collect();
        assert_eq!(w, ["as", "@sh", "not"]);
    }

    #[test]
    fn code_that_calls_nothing_gets_little() {
        assert!(names(".a").len() < PRELUDE.len() / 4);
    }
}
