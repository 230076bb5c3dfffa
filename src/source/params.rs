//! Param values for a run: the spec's defaults, a `--params` file, then `--param`s.

use crate::slot::{Slot, Unavailable};
use crate::display::{path as shown, safe};
use crate::spec::{ParamType, Spec};
use serde_json::Value;
use std::path::Path;

#[derive(Debug, Clone)]
pub struct ParamValue {
    pub value: Option<String>,
    /// Given by the user (file or flag), not the spec's default.
    pub explicit: bool,
}

#[derive(Debug, Clone)]
pub struct Params {
    pub values: Vec<ParamValue>,
}

impl Params {
    /// `file` is a YAML mapping of param names to values; relative paths in it are
    /// relative to the file. `flags` are `NAME=VALUE` strings, applied last.
    pub fn resolve(spec: &Spec, file: Option<&Path>, flags: &[String]) -> Result<Params, String> {
        let mut values: Vec<ParamValue> =
            spec.params.iter().map(|p| ParamValue { value: p.default.clone(), explicit: false }).collect();
        if let Some(f) = file {
            let text = crate::input::file::read_lab(f).map_err(|e| format!("cannot read the params file: {}", e.said(&shown(f))))?;
            let map: indexmap::IndexMap<String, serde_yaml::Value> =
                crate::input::yaml::from_str(&text).map_err(|e| format!("{}: not a mapping of param names to values: {e}", shown(f)))?;
            let base = f.parent().unwrap_or(Path::new("."));
            for (name, v) in map {
                let i = known(spec, &name, &shown(f))?;
                let mut text = match v {
                    serde_yaml::Value::String(s) => s,
                    serde_yaml::Value::Number(n) => n.to_string(),
                    serde_yaml::Value::Bool(b) => b.to_string(),
                    _ => return Err(format!("{}: param `{}` must be a plain value", shown(f), safe(&name))),
                };
                if spec.params[i].ty == ParamType::Path && !Path::new(&text).is_absolute() {
                    text = base.join(&text).display().to_string();
                }
                values[i] = ParamValue { value: Some(text), explicit: true };
            }
        }
        for flag in flags {
            let (name, value) = flag
                .split_once('=')
                .ok_or_else(|| format!("--param {}: expected NAME=VALUE", safe(flag)))?;
            let i = known(spec, name.trim(), "--param")?;
            values[i] = ParamValue { value: Some(value.to_string()), explicit: true };
        }
        // A value may name other params, `{admin_port}`: filled in from their values as
        // given, so setting one param moves the defaults that follow it (and a value
        // copied from the spec's default works as it reads).
        let given = values.clone();
        for v in values.iter_mut() {
            if let Some(d) = &mut v.value {
                for name in crate::spec::references(&d.clone()) {
                    let other = spec.param(name).and_then(|j| given[j].value.as_deref()).unwrap_or("");
                    *d = d.replace(&format!("{{{name}}}"), other);
                }
            }
        }
        // Ports first: a bad port is said as such, not as the URL made from it.
        let mut order: Vec<usize> = (0..values.len()).collect();
        order.sort_by_key(|&i| spec.params[i].ty != ParamType::Port);
        for (p, v) in order.into_iter().map(|i| (&spec.params[i], &values[i])) {
            let Some(text) = v.value.as_deref() else { continue };
            let ok = match p.ty {
                ParamType::Port => text.bytes().all(|b| b.is_ascii_digit()) && text.parse::<u16>().is_ok_and(|n| n > 0),
                ParamType::Url => {
                    (text.starts_with("http://") || text.starts_with("https://")) && !text.chars().any(|c| c.is_whitespace() || c.is_control())
                }
                ParamType::String | ParamType::Path => true,
            };
            if !ok {
                let want = if p.ty == ParamType::Port { "a port number, 1 to 65535" } else { "an http:// or https:// URL" };
                return Err(format!("param `{}` must be {want}, not `{}`", p.name, safe(text)));
            }
        }
        Ok(Params { values })
    }

    pub fn get(&self, spec: &Spec, name: &str) -> Option<&str> {
        spec.param(name).and_then(|i| self.values[i].value.as_deref())
    }

    /// The spec's param `i` as its jq variable holds it: text, or why there is none.
    pub fn slot(&self, spec: &Spec, i: usize) -> Slot {
        let p = &spec.params[i];
        match &self.values[i].value {
            Some(v) => Ok(Value::String(v.clone())),
            None => Err(Unavailable::grader(format!("param `{}` has no value (give --param {}=VALUE)", p.name, p.name))),
        }
    }
}

fn known(spec: &Spec, name: &str, origin: &str) -> Result<usize, String> {
    spec.param(name).ok_or_else(|| {
        let names: Vec<&str> = spec.params.iter().map(|p| p.name.as_str()).collect();
        format!("{origin}: the spec has no param `{}` (it has: {})", safe(name), names.join(", "))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_default_follows_the_params_it_names() {
        let spec = Spec::builtin().unwrap();
        let admin = |p: &Params| p.get(&spec, "admin").unwrap().to_string();
        assert_eq!(admin(&Params::resolve(&spec, None, &[]).unwrap()), "http://127.0.0.1:9982");
        assert_eq!(admin(&Params::resolve(&spec, None, &["admin_port=19000".into()]).unwrap()), "http://127.0.0.1:19000");
        // Given outright, it is taken as it is, references filled in.
        let given = Params::resolve(&spec, None, &["admin_port=19000".into(), "admin=http://127.0.0.1:1".into()]).unwrap();
        assert_eq!(admin(&given), "http://127.0.0.1:1");
        let copied = Params::resolve(&spec, None, &["admin_port=19000".into(), "admin=http://localhost:{admin_port}".into()]).unwrap();
        assert_eq!(admin(&copied), "http://localhost:19000");
    }

    #[test]
    fn a_port_is_a_port_and_a_url_a_url() {
        let spec = Spec::builtin().unwrap();
        for bad in ["9982}", " 9982", "9982 ", "99\n82", "0", "65536", "-1", "80@evil.example", ""] {
            let e = Params::resolve(&spec, None, &[format!("admin_port={bad}")]).unwrap_err();
            assert!(e.starts_with("param `admin_port` must be a port number"), "{bad:?}: {e}");
        }
        assert!(Params::resolve(&spec, None, &["admin=127.0.0.1:9982".into()]).unwrap_err().contains("URL"));
    }
}
