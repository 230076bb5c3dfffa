//! Screening a submitted bootstrap before Envoy ever sees it.
//!
//! A bootstrap is code: even `envoy --mode validate` creates the files its access logs
//! name, and a launched Envoy opens the listeners it declares. This lab's bootstrap
//! needs a node, an admin address, ADS and one static cluster, so everything is refused
//! except what an allowlist names. The allowlist is small on purpose: a field that
//! reads or writes a path, opens a port or loads an extension is simply not on it. The
//! one exception is the admin's access log, common in Envoy's examples: its paths are
//! allowed because the grader's copy sends them to /dev/null (see `logs.rs`).

use serde_json::Value;

/// What may appear at one place of the bootstrap.
enum Rule {
    /// Any scalar (no objects, no arrays).
    Scalar,
    /// A duration: a string such as `0s`, or an object of `seconds` and `nanos`.
    Duration,
    /// Any value without further structure rules (plain data such as node metadata).
    Data,
    /// An object whose keys are listed; anything else is refused.
    Obj(&'static [(&'static str, Rule)]),
    /// A list of items following the rule.
    List(&'static Rule),
    /// A typed extension config: only the listed `@type`s, each with its own rule.
    Typed(&'static [(&'static str, Rule)]),
}

use Rule::*;

const HTTP_PROTOCOL_OPTIONS: &str = "type.googleapis.com/envoy.extensions.upstreams.http.v3.HttpProtocolOptions";

/// The admin's access loggers: to Envoy's own output, or to a file whose path the
/// grader's copy makes /dev/null (`logs.rs`). Without options: a log format may read
/// its template from a file.
const ACCESS_LOG: Rule = Obj(&[
    ("name", Scalar),
    (
        "typed_config",
        Typed(&[
            ("type.googleapis.com/envoy.extensions.access_loggers.stream.v3.StdoutAccessLog", Obj(&[])),
            ("type.googleapis.com/envoy.extensions.access_loggers.stream.v3.StderrAccessLog", Obj(&[])),
            (super::logs::FILE_ACCESS_LOG, Obj(&[("path", Scalar)])),
        ]),
    ),
]);

const SOCKET_ADDRESS: Rule = Obj(&[(
    "socket_address",
    Obj(&[
        ("address", Scalar),
        ("port_value", Scalar),
        ("protocol", Scalar),
        ("ipv4_compat", Scalar),
    ]),
)]);

const HTTP2_OPTIONS: Rule = Data;

const CONFIG_SOURCE: Rule = Obj(&[
    ("ads", Obj(&[])),
    ("initial_fetch_timeout", Duration),
    ("resource_api_version", Scalar),
]);

const GRPC_SERVICE: Rule = Obj(&[
    ("envoy_grpc", Obj(&[("cluster_name", Scalar), ("authority", Scalar)])),
    ("timeout", Duration),
]);

const CLUSTER: Rule = Obj(&[
    ("name", Scalar),
    ("type", Scalar),
    ("connect_timeout", Duration),
    ("lb_policy", Scalar),
    ("dns_lookup_family", Scalar),
    ("dns_refresh_rate", Duration),
    ("respect_dns_ttl", Scalar),
    ("per_connection_buffer_limit_bytes", Scalar),
    ("max_requests_per_connection", Scalar),
    ("http2_protocol_options", HTTP2_OPTIONS),
    (
        "typed_extension_protocol_options",
        Obj(&[(
            "envoy.extensions.upstreams.http.v3.HttpProtocolOptions",
            Typed(&[(
                HTTP_PROTOCOL_OPTIONS,
                Obj(&[("explicit_http_config", Obj(&[("http2_protocol_options", HTTP2_OPTIONS)]))]),
            )]),
        )]),
    ),
    (
        "upstream_connection_options",
        Obj(&[("tcp_keepalive", Obj(&[("keepalive_time", Scalar), ("keepalive_interval", Scalar), ("keepalive_probes", Scalar)]))]),
    ),
    ("circuit_breakers", Data),
    ("common_lb_config", Data),
    (
        "load_assignment",
        Obj(&[
            ("cluster_name", Scalar),
            (
                "endpoints",
                List(&Obj(&[(
                    "lb_endpoints",
                    List(&Obj(&[("endpoint", Obj(&[("address", SOCKET_ADDRESS)]))])),
                )])),
            ),
        ]),
    ),
]);

const BOOTSTRAP: Rule = Obj(&[
    (
        "node",
        Obj(&[("id", Scalar), ("cluster", Scalar), ("metadata", Data), ("locality", Data)]),
    ),
    (
        "admin",
        // access_log_path: any path, made /dev/null in the grader's copy.
        Obj(&[("address", SOCKET_ADDRESS), ("access_log_path", Scalar), ("access_log", List(&ACCESS_LOG))]),
    ),
    (
        "dynamic_resources",
        Obj(&[
            (
                "ads_config",
                Obj(&[
                    ("api_type", Scalar),
                    ("transport_api_version", Scalar),
                    ("set_node_on_first_message_only", Scalar),
                    ("grpc_services", List(&GRPC_SERVICE)),
                ]),
            ),
            ("cds_config", CONFIG_SOURCE),
            ("lds_config", CONFIG_SOURCE),
        ]),
    ),
    ("static_resources", Obj(&[("clusters", List(&CLUSTER))])),
]);

/// Why a bootstrap is refused: one reason per offending place, by its key path.
pub fn screen(bootstrap: &Value) -> Result<(), Vec<String>> {
    super::weight::check(bootstrap).map_err(|too_heavy| vec![too_heavy])?;
    let mut reasons = Vec::new();
    walk(bootstrap, &BOOTSTRAP, "", &mut reasons);
    // Fields merely unknown (a typo, an indentation slip) are said together, after the
    // ones refused for what they would do.
    let (unknown, mut said): (Vec<String>, Vec<String>) = reasons.into_iter().partition(|r| r.starts_with(UNKNOWN));
    if !unknown.is_empty() {
        let names: Vec<&str> = unknown.iter().map(|u| &u[UNKNOWN.len()..]).collect();
        said.push(format!("{} this lab's bootstrap has there (check spelling and indentation)", list(&names)));
    }
    if said.is_empty() { Ok(()) } else { Err(said) }
}

/// Marks a reason that is only "unknown field"; followed by the field's path.
const UNKNOWN: &str = "\0unknown:";

fn list(names: &[&str]) -> String {
    let quoted: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
    match quoted.as_slice() {
        [one] => format!("{one} is not a field"),
        [init @ .., last] => format!("{} and {last} are not fields", init.join(", ")),
        [] => String::new(),
    }
}

fn walk(v: &Value, rule: &Rule, at: &str, out: &mut Vec<String>) {
    match rule {
        Data => {}
        Scalar => {
            if v.is_object() || v.is_array() {
                out.push(format!("`{}` must be a plain value", shown(at)));
            }
        }
        Duration => {
            if v.is_object() {
                walk(v, &Obj(&[("seconds", Scalar), ("nanos", Scalar)]), at, out);
            } else {
                walk(v, &Scalar, at, out);
            }
        }
        List(item) => match v {
            Value::Array(items) => {
                for (i, x) in items.iter().enumerate() {
                    walk(x, item, &format!("{at}[{i}]"), out);
                }
            }
            _ => out.push(format!("`{}` must be a list", shown(at))),
        },
        Obj(fields) => match v {
            Value::Object(m) => {
                for (k, x) in m {
                    let here = format!("{at}.{k}");
                    match fields.iter().find(|(name, _)| name == k) {
                        Some((_, r)) => walk(x, r, &here, out),
                        // `listeners: []` opens no port: an empty list or a null is
                        // nothing, whatever it would hold. A misspelt key still is one.
                        None if why_refused(k).is_some() && (x.is_null() || x.as_array().is_some_and(Vec::is_empty)) => {}
                        None => out.push(refusal(&here, k)),
                    }
                }
            }
            Value::Null => {}
            _ => out.push(format!("`{}` must be an object", shown(at))),
        },
        Typed(types) => {
            let ty = v.get("@type").and_then(Value::as_str).unwrap_or("");
            match types.iter().find(|(t, _)| *t == ty) {
                Some((_, r)) => {
                    let mut rest = v.clone();
                    if let Some(m) = rest.as_object_mut() {
                        m.remove("@type");
                    }
                    walk(&rest, r, at, out);
                }
                None => out.push(format!("`{}` has the extension type `{ty}`, which is not allowed here", shown(at))),
            }
        }
    }
}

fn shown(at: &str) -> &str {
    if at.is_empty() { "." } else { at }
}

fn refusal(at: &str, key: &str) -> String {
    match why_refused(key) {
        Some(why) => format!("`{at}` is not allowed: {why}"),
        None => format!("{UNKNOWN}{at}"),
    }
}

/// Why a key is refused for what it would do; `None` for a key merely unknown.
fn why_refused(key: &str) -> Option<&'static str> {
    Some(match key {
        "listeners" => "listeners open ports",
        "secrets" => "static secrets read key material",
        "access_log" | "access_log_path" => "access logs write files",
        "profile_path" => "it writes profiles to a file",
        "transport_socket" => "transport sockets read certificate files",
        "layered_runtime" | "runtime" => "runtime layers can read directories",
        "path" | "path_config_source" | "filename" => "it names a file Envoy would read",
        "google_grpc" => "Google gRPC can read credential files",
        "health_checks" | "outlier_detection" => "it can write event logs",
        "stats_sinks" | "tracing" => "it sends data out",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn refuses_what_writes_or_listens() {
        let b = json!({
            "admin": {"access_log": [{"name": "x", "typed_config": {"path": "/tmp/x"}}], "address": {"socket_address": {"address": "127.0.0.1", "port_value": 9982}}},
            "static_resources": {"listeners": [{"name": "l"}], "clusters": [{"name": "a", "transport_socket": {}}]}
        });
        let r = screen(&b).unwrap_err();
        assert!(r.iter().any(|m| m.contains(".admin.access_log")), "{r:?}");
        assert!(r.iter().any(|m| m.contains(".static_resources.listeners")), "{r:?}");
        assert!(r.iter().any(|m| m.contains("transport_socket")), "{r:?}");
    }

    #[test]
    fn harmless_logs_options_and_durations_pass() {
        let b = json!({
            "admin": {"access_log_path": "/dev/null", "access_log": [{"name": "stdout", "typed_config": {
                "@type": "type.googleapis.com/envoy.extensions.access_loggers.stream.v3.StdoutAccessLog"}}]},
            "dynamic_resources": {"cds_config": {"ads": {}, "initial_fetch_timeout": {"seconds": 0}}},
            "static_resources": {"clusters": [{"name": "a", "common_lb_config": {}, "connect_timeout": {"seconds": 1, "nanos": 0}}]}
        });
        assert_eq!(screen(&b), Ok(()));
    }

    #[test]
    fn the_admin_log_files_of_envoys_examples_pass() {
        // Their paths become /dev/null in the grader's copy (logs.rs).
        let b = json!({"admin": {"access_log_path": "/tmp/admin_access.log", "access_log": [{"name": "envoy.access_loggers.file",
            "typed_config": {"@type": crate::envoy::logs::FILE_ACCESS_LOG, "path": "/tmp/admin.log"}}]}});
        assert_eq!(screen(&b), Ok(()));
    }

    #[test]
    fn log_options_that_read_files_are_refused() {
        for ty in [crate::envoy::logs::FILE_ACCESS_LOG, "type.googleapis.com/envoy.extensions.access_loggers.stream.v3.StdoutAccessLog"] {
            let b = json!({"admin": {"access_log": [{"name": "f", "typed_config": {"@type": ty,
                "log_format": {"text_format_source": {"filename": "/etc/shadow"}}}}]}});
            let r = screen(&b).unwrap_err();
            assert!(r.iter().any(|m| m.contains("log_format")), "{r:?}");
        }
    }

    #[test]
    fn an_empty_list_of_what_is_refused_is_nothing() {
        let empty = json!({"static_resources": {"listeners": [], "secrets": null, "clusters": []}});
        assert_eq!(screen(&empty), Ok(()));
        let one = json!({"static_resources": {"listeners": [{}]}});
        assert!(screen(&one).unwrap_err()[0].contains("listeners open ports"));
        let misspelt = json!({"static_resources": {"listener": []}});
        assert!(screen(&misspelt).unwrap_err()[0].contains("`.static_resources.listener` is not a field"));
    }

    #[test]
    fn unknown_fields_are_said_together() {
        let b = json!({"nodes": {}, "admin": {"adress": {}}});
        assert_eq!(screen(&b).unwrap_err(), vec!["`.nodes` and `.admin.adress` are not fields this lab's bootstrap has there (check spelling and indentation)"]);
    }

    #[test]
    fn refuses_unknown_extension_types() {
        let b = json!({"static_resources": {"clusters": [{"name": "a", "typed_extension_protocol_options": {
            "envoy.extensions.upstreams.http.v3.HttpProtocolOptions": {"@type": "type.googleapis.com/envoy.extensions.filters.http.lua.v3.Lua"}}}]}});
        assert!(screen(&b).is_err());
    }
}
