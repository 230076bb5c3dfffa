//! Is a running Envoy running this bootstrap, as the file is now? Compared on the
//! places the spec's `envoy.same_bootstrap` names, each as its `compare` says (Envoy
//! reports durations and YAML scalars in its own spelling).

use crate::compare::equal;
use crate::spec::envoy::{Compare, Same};
use serde_json::{Map, Value};

/// How a running Envoy's bootstrap differs from the file.
#[derive(Debug, PartialEq)]
pub enum Differ {
    None,
    /// Another identity: another bootstrap altogether.
    Identity,
    /// The same identity, other values: an older version of the file. By name.
    Fields(Vec<String>),
}

/// How they differ; an error if the spec's paths do not compile.
pub fn differences(same: &Same, running: &Value, file: &Value) -> Result<Differ, String> {
    let differs = |f: &crate::spec::envoy::Field| Ok::<bool, String>(!equal_as(f.compare, &same.value(f, running)?, &same.value(f, file)?));
    if differs(&same.identity)? {
        return Ok(Differ::Identity);
    }
    let mut names = Vec::new();
    for f in &same.fields {
        if differs(f)? {
            names.push(f.name.clone());
        }
    }
    Ok(if names.is_empty() { Differ::None } else { Differ::Fields(names) })
}

fn equal_as(compare: Compare, running: &Value, file: &Value) -> bool {
    match compare {
        Compare::Value => equal(running, file),
        Compare::Duration => match (crate::envoy::fetch::seconds(running), crate::envoy::fetch::seconds(file)) {
            (Some(a), Some(b)) => a == b,
            _ => equal(running, file),
        },
        Compare::Text => same_text(running, file),
    }
}

/// The same keys, and the same text where both have text. Envoy reads YAML scalars by
/// other rules than the grader: `yes` is a boolean to it, `010` is 8 and `1.50` the
/// text "1.50" (seen in /config_dump of Envoy 1.40), so a value that is not text on
/// both sides is not compared.
fn same_text(running: &Value, file: &Value) -> bool {
    let empty = Map::new();
    // What is not a map is not what Envoy runs anyway: nothing to compare.
    let (Some(running), Some(file)) = (fields(running, &empty), fields(file, &empty)) else { return true };
    running.len() == file.len()
        && file.iter().all(|(k, f)| match (running.get(k), f) {
            (None, _) => false,
            (Some(Value::String(r)), Value::String(f)) => r == f,
            (Some(_), _) => true,
        })
}

/// A map; none is an empty one.
fn fields<'a>(v: &'a Value, empty: &'a Map<String, Value>) -> Option<&'a Map<String, Value>> {
    match v {
        Value::Object(m) => Some(m),
        Value::Null => Some(empty),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn same() -> Same {
        crate::spec::Spec::builtin().unwrap().envoy.unwrap().same.unwrap()
    }

    fn boot(ads: &str, wait: Value) -> Value {
        json!({
            "node": {"id": "sidecar~1", "cluster": "a.b", "metadata": {"X": "1"}},
            "dynamic_resources": {"ads_config": {"grpc_services": [{"envoy_grpc": {"cluster_name": ads}}]},
                "cds_config": {"ads": {}, "initial_fetch_timeout": wait.clone()}, "lds_config": {"ads": {}, "initial_fetch_timeout": wait}},
            "static_resources": {"clusters": [{"name": "xds-grpc", "type": "STRICT_DNS"}]}
        })
    }

    fn d(same: &Same, running: &Value, file: &Value) -> Differ {
        differences(same, running, file).unwrap()
    }

    fn fields(names: &[&str]) -> Differ {
        Differ::Fields(names.iter().map(|s| s.to_string()).collect())
    }

    #[test]
    fn the_same_bootstrap_in_envoys_spelling_matches() {
        let same = same();
        let mut dumped = boot("xds-grpc", json!("0s"));
        dumped["node"]["user_agent_name"] = json!("envoy");
        // `X: yes` in the file: a boolean once Envoy has read it.
        dumped["node"]["metadata"]["X"] = json!(true);
        assert_eq!(d(&same, &dumped, &boot("xds-grpc", json!({"seconds": 0}))), Differ::None);
        assert_eq!(d(&same, &dumped, &boot("xds-grpc", json!("0.000s"))), Differ::None);
    }

    #[test]
    fn metadata_text_is_compared() {
        let same = same();
        let running = boot("xds-grpc", json!("0s"));
        let mut file = boot("xds-grpc", json!("0s"));
        file["node"]["metadata"]["X"] = json!("2");
        assert_eq!(d(&same, &running, &file), fields(&["node.metadata"]));
        file["node"]["metadata"] = json!({"X": "1", "Y": "1"});
        assert_eq!(d(&same, &running, &file), fields(&["node.metadata"]));
        file["node"]["metadata"] = Value::Null;
        assert_eq!(d(&same, &running, &file), fields(&["node.metadata"]));
        // What Envoy read otherwise than the grader is not compared: `N: 010` is 8 to it.
        let mut dumped = boot("xds-grpc", json!("0s"));
        dumped["node"]["metadata"] = json!({"X": "1", "N": 8, "B": true});
        file["node"]["metadata"] = json!({"X": "1", "N": 10, "B": "yes"});
        assert_eq!(d(&same, &dumped, &file), Differ::None);
    }

    #[test]
    fn an_envoy_started_from_an_older_file_is_told_apart() {
        let same = same();
        let old = boot("xds-grpc", Value::Null);
        assert_eq!(d(&same, &old, &boot("xds-grpc", json!("0s"))), fields(&["cds_config initial_fetch_timeout", "lds_config initial_fetch_timeout"]));
        assert_eq!(d(&same, &boot("other", json!("0s")), &boot("xds-grpc", json!("0s"))), fields(&["ADS cluster"]));
        let mut moved = boot("xds-grpc", json!("0s"));
        moved["node"]["cluster"] = json!("b.c");
        assert_eq!(d(&same, &moved, &boot("xds-grpc", json!("0s"))), fields(&["node.cluster"]));
        let mut other = boot("xds-grpc", json!("0s"));
        other["node"]["id"] = json!("router~2");
        assert_eq!(d(&same, &other, &boot("xds-grpc", json!("0s"))), Differ::Identity);
    }
}
