//! The spec's `envoy:` section: what a lab tells the generic Envoy driver (`src/envoy`)
//! about its own Envoy: what to read from the admin API, how to tell that a running
//! Envoy runs the submission's bootstrap, and every sentence a student may read about
//! Envoy (each a field of its own, so that it can be translated).

use super::model::SpecFile;
use super::position::{locate, Pos};
use super::{Source, SourceKind, SpecError};
use crate::jq::{ExprId, Outcome, Program, ProgramBuilder};
use indexmap::IndexMap;
use serde::Deserialize;
use serde_json::Value;
use std::sync::OnceLock;

/// The section as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EnvoyDef {
    #[serde(default)]
    pub admin: Option<AdminDef>,
    #[serde(default)]
    pub same_bootstrap: Option<SameDef>,
    #[serde(default)]
    pub live: Option<LiveTexts>,
    #[serde(default)]
    pub screen: Option<ScreenTexts>,
}

/// What the live view (`$live`) holds besides the node and bootstrap Envoy reports.
#[derive(Debug, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct AdminDef {
    /// Name -> admin path; `$live.<name>` is `{code, body}` of a GET of that path.
    #[serde(default)]
    pub endpoints: IndexMap<String, String>,
    /// Statistics, by full name; `$live.stats["<name>"]` is the value (null if absent).
    #[serde(default)]
    pub stats: Vec<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SameDef {
    /// What tells one bootstrap from another (the node's id): a running Envoy that
    /// differs here runs another bootstrap, not an older version of this one.
    pub identity: FieldDef,
    #[serde(default)]
    pub fields: Vec<FieldDef>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FieldDef {
    /// How the student reads the place ("node.cluster").
    pub name: String,
    /// jq over a bootstrap: the file as read, or the one `/config_dump` reports.
    pub path: String,
    #[serde(default)]
    pub compare: Compare,
}

/// How the two sides of a `same_bootstrap` field are compared.
#[derive(Debug, Deserialize, Clone, Copy, Default, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum Compare {
    /// As values (`crate::compare::equal`).
    #[default]
    Value,
    /// As durations (`"0s"`, `"0.000s"`, `{seconds: 0}` are one).
    Duration,
    /// An object of the same keys, with the same text where both sides hold text: Envoy
    /// reads YAML scalars by its own rules (`yes` a boolean, `010` the number 8).
    Text,
}

/// What a student reads about a live Envoy. Placeholders are in braces.
#[derive(Debug, Deserialize, Clone)]
#[serde(deny_unknown_fields)]
pub struct LiveTexts {
    /// How to start Envoy: `{command}`.
    pub start: String,
    /// The command that starts it: `{bootstrap}` (the file's full path).
    pub command: String,
    pub launch_instead: String,
    /// `{admin}`, `{file}`, `{id}` (the node id it runs).
    pub not_running: String,
    /// `{admin}`, `{file}`, `{differ}` (the places that differ).
    pub older: String,
    pub restart: String,
    /// The reasons no Envoy can run the file, each the student's, said by the live
    /// checks, which are then not graded (see the check these texts name).
    /// `{file}`.
    pub no_admin: String,
    /// `{file}`, `{said}` (Envoy's words).
    pub rejected: String,
    /// `{file}`, `{said}` (the safety screen's `refused`, or why Envoy gave no verdict).
    pub refused: String,
    /// `{file}`, `{said}` (why it cannot be read).
    pub unreadable: String,
    /// `{admin}`, `{file}`, `{uptime}`, `{timeout}`.
    pub moved_on: String,
    /// Where live values came from: `{admin}`.
    pub probed: String,
    /// `{file}`, `{admin}`.
    pub launched: String,
    /// `{recording}`, `{mode}`, `{admin}`.
    pub replayed: String,
}

fn left_out() -> String {
    "`{field}` is left out".into()
}

/// What a student reads about the grader's safety screen and its copy of a bootstrap.
#[derive(Debug, Deserialize, Clone)]
#[serde(deny_unknown_fields)]
pub struct ScreenTexts {
    /// `{file}`, `{reasons}` (the reasons below, joined).
    pub refused: String,
    /// `{field}`.
    pub reads_files: String,
    /// `{field}`.
    pub listens: String,
    /// `{field}`.
    pub connects: String,
    /// `{field}`, `{type}`.
    pub extension: String,
    /// What the grader's launched copy changed: `{changes}`.
    pub changed: String,
    /// `{field}`.
    pub dev_null: String,
    pub closed_port: String,
    /// `{field}`: how Envoy would set up its own sockets, left out of a launched copy.
    /// Optional: a spec written before it says it in these words.
    #[serde(default = "left_out")]
    pub left_out: String,
    /// `{timeout}`.
    pub waits: String,
}

/// The section, compiled.
pub struct Envoy {
    /// Name and admin path of each endpoint the live view holds.
    pub endpoints: Vec<(String, String)>,
    pub stats: Vec<String>,
    pub same: Option<Same>,
    pub live: Option<LiveTexts>,
    pub screen: Option<ScreenTexts>,
}

pub struct Same {
    pub identity: Field,
    pub fields: Vec<Field>,
    /// Every path, in the order of their `ExprId`s.
    paths: Vec<String>,
    /// Compiled when first needed (only a probe needs it), or why it did not compile.
    program: OnceLock<Result<Program, String>>,
}

pub struct Field {
    pub name: String,
    pub compare: Compare,
    expr: ExprId,
}

impl Same {
    /// The field's value in `bootstrap`; null when its jq gives none or fails (both
    /// sides then compare as absent). An error only if the spec's jq does not compile.
    pub fn value(&self, f: &Field, bootstrap: &Value) -> Result<Value, String> {
        let program = self.program.get_or_init(|| build(&self.paths).map(|(p, _)| p).map_err(|e| e.join("; "))).as_ref()?;
        let input = crate::jq::convert::to_jaq(bootstrap);
        Ok(match program.run(f.expr, &Program::vars(&[]), input, jaq_json::Val::Null, jaq_json::Val::Null) {
            Outcome::Value(v) => crate::jq::convert::from_jaq(&v),
            Outcome::Empty | Outcome::Error(_) => Value::Null,
        })
    }
}

/// The paths compiled as one program, with the id of each; or each error, said.
fn build(paths: &[String]) -> Result<(Program, Vec<ExprId>), Vec<String>> {
    let mut builder = ProgramBuilder::default();
    let ids = paths.iter().map(|p| builder.add(p, format!("envoy.same_bootstrap `{p}`"))).collect();
    builder.build("", &[]).map(|p| (p, ids)).map_err(|errs| {
        errs.iter().map(|e| format!("`{}`: jq: {}", paths.get(e.expr).map_or("", String::as_str), e.message)).collect()
    })
}

/// `text` with each `{name}` replaced by its value (see `lang::fill`).
pub fn fill(text: &str, values: &[(&str, &str)]) -> String {
    let values: Vec<(&str, &dyn std::fmt::Display)> = values.iter().map(|(k, v)| (*k, v as &dyn std::fmt::Display)).collect();
    crate::lang::fill(text, &values)
}

impl LiveTexts {
    /// Each text by its name in the spec, to put a translation in its place.
    pub fn texts_mut(&mut self) -> [(&'static str, &mut String); 14] {
        [
            ("start", &mut self.start),
            ("command", &mut self.command),
            ("launch_instead", &mut self.launch_instead),
            ("not_running", &mut self.not_running),
            ("older", &mut self.older),
            ("restart", &mut self.restart),
            ("no_admin", &mut self.no_admin),
            ("rejected", &mut self.rejected),
            ("refused", &mut self.refused),
            ("unreadable", &mut self.unreadable),
            ("moved_on", &mut self.moved_on),
            ("probed", &mut self.probed),
            ("launched", &mut self.launched),
            ("replayed", &mut self.replayed),
        ]
    }
}

impl ScreenTexts {
    /// Each text by its name in the spec, to put a translation in its place.
    pub fn texts_mut(&mut self) -> [(&'static str, &mut String); 10] {
        [
            ("refused", &mut self.refused),
            ("reads_files", &mut self.reads_files),
            ("listens", &mut self.listens),
            ("connects", &mut self.connects),
            ("extension", &mut self.extension),
            ("changed", &mut self.changed),
            ("dev_null", &mut self.dev_null),
            ("closed_port", &mut self.closed_port),
            ("left_out", &mut self.left_out),
            ("waits", &mut self.waits),
        ]
    }
}

impl Envoy {
    /// Every text a student may read, as `(section, name, text)`: `live` and `screen`
    /// by field, `same_bootstrap` by the English name of each place it compares.
    pub fn texts_mut(&mut self) -> Vec<(&'static str, String, &mut String)> {
        let mut out: Vec<(&'static str, String, &mut String)> = Vec::new();
        if let Some(live) = &mut self.live {
            out.extend(live.texts_mut().into_iter().map(|(k, t)| ("live", k.to_string(), t)));
        }
        if let Some(screen) = &mut self.screen {
            out.extend(screen.texts_mut().into_iter().map(|(k, t)| ("screen", k.to_string(), t)));
        }
        if let Some(same) = &mut self.same {
            for f in std::iter::once(&mut same.identity).chain(same.fields.iter_mut()) {
                out.push(("same_bootstrap", f.name.clone(), &mut f.name));
            }
        }
        out
    }
}

/// Names the live view gives itself; an endpoint may not take one.
const VIEW_KEYS: &[&str] = &["mode", "admin", "node", "bootstrap", "stats", "uptime"];

/// The section compiled, or its mistakes. It is needed when the spec runs Envoy
/// (`screen`), and with a live source (`admin`, `same_bootstrap`, `live`).
pub fn compile(file: &SpecFile, sources: &[Source], text: &str, name: &str) -> Result<Option<Envoy>, Vec<SpecError>> {
    let mut errors = Vec::new();
    let mut err = |needle: &str, message: String| {
        let pos: Option<Pos> = locate(text, Some("envoy:"), needle);
        errors.push(SpecError { file: name.to_string(), pos, message });
    };
    let live = sources.iter().any(|s| matches!(s.kind, SourceKind::EnvoyAdmin { .. }));
    let runs = live
        || sources.iter().any(|s| matches!(s.kind, SourceKind::EnvoyValidate { .. }))
        || file.checks.iter().any(|c| c.kind == "envoy_validate");
    let Some(def) = &file.envoy else {
        if runs {
            err("", "the spec runs Envoy, so it needs an `envoy:` section (with `screen:`, and for a live source `admin:`, `same_bootstrap:` and `live:`)".into());
        }
        return if errors.is_empty() { Ok(None) } else { Err(errors) };
    };
    if runs && def.screen.is_none() {
        err("", "`envoy:` needs `screen:`, the texts of the grader's safety screen".into());
    }
    if live {
        for (part, missing) in [("admin", def.admin.is_none()), ("same_bootstrap", def.same_bootstrap.is_none()), ("live", def.live.is_none())] {
            if missing {
                err("", format!("the spec has a live source, so `envoy:` needs `{part}:`"));
            }
        }
    }
    let admin = def.admin.as_ref();
    let endpoints: Vec<(String, String)> = admin.map(|a| a.endpoints.iter().map(|(n, p)| (n.clone(), p.clone())).collect()).unwrap_or_default();
    for (n, p) in &endpoints {
        if VIEW_KEYS.contains(&n.as_str()) || !n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            err(n, format!("`envoy.admin.endpoints`: `{n}` cannot name an endpoint (letters, digits and _; not {})", VIEW_KEYS.join(", ")));
        }
        if !p.starts_with('/') || p.chars().any(|c| c.is_whitespace() || c.is_control()) {
            err(p, format!("`envoy.admin.endpoints.{n}`: `{p}` is not an admin path (it starts with /)"));
        }
    }
    let stats = admin.map(|a| a.stats.clone()).unwrap_or_default();
    for s in &stats {
        if s.is_empty() || !s.chars().all(|c| c.is_ascii_alphanumeric() || "_.-".contains(c)) {
            err(s, format!("`envoy.admin.stats`: `{s}` is not a statistic's name"));
        }
    }
    for (key, text) in def.live.iter().flat_map(live_texts).chain(def.screen.iter().flat_map(screen_texts)) {
        if let Some(unknown) = super::references(text.1).into_iter().find(|p| !text.0.contains(p)) {
            err(key, format!("`envoy`: the text `{key}` has `{{{unknown}}}`, which it cannot fill (it has: {})", text.0.join(", ")));
        }
    }
    let same = def.same_bootstrap.as_ref().and_then(|s| same(s, &mut err));
    if errors.is_empty() {
        Ok(Some(Envoy { endpoints, stats, same, live: def.live.clone(), screen: def.screen.clone() }))
    } else {
        Err(errors)
    }
}

/// The paths are compiled when a probe first needs them, not at every load (that
/// costs a millisecond); a path that does not even parse is told now, with its place.
fn same(def: &SameDef, err: &mut impl FnMut(&str, String)) -> Option<Same> {
    let defs: Vec<&FieldDef> = std::iter::once(&def.identity).chain(&def.fields).collect();
    let paths: Vec<String> = defs.iter().map(|f| f.path.clone()).collect();
    if let Some(bad) = paths.iter().find(|p| jaq_core::load::parse(p, |p| p.term()).is_none()) {
        for e in build(&paths).err().unwrap_or_else(|| vec![format!("`{bad}`: jq: cannot be parsed")]) {
            err(bad, format!("`envoy.same_bootstrap`: {e}"));
        }
        return None;
    }
    // Ids as the lazy build will give them: one per path, in order.
    let mut ids = ProgramBuilder::default();
    let mut field = |f: &FieldDef| Field { name: f.name.clone(), compare: f.compare, expr: ids.add(&f.path, String::new()) };
    let identity = field(&def.identity);
    let fields = def.fields.iter().map(field).collect();
    Some(Same { identity, fields, paths, program: OnceLock::new() })
}

type Texts<'a> = Vec<(&'static str, (&'static [&'static str], &'a str))>;

fn live_texts(t: &LiveTexts) -> Texts<'_> {
    vec![
        ("start", (&["command"], &t.start)),
        ("command", (&["bootstrap"], &t.command)),
        ("launch_instead", (&[], &t.launch_instead)),
        ("not_running", (&["admin", "file", "id"], &t.not_running)),
        ("older", (&["admin", "file", "differ"], &t.older)),
        ("restart", (&["command"], &t.restart)),
        ("no_admin", (&["file"], &t.no_admin)),
        ("rejected", (&["file", "said"], &t.rejected)),
        ("refused", (&["file", "said"], &t.refused)),
        ("unreadable", (&["file", "said"], &t.unreadable)),
        ("moved_on", (&["admin", "file", "uptime", "timeout"], &t.moved_on)),
        ("probed", (&["admin"], &t.probed)),
        ("launched", (&["file", "admin"], &t.launched)),
        ("replayed", (&["recording", "mode", "admin"], &t.replayed)),
    ]
}

fn screen_texts(t: &ScreenTexts) -> Texts<'_> {
    vec![
        ("refused", (&["file", "reasons"], &t.refused)),
        ("reads_files", (&["field"], &t.reads_files)),
        ("listens", (&["field"], &t.listens)),
        ("connects", (&["field"], &t.connects)),
        ("extension", (&["field", "type"], &t.extension)),
        ("changed", (&["changes"], &t.changed)),
        ("dev_null", (&["field"], &t.dev_null)),
        ("closed_port", (&[], &t.closed_port)),
        ("left_out", (&["field"], &t.left_out)),
        ("waits", (&["timeout"], &t.waits)),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn texts_are_filled() {
        assert_eq!(fill("{a} and {b}, {a}", &[("a", "x"), ("b", "y")]), "x and y, x");
    }

    fn load_errors(from: &str, to: &str) -> Vec<String> {
        let text = super::super::DEFAULT_SPEC.replacen(from, to, 1);
        assert_ne!(text, super::super::DEFAULT_SPEC, "{from:?}");
        super::super::Spec::load(&text, "x.yaml").err().expect("refused").iter().map(|e| e.to_string()).collect()
    }

    #[test]
    fn mistakes_in_the_section_are_told_with_their_place() {
        let e = load_errors("    restart: \"Stop it (in", "    restart: \"Stop {it} (in");
        assert!(e.iter().any(|e| e.contains("the text `restart` has `{it}`, which it cannot fill") && e.starts_with("x.yaml:")), "{e:?}");
        let e = load_errors("path: .node.cluster}", "path: .node.cluster | }");
        assert!(e.iter().any(|e| e.contains("`envoy.same_bootstrap`: `.node.cluster |`: jq:") && e.starts_with("x.yaml:")), "{e:?}");
        // A function jaq has not is found when a probe first needs the paths.
        let spec = super::super::Spec::load(&super::super::DEFAULT_SPEC.replacen("path: .node.cluster}", "path: .node.cluster | nosuch}", 1), "x.yaml").unwrap();
        let same = spec.envoy.unwrap().same.unwrap();
        assert!(same.value(&same.identity, &json!({})).unwrap_err().contains("nosuch"));
        let e = load_errors("      ready: /ready", "      node: ready");
        assert!(e.iter().any(|e| e.contains("`node` cannot name an endpoint")) && e.iter().any(|e| e.contains("`ready` is not an admin path")), "{e:?}");
        let e = load_errors("\n  live:\n    start:", "\n  lives:\n    start:");
        assert!(e.iter().any(|e| e.contains("unknown field `lives`")), "{e:?}");
        // A spec that runs Envoy says what a student reads about it.
        let start = super::super::DEFAULT_SPEC.find("\nenvoy:\n").unwrap();
        let end = super::super::DEFAULT_SPEC.find("\nparams:\n").unwrap();
        let e = load_errors(&super::super::DEFAULT_SPEC[start..end], "");
        assert!(e.iter().any(|e| e.contains("the spec runs Envoy, so it needs an `envoy:` section")), "{e:?}");
    }

    #[test]
    fn the_builtin_section_compiles_and_reads_a_bootstrap() {
        let spec = super::super::Spec::builtin().unwrap();
        let envoy = spec.envoy.as_ref().expect("the built-in spec runs Envoy");
        let same = envoy.same.as_ref().unwrap();
        let b = json!({"node": {"id": "a~b", "cluster": "c"}, "static_resources": {"clusters": [{"name": "y"}, {"name": "x"}]}});
        assert_eq!(same.value(&same.identity, &b).unwrap(), json!("a~b"));
        let clusters = same.fields.iter().find(|f| f.name.contains("static cluster")).unwrap();
        assert_eq!(same.value(clusters, &b).unwrap(), json!(["x", "y"]));
        assert_eq!(same.value(clusters, &json!("not a bootstrap")).unwrap(), Value::Null);
    }
}
