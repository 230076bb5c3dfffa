//! A check spec, loaded and compiled: every jq expression is compiled and every regex
//! checked here, before any input is read, and every mistake is reported with its place
//! in the spec.

mod compile;
pub mod model;
pub mod pattern;
pub mod position;

pub use model::{Format, Kind, ParamType};

use crate::jq::{ExprId, Program};
pub use pattern::Pattern;
use std::collections::BTreeMap;
use std::fmt;

/// The spec built into the binary: the ist2-boot lab.
pub const DEFAULT_SPEC: &str = include_str!("../../checks/ist2-boot.yaml");
/// The same, as JSON made at build time (much cheaper to read at start-up).
const DEFAULT_SPEC_JSON: &str = include_str!(concat!(env!("OUT_DIR"), "/ist2-boot.json"));
pub const DEFAULT_SPEC_NAME: &str = "checks/ist2-boot.yaml";

pub struct Spec {
    pub lab: String,
    pub title: String,
    pub default_submission: Option<String>,
    pub steps: BTreeMap<u32, String>,
    pub params: Vec<Param>,
    pub sources: Vec<Source>,
    pub lets: Vec<Let>,
    pub checks: Vec<Check>,
    pub program: Program,
}

pub struct Param {
    pub name: String,
    pub default: Option<String>,
    pub ty: ParamType,
    pub optional: bool,
    pub doc: String,
}

pub struct Source {
    pub name: String,
    pub kind: SourceKind,
}

pub enum SourceKind {
    /// A file of the submission, parsed as `format`.
    Submission { file: String, format: Format },
    /// A lab file whose path is the value of a param (index into `Spec::params`).
    Lab { param: usize, format: Format },
    /// `envoy --mode validate` on a submission file.
    EnvoyValidate { file: String },
    /// A live Envoy's admin API, which must be running this submission file; `admin`
    /// is the param (index) holding the URL to probe.
    EnvoyAdmin { bootstrap: String, admin: usize },
}

pub struct Let {
    pub name: String,
    pub expr: ExprId,
    pub missing: Option<String>,
    pub blame: Option<model::BlameDef>,
    pub skipped_as_null: bool,
}

pub struct Check {
    pub id: String,
    pub step: u32,
    pub title: String,
    pub hint: Option<String>,
    pub points: u32,
    pub hidden: bool,
    pub location: Option<String>,
    /// Said of a wrong value instead of the kind's generic sentence.
    pub why: Option<String>,
    pub file: String,
    /// How the file reads as data, when it does.
    pub format: Format,
    pub kind: CheckKind,
    pub explain: Vec<Explain>,
}

pub struct Explain {
    pub when: ExprId,
    pub say: String,
}

pub enum Want {
    Equals(ExprId),
    Matches(Pattern),
}

pub enum RcWant {
    Equals(ExprId),
    NonZero,
}

pub enum CheckKind {
    Exists,
    KvLine { key: String, want: Want },
    RcLine { want: RcWant },
    Json { path: Option<ExprId>, expect: ExprId, subset: bool },
    JqValue { path: ExprId, want: Want },
    TextContains { expect: ExprId },
    TextMatches { pattern: Want },
    LineCount { pattern: Pattern, min: Option<u64>, max: Option<u64> },
    EnvoyValidate { want: RcWant },
}

impl CheckKind {
    /// The expressions the verdict needs: the path and the expected value (not
    /// `explain`'s, which only add words to a failure).
    pub fn exprs(&self) -> impl Iterator<Item = ExprId> {
        let want = |w: &Want| match w {
            Want::Equals(id) => Some(*id),
            Want::Matches(_) => None,
        };
        let pair = match self {
            CheckKind::KvLine { want: w, .. } | CheckKind::TextMatches { pattern: w } => [want(w), None],
            CheckKind::RcLine { want: RcWant::Equals(id) } | CheckKind::EnvoyValidate { want: RcWant::Equals(id) } => [Some(*id), None],
            CheckKind::Json { path, expect, .. } => [*path, Some(*expect)],
            CheckKind::JqValue { path, want: w } => [Some(*path), want(w)],
            CheckKind::TextContains { expect } => [Some(*expect), None],
            CheckKind::Exists | CheckKind::LineCount { .. } | CheckKind::RcLine { .. } | CheckKind::EnvoyValidate { .. } => [None, None],
        };
        pair.into_iter().flatten()
    }
}

/// A mistake in a spec, with where it is.
#[derive(Debug)]
pub struct SpecError {
    pub file: String,
    pub pos: Option<position::Pos>,
    pub message: String,
}

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.pos {
            Some(p) => write!(f, "{}:{}:{}: {}", self.file, p.line, p.col, self.message),
            None => write!(f, "{}: {}", self.file, self.message),
        }
    }
}

/// How much of a spec's compiling is done before its load returns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Load {
    /// What grading needs, when it needs it: regexes are parsed, and compiled when a
    /// check first uses them; the built-in spec's jq, known to compile, is compiled on
    /// another core while the grader reads its input (see `jq/ahead.rs`).
    Grading,
    /// Everything, now, so that every error a spec can give is found (a regex too large
    /// to compile, say): what `labcheck spec`, the check of a spec, needs.
    Full,
}

impl Spec {
    /// Parse and compile a spec; `name` is how errors refer to the file.
    pub fn load(text: &str, name: &str) -> Result<Spec, Vec<SpecError>> {
        Spec::load_with(text, name, Load::Grading)
    }

    pub fn load_with(text: &str, name: &str, load: Load) -> Result<Spec, Vec<SpecError>> {
        compile::compile(text, name, load)
    }

    /// The built-in spec. Its JSON form is read when it is there and sound; any
    /// trouble falls back to the YAML, whose errors have positions.
    pub fn builtin() -> Result<Spec, Vec<SpecError>> {
        Spec::builtin_with(Load::Grading)
    }

    pub fn builtin_with(load: Load) -> Result<Spec, Vec<SpecError>> {
        if let Ok(file) = serde_json::from_str::<model::SpecFile>(DEFAULT_SPEC_JSON)
            && let Ok(spec) = compile::from_model(file, DEFAULT_SPEC, DEFAULT_SPEC_NAME, load) {
                return Ok(spec);
            }
        Spec::load_with(DEFAULT_SPEC, DEFAULT_SPEC_NAME, load)
    }

    pub fn param(&self, name: &str) -> Option<usize> {
        self.params.iter().position(|p| p.name == name)
    }

    /// The spec's variables in the order the jq program knows them.
    pub fn globals(&self) -> &[String] {
        self.program.globals()
    }

    /// How a submission file reads as data: as a source declares it, else as its checks do.
    pub fn file_format(&self, name: &str) -> Format {
        self.sources
            .iter()
            .find_map(|s| match &s.kind {
                SourceKind::Submission { file, format } if file == name => Some(*format),
                _ => None,
            })
            .or_else(|| self.checks.iter().find(|c| c.file == name).map(|c| c.format))
            .unwrap_or(if name.ends_with(".json") { Format::Json } else if name.ends_with(".yaml") || name.ends_with(".yml") { Format::Yaml } else { Format::Text })
    }

    /// Every submission file the spec reads, in first-mention order.
    pub fn files(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        let mut add = |f: &str| {
            if !out.iter().any(|o| o == f) {
                out.push(f.to_string());
            }
        };
        for s in &self.sources {
            match &s.kind {
                SourceKind::Submission { file, .. } | SourceKind::EnvoyValidate { file } => add(file),
                SourceKind::EnvoyAdmin { bootstrap, .. } => add(bootstrap),
                SourceKind::Lab { .. } => {}
            }
        }
        for c in &self.checks {
            add(&c.file);
        }
        out
    }
}

/// The params a default names, as `{name}`.
pub fn references(default: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = default;
    while let Some(open) = rest.find('{') {
        let after = &rest[open + 1..];
        let Some(close) = after.find('}') else { break };
        let name = &after[..close];
        if !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            out.push(name);
        }
        rest = &after[close + 1..];
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_builtin_json_form_is_used() {
        let file = serde_json::from_str::<super::model::SpecFile>(super::DEFAULT_SPEC_JSON).unwrap();
        let spec = super::compile::from_model(file, super::DEFAULT_SPEC, super::DEFAULT_SPEC_NAME, super::Load::Full);
        assert!(spec.is_ok(), "{}", spec.err().unwrap()[0]);
    }

    /// Only the built-in spec's own text has its jq compiled on another thread: a spec
    /// made of the same expressions, one of them now reading a variable that is gone,
    /// is refused when it loads, with the place, as any other spec.
    #[test]
    fn a_spec_of_builtin_expressions_is_still_compiled_at_load() {
        let text = super::DEFAULT_SPEC.replacen("\n  pod:\n    expr:", "\n  pod2:\n    expr:", 1);
        assert_ne!(text, super::DEFAULT_SPEC);
        let errs = super::Spec::load(&text, "x.yaml").err().expect("refused at load");
        assert!(errs.iter().any(|e| e.message.contains("undefined variable") && e.pos.is_some()), "{errs:?}");
    }
}
