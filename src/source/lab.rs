//! Lab files named by params: the lab environment's own files, read once a run.

use super::params::Params;
use crate::slot::{Slot, Unavailable};
use crate::input::file::read_lab;
use crate::lang::{run::Run, t};
use crate::spec::{Format, SourceKind, Spec};
use serde_json::Value;
use std::collections::HashMap;
use std::path::Path;

/// Every `lab` source of the spec by name, converted to jaq's form once: the same
/// value serves every submission of the run.
pub fn read_all(spec: &Spec, params: &Params) -> HashMap<String, Result<jaq_json::Val, Unavailable>> {
    spec
        .sources
        .iter()
        .filter_map(|s| match &s.kind {
            SourceKind::Lab { param, format } => {
                let slot = read(spec, params, *param, *format);
                Some((s.name.clone(), slot.map(|v| crate::jq::convert::to_jaq(&v))))
            }
            _ => None,
        })
        .collect()
}

/// Read and parse a lab file named by a param.
fn read(spec: &Spec, params: &Params, param: usize, format: Format) -> Slot {
    let p = &spec.params[param];
    let value = &params.values[param];
    let Some(path) = value.value.as_deref() else {
        return Err(if p.optional {
            Unavailable::skip(t!(Run::ParamNotGiven, param = p.name))
        } else {
            Unavailable::grader(t!(Run::ParamNoValue, param = p.name))
        });
    };
    let shown = crate::display::path(Path::new(path));
    let text = match read_lab(Path::new(path)) {
        Ok(t) => t,
        Err(crate::input::FileProblem::Missing) if p.optional && !value.explicit => {
            return Err(Unavailable::skip(t!(Run::LabFileAbsent, param = p.name, path = shown)));
        }
        Err(problem) => {
            return Err(Unavailable::grader(problem.said(&t!(Run::LabFileName, param = p.name, path = shown))));
        }
    };
    let parsed = match format {
        Format::Yaml => crate::input::yaml::parse_doc(&text),
        Format::YamlStream => crate::input::yaml::parse_stream(&text).map(Value::Array),
        Format::Json => crate::input::json::parse(&text),
        Format::Kv => Ok(crate::input::kv::KvFile::parse(&text).to_value()),
        Format::Text => Ok(Value::String(text)),
    };
    parsed.map_err(|e| Unavailable::grader(t!(Run::LabFileParse, param = p.name, path = shown, error = e)))
}
