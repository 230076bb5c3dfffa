//! The language a run speaks to the student: English, Korean or Chinese, from `--lang`
//! or the locale; the engine's own sentences in that language (one catalog per concern,
//! in this folder). A lab's own texts come from its spec's translation files
//! (`spec/translate.rs`).

pub mod checks;
pub mod envoy;
pub mod envoy_run;
pub mod files;
mod join;
pub mod report;
pub mod run;

pub use join::{clause, clauses, colon, first_clause, ids, labelled, list, sentences, statements};
use std::sync::atomic::{AtomicU8, Ordering};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum Lang {
    #[default]
    En,
    Ko,
    Zh,
}

impl Lang {
    pub const ALL: [Lang; 3] = [Lang::En, Lang::Ko, Lang::Zh];

    /// The code a spec's `translations:` and `--lang` use.
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Ko => "ko",
            Lang::Zh => "zh",
        }
    }

    pub fn from_code(code: &str) -> Option<Lang> {
        Lang::ALL.into_iter().find(|l| l.code() == code)
    }

    /// The language the locale asks for: the first of `LC_ALL`, `LC_MESSAGES` and `LANG`
    /// that is set and not empty, as POSIX reads them (`ko_KR.UTF-8` is Korean, any
    /// `zh_*` Chinese); `C`, `POSIX` and every other language are English.
    pub fn from_locale(var: impl Fn(&str) -> Option<String>) -> Lang {
        let locale = ["LC_ALL", "LC_MESSAGES", "LANG"].into_iter().find_map(|v| var(v).filter(|s| !s.is_empty()));
        let Some(locale) = locale else { return Lang::En };
        let language = locale.split(['_', '.', '@', '-']).next().unwrap_or_default();
        match language.to_ascii_lowercase().as_str() {
            "ko" => Lang::Ko,
            "zh" => Lang::Zh,
            _ => Lang::En,
        }
    }

    /// `--lang` if given, else the locale of this process.
    pub fn choose(given: Option<Lang>) -> Lang {
        given.unwrap_or_else(|| Lang::from_locale(|v| std::env::var(v).ok()))
    }
}

/// A run speaks one language; set once, before anything is said.
static CURRENT: AtomicU8 = AtomicU8::new(0);

pub fn set(lang: Lang) {
    CURRENT.store(lang as u8, Ordering::Relaxed);
}

pub fn current() -> Lang {
    match CURRENT.load(Ordering::Relaxed) {
        1 => Lang::Ko,
        2 => Lang::Zh,
        _ => Lang::En,
    }
}

/// A catalog of sentences: each in every language, or it does not compile.
pub trait Catalog: Copy + 'static {
    const ALL: &'static [Self];
    fn text(self, lang: Lang) -> &'static str;
    fn name(self) -> &'static str;
}

/// `catalog! { pub enum Name { Key { en: "...", ko: "...", zh: "..." } ... } }`: an enum
/// of keys whose text in each language is written side by side; `{name}`s are filled
/// in by [`fill`].
macro_rules! catalog {
    ($(#[$meta:meta])* pub enum $enum:ident { $( $(#[$doc:meta])* $key:ident { en: $en:expr, ko: $ko:expr, zh: $zh:expr $(,)? } )* }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub enum $enum { $( $(#[$doc])* $key, )* }

        impl $crate::lang::Catalog for $enum {
            const ALL: &'static [$enum] = &[$($enum::$key),*];
            fn text(self, lang: $crate::lang::Lang) -> &'static str {
                match (self, lang) {
                    $(
                        ($enum::$key, $crate::lang::Lang::En) => $en,
                        ($enum::$key, $crate::lang::Lang::Ko) => $ko,
                        ($enum::$key, $crate::lang::Lang::Zh) => $zh,
                    )*
                }
            }
            fn name(self) -> &'static str {
                match self { $($enum::$key => stringify!($key),)* }
            }
        }
    };
}
pub(crate) use catalog;

/// A sentence of a catalog in the run's language, its `{name}`s filled:
/// `t!(Report::Score, score = 3, max = 5)`.
macro_rules! t {
    ($key:expr) => {
        $crate::lang::Catalog::text($key, $crate::lang::current()).to_string()
    };
    ($key:expr, $($name:ident = $value:expr),+ $(,)?) => {
        $crate::lang::fill(
            $crate::lang::Catalog::text($key, $crate::lang::current()),
            &[$((stringify!($name), &$value as &dyn std::fmt::Display)),+],
        )
    };
}
pub(crate) use t;

/// A sentence of a catalog in the run's language, as it is (no `{name}`s to fill).
pub fn tr<C: Catalog>(key: C) -> &'static str {
    key.text(current())
}

/// `template` with each `{name}` replaced by its value, in one pass: a value that holds
/// `{x}` (a student's text) is never filled in again. An unknown `{name}` stays.
pub fn fill(template: &str, values: &[(&str, &dyn std::fmt::Display)]) -> String {
    let mut out = String::with_capacity(template.len() + 32);
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let name = after.find('}').map(|close| &after[..close]);
        match name.and_then(|n| values.iter().find(|(k, _)| *k == n)) {
            Some((k, v)) => {
                out.push_str(&v.to_string());
                rest = &after[k.len() + 1..];
            }
            None => {
                out.push('{');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn locale(vars: &[(&str, &str)]) -> Lang {
        Lang::from_locale(|v| vars.iter().find(|(k, _)| *k == v).map(|(_, x)| x.to_string()))
    }

    #[test]
    fn the_locale_picks_the_language_as_posix_reads_it() {
        assert_eq!(locale(&[("LANG", "ko_KR.UTF-8")]), Lang::Ko);
        assert_eq!(locale(&[("LANG", "zh_CN.UTF-8")]), Lang::Zh);
        assert_eq!(locale(&[("LANG", "zh_TW")]), Lang::Zh);
        assert_eq!(locale(&[("LANG", "zh_HK.Big5@x")]), Lang::Zh);
        assert_eq!(locale(&[("LANG", "ko")]), Lang::Ko);
        assert_eq!(locale(&[("LANG", "C.UTF-8")]), Lang::En);
        assert_eq!(locale(&[("LANG", "POSIX")]), Lang::En);
        assert_eq!(locale(&[("LANG", "ja_JP.UTF-8")]), Lang::En);
        assert_eq!(locale(&[]), Lang::En);
        // LC_ALL wins over LC_MESSAGES, which wins over LANG; an empty one is skipped.
        assert_eq!(locale(&[("LC_ALL", "zh_CN.UTF-8"), ("LC_MESSAGES", "ko_KR.UTF-8"), ("LANG", "C")]), Lang::Zh);
        assert_eq!(locale(&[("LC_ALL", ""), ("LC_MESSAGES", "ko_KR.UTF-8"), ("LANG", "zh_CN")]), Lang::Ko);
        assert_eq!(locale(&[("LC_ALL", ""), ("LC_MESSAGES", ""), ("LANG", "zh_CN")]), Lang::Zh);
        assert_eq!(locale(&[("LC_ALL", "C"), ("LANG", "ko_KR.UTF-8")]), Lang::En);
    }

    #[test]
    fn fill_replaces_each_name_once() {
        let x = "{file}";
        assert_eq!(fill("{file} is missing; {n} {other}", &[("file", &x), ("n", &3)]), "{file} is missing; 3 {other}");
        assert_eq!(fill("a { b } {", &[("b", &1)]), "a { b } {");
        assert_eq!(crate::spec::references("{a} and {b_2}, not { c } or {}"), ["a", "b_2"]);
    }

    /// Every sentence of every catalog is there in each language, with the same `{name}`s.
    #[test]
    fn every_catalog_is_complete() {
        fn check<C: Catalog>() {
            for key in C::ALL {
                let mut en = crate::spec::references(key.text(Lang::En));
                en.sort();
                for lang in Lang::ALL {
                    let text = key.text(lang);
                    assert!(!text.trim().is_empty(), "{} is empty in {}", key.name(), lang.code());
                    let mut names = crate::spec::references(text);
                    names.sort();
                    assert_eq!(names, en, "{} in {} fills other names than in English", key.name(), lang.code());
                }
            }
        }
        check::<report::Report>();
        check::<checks::Checks>();
        check::<envoy::EnvoyWords>();
        check::<envoy_run::EnvoyRun>();
        check::<files::Files>();
        check::<run::Run>();
    }
}
