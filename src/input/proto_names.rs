//! Protobuf's JSON (and Envoy's YAML) spells a field by its proto name (`port_value`)
//! or in lowerCamelCase (`portValue`); Envoy takes both. Read as the proto names, a
//! checked field has one spelling. A repeated field may also hold one message without
//! the list around it (a `-` forgotten in YAML): Envoy takes that as a list of one,
//! and so is it read here, for the repeated fields on a bootstrap's way to its xDS
//! server ([`LISTS`]).

use serde_json::{Map, Value};

/// The repeated message fields of Envoy's bootstrap, static resources, endpoints and
/// config sources (envoy.config.*.v3, Envoy 1.40): no message of those has a field of
/// one of these names that is not repeated.
const LISTS: &[&str] = &["clusters", "listeners", "secrets", "endpoints", "lb_endpoints", "grpc_services"];

/// The fields of Envoy's bootstrap whose map holds the user's own keys, not fields (a
/// protobuf Struct: node metadata, a runtime layer, a typed struct's value): `myFlag`
/// and `my_flag` there are two keys.
const USERS_KEYS: &[&str] = &["metadata", "static_layer", "dynamic_parameters", "value"];

/// Renames every lowerCamelCase key to its proto name, in place, and makes a lone
/// message in one of the [`LISTS`] a list of one. A key that is no field name
/// (`envoy.extensions...HttpProtocolOptions`, `@type`, `CLUSTER_ID`) stays as it is,
/// and so does what a field of [`USERS_KEYS`] holds.
/// A field set under both spellings in one message, to two values, is refused with the
/// two keys: Envoy reads the YAML as a hash map, so which one it takes is chance.
pub fn rename(v: &mut Value) -> Result<(), (String, String)> {
    match v {
        Value::Array(items) => items.iter_mut().try_for_each(rename),
        Value::Object(map) => {
            let mut renamed = Map::new();
            // Each proto name, and the key it was written as.
            let mut spelt: std::collections::HashMap<String, String> = std::collections::HashMap::new();
            for (written, mut v) in std::mem::take(map) {
                let k = proto_name(&written).unwrap_or_else(|| written.clone());
                if !USERS_KEYS.contains(&k.as_str()) {
                    rename(&mut v)?;
                }
                if v.is_object() && LISTS.contains(&k.as_str()) {
                    v = Value::Array(vec![v]);
                }
                if let Some(other) = spelt.get(&k) {
                    // The same value twice is the same to Envoy either way.
                    if renamed.get(&k) == Some(&v) {
                        continue;
                    }
                    return Err((other.clone(), written));
                }
                spelt.insert(k.clone(), written);
                renamed.insert(k, v);
            }
            *map = renamed;
            Ok(())
        }
        _ => Ok(()),
    }
}

/// `portValue` -> `port_value`; none for a key that is not lowerCamelCase with some
/// upper case in it.
fn proto_name(key: &str) -> Option<String> {
    let mut chars = key.chars();
    let first = chars.next()?;
    if !first.is_ascii_lowercase() || !key.chars().all(|c| c.is_ascii_alphanumeric()) || !key.chars().any(|c| c.is_ascii_uppercase()) {
        return None;
    }
    let mut out = String::with_capacity(key.len() + 4);
    for c in key.chars() {
        if c.is_ascii_uppercase() {
            out.push('_');
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn camel_case_fields_read_as_proto_names() {
        let mut v = json!({"admin": {"address": {"socketAddress": {"address": "127.0.0.1", "portValue": 9982}}},
            "node": {"id": "x", "metadata": {"myKey": 1, "CLUSTER_ID": "c"}},
            "staticResources": {"clusters": [{"typedExtensionProtocolOptions": {"envoy.extensions.upstreams.http.v3.HttpProtocolOptions": {"@type": "t", "explicitHttpConfig": {"http2ProtocolOptions": {}}}}}]}});
        rename(&mut v).unwrap();
        assert_eq!(v, json!({"admin": {"address": {"socket_address": {"address": "127.0.0.1", "port_value": 9982}}},
            "node": {"id": "x", "metadata": {"myKey": 1, "CLUSTER_ID": "c"}},
            "static_resources": {"clusters": [{"typed_extension_protocol_options": {"envoy.extensions.upstreams.http.v3.HttpProtocolOptions": {"@type": "t", "explicit_http_config": {"http2_protocol_options": {}}}}}]}}));
    }

    /// Envoy 1.40 validates and runs a bootstrap whose grpc_services or clusters is one
    /// message without its `-` (tests/kinds.rs grades one with the real Envoy).
    #[test]
    fn a_lone_message_of_a_repeated_field_is_a_list_of_one() {
        let mut v = json!({"dynamicResources": {"adsConfig": {"grpcServices": {"envoyGrpc": {"clusterName": "xds-grpc"}}}},
            "static_resources": {"clusters": {"name": "xds-grpc", "load_assignment": {"endpoints": {"lb_endpoints": {"endpoint": {}}}}}},
            "node": {"metadata": {"clusters": {"mine": 1}}}});
        rename(&mut v).unwrap();
        assert_eq!(v, json!({"dynamic_resources": {"ads_config": {"grpc_services": [{"envoy_grpc": {"cluster_name": "xds-grpc"}}]}},
            "static_resources": {"clusters": [{"name": "xds-grpc", "load_assignment": {"endpoints": [{"lb_endpoints": [{"endpoint": {}}]}]}}]},
            "node": {"metadata": {"clusters": {"mine": 1}}}}));
    }

    #[test]
    fn a_field_under_both_spellings_is_refused() {
        let mut v = json!({"node": {"id": "x"}, "ads": {"grpc_services": [{"envoy_grpc": {"clusterName": "decoy", "cluster_name": "xds-grpc"}}]}});
        assert_eq!(rename(&mut v), Err(("clusterName".to_string(), "cluster_name".to_string())));
        let mut v = json!({"ads": {"clusterName": "xds-grpc", "cluster_name": "xds-grpc"}});
        assert_eq!(rename(&mut v), Ok(()));
        assert_eq!(v, json!({"ads": {"cluster_name": "xds-grpc"}}));
        // A Struct's own keys are the user's: two spellings there are two keys.
        let mut v = json!({"node": {"metadata": {"myKey": 1, "my_key": 2}}, "layered_runtime": {"layers": [{"static_layer": {"myFlag": true, "my_flag": false}}]}});
        assert_eq!(rename(&mut v), Ok(()));
        assert_eq!(v["layered_runtime"]["layers"][0]["static_layer"], json!({"myFlag": true, "my_flag": false}));
    }

    #[test]
    fn proto_names_stay() {
        for k in ["port_value", "id", "@type", "CLUSTER_ID", "envoy.filters.http.router", "x-y"] {
            assert_eq!(proto_name(k), None, "{k}");
        }
        assert_eq!(proto_name("initialFetchTimeout").as_deref(), Some("initial_fetch_timeout"));
    }
}
