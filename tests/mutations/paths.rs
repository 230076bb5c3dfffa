//! Paths into YAML and JSON documents (`a/0/b`, with abbreviations for the bootstrap).

use super::ops::R;
use serde_yaml::Value as Y;

pub fn scalar(v: &Y) -> String {
    match v {
        Y::String(s) => s.clone(),
        Y::Number(n) => n.to_string(),
        Y::Bool(b) => b.to_string(),
        _ => String::new(),
    }
}

pub fn yaml(s: &str) -> R<Y> {
    serde_yaml::from_str(s).map_err(|e| format!("{s:?}: {e}"))
}

pub fn parse_yaml(text: &str) -> R<Y> {
    serde_yaml::from_str(text.trim_start_matches('\u{feff}')).map_err(|e| e.to_string())
}

pub fn to_json(y: &Y) -> R<serde_json::Value> {
    serde_json::to_value(y).map_err(|e| e.to_string())
}

pub fn pretty(j: &serde_json::Value) -> String {
    serde_json::to_string_pretty(j).unwrap() + "\n"
}

pub fn expand(p: &str) -> String {
    const ABBR: [(&str, &str); 8] = [
        ("@ep", "@c/load_assignment/endpoints/0/lb_endpoints/0/endpoint/address/socket_address"),
        ("@c", "static_resources/clusters/0"),
        ("@adsc", "@ads/grpc_services/0/envoy_grpc/cluster_name"),
        ("@ads", "dynamic_resources/ads_config"),
        ("@cds", "dynamic_resources/cds_config"),
        ("@lds", "dynamic_resources/lds_config"),
        ("@port", "admin/address/socket_address/port_value"),
        ("@meta", "node/metadata"),
    ];
    let mut p = p.to_string();
    while let Some((a, full)) = ABBR.iter().find(|(a, _)| p.starts_with(a) && p[a.len()..].chars().next().is_none_or(|c| c == '/')) {
        p = format!("{full}{}", &p[a.len()..]);
    }
    p
}

pub fn split_path(p: &str) -> (String, String) {
    let full = expand(p);
    match full.rsplit_once('/') {
        Some((a, b)) => (a.to_string(), b.to_string()),
        None => (String::new(), full),
    }
}

/// The value at a path; with `create`, missing mapping keys are made.
pub fn slot<'y>(doc: &'y mut Y, p: &str, create: bool) -> R<&'y mut Y> {
    let full = expand(p);
    let mut cur = doc;
    if full.is_empty() {
        return Ok(cur);
    }
    for seg in full.split('/') {
        cur = match cur {
            Y::Sequence(s) => s.get_mut(seg.parse::<usize>().map_err(|_| format!("{seg} is no index"))?).ok_or(format!("{full}: no item {seg}"))?,
            Y::Mapping(m) => {
                if create && !m.contains_key(seg) {
                    m.insert(Y::String(seg.into()), Y::Mapping(Default::default()));
                }
                m.get_mut(seg).ok_or(format!("{full}: no {seg}"))?
            }
            Y::Null if create => {
                *cur = Y::Mapping(Default::default());
                let Y::Mapping(m) = cur else { unreachable!() };
                m.insert(Y::String(seg.into()), Y::Mapping(Default::default()));
                m.get_mut(seg).unwrap()
            }
            _ => return Err(format!("{full}: {seg} is below a scalar")),
        };
    }
    Ok(cur)
}

pub fn remove(parent: &mut Y, key: &str) -> R<()> {
    match parent {
        Y::Mapping(m) => m.shift_remove(key).map(|_| ()).ok_or(format!("no {key}")),
        Y::Sequence(s) => {
            let i: usize = key.parse().map_err(|_| format!("{key} is no index"))?;
            (i < s.len()).then(|| s.remove(i)).map(|_| ()).ok_or(format!("no item {key}"))
        }
        _ => Err(format!("{key}: not in a mapping or list")),
    }
}

pub fn jslot<'j>(j: &'j mut serde_json::Value, p: &str, create: bool) -> R<&'j mut serde_json::Value> {
    let mut cur = j;
    if p.is_empty() {
        return Ok(cur);
    }
    for seg in p.split('/') {
        let o = cur.as_object_mut().ok_or(format!("{p}: {seg} is below a non-object"))?;
        if create && !o.contains_key(seg) {
            o.insert(seg.into(), serde_json::Value::Null);
        }
        cur = o.get_mut(seg).ok_or(format!("{p}: no {seg}"))?;
    }
    Ok(cur)
}

pub fn reverse_keys(y: &mut Y) {
    match y {
        Y::Mapping(m) => {
            let mut items: Vec<(Y, Y)> = std::mem::take(m).into_iter().collect();
            items.reverse();
            for (k, mut v) in items {
                reverse_keys(&mut v);
                m.insert(k, v);
            }
        }
        Y::Sequence(s) => s.iter_mut().for_each(reverse_keys),
        _ => {}
    }
}
