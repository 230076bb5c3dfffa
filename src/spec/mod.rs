//! A check spec, loaded and compiled: every jq expression is compiled and every regex
//! checked here, before any input is read, and every mistake is reported with its place
//! in the spec.

mod compile;
pub mod envoy;
pub mod fields;
pub mod model;
pub mod needs;
pub mod pattern;
pub mod position;
pub mod translate;

pub use model::{Format, ParamType};

use crate::jq::{ExprId, Program};
pub use pattern::Pattern;
use std::collections::BTreeMap;
use std::fmt;

/// The spec built into the binary: the ist2-boot lab.
pub const DEFAULT_SPEC: &str = include_str!("../../checks/ist2-boot.yaml");
pub const DEFAULT_SPEC_NAME: &str = "checks/ist2-boot.yaml";

pub struct Spec {
    pub lab: String,
    pub title: String,
    pub default_submission: Option<String>,
    /// Language code -> translation file (see `translate.rs`).
    pub translations: BTreeMap<String, String>,
    pub steps: BTreeMap<u32, String>,
    pub params: Vec<Param>,
    pub sources: Vec<Source>,
    pub lets: Vec<Let>,
    pub checks: Vec<Check>,
    pub program: Program,
    /// Submission files read with protobuf's field names (sources' `proto_names`).
    pub proto_files: Vec<String>,
    /// The `envoy:` section, when the spec has one (`envoy.rs`).
    pub envoy: Option<envoy::Envoy>,
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
    pub unknown_as_null: Vec<String>,
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
    /// Said in place of a wrong value that is not the student's text.
    pub found: Option<String>,
    pub file: String,
    /// How the file reads as data, when it does.
    pub format: Format,
    /// What the check's kind decides, compiled from its fields (see `check::kinds`).
    pub kind: Box<dyn crate::check::Kind>,
    pub explain: Vec<Explain>,
    /// The spec's `needs`: variables the check is graded with besides its kind's.
    pub also_needs: Option<ExprId>,
}

impl Check {
    /// The expressions the verdict needs: its kind's, and the spec's `needs`.
    pub fn needs(&self) -> Vec<ExprId> {
        let mut ids = self.kind.needs();
        ids.extend(self.also_needs);
        ids
    }
}

pub struct Explain {
    pub when: ExprId,
    pub say: String,
    /// Said instead of the `why` and the slip (see `model::ExplainDef`).
    pub instead: bool,
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

impl Spec {
    /// Parse and compile a spec: every expression and regex compiled now, before any
    /// input is read; `name` is how errors refer to the file.
    pub fn load(text: &str, name: &str) -> Result<Spec, Vec<SpecError>> {
        compile::compile(text, name)
    }

    /// The built-in spec.
    pub fn builtin() -> Result<Spec, Vec<SpecError>> {
        compile::compile_builtin(DEFAULT_SPEC, DEFAULT_SPEC_NAME)
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

    /// Whether a submission file is read with protobuf's field names (a source's
    /// `proto_names`).
    pub fn proto_names(&self, name: &str) -> bool {
        self.proto_files.iter().any(|f| f == name)
    }

    /// The first step whose checks read the submission file `name`, if one does.
    pub fn first_step(&self, name: &str) -> Option<u32> {
        self.checks.iter().filter(|c| c.file == name).map(|c| c.step).min()
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
    fn the_builtin_spec_loads() {
        let spec = super::Spec::builtin();
        assert!(spec.is_ok(), "{}", spec.err().unwrap()[0]);
    }

    /// The built-in spec is read without the bounds on a spec file's YAML: it must
    /// keep within them all the same.
    #[test]
    fn the_builtin_spec_keeps_within_a_spec_files_bounds() {
        let read = crate::input::yaml::from_str::<serde_yaml::Value>(super::DEFAULT_SPEC);
        assert!(read.is_ok(), "{}", read.err().unwrap());
        assert!(super::Spec::load(super::DEFAULT_SPEC, super::DEFAULT_SPEC_NAME).is_ok());
    }

    /// A spec made of the built-in's expressions, one of them now reading a variable
    /// that is gone, is refused when it loads, with the place.
    #[test]
    fn a_spec_of_builtin_expressions_is_compiled_at_load() {
        let text = super::DEFAULT_SPEC.replacen("\n  pod:\n    expr:", "\n  pod2:\n    expr:", 1);
        assert_ne!(text, super::DEFAULT_SPEC);
        let errs = super::Spec::load(&text, "x.yaml").err().expect("refused at load");
        assert!(errs.iter().any(|e| e.message.contains("undefined variable") && e.pos.is_some()), "{errs:?}");
    }
}
