//! A spec's texts in another language: a file beside the spec, named by its
//! `translations:` (`{ko: ist2-boot.ko.yaml}`), that holds what a student reads (the
//! title, step titles, each check's title, why, where, hint, explain sentences and
//! found words, each `let`'s missing text) keyed as the spec keys them: steps by number,
//! checks by id, lets by name. English stays in the spec itself; a text a translation
//! lacks is said in English, and `labcheck spec` lists it.

use super::{Spec, SpecError};
use crate::lang::Lang;
use indexmap::IndexMap;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::Path;

/// The built-in spec's translation files, by the names its `translations:` gives.
const BUILTIN: &[(&str, &str)] = &[
    ("ist2-boot.ko.yaml", include_str!("../../checks/ist2-boot.ko.yaml")),
    ("ist2-boot.zh.yaml", include_str!("../../checks/ist2-boot.zh.yaml")),
];

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Translation {
    #[serde(default)]
    pub title: Option<String>,
    #[serde(default)]
    pub steps: BTreeMap<u32, String>,
    /// A `let`'s `missing` text, by the let's name.
    #[serde(default, rename = "let")]
    pub lets: IndexMap<String, String>,
    #[serde(default)]
    pub checks: IndexMap<String, CheckTexts>,
    /// The spec's `envoy:` texts: `live` and `screen` by field, `same_bootstrap` by the
    /// English name of each place it compares.
    #[serde(default)]
    pub envoy: IndexMap<String, IndexMap<String, String>>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CheckTexts {
    #[serde(default)]
    pub title: Option<String>,
    #[serde(default)]
    pub hint: Option<String>,
    #[serde(default)]
    pub why: Option<String>,
    #[serde(default, rename = "where")]
    pub location: Option<String>,
    #[serde(default)]
    pub found: Option<String>,
    /// The `say` of each `explain`, in the spec's order.
    #[serde(default)]
    pub explain: Vec<String>,
}

/// The spec's translation into `lang`, if its `translations:` names one. `dir` is the
/// spec file's folder; `None` is the built-in spec, whose translations are built in.
pub fn read(spec: &Spec, lang: Lang, dir: Option<&Path>) -> Result<Option<Translation>, SpecError> {
    let Some(name) = spec.translations.get(lang.code()) else { return Ok(None) };
    let error = |message: String| SpecError { file: name.clone(), pos: None, message };
    let text = match dir {
        None => BUILTIN.iter().find(|(n, _)| n == name).map(|(_, t)| t.to_string()).ok_or_else(|| error("not built in".into()))?,
        Some(dir) => crate::input::file::read_lab(&dir.join(name))
            .map_err(|e| error(format!("cannot read the {} translation: {}", lang.code(), e.said(name))))?,
    };
    serde_yaml::from_str(&text).map(Some).map_err(|e| SpecError {
        file: name.clone(),
        pos: e.location().map(|l| super::position::Pos { line: l.line(), col: l.column() }),
        message: crate::display::safe(&e.to_string()),
    })
}

/// Put a translation's texts in place of the spec's English ones.
pub fn apply(spec: &mut Spec, t: Translation) {
    let put = |to: &mut String, from: Option<String>| {
        if let Some(text) = from {
            *to = text;
        }
    };
    put(&mut spec.title, t.title);
    for (n, title) in t.steps {
        if let Some(s) = spec.steps.get_mut(&n) {
            *s = title;
        }
    }
    for l in &mut spec.lets {
        if let (Some(m), Some(text)) = (&mut l.missing, t.lets.get(&l.name)) {
            *m = text.clone();
        }
    }
    let mut checks = t.checks;
    for c in &mut spec.checks {
        let Some(texts) = checks.shift_remove(&c.id) else { continue };
        put(&mut c.title, texts.title);
        for (to, from) in [(&mut c.hint, texts.hint), (&mut c.why, texts.why), (&mut c.location, texts.location), (&mut c.found, texts.found)] {
            if let (Some(to), Some(from)) = (to, from) {
                *to = from;
            }
        }
        for (e, say) in c.explain.iter_mut().zip(texts.explain) {
            e.say = say;
        }
    }
    if let Some(envoy) = &mut spec.envoy {
        for (section, name, text) in envoy.texts_mut() {
            if let Some(t) = t.envoy.get(section).and_then(|s| s.get(&name)) {
                *text = t.clone();
            }
        }
    }
}

/// What a translation lacks, or has that the spec does not, as lines: a text missing,
/// an id the spec does not have, a `{name}` the English text fills and the translation
/// drops (or the other way round).
pub fn gaps(spec: &mut Spec, t: &Translation) -> Vec<String> {
    texts(spec, t)
        .into_iter()
        .filter_map(|(what, en, tr)| match (en, tr) {
            (Some(_), None) => Some(format!("{what}: missing")),
            (None, Some(_)) => Some(format!("{what}: the spec has no such text")),
            (Some(e), Some(tr)) if names(&e) != names(&tr) => Some(format!("{what}: fills {} where the spec fills {}", names(&tr), names(&e))),
            _ => None,
        })
        .chain(t.checks.keys().filter(|id| !spec.checks.iter().any(|c| c.id == **id)).map(|id| format!("check {id}: the spec has no such check")))
        .collect()
}

/// Every text a student may read, as `(what, English, translation)`, named as `labcheck
/// spec` names it; a text one side lacks is `None` there. With an empty translation:
/// the spec's English texts, which its translations were made from.
pub fn texts(spec: &mut Spec, t: &Translation) -> Vec<(String, Option<String>, Option<String>)> {
    let mut out = Vec::new();
    let mut text = |what: String, en: Option<&str>, tr: Option<&str>| out.push((what, en.map(String::from), tr.map(String::from)));
    text("title".into(), Some(&spec.title), t.title.as_deref());
    for (n, title) in &spec.steps {
        text(format!("step {n}"), Some(title), t.steps.get(n).map(String::as_str));
    }
    for n in t.steps.keys().filter(|n| !spec.steps.contains_key(n)) {
        text(format!("step {n}"), None, Some(""));
    }
    for l in &spec.lets {
        text(format!("let {}", l.name), l.missing.as_deref(), t.lets.get(&l.name).map(String::as_str));
    }
    for name in t.lets.keys().filter(|n| !spec.lets.iter().any(|l| l.name == **n)) {
        text(format!("let {name}"), None, Some(""));
    }
    let none = CheckTexts::default();
    for c in &spec.checks {
        let tc = t.checks.get(&c.id).unwrap_or(&none);
        let at = |field: &str| format!("check {} {field}", c.id);
        text(at("title"), Some(&c.title), tc.title.as_deref());
        text(at("hint"), c.hint.as_deref(), tc.hint.as_deref());
        text(at("why"), c.why.as_deref(), tc.why.as_deref());
        text(at("where"), c.location.as_deref(), tc.location.as_deref());
        text(at("found"), c.found.as_deref(), tc.found.as_deref());
        for i in 0..c.explain.len().max(tc.explain.len()) {
            text(at(&format!("explain {}", i + 1)), c.explain.get(i).map(|e| e.say.as_str()), tc.explain.get(i).map(String::as_str));
        }
    }
    let english: Vec<(&str, String, String)> =
        spec.envoy.as_mut().map(|e| e.texts_mut().into_iter().map(|(s, n, t)| (s, n, t.clone())).collect()).unwrap_or_default();
    for (section, name, en) in &english {
        text(format!("envoy {section} {name}"), Some(en), t.envoy.get(*section).and_then(|s| s.get(name)).map(String::as_str));
    }
    for (section, names) in &t.envoy {
        for name in names.keys().filter(|n| !english.iter().any(|(s, e, _)| s == section && e == *n)) {
            text(format!("envoy {section} {name}"), None, Some(""));
        }
    }
    out
}

/// The `{name}`s a text fills, sorted, as a line says them.
fn names(text: &str) -> String {
    let mut n: Vec<String> = super::references(text).into_iter().map(|p| format!("{{{p}}}")).collect();
    n.sort_unstable();
    if n.is_empty() { "nothing".into() } else { n.join(", ") }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every text of the built-in spec a student reads is there in each language.
    #[test]
    fn the_builtin_spec_is_translated_in_full() {
        let mut spec = Spec::builtin().unwrap_or_else(|e| panic!("{}", e[0]));
        for lang in [Lang::Ko, Lang::Zh] {
            let t = read(&spec, lang, None).unwrap_or_else(|e| panic!("{e}")).expect("a translation");
            let gaps = gaps(&mut spec, &t);
            assert!(gaps.is_empty(), "{}:\n{}", lang.code(), gaps.join("\n"));
        }
    }

    #[test]
    fn gaps_name_what_is_missing_extra_or_fills_other_names() {
        let mut spec = Spec::builtin().unwrap_or_else(|e| panic!("{}", e[0]));
        let mut t: Translation = serde_yaml::from_str("checks: {args.role: {title: x}, nope: {title: y}}\nsteps: {99: z}").unwrap();
        t.checks.insert("typo.only_change".into(), CheckTexts { why: Some("다릅니다".into()), ..Default::default() });
        let gaps = gaps(&mut spec, &t);
        for want in ["step 0: missing", "step 99: the spec has no such text", "check args.role hint: missing", "check nope: the spec has no such check", "check typo.only_change why: fills nothing where the spec fills {said}"] {
            assert!(gaps.iter().any(|g| g == want), "{want} not in\n{}", gaps.join("\n"));
        }
        assert!(!gaps.iter().any(|g| g == "check args.role title: missing"));
    }
}
