//! Protobuf's JSON (and Envoy's YAML) spells a field by its proto name (`port_value`)
//! or in lowerCamelCase (`portValue`); Envoy takes both. Read as the proto names, a
//! checked field has one spelling.

use serde_json::{Map, Value};

/// Renames every lowerCamelCase key to its proto name, in place. A key that is no field
/// name (`envoy.extensions...HttpProtocolOptions`, `@type`, `CLUSTER_ID`) stays as it
/// is, and so does what a `metadata` field holds: a Struct of the user's own keys.
pub fn rename(v: &mut Value) {
    match v {
        Value::Array(items) => items.iter_mut().for_each(rename),
        Value::Object(map) => {
            let renamed: Map<String, Value> = std::mem::take(map)
                .into_iter()
                .map(|(k, mut v)| {
                    let k = proto_name(&k).unwrap_or(k);
                    if k != "metadata" {
                        rename(&mut v);
                    }
                    (k, v)
                })
                .collect();
            *map = renamed;
        }
        _ => {}
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
        rename(&mut v);
        assert_eq!(v, json!({"admin": {"address": {"socket_address": {"address": "127.0.0.1", "port_value": 9982}}},
            "node": {"id": "x", "metadata": {"myKey": 1, "CLUSTER_ID": "c"}},
            "static_resources": {"clusters": [{"typed_extension_protocol_options": {"envoy.extensions.upstreams.http.v3.HttpProtocolOptions": {"@type": "t", "explicit_http_config": {"http2_protocol_options": {}}}}}]}}));
    }

    #[test]
    fn proto_names_stay() {
        for k in ["port_value", "id", "@type", "CLUSTER_ID", "envoy.filters.http.router", "x-y"] {
            assert_eq!(proto_name(k), None, "{k}");
        }
        assert_eq!(proto_name("initialFetchTimeout").as_deref(), Some("initial_fetch_timeout"));
    }
}
