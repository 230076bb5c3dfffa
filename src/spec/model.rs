//! The check spec as written in YAML: what a lab declares, before anything is compiled.

use indexmap::IndexMap;
use serde::Deserialize;
use std::collections::BTreeMap;

/// A whole spec file (`checks/<lab>.yaml`).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpecFile {
    /// Short lab id, e.g. `ist2-boot`.
    pub lab: String,
    /// The lab's title, as students know it.
    pub title: String,
    /// Submission directory used when none is given on the command line.
    #[serde(default)]
    pub submission: Option<String>,
    /// Language code -> the file, beside the spec, of its texts in that language
    /// (`spec/translate.rs`).
    #[serde(default)]
    pub translations: BTreeMap<String, String>,
    /// Step number -> what the step is about (0 is the set-up artifact).
    pub steps: BTreeMap<u32, String>,
    #[serde(default)]
    pub params: IndexMap<String, ParamDef>,
    /// jq definitions available to every expression of the spec.
    #[serde(default)]
    pub defs: String,
    #[serde(default)]
    pub sources: IndexMap<String, SourceDef>,
    /// Derived values, evaluated in order; each may use params, sources and earlier ones.
    #[serde(default, rename = "let")]
    pub lets: IndexMap<String, LetDef>,
    pub checks: Vec<CheckDef>,
    #[serde(default)] pub envoy: Option<super::envoy::EnvoyDef>, // what Envoy is for this lab: spec/envoy.rs
}

#[derive(Debug, Deserialize, Clone, Copy, PartialEq, Eq, Default)]
#[serde(rename_all = "snake_case")]
pub enum ParamType {
    #[default]
    String,
    /// A lab file; relative paths in a `--params` file are relative to that file.
    Path,
    Url,
    /// A TCP port number, 1 to 65535; anything else is refused before grading.
    Port,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ParamDef {
    #[serde(default)]
    pub default: Option<String>,
    #[serde(default, rename = "type")]
    pub ty: ParamType,
    /// For a path: when the default file is absent, checks that need it are skipped.
    #[serde(default)]
    pub optional: bool,
    #[serde(default)]
    pub doc: String,
}

/// How a file's bytes become a value.
#[derive(Debug, Deserialize, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum Format {
    /// One YAML (or JSON) document.
    Yaml,
    /// Several YAML documents, as an array; empty documents are dropped.
    YamlStream,
    Json,
    /// `key=value` lines, as an object of strings.
    Kv,
    /// The text itself, as a string.
    Text,
}

/// One named input. Exactly one of `file`, `param`, `envoy_validate`, `envoy_admin` is set.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SourceDef {
    /// A file of the submission, by name.
    #[serde(default)]
    pub file: Option<String>,
    /// A lab file whose path is the value of this param.
    #[serde(default)]
    pub param: Option<String>,
    /// The result of `envoy --mode validate` on this submission file.
    #[serde(default)]
    pub envoy_validate: Option<String>,
    /// What a live Envoy's admin API shows; the value names the bootstrap file it must run.
    #[serde(default)]
    pub envoy_admin: Option<String>,
    /// With `envoy_admin`: the param holding the admin URL to probe.
    #[serde(default)]
    pub admin: Option<String>,
    #[serde(default)]
    pub format: Option<Format>,
    /// With `file`: the file is protobuf's JSON or YAML (an Envoy config), whose fields
    /// may be spelt in lowerCamelCase as well as with their proto names: read as the
    /// proto names (`portValue` as `port_value`), so checks name each field once.
    #[serde(default)]
    pub proto_names: bool,
    #[serde(default)]
    pub doc: String,
}

/// Who is to blame when a derived value cannot be computed.
#[derive(Debug, Deserialize, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum BlameDef {
    /// The submission is wrong: dependent checks fail.
    Submission,
    /// The grader could not find out: dependent checks are errors ("could not check").
    Grader,
    /// The submission is why the let gives nothing, and another check charges it
    /// (`missing` names it): dependent checks are not graded (`skip`). An input it reads
    /// that cannot be had keeps its own blame.
    Elsewhere,
}

#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub enum LetDef {
    Expr(String),
    Full(LetFull),
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LetFull {
    pub expr: String,
    /// Said when the expression gives no value.
    #[serde(default)]
    pub missing: Option<String>,
    #[serde(default)]
    pub blame: Option<BlameDef>,
    /// Variables it reads that this run skips (an optional lab file absent, `--no-envoy`)
    /// are read as null, so it has a value all the same.
    #[serde(default)]
    pub skipped_as_null: bool,
    /// These variables it reads, when they have no value (a run's skip, a lab file the
    /// grader cannot read, a value the lab's files lack, a submission file missing), are
    /// read as null: the let takes another candidate. If it then has none, it is missing
    /// for the reason they are.
    #[serde(default)]
    pub unknown_as_null: Vec<String>,
}

impl LetDef {
    pub fn expr(&self) -> &str {
        match self {
            LetDef::Expr(e) => e,
            LetDef::Full(f) => &f.expr,
        }
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExplainDef {
    /// jq predicate over `$found` and `$expected` (and every spec variable).
    #[serde(rename = "if")]
    pub when: String,
    pub say: String,
    /// Said instead of the check's `why` and any slip: for when they would be untrue
    /// or give the answer away (`Yes` for `yes` is no wrong answer, and "differs only in
    /// case" tells which one is right).
    #[serde(default)]
    pub instead: bool,
}

/// One check: the fields every check has, and those of its kind, which the kind reads
/// (see `check::kinds`).
#[derive(Debug, Deserialize)]
pub struct CheckDef {
    pub id: String,
    pub step: u32,
    pub title: String,
    /// The name of a kind in `check::kinds`.
    pub kind: String,
    pub file: String,
    #[serde(default)]
    pub hint: Option<String>,
    #[serde(default)]
    pub points: Option<u32>,
    /// The expected value never appears in student-facing output.
    #[serde(default)]
    pub hidden: bool,
    /// Where, in words, when the file name and key are not enough.
    #[serde(default, rename = "where")]
    pub location: Option<String>,
    /// The sentence a failure gives when the file holds a value, but not the one wanted
    /// (in place of the generic "not the expected value").
    #[serde(default)]
    pub why: Option<String>,
    /// What a wrong value found means, in words, said in place of the value when that is
    /// not the student's own text (a boolean, a type, a count); `{found}` is the value.
    #[serde(default)]
    pub found: Option<String>,
    #[serde(default)]
    pub explain: Vec<ExplainDef>,
    /// A jq expression over variables the check is graded with besides its kind's: when
    /// one of them is not graded (skipped, or a mistake another check charges), neither
    /// is the check.
    #[serde(default)]
    pub needs: Option<String>,
    /// The kind's own fields, by name, as written.
    #[serde(flatten)]
    pub fields: IndexMap<String, serde_yaml::Value>,
}

/// The fields every check has, whatever its kind.
pub const COMMON_FIELDS: &[&str] = &["id", "step", "title", "kind", "file", "hint", "points", "hidden", "where", "why", "explain", "needs"];
