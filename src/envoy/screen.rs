//! Screening a submitted bootstrap before Envoy sees it, for the grading machine's
//! safety, and finding the places the grader's copies change.
//!
//! A bootstrap is code: even `envoy --mode validate` creates the files its access logs
//! name, and a launched Envoy opens the listeners it declares. The screen is about
//! safety only, not about what a lab asks for: it refuses what would have Envoy read
//! files, open ports, connect to a server the grader does not control, or run an
//! extension it does not know; the paths Envoy would write to (`logs.rs`) and the
//! addresses it would connect to (`offline.rs`) are changed in the grader's copies
//! instead. Everything else, a field Envoy takes or one it refuses in its own words,
//! is Envoy's to judge. Where those places are, field by field, is `schema.rs`.

use super::schema::{self, Field, Message, Risk};
use serde_json::{Map, Value};

/// Why a bootstrap is not given to Envoy: a place, and what it would have Envoy do.
#[derive(Debug, Clone, PartialEq)]
pub struct Refusal {
    /// The place, as `.static_resources.listeners`.
    pub field: String,
    pub why: Why,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Why {
    Risk(Risk),
    /// An extension the grader does not run, by its type name.
    Extension(String),
    /// More than the grader gives one Envoy (`weight.rs`), said in full.
    Weight(String),
}

/// One field of one object of a bootstrap, which may be absent.
#[derive(Debug, Clone, PartialEq)]
pub struct Place {
    /// JSON pointer to the object holding the field.
    pub holder: String,
    /// The key as written, or the proto name when it is absent.
    pub key: String,
    /// How a student reads the field: `.admin.access_log_path`.
    pub shown: String,
}

/// An address Envoy would connect to.
#[derive(Debug, Clone, PartialEq)]
pub struct Connect {
    pub place: Place,
    /// The field holds an endpoint (`{address: ...}`) rather than an address: an lb
    /// endpoint written without one.
    pub endpoint: bool,
    /// Whether its cluster resolves names (it is not STATIC).
    pub resolves_names: bool,
}

/// What the walk found.
#[derive(Debug, Default)]
pub struct Places {
    pub refusals: Vec<Refusal>,
    /// Paths Envoy writes to.
    pub dev_null: Vec<Place>,
    pub connects: Vec<Connect>,
    /// Ports that override a connect place's port.
    pub ports: Vec<Place>,
    /// Every config source's `initial_fetch_timeout`, set or not.
    pub fetch_timeouts: Vec<Place>,
    /// How Envoy would bind and set up its own sockets (see `Field::LocalSocket`).
    pub local_sockets: Vec<Place>,
}

/// The bootstrap's places, or why it must not be given to Envoy.
pub fn screen(data: &Value) -> Result<Places, Vec<Refusal>> {
    if let Err(too_heavy) = super::weight::check(data) {
        return Err(vec![Refusal { field: String::new(), why: Why::Weight(too_heavy) }]);
    }
    let places = places(data);
    if places.refusals.is_empty() { Ok(places) } else { Err(places.refusals) }
}

/// Every place of the bootstrap the screen knows, refused or not.
pub fn places(data: &Value) -> Places {
    let mut walk = Walk { out: Places::default(), resolves_names: true };
    walk.message(data, &schema::BOOTSTRAP, "", "");
    walk.out
}

struct Walk {
    out: Places,
    /// Within a cluster: whether it resolves the names of its endpoints.
    resolves_names: bool,
}

impl Walk {
    /// `v` as the message `msg`, at `pointer` (JSON pointer) and `shown` (dotted path).
    fn message(&mut self, v: &Value, msg: &'static Message, pointer: &str, shown: &str) {
        let obj = match v {
            Value::Object(obj) => obj,
            // A list where one is expected; anything else is Envoy's to refuse.
            Value::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    self.message(item, msg, &format!("{pointer}/{i}"), &format!("{shown}[{i}]"));
                }
                return;
            }
            _ => return,
        };
        let outer = self.resolves_names;
        if std::ptr::eq(msg, &schema::CLUSTER) {
            self.resolves_names = resolves_names(obj);
        }
        self.absent_places(obj, msg, pointer, shown);
        for (key, value) in obj {
            let (ptr, at) = (format!("{pointer}/{}", escape(key)), format!("{shown}.{key}"));
            let place = || Place { holder: pointer.to_string(), key: key.clone(), shown: at.clone() };
            match msg.field(key) {
                Some(Field::Msg(m)) => self.message(value, m, &ptr, &at),
                Some(Field::Map(m)) => {
                    for (k, item) in value.as_object().into_iter().flatten() {
                        self.message(item, m, &format!("{ptr}/{}", escape(k)), &format!("{at}.{k}"));
                    }
                }
                Some(Field::Opaque) => {}
                Some(Field::Refuse(risk)) if is_set(value) => self.out.refusals.push(Refusal { field: at.clone(), why: Why::Risk(*risk) }),
                Some(Field::Refuse(_)) => {}
                Some(Field::DevNull) => self.out.dev_null.push(place()),
                Some(Field::Connect) => self.out.connects.push(Connect { place: place(), endpoint: false, resolves_names: self.resolves_names }),
                Some(Field::ConnectPort) => self.out.ports.push(place()),
                Some(Field::FetchTimeout) => self.out.fetch_timeouts.push(place()),
                Some(Field::LocalSocket(m)) => {
                    self.out.local_sockets.push(place());
                    self.message(value, m, &ptr, &at);
                }
                None => self.scan(value, &ptr, &at),
            }
        }
        self.resolves_names = outer;
    }

    /// The places a field makes even when it is not written: an lb endpoint without an
    /// endpoint or address (Envoy would look up the empty name), and a config source
    /// without its fetch timeout (Envoy then waits 15 s).
    fn absent_places(&mut self, obj: &Map<String, Value>, msg: &'static Message, pointer: &str, shown: &str) {
        // Null is not set, to Envoy; the key keeps its spelling.
        let written = |name: &str| obj.iter().find(|(k, _)| schema::loosely_equal(name, k));
        let absent = |name: &str| written(name).is_none_or(|(_, v)| v.is_null());
        let place = |name: &str| {
            let key = written(name).map_or(name, |(k, _)| k.as_str());
            Place { holder: pointer.to_string(), key: key.to_string(), shown: format!("{shown}.{key}") }
        };
        if std::ptr::eq(msg, &schema::LB_ENDPOINT) && absent("endpoint") {
            self.out.connects.push(Connect { place: place("endpoint"), endpoint: true, resolves_names: self.resolves_names });
        } else if std::ptr::eq(msg, &schema::ENDPOINT) && absent("address") {
            self.out.connects.push(Connect { place: place("address"), endpoint: false, resolves_names: self.resolves_names });
        } else if std::ptr::eq(msg, &schema::CONFIG_SOURCE) && absent("initial_fetch_timeout") {
            self.out.fetch_timeouts.push(place("initial_fetch_timeout"));
        }
    }

    /// A field the screen has no rule for: data, in which only extensions matter.
    fn scan(&mut self, v: &Value, pointer: &str, shown: &str) {
        match v {
            Value::Object(obj) if obj.contains_key("@type") => self.extension(obj, pointer, shown),
            Value::Object(obj) => {
                for (k, item) in obj {
                    self.scan(item, &format!("{pointer}/{}", escape(k)), &format!("{shown}.{k}"));
                }
            }
            Value::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    self.scan(item, &format!("{pointer}/{i}"), &format!("{shown}[{i}]"));
                }
            }
            _ => {}
        }
    }

    /// A `google.protobuf.Any`: run only if its type is one the grader knows, and then
    /// looked into as that type. A TypedStruct carries another type's config.
    fn extension(&mut self, obj: &Map<String, Value>, pointer: &str, shown: &str) {
        let ty = type_name(&obj["@type"]);
        let (ty, config, pointer, shown) = if schema::TYPED_STRUCTS.contains(&ty.as_str()) {
            let inner = obj.get("type_url").map(type_name).unwrap_or_default();
            (inner, obj.get("value").cloned().unwrap_or(Value::Null), format!("{pointer}/value"), format!("{shown}.value"))
        } else {
            let mut rest = obj.clone();
            rest.remove("@type");
            (ty, Value::Object(rest), pointer.to_string(), shown.to_string())
        };
        match schema::ANY.iter().find(|(name, _)| *name == ty) {
            Some((_, Some(msg))) => self.message(&config, msg, &pointer, &shown),
            Some((_, None)) => self.scan(&config, &pointer, &shown),
            None => self.out.refusals.push(Refusal { field: shown, why: Why::Extension(ty) }),
        }
    }
}

/// A type URL's type name: what follows its last `/`.
fn type_name(v: &Value) -> String {
    let text = v.as_str().map_or_else(|| v.to_string(), str::to_string);
    text.rsplit('/').next().unwrap_or_default().to_string()
}

/// Set, for a field refused when set: an empty list or a null is nothing (`listeners:
/// []` opens no port).
fn is_set(v: &Value) -> bool {
    !(v.is_null() || v.as_str() == Some("") || v.as_array().is_some_and(Vec::is_empty))
}

/// Whether a cluster resolves the names of its endpoints: every one but a STATIC one
/// (Envoy 1.40 reads `type` absent or null, `STATIC` in any case, `0` or `"0"` as
/// STATIC) and one of a custom type, which may.
fn resolves_names(cluster: &Map<String, Value>) -> bool {
    let field = |name: &str| cluster.iter().find(|(k, _)| schema::loosely_equal(name, k)).map(|(_, v)| v);
    let is_static = match field("type").unwrap_or(&Value::Null) {
        Value::Null => true,
        Value::Number(n) => n.as_i64() == Some(0),
        Value::String(s) => s.eq_ignore_ascii_case("STATIC") || s.trim().parse::<i64>() == Ok(0),
        _ => false,
    };
    !is_static || field("cluster_type").is_some_and(|t| !t.is_null())
}

/// A key as a JSON pointer step.
fn escape(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn refused(b: Value) -> Vec<(String, Why)> {
        places(&b).refusals.into_iter().map(|r| (r.field, r.why)).collect()
    }

    #[test]
    fn what_reads_listens_or_connects_is_refused_where_it_is() {
        let b = json!({
            "flags_path": "/etc",
            "static_resources": {"listeners": [{"name": "l"}], "clusters": [{"name": "a",
                "transport_socket": {"name": "t", "typed_config": {"@type": "type.googleapis.com/envoy.extensions.transport_sockets.tls.v3.UpstreamTlsContext"}}}]},
            "dynamic_resources": {"cds_config": {"path": "/etc/cds.yaml"}, "lds_resources_locator": "file:///etc/passwd",
                "cdsResourcesLocator": "file:///proc/self/environ",
                "ads_config": {"grpc_services": [{"google_grpc": {"target_uri": "evil.example:443"}}]}},
            "layered_runtime": {"layers": [{"name": "d", "disk_layer": {"symlink_root": "/srv"}}]},
        });
        assert_eq!(refused(b), vec![
            (".flags_path".into(), Why::Risk(Risk::ReadsFiles)),
            (".static_resources.listeners".into(), Why::Risk(Risk::Listens)),
            (".static_resources.clusters[0].transport_socket.typed_config".into(), Why::Extension("envoy.extensions.transport_sockets.tls.v3.UpstreamTlsContext".into())),
            (".dynamic_resources.cds_config.path".into(), Why::Risk(Risk::ReadsFiles)),
            (".dynamic_resources.lds_resources_locator".into(), Why::Risk(Risk::ReadsFiles)),
            (".dynamic_resources.cdsResourcesLocator".into(), Why::Risk(Risk::ReadsFiles)),
            (".dynamic_resources.ads_config.grpc_services[0].google_grpc".into(), Why::Risk(Risk::Connects)),
            (".layered_runtime.layers[0].disk_layer".into(), Why::Risk(Risk::ReadsFiles)),
        ]);
    }

    #[test]
    fn harmless_fields_envoy_takes_pass() {
        let b = json!({
            "node": {"id": "x", "metadata": {"path": "/not/a/file", "x": {"@type": "data, not an extension"}}, "locality": {"zone": "z"}},
            "stats_config": {"use_all_default_tags": false, "stats_matcher": {"reject_all": false}},
            "stats_flush_interval": "10s",
            "layered_runtime": {"layers": [{"name": "s", "static_layer": {"re2.max_program_size.error_level": 200}}, {"name": "a", "admin_layer": {}}]},
            "cluster_manager": {"local_cluster_name": "x", "outlier_detection": {"event_log_path": "/tmp/outlier.log"}},
            "overload_manager": {"resource_monitors": [{"name": "h", "typed_config": {"@type": "type.googleapis.com/envoy.extensions.resource_monitors.fixed_heap.v3.FixedHeapConfig", "max_heap_size_bytes": 1000000}}]},
            "dynamic_resources": {"cds_config": {"api_config_source": {"api_type": "GRPC", "grpc_services": [{"envoy_grpc": {"cluster_name": "xds-grpc"}}]}}},
            "static_resources": {"listeners": [], "secrets": null, "clusters": [{"name": "xds-grpc", "type": "STRICT_DNS",
                "circuit_breakers": {"thresholds": [{"max_connections": 10}]},
                "typed_extension_protocol_options": {"envoy.extensions.upstreams.http.v3.HttpProtocolOptions": {
                    "@type": "type.googleapis.com/envoy.extensions.upstreams.http.v3.HttpProtocolOptions",
                    "explicit_http_config": {"http_protocol_options": {"header_key_format": {"stateful_formatter": {"name": "p", "typed_config": {
                        "@type": "type.googleapis.com/envoy.extensions.http.header_formatters.preserve_case.v3.PreserveCaseFormatterConfig"}}}}}}},
                "transport_socket": {"name": "raw", "typed_config": {"@type": "type.googleapis.com/envoy.extensions.transport_sockets.raw_buffer.v3.RawBuffer"}}}]},
        });
        assert_eq!(refused(b), vec![]);
    }

    #[test]
    fn camel_case_spellings_are_the_same_fields() {
        let b = json!({"staticResources": {"Listeners": [{}]}, "adminX": {"accessLogPath": "/x"}, "admin": {"accessLogPath": "/tmp/a.log"}});
        let p = places(&b);
        assert_eq!(p.refusals, vec![Refusal { field: ".staticResources.Listeners".into(), why: Why::Risk(Risk::Listens) }]);
        assert_eq!(p.dev_null, vec![Place { holder: "/admin".into(), key: "accessLogPath".into(), shown: ".admin.accessLogPath".into() }]);
    }

    #[test]
    fn extensions_are_run_only_if_known_and_looked_into() {
        let lua = json!({"@type": "type.googleapis.com/envoy.extensions.filters.http.lua.v3.Lua"});
        let b = json!({"bootstrap_extensions": [{"name": "x", "typed_config": lua}]});
        assert_eq!(refused(b)[0].1, Why::Extension("envoy.extensions.filters.http.lua.v3.Lua".into()));
        // A known logger is looked into: its format may read a file.
        let log = json!({"admin": {"access_log": [{"name": "f", "typed_config": {"@type": "type.googleapis.com/envoy.extensions.access_loggers.file.v3.FileAccessLog",
            "path": "/tmp/a", "log_format": {"text_format_source": {"filename": "/etc/shadow"}}}}]}});
        let p = places(&log);
        assert_eq!(p.refusals[0].field, ".admin.access_log[0].typed_config.log_format.text_format_source.filename");
        assert_eq!(p.dev_null[0].shown, ".admin.access_log[0].typed_config.path");
        // A TypedStruct is the type it names.
        let wrapped = json!({"admin": {"access_log": [{"typed_config": {"@type": "type.googleapis.com/xds.type.v3.TypedStruct",
            "type_url": "type.googleapis.com/envoy.extensions.filters.http.lua.v3.Lua", "value": {}}}]}});
        assert_eq!(refused(wrapped)[0].1, Why::Extension("envoy.extensions.filters.http.lua.v3.Lua".into()));
        let wrapped_log = json!({"admin": {"access_log": [{"typed_config": {"@type": "udpa.type.v1.TypedStruct",
            "type_url": "envoy.extensions.access_loggers.file.v3.FileAccessLog", "value": {"path": "/tmp/b"}}}]}});
        assert_eq!(places(&wrapped_log).dev_null[0].holder, "/admin/access_log/0/typed_config/value");
    }

    #[test]
    fn every_address_envoy_would_connect_to_is_found() {
        let b = json!({"static_resources": {"clusters": [
            {"name": "dns", "type": "STRICT_DNS", "load_assignment": {"endpoints": [{"lb_endpoints": [
                {"endpoint": {"address": {"socket_address": {"address": "a", "port_value": 1}},
                    "health_check_config": {"address": {"socket_address": {"address": "b", "port_value": 2}}}}},
                {}]}]}},
            {"name": "static", "load_assignment": {"named_endpoints": {"n": {"address": {"pipe": {"path": "/run/x.sock"}}}}}}]}});
        let c: Vec<(String, bool, bool)> = places(&b).connects.into_iter().map(|c| (c.place.shown, c.endpoint, c.resolves_names)).collect();
        assert_eq!(c, vec![
            (".static_resources.clusters[0].load_assignment.endpoints[0].lb_endpoints[0].endpoint.address".into(), false, true),
            (".static_resources.clusters[0].load_assignment.endpoints[0].lb_endpoints[0].endpoint.health_check_config.address".into(), false, true),
            (".static_resources.clusters[0].load_assignment.endpoints[0].lb_endpoints[1].endpoint".into(), true, true),
            (".static_resources.clusters[1].load_assignment.named_endpoints.n.address".into(), false, false),
        ]);
    }

    #[test]
    fn every_config_source_has_its_fetch_timeout_place() {
        let b = json!({"dynamic_resources": {"cds_config": {"ads": {}, "initialFetchTimeout": "1s"}, "lds_config": {"ads": {}}}});
        let t: Vec<String> = places(&b).fetch_timeouts.into_iter().map(|p| p.shown).collect();
        assert_eq!(t, vec![".dynamic_resources.cds_config.initialFetchTimeout", ".dynamic_resources.lds_config.initial_fetch_timeout"]);
    }

    #[test]
    fn which_clusters_resolve_names() {
        for (ty, resolves) in [(json!("STRICT_DNS"), true), (json!("static"), false), (json!(0), false), (json!(" 00"), false), (Value::Null, false), (json!(1), true), (json!("x"), true)] {
            let c = json!({"type": ty});
            assert_eq!(resolves_names(c.as_object().unwrap()), resolves, "{ty}");
        }
        assert!(resolves_names(json!({"cluster_type": {"name": "x"}}).as_object().unwrap()));
    }
}
