//! A screened bootstrap made to reach no server, for the grader's own Envoys: the
//! screen sees only the bootstrap, and an Envoy still resolves and connects to the
//! addresses its clusters name.

use serde_json::{json, Map, Value};

/// For `envoy --mode validate`: the hosts of every cluster but a STATIC one become
/// `127.0.0.1`, so validating never sends a DNS query for a name a submission chose (a
/// way to learn when, and where, it is graded). Ports stay, and so do a STATIC
/// cluster's addresses, which Envoy never resolves: a malformed IP there is a finding
/// validation must still make.
pub fn without_dns(data: &Value) -> Value {
    let mut data = data.clone();
    for cluster in clusters(&mut data) {
        if !is_static(cluster.get("type").unwrap_or(&Value::Null)) {
            // Only addresses that are there: validation must see the file's structure.
            for e in lb_endpoints(cluster) {
                let address = e.pointer_mut("/endpoint/address/socket_address/address");
                if let Some(a) = address.filter(|a| a.is_string()) {
                    *a = "127.0.0.1".into();
                }
            }
        }
    }
    data
}

/// Whether Envoy reads this `type` as STATIC, observed with Envoy 1.40: absent or null
/// (the enum's default), the name in any ASCII case, or the number 0, also as a string
/// (`"0"`, `" 00"`, `"-0"`). Everything else is treated as resolving names: `1`,
/// `"strict_dns"`, and values Envoy refuses, which then lose nothing by the rewrite.
fn is_static(ty: &Value) -> bool {
    match ty {
        Value::Null => true,
        Value::Number(n) => n.as_i64() == Some(0),
        Value::String(s) => s.eq_ignore_ascii_case("STATIC") || s.trim().parse::<i64>() == Ok(0),
        _ => false,
    }
}

/// For a launched Envoy: every endpoint at `127.0.0.1:port`, one given no address too
/// (an Envoy would otherwise look up the empty name).
pub fn isolated(data: &Value, port: u16) -> Value {
    let mut data = data.clone();
    for cluster in clusters(&mut data) {
        for address in socket_addresses(cluster) {
            address.insert("address".into(), "127.0.0.1".into());
            address.insert("port_value".into(), port.into());
        }
    }
    data
}

fn clusters(data: &mut Value) -> impl Iterator<Item = &mut Value> {
    data.pointer_mut("/static_resources/clusters").and_then(Value::as_array_mut).into_iter().flatten()
}

/// Every lb endpoint of a cluster.
fn lb_endpoints(cluster: &mut Value) -> impl Iterator<Item = &mut Value> {
    let groups = cluster.pointer_mut("/load_assignment/endpoints").and_then(Value::as_array_mut);
    let lb = groups.into_iter().flatten().filter_map(|g| g.get_mut("lb_endpoints").and_then(Value::as_array_mut));
    lb.flatten()
}

/// The socket address of every lb endpoint of a cluster, made where it is missing.
fn socket_addresses(cluster: &mut Value) -> Vec<&mut Map<String, Value>> {
    lb_endpoints(cluster)
        .filter_map(|e| {
            let e = e.as_object_mut()?;
            let endpoint = object(e.entry("endpoint").or_insert(Value::Null));
            let address = object(endpoint.entry("address").or_insert(Value::Null));
            Some(object(address.entry("socket_address").or_insert(Value::Null)))
        })
        .collect()
}

/// The object at `v`, which becomes an empty one if it is anything else.
fn object(v: &mut Value) -> &mut Map<String, Value> {
    if !v.is_object() {
        *v = json!({});
    }
    v.as_object_mut().expect("made an object above")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cluster(ty: &str, endpoints: Value) -> Value {
        json!({"static_resources": {"clusters": [{"name": "a", "type": ty, "load_assignment": {"endpoints": [{"lb_endpoints": endpoints}]}}]}})
    }

    fn addresses(v: &Value) -> Vec<Value> {
        v.pointer("/static_resources/clusters/0/load_assignment/endpoints/0/lb_endpoints").unwrap().as_array().unwrap()
            .iter().map(|e| e["endpoint"]["address"]["socket_address"].clone()).collect()
    }

    #[test]
    fn every_endpoint_of_a_launched_envoy_points_at_the_closed_port() {
        let b = cluster("STRICT_DNS", json!([
            {"endpoint": {"address": {"socket_address": {"address": "evil.example", "port_value": 15012}}}},
            {"endpoint": null}, {}]));
        let closed = json!({"address": "127.0.0.1", "port_value": 4242});
        assert_eq!(addresses(&isolated(&b, 4242)), vec![closed.clone(), closed.clone(), closed]);
        let none = json!({"static_resources": {"clusters": [{"name": "b"}]}, "node": {"id": "x"}});
        assert_eq!(isolated(&none, 4242), none);
    }

    #[test]
    fn validation_resolves_no_name_but_keeps_static_addresses() {
        let ep = |a: &str| json!([{"endpoint": {"address": {"socket_address": {"address": a, "port_value": 15012}}}}]);
        let typed = |ty: Value| {
            let mut c = cluster("", ep("leak.example"));
            c["static_resources"]["clusters"][0]["type"] = ty;
            c
        };
        // Envoy resolves names for each of these (or refuses the type): none is kept.
        for ty in [json!("strict_dns"), json!("LOGICAL_DNS"), json!(1), json!("1"), json!(2), json!("EDS"), json!("x"), json!(0.5), json!(true)] {
            assert_eq!(addresses(&without_dns(&typed(ty.clone()))), vec![json!({"address": "127.0.0.1", "port_value": 15012})], "{ty}");
        }
        // Envoy reads each of these as STATIC and resolves nothing.
        for ty in [json!("STATIC"), json!("static"), json!(0), json!("0"), json!(" 00"), json!("-0"), Value::Null] {
            assert_eq!(without_dns(&typed(ty.clone())), typed(ty.clone()), "{ty}");
        }
        let mut absent = typed(Value::Null);
        absent["static_resources"]["clusters"][0].as_object_mut().unwrap().remove("type");
        assert_eq!(without_dns(&absent), absent);
        let fixed = cluster("STATIC", ep("300.1.1.1"));
        assert_eq!(without_dns(&fixed), fixed);
        // An endpoint with no address is validated as it is, not given one.
        let bare = cluster("STRICT_DNS", json!([{}, {"endpoint": null}]));
        assert_eq!(without_dns(&bare), bare);
    }
}
