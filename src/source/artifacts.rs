//! The submission's files, each read once and parsed as the spec says.

use crate::input::{self, kv::KvFile, FileProblem};
use crate::spec::{Format, Spec};
use serde_json::Value;
use std::collections::HashMap;
use std::path::Path;

/// Every file of the submission the spec names, by name.
pub fn load_all(spec: &Spec, dir: &Path) -> HashMap<String, Artifact> {
    spec
        .files()
        .into_iter()
        .map(|f| {
            let a = Artifact::load(dir, &f, spec.file_format(&f));
            (f, a)
        })
        .collect()
}

pub struct Artifact {
    pub name: String,
    pub format: Format,
    text: Result<String, FileProblem>,
    data: Option<Result<Value, String>>,
    kv: Option<KvFile>,
    /// The data in jaq's form, made once when first needed.
    jaq: std::sync::OnceLock<jaq_json::Val>,
}

impl Artifact {
    pub fn load(dir: &Path, name: &str, format: Format) -> Artifact {
        Artifact::from(name, format, input::file::read_submission(dir, name))
    }

    /// The same file with other text, for the checks that read text (see
    /// check::look_alike). A YAML or JSON file is not parsed again: those checks never
    /// look at its data, and a hostile 1 MiB file would be parsed once per line tried.
    pub fn with_text(&self, text: String) -> Artifact {
        if matches!(self.format, Format::Yaml | Format::YamlStream | Format::Json) {
            let data = Some(Err(format!("{} was not parsed again", self.name)));
            return Artifact { name: self.name.clone(), format: self.format, text: Ok(text), data, kv: None, jaq: Default::default() };
        }
        Artifact::from(&self.name, self.format, Ok(text))
    }

    fn from(name: &str, format: Format, text: Result<String, FileProblem>) -> Artifact {
        let invalid = |e: String| format!("{name} is not valid {}: {e}", format_name(format));
        let structured = |v: Value| structured(v).map_err(|what| format!("{name} reads as {} but holds {what}", format_name(format)));
        let (data, kv) = match &text {
            Err(_) => (None, None),
            Ok(t) => match format {
                Format::Yaml => (Some(input::yaml::parse_doc(t).map_err(invalid).and_then(structured)), None),
                Format::YamlStream => (Some(input::yaml::parse_stream(t).map(Value::Array).map_err(invalid)), None),
                Format::Json => (Some(input::json::parse(t).map_err(invalid).and_then(structured)), None),
                Format::Kv => {
                    let kv = KvFile::parse(t);
                    (Some(Ok(kv.to_value())), Some(kv))
                }
                Format::Text => (Some(Ok(Value::String(t.clone()))), Some(KvFile::parse(t))),
            },
        };
        Artifact { name: name.to_string(), format, text, data, kv, jaq: Default::default() }
    }

    /// The file's text, or a sentence saying why there is none.
    pub fn text(&self) -> Result<&str, String> {
        self.text.as_deref().map_err(|p| format!("{} {p}", self.name))
    }

    /// The file as data, or a sentence saying why it is not.
    pub fn data(&self) -> Result<&Value, String> {
        self.text()?;
        match &self.data {
            Some(Ok(v)) => Ok(v),
            Some(Err(e)) => Err(e.clone()),
            None => Err(format!("{} could not be read", self.name)),
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
        self.kv.as_ref().ok_or_else(|| format!("{} is {}, not key=value text", self.name, format_name(self.format)))
    }

    pub fn has_data_format(&self) -> bool {
        matches!(self.format, Format::Yaml | Format::YamlStream | Format::Json)
    }
}

/// A YAML or JSON artifact is fields or a list; a lone `null` (a file of comments) or
/// string would only make every check of it fail with a baffling path error.
fn structured(v: Value) -> Result<Value, String> {
    let what = match &v {
        Value::Object(_) | Value::Array(_) => return Ok(v),
        Value::Null => "null, as a file of only comments does",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
    };
    Err(format!("a single value ({what}), not fields or a list"))
}

fn format_name(f: Format) -> &'static str {
    match f {
        Format::Yaml => "YAML",
        Format::YamlStream => "multi-document YAML",
        Format::Json => "JSON",
        Format::Kv => "key=value text",
        Format::Text => "text",
    }
}
