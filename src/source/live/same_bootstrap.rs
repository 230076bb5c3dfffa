//! Is a running Envoy running this bootstrap, as the file is now? Compared on what the
//! live checks depend on: the node's id, cluster and metadata, where ADS goes, how long
//! CDS and LDS wait, and the static clusters. Not compared: endpoints and the admin
//! address (a launched Envoy gets its own).

use crate::compare::equal;
use serde_json::{json, Map, Value};

/// The places where `running` (from /config_dump) and `file` differ, by name.
pub fn differences(running: &Value, file: &Value) -> Vec<&'static str> {
    let (a, b) = (essentials(running), essentials(file));
    let mut differ: Vec<&str> = ESSENTIALS.iter().filter(|(key, _)| !equal(&a[key], &b[key])).map(|(_, said)| *said).collect();
    if !same_metadata(&running["node"]["metadata"], &file["node"]["metadata"]) {
        differ.push("node.metadata");
    }
    differ
}

/// The same keys, and the same text where both have text. Envoy reads YAML scalars by
/// other rules than the grader: `yes` is a boolean to it, `010` is 8 and `1.50` the
/// text "1.50" (seen in /config_dump of Envoy 1.40), so a value that is not text on
/// both sides is not compared. Istio's metadata is text.
fn same_metadata(running: &Value, file: &Value) -> bool {
    let empty = Map::new();
    // Metadata that is not a map is not what Envoy runs anyway: nothing to compare.
    let (Some(running), Some(file)) = (fields(running, &empty), fields(file, &empty)) else { return true };
    running.len() == file.len()
        && file.iter().all(|(k, f)| match (running.get(k), f) {
            (None, _) => false,
            (Some(Value::String(r)), Value::String(f)) => r == f,
            (Some(_), _) => true,
        })
}

/// A metadata map; none is an empty one.
fn fields<'a>(v: &'a Value, empty: &'a Map<String, Value>) -> Option<&'a Map<String, Value>> {
    match v {
        Value::Object(m) => Some(m),
        Value::Null => Some(empty),
        _ => None,
    }
}

const ESSENTIALS: &[(&str, &str)] = &[
    ("node", "node"),
    ("node_cluster", "node.cluster"),
    ("ads", "ADS cluster"),
    ("cds_wait", "cds_config initial_fetch_timeout"),
    ("lds_wait", "lds_config initial_fetch_timeout"),
    ("clusters", "static cluster names"),
];

fn essentials(b: &Value) -> Value {
    let node = &b["node"];
    let dynamic = &b["dynamic_resources"];
    let ads: Vec<&Value> = dynamic["ads_config"]["grpc_services"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|s| &s["envoy_grpc"]["cluster_name"])
        .collect();
    let mut clusters: Vec<String> = b["static_resources"]["clusters"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|c| crate::display::value_text(&c["name"]))
        .collect();
    clusters.sort();
    json!({
        "node": node.get("id"),
        "node_cluster": node.get("cluster"),
        "ads": ads,
        "cds_wait": seconds(&dynamic["cds_config"]["initial_fetch_timeout"]),
        "lds_wait": seconds(&dynamic["lds_config"]["initial_fetch_timeout"]),
        "clusters": clusters,
    })
}

/// A duration as Envoy reads it (`"0s"`, `"1.5s"`, `{seconds, nanos}`), in seconds;
/// anything else as it is, so that two unreadable values still compare.
fn seconds(d: &Value) -> Value {
    let parsed = match d {
        Value::String(s) => s.strip_suffix('s').and_then(|n| n.trim().parse::<f64>().ok()),
        Value::Object(m) => {
            let part = |k: &str| m.get(k).map_or(Some(0.0), |v| v.as_f64().or_else(|| v.as_str()?.parse().ok()));
            part("seconds").zip(part("nanos")).map(|(s, n)| s + n / 1e9)
        }
        _ => None,
    };
    parsed.map_or_else(|| d.clone(), |s| json!(s))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn boot(ads: &str, wait: Value) -> Value {
        json!({
            "node": {"id": "sidecar~1", "cluster": "a.b", "metadata": {"X": "1"}},
            "dynamic_resources": {"ads_config": {"grpc_services": [{"envoy_grpc": {"cluster_name": ads}}]},
                "cds_config": {"ads": {}, "initial_fetch_timeout": wait.clone()}, "lds_config": {"ads": {}, "initial_fetch_timeout": wait}},
            "static_resources": {"clusters": [{"name": "xds-grpc", "type": "STRICT_DNS"}]}
        })
    }

    #[test]
    fn the_same_bootstrap_in_envoys_spelling_matches() {
        let mut dumped = boot("xds-grpc", json!("0s"));
        dumped["node"]["user_agent_name"] = json!("envoy");
        // `X: yes` in the file: a boolean once Envoy has read it.
        dumped["node"]["metadata"]["X"] = json!(true);
        assert!(differences(&dumped, &boot("xds-grpc", json!({"seconds": 0}))).is_empty());
        assert!(differences(&dumped, &boot("xds-grpc", json!("0.000s"))).is_empty());
    }

    #[test]
    fn metadata_text_is_compared() {
        let running = boot("xds-grpc", json!("0s"));
        let mut file = boot("xds-grpc", json!("0s"));
        file["node"]["metadata"]["X"] = json!("2");
        assert_eq!(differences(&running, &file), vec!["node.metadata"]);
        file["node"]["metadata"] = json!({"X": "1", "Y": "1"});
        assert_eq!(differences(&running, &file), vec!["node.metadata"]);
        file["node"]["metadata"] = Value::Null;
        assert_eq!(differences(&running, &file), vec!["node.metadata"]);
        // What Envoy read otherwise than the grader is not compared: `N: 010` is 8 to it.
        let mut dumped = boot("xds-grpc", json!("0s"));
        dumped["node"]["metadata"] = json!({"X": "1", "N": 8, "B": true});
        file["node"]["metadata"] = json!({"X": "1", "N": 10, "B": "yes"});
        assert!(differences(&dumped, &file).is_empty());
    }

    #[test]
    fn an_envoy_started_from_an_older_file_is_told_apart() {
        let old = boot("xds-grpc", Value::Null);
        assert_eq!(differences(&old, &boot("xds-grpc", json!("0s"))), vec!["cds_config initial_fetch_timeout", "lds_config initial_fetch_timeout"]);
        assert_eq!(differences(&boot("other", json!("0s")), &boot("xds-grpc", json!("0s"))), vec!["ADS cluster"]);
        let mut moved = boot("xds-grpc", json!("0s"));
        moved["node"]["cluster"] = json!("b.c");
        assert_eq!(differences(&moved, &boot("xds-grpc", json!("0s"))), vec!["node.cluster"]);
    }
}
