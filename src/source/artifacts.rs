//! The submission's files, each read once and parsed as the spec says.

use crate::input::{self, kv::KvFile, near_name::Near, FileProblem};
use crate::lang::{files::Files, t, tr};
use crate::slot::Unavailable;
use crate::spec::{Format, Spec};
use serde_json::Value;
use std::collections::HashMap;
use std::path::Path;

/// Every file of the submission the spec names, by name.
pub fn load_all(spec: &Spec, dir: &Path) -> HashMap<String, Artifact> {
    let mut artifacts = HashMap::new();
    load(spec, dir, &mut artifacts, |_| true);
    artifacts
}

/// The files of the submission the spec names that `pick` picks, loaded into
/// `artifacts` unless there already.
pub fn load(spec: &Spec, dir: &Path, artifacts: &mut HashMap<String, Artifact>, pick: impl Fn(&str) -> bool) {
    let files = spec.files();
    for f in &files {
        if !pick(f) || artifacts.contains_key(f) {
            continue;
        }
        let mut a = Artifact::load(dir, f, spec.file_format(f), spec.proto_names(f));
        if a.is_missing() {
            a.near = input::near_name::find(dir, f, &files);
        }
        artifacts.insert(f.clone(), a);
    }
    mark_copies(spec, artifacts);
}

/// Each file whose text does not read as data for the same reason as a file of an
/// earlier step (the same YAML mistake at the same place) copies that file, as the lab
/// has boot-typo.yaml copy bootstrap.yaml: the mistake is charged there, once.
fn mark_copies(spec: &Spec, artifacts: &mut HashMap<String, Artifact>) {
    let broken: Vec<(&str, u32, Format, String, Option<&Value>)> = artifacts
        .values()
        .filter_map(|a| Some((a.name.as_str(), spec.first_step(&a.name)?, a.format, a.data_mistake()?, a.list.as_ref())))
        .collect();
    let marks: Vec<(String, String)> = broken
        .iter()
        .filter_map(|(file, step, format, why, list)| {
            let by = broken.iter().filter(|(_, s, f, w, l)| s < step && f == format && w == why && same_but_one(*l, *list)).min_by_key(|(_, s, ..)| *s)?;
            Some((file.to_string(), by.0.to_string()))
        })
        .collect();
    for a in artifacts.values_mut() {
        a.copies = marks.iter().find(|(f, _)| *f == a.name).map(|(_, by)| by.clone());
    }
}

/// Two mistakes alike are a copy's: at the same place (no data to compare), or a list
/// where a config is one (an Envoy config under a leading `- `) that one value tells
/// apart, as the lab's one change does (none would be a second mistake: the change not
/// made).
fn same_but_one(a: Option<&Value>, b: Option<&Value>) -> bool {
    match (a, b) {
        (None, None) => true,
        (Some(a), Some(b)) => differences(a, b) == 1,
        _ => false,
    }
}

/// Scalars that differ between two values of one shape; of another shape, many.
fn differences(a: &Value, b: &Value) -> usize {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) if x.len() == y.len() && x.keys().all(|k| y.contains_key(k)) => {
            x.iter().map(|(k, v)| differences(v, &y[k])).fold(0, usize::saturating_add)
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => x.iter().zip(y).map(|(v, w)| differences(v, w)).fold(0, usize::saturating_add),
        (Value::Object(_) | Value::Array(_), _) | (_, Value::Object(_) | Value::Array(_)) => usize::MAX,
        (x, y) => usize::from(x != y),
    }
}

/// The files of step `n`, if every one is missing and none is there under a near name
/// (which is a slip to point at, not a step not started): the step is not started.
/// Else none.
pub fn not_started(spec: &Spec, n: u32, artifacts: &HashMap<String, Artifact>) -> Vec<String> {
    let mut files: Vec<String> = Vec::new();
    for c in spec.checks.iter().filter(|c| c.step == n) {
        if !files.contains(&c.file) {
            files.push(c.file.clone());
        }
    }
    let absent = |f: &String| artifacts.get(f).is_some_and(|a| a.is_missing() && a.near().is_none());
    if files.iter().all(absent) { files } else { Vec::new() }
}

pub struct Artifact {
    pub name: String,
    pub format: Format,
    text: Result<String, FileProblem>,
    data: Option<Result<Value, String>>,
    kv: Option<KvFile>,
    /// The data in jaq's form, made once when first needed.
    jaq: std::sync::OnceLock<jaq_json::Val>,
    /// A missing file's slip: the file under a near name.
    near: Option<Near>,
    /// The file of an earlier step this one copies, mistake and all: both are text
    /// that does not read as data, for the same reason (see [`mark_copies`]).
    pub copies: Option<String>,
    /// An Envoy config that reads as a list, not as fields: what it holds, to tell a
    /// copy of it (see [`mark_copies`]).
    list: Option<Value>,
    /// A field set under both of its spellings (see `use_proto_names`): a mistake a
    /// copy keeps, as a parse error is.
    spelt_twice: bool,
}

impl Artifact {
    /// A submission file; `proto`: an Envoy config, read as Envoy reads it (see
    /// `use_proto_names`).
    pub fn load(dir: &Path, name: &str, format: Format, proto: bool) -> Artifact {
        let mut a = Artifact::from(name, format, input::file::read_submission(dir, name), proto);
        if proto {
            a.use_proto_names();
        }
        a
    }

    /// The same file with other text, for the checks that read text (see
    /// check::look_alike). A YAML or JSON file is not parsed again: those checks never
    /// look at its data, and a hostile 1 MiB file would be parsed once per line tried.
    /// Read its data with protobuf's field names (see `input::proto_names`).
    fn use_proto_names(&mut self) {
        if let Some(Ok(v)) = &mut self.data
            && let Err((one, other)) = input::proto_names::rename(v)
        {
            self.data = Some(Err(t!(Files::TwoSpellings, file = self.name, one = one, other = other)));
            self.spelt_twice = true;
        }
    }

    pub fn with_text(&self, text: String) -> Artifact {
        if matches!(self.format, Format::Yaml | Format::YamlStream | Format::Json) {
            let data = Some(Err(format!("{} was not parsed again", self.name)));
            return Artifact { name: self.name.clone(), format: self.format, text: Ok(text), data, kv: None, jaq: Default::default(), near: None, copies: None, list: None, spelt_twice: false };
        }
        Artifact::from(&self.name, self.format, Ok(text), false)
    }

    /// `proto`: an Envoy config, read as Envoy reads it (its first document; a key said
    /// twice, the last one).
    fn from(name: &str, format: Format, text: Result<String, FileProblem>, proto: bool) -> Artifact {
        // Lines that end in a CR alone (an old Mac editor's) are lines all the same.
        let text = text.map(|t| if t.contains('\r') && !t.contains('\n') { t.replace('\r', "\n") } else { t });
        let invalid = |e: String| t!(Files::NotValid, file = name, format = format_name(format), error = e);
        let structured = |v: Value| structured(v).map_err(|what| t!(Files::SingleValue, file = name, format = format_name(format), what = what));
        let mut list = None;
        let (data, kv) = match &text {
            Err(_) => (None, None),
            Ok(t) => match format {
                Format::Yaml if proto => {
                    let doc = input::yaml::parse_envoy_doc(t).map_err(invalid).and_then(structured);
                    list = doc.as_ref().ok().filter(|v| v.is_array()).cloned();
                    (Some(doc.and_then(|v| fields(name, v))), None)
                }
                Format::Yaml => (Some(input::yaml::parse_doc(t).map_err(invalid).and_then(structured)), None),
                Format::YamlStream => (Some(input::yaml::parse_stream(t).map(Value::Array).map_err(invalid)), None),
                Format::Json => (Some(input::json::parse(t).map_err(|e| yaml_not_json(name, t).unwrap_or_else(|| invalid(e))).and_then(structured)), None),
                Format::Kv => {
                    let kv = KvFile::parse(t);
                    (Some(Ok(kv.to_value())), Some(kv))
                }
                Format::Text => (Some(Ok(Value::String(t.clone()))), Some(KvFile::parse(t))),
            },
        };
        Artifact { name: name.to_string(), format, text, data, kv, jaq: Default::default(), near: None, copies: None, list, spelt_twice: false }
    }

    /// The name it was saved under instead, when it is missing.
    pub fn near(&self) -> Option<&Near> {
        self.near.as_ref()
    }

    /// The file is not there under its name (it may be under a near one).
    pub fn is_missing(&self) -> bool {
        matches!(self.text, Err(FileProblem::Missing))
    }

    /// The file's text, or a sentence saying why there is none.
    pub fn text(&self) -> Result<&str, String> {
        self.text.as_deref().map_err(|p| match (p, &self.near) {
            (FileProblem::Missing, Some(Near::Here(near))) => t!(Files::NearName, file = self.name, near = near),
            (FileProblem::Missing, Some(Near::FolderDown(near))) => t!(Files::FolderDown, file = self.name, near = near),
            _ => p.said(&self.name),
        })
    }

    /// Why its text does not read as data, without its name: a YAML or JSON mistake at
    /// a place (`at line 5 column 2`), which two files share only by copying, or a list
    /// (which [`mark_copies`] compares). Other mistakes with no place (a file of
    /// comments only) any two files may share.
    fn data_mistake(&self) -> Option<String> {
        match (&self.text, &self.data) {
            (Ok(_), Some(Err(e))) if e.contains(" at line ") || self.list.is_some() || self.spelt_twice => Some(e.replacen(&self.name, "", 1)),
            _ => None,
        }
    }

    /// `u`, a mistake of this file's, also said to be the file's it copies, if it copies
    /// one (`copies`): charged where it was first made (see grade/charge.rs).
    pub fn copied(&self, u: Unavailable) -> Unavailable {
        self.copies.iter().fold(u, |u, by| u.of_file(by))
    }

    /// The file as data, or a sentence saying why it is not.
    pub fn data(&self) -> Result<&Value, String> {
        self.text()?;
        match &self.data {
            Some(Ok(v)) => Ok(v),
            Some(Err(e)) => Err(e.clone()),
            None => Err(t!(Files::CouldNotRead, file = self.name)),
        }
    }

    /// The data as jaq reads it (cheap to clone).
    pub fn jaq_data(&self) -> Result<jaq_json::Val, String> {
        let data = self.data()?;
        Ok(self.jaq.get_or_init(|| crate::jq::convert::to_jaq(data)).clone())
    }

    /// The file as `key=value` lines (text files only).
    pub fn kv(&self) -> Result<&KvFile, String> {
        self.text()?;
        self.kv.as_ref().ok_or_else(|| t!(Files::NotKv, file = self.name, format = format_name(self.format)))
    }

    pub fn has_data_format(&self) -> bool {
        matches!(self.format, Format::Yaml | Format::YamlStream | Format::Json)
    }
}

/// A YAML or JSON artifact is fields or a list; a lone `null` (a file of comments) or
/// string would only make every check of it fail with a baffling path error.
fn structured(v: Value) -> Result<Value, &'static str> {
    Err(tr(match &v {
        Value::Object(_) | Value::Array(_) => return Ok(v),
        Value::Null => Files::CommentsOnly,
        Value::Bool(_) => Files::ABoolean,
        Value::Number(_) => Files::ANumber,
        Value::String(_) => Files::AString,
    }))
}

/// An Envoy config is one message: fields, never a list (which would otherwise reach
/// each check as jq's "cannot index an array").
fn fields(name: &str, v: Value) -> Result<Value, String> {
    match v {
        Value::Array(_) => Err(t!(Files::ListNotFields, file = name)),
        v => Ok(v),
    }
}

/// A JSON file that is not JSON but YAML fields or a list (what yq prints): said so, not
/// as JSON's "expected value at line 1". Text that starts as JSON does is JSON gone wrong.
fn yaml_not_json(name: &str, text: &str) -> Option<String> {
    let starts_as_json = text.trim_start().starts_with(['{', '[']);
    let yaml = input::yaml::parse_doc(text).ok()?;
    (!starts_as_json && (yaml.is_object() || yaml.is_array())).then(|| t!(Files::YamlNotJson, file = name))
}

fn format_name(f: Format) -> &'static str {
    match f {
        Format::Yaml => tr(Files::Yaml),
        Format::YamlStream => tr(Files::YamlStream),
        Format::Json => tr(Files::Json),
        Format::Kv => tr(Files::Kv),
        Format::Text => tr(Files::Text),
    }
}

#[cfg(test)]
mod tests {
    use super::{differences, same_but_one};
    use serde_json::json;

    #[test]
    fn a_copy_differs_in_one_value_at_most() {
        let a = json!([{"admin": {"port": 1}, "ads": {"cluster_name": "xds-grpc"}}]);
        let b = json!([{"admin": {"port": 1}, "ads": {"cluster_name": "istiod-xds"}}]);
        assert_eq!(differences(&a, &a), 0);
        assert_eq!(differences(&a, &b), 1);
        assert!(same_but_one(Some(&a), Some(&b)));
        // The change not made is a mistake of its own.
        assert!(!same_but_one(Some(&a), Some(&a)));
        let c = json!([{"admin": {"port": 2}, "ads": {"cluster_name": "istiod-xds"}}]);
        assert!(!same_but_one(Some(&a), Some(&c)));
        // Another shape: a key more, or a list of another length.
        assert_eq!(differences(&a, &json!([{"admin": {"port": 1}}])), usize::MAX);
        assert_eq!(differences(&a, &json!([])), usize::MAX);
        assert_eq!(differences(&json!({"a": [1]}), &json!({"a": 1})), usize::MAX);
        // A mistake at a place has no data: alike only with another such.
        assert!(same_but_one(None, None));
        assert!(!same_but_one(None, Some(&a)));
    }
}
