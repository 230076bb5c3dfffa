//! How much a bootstrap weighs, bounded before Envoy sees it: a file within the size cap
//! can still hold 50,000 static clusters, on which each Envoy took 1-1.7 GB and over 30 s.
//!
//! This lab's bootstrap has one static cluster with one endpoint, about 50 values, 10
//! deep. The bounds leave careful students room (extra clusters, node metadata) and
//! keep Envoy near what it needs for the lab's own file: at all of them at once, a
//! launched Envoy 1.40 took 65 MiB and 0.15 s of CPU, against 55 MiB and 0.11 s.

use crate::lang::{envoy::EnvoyWords, t};
use serde_json::Value;

/// Static clusters.
pub const MAX_CLUSTERS: usize = 100;
/// Endpoints (`lb_endpoints` items) over all static clusters.
pub const MAX_ENDPOINTS: usize = 1000;
/// Values of every kind (scalars, lists, mappings), node metadata included.
pub const MAX_VALUES: usize = 10_000;
/// Lists and mappings nested in one another.
pub const MAX_DEPTH: usize = 32;

/// Why `bootstrap` is too heavy to hand to Envoy, if it is.
pub fn check(bootstrap: &Value) -> Result<(), String> {
    let clusters = bootstrap.pointer("/static_resources/clusters").and_then(Value::as_array);
    let clusters = clusters.map_or(&[][..], Vec::as_slice);
    if clusters.len() > MAX_CLUSTERS {
        return Err(t!(EnvoyWords::Clusters, n = clusters.len(), max = MAX_CLUSTERS));
    }
    let endpoints: usize = clusters.iter().map(endpoints).sum();
    if endpoints > MAX_ENDPOINTS {
        return Err(t!(EnvoyWords::Endpoints, n = endpoints, max = MAX_ENDPOINTS));
    }
    let mut values = 0;
    if !within(bootstrap, 1, &mut values) {
        return Err(if values > MAX_VALUES {
            t!(EnvoyWords::Values, max = MAX_VALUES)
        } else {
            t!(EnvoyWords::Depth, max = MAX_DEPTH)
        });
    }
    Ok(())
}

fn endpoints(cluster: &Value) -> usize {
    let groups = cluster.pointer("/load_assignment/endpoints").and_then(Value::as_array);
    let lb = groups.into_iter().flatten().filter_map(|g| g.get("lb_endpoints").and_then(Value::as_array));
    lb.map(Vec::len).sum()
}

/// Counts `v`'s values into `seen`; false as soon as there are too many or they nest
/// too deep (so a heavy file costs no more than the bound to weigh).
fn within(v: &Value, depth: usize, seen: &mut usize) -> bool {
    *seen += 1;
    if *seen > MAX_VALUES {
        return false;
    }
    let children: Box<dyn Iterator<Item = &Value>> = match v {
        Value::Array(items) => Box::new(items.iter()),
        Value::Object(m) => Box::new(m.values()),
        _ => return true,
    };
    if depth > MAX_DEPTH {
        return false;
    }
    children.into_iter().all(|c| within(c, depth + 1, seen))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn lab_bootstrap() -> Value {
        let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/sample-answers/ist2-boot/bootstrap.yaml")).unwrap();
        crate::input::yaml::parse_doc(&text).unwrap()
    }

    fn cluster(i: usize, endpoints: usize) -> Value {
        let ep = json!({"endpoint": {"address": {"socket_address": {"address": "127.0.0.1", "port_value": 1}}}});
        json!({"name": format!("c{i}"), "load_assignment": {"endpoints": [{"lb_endpoints": vec![ep; endpoints]}]}})
    }

    #[test]
    fn the_labs_bootstrap_and_room_around_it_pass() {
        assert_eq!(check(&lab_bootstrap()), Ok(()));
        let mut b = lab_bootstrap();
        b["static_resources"]["clusters"] = (0..MAX_CLUSTERS).map(|i| cluster(i, MAX_ENDPOINTS / MAX_CLUSTERS)).collect();
        assert_eq!(check(&b), Ok(()));
        assert_eq!(check(&json!(null)), Ok(()));
    }

    #[test]
    fn too_many_clusters_endpoints_values_or_levels_are_said() {
        let mut b = lab_bootstrap();
        b["static_resources"]["clusters"] = (0..50_000).map(|i| json!({"name": format!("c{i}")})).collect();
        assert_eq!(check(&b).unwrap_err(), "it has 50000 static clusters, more than the 100 the grader gives Envoy");
        b["static_resources"]["clusters"] = json!([cluster(0, 1001)]);
        assert!(check(&b).unwrap_err().contains("1001 endpoints"));
        let mut b = lab_bootstrap();
        b["node"]["metadata"]["big"] = (0..MAX_VALUES).map(|i| json!(i)).collect();
        assert!(check(&b).unwrap_err().contains("more than 10000 values"));
        let mut deep = json!(1);
        for _ in 0..MAX_DEPTH {
            deep = json!([deep]);
        }
        b["node"]["metadata"] = json!({"deep": deep});
        assert!(check(&b).unwrap_err().contains("more than 32 deep"), "{:?}", check(&b));
    }
}
