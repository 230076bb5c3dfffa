//! A screened bootstrap made to reach no server, for the grader's own Envoys: the
//! screen sees only the bootstrap, and an Envoy still resolves and connects to the
//! addresses its clusters name (every `Connect` place the screen finds: endpoints,
//! their health-check and additional addresses).

use super::schema::loosely_equal;
use super::screen::{places, Connect};
use serde_json::{json, Map, Value};

/// How long a launched Envoy's waits for configuration are, at least (see `fetch.rs`).
pub const LAUNCH_WAIT: f64 = 60.0;

/// For `envoy --mode validate`: the host names of every cluster that resolves names
/// become `127.0.0.1`, so validating never sends a DNS query for a name a submission
/// chose (a way to learn when, and where, it is graded). Ports stay, and so do a STATIC
/// cluster's addresses, which Envoy never resolves: a malformed IP there is a finding
/// validation must still make. Only addresses that are there: validation must see the
/// file's structure.
pub fn without_dns(data: &Value) -> Value {
    let mut copy = data.clone();
    for c in places(data).connects.iter().filter(|c| c.resolves_names && !c.endpoint) {
        let host = field(&mut copy, c).and_then(|a| key(a, "socket_address")).and_then(|s| key(s, "address"));
        if let Some(host) = host.filter(|h| h.is_string()) {
            *host = "127.0.0.1".into();
        }
    }
    copy
}

/// For a launched Envoy: every address it would connect to is `127.0.0.1:port` (one
/// not written too: an Envoy would otherwise look up the empty name), whatever it was
/// (a pipe, an internal address), and its waits for configuration are lengthened so
/// that it is read in the state it starts in.
pub fn isolated(data: &Value, port: u16) -> Value {
    let mut copy = data.clone();
    let closed = json!({"socket_address": {"address": "127.0.0.1", "port_value": port}});
    let found = places(data);
    for c in found.connects {
        if let Some(Value::Object(holder)) = copy.pointer_mut(&c.place.holder) {
            let value = if c.endpoint { json!({"address": closed}) } else { closed.clone() };
            holder.insert(c.place.key.clone(), value);
        }
    }
    // A port of its own (a health check's) would take it past the closed port; a
    // source address to bind, or socket options, would reach beyond the loopback.
    for p in found.ports.into_iter().chain(found.local_sockets) {
        if let Some(Value::Object(holder)) = copy.pointer_mut(&p.holder) {
            holder.remove(&p.key);
        }
    }
    super::fetch::lengthened(&copy, LAUNCH_WAIT)
}

/// The value of a connect place, if written.
fn field<'a>(data: &'a mut Value, c: &Connect) -> Option<&'a mut Value> {
    data.pointer_mut(&c.place.holder)?.get_mut(&c.place.key)
}

/// The field `name` of an object, in whichever spelling Envoy takes.
fn key<'a>(v: &'a mut Value, name: &str) -> Option<&'a mut Value> {
    let obj: &mut Map<String, Value> = v.as_object_mut()?;
    obj.iter_mut().find(|(k, _)| loosely_equal(name, k)).map(|(_, v)| v)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cluster(ty: &str, endpoints: Value) -> Value {
        json!({"static_resources": {"clusters": [{"name": "a", "type": ty, "load_assignment": {"endpoints": [{"lb_endpoints": endpoints}]}}]}})
    }

    fn addresses(v: &Value) -> Vec<Value> {
        v.pointer("/static_resources/clusters/0/load_assignment/endpoints/0/lb_endpoints").unwrap().as_array().unwrap()
            .iter().map(|e| e["endpoint"]["address"].clone()).collect()
    }

    #[test]
    fn every_address_of_a_launched_envoy_is_the_closed_port() {
        let b = cluster("STRICT_DNS", json!([
            {"endpoint": {"address": {"socket_address": {"address": "evil.example", "port_value": 15012}},
                "health_check_config": {"address": {"socket_address": {"address": "evil.example", "port_value": 1}}, "port_value": 8765}}},
            {"endpoint": {"address": {"pipe": {"path": "/run/docker.sock"}}}},
            {"endpoint": null}, {}]));
        let closed = json!({"socket_address": {"address": "127.0.0.1", "port_value": 4242}});
        let copy = isolated(&b, 4242);
        assert_eq!(addresses(&copy), vec![closed.clone(), closed.clone(), closed.clone(), closed.clone()]);
        assert_eq!(copy.pointer("/static_resources/clusters/0/load_assignment/endpoints/0/lb_endpoints/0/endpoint/health_check_config").unwrap(), &json!({"address": closed}));
        // Nor does it bind a source address, or set socket options, of the file's.
        let bound = json!({"static_resources": {"clusters": [{"name": "b", "upstream_bind_config": {"source_address": {"address": "0.0.0.0", "port_value": 23}}}]},
            "cluster_manager": {"upstream_bind_config": {"source_address": {"address": "0.0.0.0", "port_value": 1}}},
            "admin": {"socket_options": [{"level": 1, "name": 25, "buf_value": "ZXRoMA=="}]}});
        assert_eq!(isolated(&bound, 4242), json!({"static_resources": {"clusters": [{"name": "b"}]}, "cluster_manager": {}, "admin": {}}));
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
        let host = |v: &Value| v.pointer("/static_resources/clusters/0/load_assignment/endpoints/0/lb_endpoints/0/endpoint/address/socket_address").unwrap().clone();
        // Envoy resolves names for each of these (or refuses the type): none is kept.
        for ty in [json!("strict_dns"), json!("LOGICAL_DNS"), json!(1), json!("1"), json!(2), json!("EDS"), json!("x"), json!(0.5), json!(true)] {
            assert_eq!(host(&without_dns(&typed(ty.clone()))), json!({"address": "127.0.0.1", "port_value": 15012}), "{ty}");
        }
        // Envoy reads each of these as STATIC and resolves nothing.
        for ty in [json!("STATIC"), json!("static"), json!(0), json!("0"), json!(" 00"), json!("-0"), Value::Null] {
            assert_eq!(without_dns(&typed(ty.clone())), typed(ty.clone()), "{ty}");
        }
        let fixed = cluster("STATIC", ep("300.1.1.1"));
        assert_eq!(without_dns(&fixed), fixed);
        // An endpoint with no address is validated as it is, not given one.
        let bare = cluster("STRICT_DNS", json!([{}, {"endpoint": null}]));
        assert_eq!(without_dns(&bare), bare);
        // Camel case is the same field to Envoy.
        let camel = json!({"staticResources": {"clusters": [{"type": "STRICT_DNS", "loadAssignment": {"endpoints": [{"lbEndpoints": [
            {"endpoint": {"address": {"socketAddress": {"address": "leak.example", "portValue": 1}}}}]}]}}]}});
        assert_eq!(without_dns(&camel).pointer("/staticResources/clusters/0/loadAssignment/endpoints/0/lbEndpoints/0/endpoint/address/socketAddress/address").unwrap(), "127.0.0.1");
    }
}
