//! Edits of bootstrap.yaml and boot-typo.yaml, and what a student makes from them next:
//! 04/05 from the real Envoy, 06-node.json from the node.

use super::ops::*;
use super::paths::*;
use serde_yaml::Value as Y;

impl Sub<'_> {

    pub fn yaml_op(&mut self, f: &str, b: B) -> R<()> {
        let text = self.text(f)?;
        if let B::Text(t) = b {
            let new = self.text_op(f, text.as_bytes(), t)?;
            self.put(f, new);
            return Ok(());
        }
        let mut doc = parse_yaml(&text)?;
        match b {
            B::Set(p, y) => {
                let v = self.yaml(y)?;
                *slot(&mut doc, p, true)? = v
            }
            B::Del(p) => {
                let (parent, last) = split_path(p);
                let m = slot(&mut doc, &parent, false)?;
                remove(m, &last)?;
            }
            B::Map(p, v) => {
                let s = slot(&mut doc, p, false)?;
                let old = scalar(s);
                let new = self.value(v, &old, None)?;
                *s = match (&*s, new.parse::<u64>()) {
                    (Y::Number(_), Ok(n)) => Y::Number(n.into()),
                    _ => Y::String(new),
                };
            }
            B::Str(p) => {
                let s = slot(&mut doc, p, false)?;
                *s = Y::String(scalar(s));
            }
            B::Rename(p, new) => {
                let (parent, last) = split_path(p);
                let m = slot(&mut doc, &parent, false)?.as_mapping_mut().ok_or(format!("{parent} is not a mapping"))?;
                if !m.contains_key(last.as_str()) {
                    return Err(format!("{p} is not there"));
                }
                *m = m.iter().map(|(k, v)| (if k.as_str() == Some(last.as_str()) { Y::String(new.into()) } else { k.clone() }, v.clone())).collect();
            }
            B::Push(p, y) => {
                let item = self.yaml(y)?;
                slot(&mut doc, p, false)?.as_sequence_mut().ok_or(format!("{p} is not a list"))?.push(item)
            }
            B::Dup(p) => {
                let (parent, last) = split_path(p);
                let i: usize = last.parse().map_err(|_| format!("{p} is not a list item"))?;
                let list = slot(&mut doc, &parent, false)?.as_sequence_mut().ok_or(format!("{parent} is not a list"))?;
                let item = list.get(i).cloned().ok_or(format!("no {p}"))?;
                list.insert(i + 1, item);
            }
            B::Unlist(p) => {
                let s = slot(&mut doc, p, false)?;
                let one = match s.as_sequence() {
                    Some(items) if items.len() == 1 => items[0].clone(),
                    _ => return Err(format!("{p} is not a list of one")),
                };
                *s = one;
            }
            B::Inline(p) => {
                let s = slot(&mut doc, p, false)?;
                let one = match s.as_mapping() {
                    Some(m) if m.len() == 1 => m.values().next().cloned().unwrap_or(Y::Null),
                    _ => return Err(format!("{p} is not a mapping of one key")),
                };
                *s = one;
            }
            B::Merge(p, y) => {
                let m = if p.is_empty() { &mut doc } else { slot(&mut doc, p, true)? };
                let Y::Mapping(add) = self.yaml(y)? else { return Err("Merge takes a mapping".into()) };
                let m = m.as_mapping_mut().ok_or(format!("{p} is not a mapping"))?;
                for (k, v) in add {
                    m.insert(k, v);
                }
            }
            B::Id(i, v) => self.map_id(&mut doc, |ids| {
                let f = ids.get_mut(i).ok_or("no such field")?;
                *f = self.value(v, f, None)?;
                Ok(())
            })?,
            B::IdSwap(i, j) => self.map_id(&mut doc, |ids| {
                ids.swap(i, j);
                Ok(())
            })?,
            B::IdDrop(i) => self.map_id(&mut doc, |ids| {
                ids.remove(i);
                Ok(())
            })?,
            B::H2(h) => http2(slot(&mut doc, "@c", false)?, h)?,
            B::Json => {
                self.put(f, serde_json::to_string_pretty(&to_json(&doc)?).unwrap() + "\n");
                return Ok(());
            }
            B::JsonCompact => {
                self.put(f, serde_json::to_string(&to_json(&doc)?).unwrap());
                return Ok(());
            }
            B::Reverse => reverse_keys(&mut doc),
            B::Reserialize => {}
            B::Text(_) => unreachable!(),
        }
        self.put(f, serde_yaml::to_string(&doc).map_err(|e| e.to_string())?);
        Ok(())
    }

    /// A YAML snippet, `{xds}` and `{typo}` standing for the lab's cluster names.
    pub fn yaml(&self, y: &str) -> R<Y> {
        yaml(&y.replace("{xds}", self.ctx.get(C::Xds)).replace("{typo}", self.ctx.get(C::Typo)))
    }

    pub fn map_id(&self, doc: &mut Y, f: impl FnOnce(&mut Vec<String>) -> R<()>) -> R<()> {
        let id = slot(doc, "node/id", false)?;
        let mut ids: Vec<String> = scalar(id).split('~').map(String::from).collect();
        f(&mut ids)?;
        *id = Y::String(ids.join("~"));
        Ok(())
    }

    /// What a student following the lab makes next: 04/05 from the real Envoy, run in
    /// the submission's directory, and 06-node.json from the bootstrap's node as
    /// `jq '.configs[0].bootstrap.node | {id, cluster, metadata}'` prints it.
    pub fn follow(&mut self, boot: bool, typo: bool) -> R<()> {
        if boot {
            let out = self.validate(BOOT)?;
            self.put(VAL, out);
            let node = node_of(&self.text(BOOT)?)?;
            let kept = serde_json::from_slice::<serde_json::Value>(self.files.get(NODE).map(Vec::as_slice).unwrap_or(b"null")).ok();
            if kept.as_ref() != Some(&node) {
                self.put(NODE, serde_json::to_string_pretty(&node).unwrap() + "\n");
            }
        }
        if typo {
            let out = self.validate(TYPO)?;
            self.put(TYPO_TXT, out);
        }
        Ok(())
    }

    /// `envoy --mode validate -c FILE >OUT 2>&1; echo "rc=$?" >>OUT`, in the submission's directory.
    pub fn validate(&self, f: &str) -> R<Vec<u8>> {
        std::fs::write(self.dir.join(f), &self.files[f]).map_err(|e| e.to_string())?;
        let out = self.dir.join(format!(".{f}.out"));
        let file = std::fs::File::create(&out).map_err(|e| e.to_string())?;
        let status = std::process::Command::new(&self.ctx.envoy)
            .args(["--mode", "validate", "-c", f])
            .current_dir(self.dir)
            .stdin(std::process::Stdio::null())
            .stdout(file.try_clone().unwrap())
            .stderr(file)
            .status()
            .map_err(|e| e.to_string())?;
        let mut text = std::fs::read(&out).map_err(|e| e.to_string())?;
        std::fs::remove_file(&out).ok();
        text.extend(format!("rc={}\n", status.code().unwrap_or(-1)).into_bytes());
        Ok(text)
    }



    pub fn node_op(&mut self, n: N) -> R<()> {
        let text = self.text(NODE)?;
        let mut j: serde_json::Value = serde_json::from_str(&text).map_err(|e| e.to_string())?;
        let out = match n {
            N::Set(p, v) => {
                *jslot(&mut j, p, true)? = serde_json::to_value(self.yaml(v)?).unwrap();
                pretty(&j)
            }
            N::Del(p) => {
                let (parent, last) = split_path(p);
                jslot(&mut j, &parent, false)?.as_object_mut().ok_or("not an object")?.shift_remove(&last).ok_or(format!("{p} is not there"))?;
                pretty(&j)
            }
            N::Map(p, v) => {
                let s = jslot(&mut j, p, false)?;
                let old = s.as_str().ok_or(format!("{p} is not text"))?.to_string();
                *s = serde_json::Value::String(self.value(v, &old, None)?);
                pretty(&j)
            }
            N::Compact => serde_json::to_string(&j).unwrap(),
            N::Reverse => {
                let mut y = serde_yaml::to_value(&j).unwrap();
                reverse_keys(&mut y);
                pretty(&to_json(&y)?)
            }
            N::Yaml => serde_yaml::to_string(&j).unwrap(),
            N::Wrap(k) => pretty(&serde_json::json!({ k: j })),
            N::Other => String::from_utf8(self.ctx.other[NODE].clone()).unwrap(),
        };
        self.put(NODE, out);
        Ok(())
    }
}

/// The node's id, cluster and metadata, absent ones as null (as jq prints them).
pub fn node_of(bootstrap: &str) -> R<serde_json::Value> {
    let first = serde_yaml::Deserializer::from_str(bootstrap.trim_start_matches('\u{feff}')).next().ok_or("no YAML document")?;
    let doc: serde_json::Value = serde::Deserialize::deserialize(first).map_err(|e| e.to_string())?;
    let node = &doc["node"];
    Ok(serde_json::json!({"id": node["id"], "cluster": node["cluster"], "metadata": node["metadata"]}))
}

const TYPED: &str = "envoy.extensions.upstreams.http.v3.HttpProtocolOptions";

pub fn http2(cluster: &mut Y, h: H) -> R<()> {
    let m = cluster.as_mapping_mut().ok_or("the static cluster is not a mapping")?;
    let typed = |opts: &str| {
        yaml(&format!(
            "{{'{TYPED}': {{'@type': 'type.googleapis.com/{TYPED}', explicit_http_config: {{{opts}: {{}}}}}}}}"
        ))
    };
    let (legacy, typed_opts) = (m.shift_remove("http2_protocol_options"), m.shift_remove("typed_extension_protocol_options"));
    if legacy.is_none() && typed_opts.is_none() {
        return Err("the static cluster has no HTTP/2 options".into());
    }
    match h {
        H::None => {}
        H::Legacy => {
            if legacy.is_some() {
                return Err("already the legacy form".into());
            }
            m.insert("http2_protocol_options".into(), Y::Mapping(Default::default()));
        }
        H::Typed => {
            if typed_opts.is_some() {
                return Err("already the typed form".into());
            }
            m.insert("typed_extension_protocol_options".into(), typed("http2_protocol_options")?);
        }
        H::Both => {
            m.insert("http2_protocol_options".into(), Y::Mapping(Default::default()));
            m.insert("typed_extension_protocol_options".into(), typed("http2_protocol_options")?);
        }
        H::Http1 => {
            m.insert("typed_extension_protocol_options".into(), typed("http_protocol_options")?);
        }
    }
    Ok(())
}
