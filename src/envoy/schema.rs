//! The places in an Envoy bootstrap (envoy.config.bootstrap.v3.Bootstrap, Envoy 1.40)
//! where Envoy would read or write a file, open a port, connect somewhere, or wait for
//! a configuration server: the screen's map (`screen.rs`).
//!
//! Only the messages leading to such a place are listed, and in each only the fields
//! that lead there; every other field is data to the screen, which only looks into it
//! for extensions (an object with `@type`, a `google.protobuf.Any`: `ANY` below says
//! which are run). A field not listed is either data or not a field at all, and then
//! Envoy refuses it in its own words. `Struct` fields are listed as `Opaque`: their
//! keys are data, and an `@type` there is no extension.
//!
//! Made by walking Envoy 1.40's own descriptors (embedded in the binary) from Bootstrap
//! and from each type in `ANY`, and reading every string field, address, data source,
//! config source and extension point found: see docs/live-envoy.md. Listeners are not
//! walked: any listener is refused.

/// What the screen does with one field of a message it knows.
pub enum Field {
    /// A message (or a list of them) the screen looks into.
    Msg(&'static Message),
    /// A map whose values are such messages.
    Map(&'static Message),
    /// Data whatever it holds (google.protobuf.Struct).
    Opaque,
    /// Refused when set: it would have Envoy do this.
    Refuse(Risk),
    /// A path Envoy writes to: /dev/null in the grader's copies.
    DevNull,
    /// An address Envoy connects to: 127.0.0.1 in the grader's copies, and a closed
    /// port in a launched one.
    Connect,
    /// A port that overrides the port of an address Envoy connects to (health checks
    /// sent to another port of the endpoint's host): taken out of a launched Envoy's
    /// copy, so that they reach the closed port too.
    ConnectPort,
    /// `initial_fetch_timeout` of a config source.
    FetchTimeout,
    /// How Envoy sets up its own sockets (a source address to bind, even a privileged
    /// port on 0.0.0.0; socket options, set as root): looked into as the message, and
    /// taken out of a launched Envoy's copy, where nothing the checks read needs it.
    LocalSocket(&'static Message),
}

/// Why a field is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Risk {
    ReadsFiles,
    Listens,
    Connects,
}

pub struct Message {
    pub name: &'static str,
    pub fields: &'static [(&'static str, Field)],
}

use Field::*;
use Risk::*;

macro_rules! message {
    ($id:ident, $name:literal, [$($field:literal => $rule:expr),* $(,)?]) => {
        pub static $id: Message = Message { name: $name, fields: &[$(($field, $rule)),*] };
    };
}

message!(BOOTSTRAP, "envoy.config.bootstrap.v3.Bootstrap", [
    "node" => Msg(&NODE),
    "static_resources" => Msg(&STATIC_RESOURCES),
    "dynamic_resources" => Msg(&DYNAMIC_RESOURCES),
    "cluster_manager" => Msg(&CLUSTER_MANAGER),
    "hds_config" => Msg(&API_CONFIG_SOURCE),
    "flags_path" => Refuse(ReadsFiles),
    "layered_runtime" => Msg(&LAYERED_RUNTIME),
    "admin" => Msg(&ADMIN),
    "dns_resolution_config" => Msg(&DNS_RESOLUTION_CONFIG),
    "config_sources" => Msg(&CONFIG_SOURCE),
    "default_config_source" => Msg(&CONFIG_SOURCE),
    "perf_tracing_file_path" => DevNull,
    "application_log_config" => Msg(&APPLICATION_LOG_CONFIG),
]);

message!(NODE, "envoy.config.core.v3.Node", [
    "metadata" => Opaque,
    "user_agent_build_version" => Msg(&BUILD_VERSION),
]);

message!(BUILD_VERSION, "envoy.config.core.v3.BuildVersion", ["metadata" => Opaque]);

// Admin's own address is the grader's to set: overridden in a launch, unused in validation.
message!(ADMIN, "envoy.config.bootstrap.v3.Admin", [
    "access_log_path" => DevNull,
    "profile_path" => DevNull,
    "address" => Msg(&ADDRESS),
    "socket_options" => LocalSocket(&SOCKET_OPTION),
]);

message!(SOCKET_OPTION, "envoy.config.core.v3.SocketOption", []);

message!(ADDRESS, "envoy.config.core.v3.Address", ["socket_address" => Msg(&SOCKET_ADDRESS)]);

message!(SOCKET_ADDRESS, "envoy.config.core.v3.SocketAddress", [
    // A resolver of another name may reach out on its own (reverse connections).
    "resolver_name" => Refuse(Connects),
    "network_namespace_filepath" => Refuse(ReadsFiles),
]);

message!(STATIC_RESOURCES, "envoy.config.bootstrap.v3.Bootstrap.StaticResources", [
    "listeners" => Refuse(Listens),
    "clusters" => Msg(&CLUSTER),
    "secrets" => Msg(&SECRET),
]);

message!(DYNAMIC_RESOURCES, "envoy.config.bootstrap.v3.Bootstrap.DynamicResources", [
    "lds_config" => Msg(&CONFIG_SOURCE),
    "cds_config" => Msg(&CONFIG_SOURCE),
    // xDS-TP collection locators: `file://` has Envoy read (or block on) any file.
    "lds_resources_locator" => Refuse(ReadsFiles),
    "cds_resources_locator" => Refuse(ReadsFiles),
    "ads_config" => Msg(&API_CONFIG_SOURCE),
]);

message!(CONFIG_SOURCE, "envoy.config.core.v3.ConfigSource", [
    "path" => Refuse(ReadsFiles),
    "path_config_source" => Refuse(ReadsFiles),
    "api_config_source" => Msg(&API_CONFIG_SOURCE),
    "initial_fetch_timeout" => FetchTimeout,
]);

// Its clusters are static clusters, whose endpoints are the grader's to point.
message!(API_CONFIG_SOURCE, "envoy.config.core.v3.ApiConfigSource", ["grpc_services" => Msg(&GRPC_SERVICE)]);

message!(GRPC_SERVICE, "envoy.config.core.v3.GrpcService", [
    // Connects to its own target, and may read credential files.
    "google_grpc" => Refuse(Connects),
]);

message!(CLUSTER, "envoy.config.cluster.v3.Cluster", [
    "eds_cluster_config" => Msg(&EDS_CLUSTER_CONFIG),
    "load_assignment" => Msg(&LOAD_ASSIGNMENT),
    "health_checks" => Msg(&HEALTH_CHECK),
    "dns_resolvers" => Msg(&ADDRESS),
    "dns_resolution_config" => Msg(&DNS_RESOLUTION_CONFIG),
    "upstream_bind_config" => LocalSocket(&BIND_CONFIG),
    "metadata" => Msg(&METADATA),
    "filters" => Msg(&CLUSTER_FILTER),
    "lrs_server" => Msg(&CONFIG_SOURCE),
    "transport_socket_matches" => Msg(&TRANSPORT_SOCKET_MATCH),
    "lb_subset_config" => Msg(&LB_SUBSET_CONFIG),
]);

message!(EDS_CLUSTER_CONFIG, "envoy.config.cluster.v3.Cluster.EdsClusterConfig", ["eds_config" => Msg(&CONFIG_SOURCE)]);

message!(TRANSPORT_SOCKET_MATCH, "envoy.config.cluster.v3.Cluster.TransportSocketMatch", ["match" => Opaque]);

message!(LB_SUBSET_CONFIG, "envoy.config.cluster.v3.Cluster.LbSubsetConfig", ["default_subset" => Opaque]);

message!(LOAD_ASSIGNMENT, "envoy.config.endpoint.v3.ClusterLoadAssignment", [
    "endpoints" => Msg(&LOCALITY_LB_ENDPOINTS),
    "named_endpoints" => Map(&ENDPOINT),
]);

message!(LOCALITY_LB_ENDPOINTS, "envoy.config.endpoint.v3.LocalityLbEndpoints", [
    "metadata" => Msg(&METADATA),
    "lb_endpoints" => Msg(&LB_ENDPOINT),
    "load_balancer_endpoints" => Msg(&LB_ENDPOINT_LIST),
    "leds_cluster_locality_config" => Msg(&LEDS_CONFIG),
]);

message!(LB_ENDPOINT_LIST, "envoy.config.endpoint.v3.LocalityLbEndpoints.LbEndpointList", ["lb_endpoints" => Msg(&LB_ENDPOINT)]);

message!(LEDS_CONFIG, "envoy.config.endpoint.v3.LedsClusterLocalityConfig", ["leds_config" => Msg(&CONFIG_SOURCE)]);

message!(LB_ENDPOINT, "envoy.config.endpoint.v3.LbEndpoint", [
    "endpoint" => Msg(&ENDPOINT),
    "metadata" => Msg(&METADATA),
]);

message!(ENDPOINT, "envoy.config.endpoint.v3.Endpoint", [
    "address" => Connect,
    "health_check_config" => Msg(&HEALTH_CHECK_CONFIG),
    "additional_addresses" => Msg(&ADDITIONAL_ADDRESS),
]);

message!(HEALTH_CHECK_CONFIG, "envoy.config.endpoint.v3.Endpoint.HealthCheckConfig", ["address" => Connect, "port_value" => ConnectPort]);

message!(ADDITIONAL_ADDRESS, "envoy.config.endpoint.v3.Endpoint.AdditionalAddress", ["address" => Connect]);

message!(METADATA, "envoy.config.core.v3.Metadata", ["filter_metadata" => Opaque]);

message!(HEALTH_CHECK, "envoy.config.core.v3.HealthCheck", [
    "event_log_path" => DevNull,
    "event_service" => Msg(&EVENT_SERVICE_CONFIG),
    "tcp_health_check" => Msg(&TCP_HEALTH_CHECK),
    "transport_socket_match_criteria" => Opaque,
]);

message!(TCP_HEALTH_CHECK, "envoy.config.core.v3.HealthCheck.TcpHealthCheck", ["proxy_protocol_config" => Msg(&PROXY_PROTOCOL_CONFIG)]);

message!(PROXY_PROTOCOL_CONFIG, "envoy.config.core.v3.ProxyProtocolConfig", ["added_tlvs" => Msg(&TLV_ENTRY)]);

message!(TLV_ENTRY, "envoy.config.core.v3.TlvEntry", ["format_string" => Msg(&SUBSTITUTION_FORMAT_STRING)]);

message!(EVENT_SERVICE_CONFIG, "envoy.config.core.v3.EventServiceConfig", ["grpc_service" => Msg(&GRPC_SERVICE)]);

message!(DNS_RESOLUTION_CONFIG, "envoy.config.core.v3.DnsResolutionConfig", ["resolvers" => Msg(&ADDRESS)]);

message!(BIND_CONFIG, "envoy.config.core.v3.BindConfig", [
    "source_address" => Msg(&SOCKET_ADDRESS),
    "extra_source_addresses" => Msg(&EXTRA_SOURCE_ADDRESS),
    "additional_source_addresses" => Msg(&SOCKET_ADDRESS),
]);

message!(EXTRA_SOURCE_ADDRESS, "envoy.config.core.v3.ExtraSourceAddress", ["address" => Msg(&SOCKET_ADDRESS)]);

message!(CLUSTER_FILTER, "envoy.config.cluster.v3.Filter", ["config_discovery" => Msg(&EXTENSION_CONFIG_SOURCE)]);

message!(EXTENSION_CONFIG_SOURCE, "envoy.config.core.v3.ExtensionConfigSource", ["config_source" => Msg(&CONFIG_SOURCE)]);

message!(SECRET, "envoy.extensions.transport_sockets.tls.v3.Secret", [
    "tls_certificate" => Msg(&TLS_CERTIFICATE),
    "session_ticket_keys" => Msg(&TLS_SESSION_TICKET_KEYS),
    "validation_context" => Msg(&CERTIFICATE_VALIDATION_CONTEXT),
    "generic_secret" => Msg(&GENERIC_SECRET),
]);

message!(TLS_CERTIFICATE, "envoy.extensions.transport_sockets.tls.v3.TlsCertificate", [
    "certificate_chain" => Msg(&DATA_SOURCE),
    "private_key" => Msg(&DATA_SOURCE),
    "pkcs12" => Msg(&DATA_SOURCE),
    "watched_directory" => Refuse(ReadsFiles),
    "password" => Msg(&DATA_SOURCE),
    "ocsp_staple" => Msg(&DATA_SOURCE),
    "signed_certificate_timestamp" => Msg(&DATA_SOURCE),
]);

message!(TLS_SESSION_TICKET_KEYS, "envoy.extensions.transport_sockets.tls.v3.TlsSessionTicketKeys", ["keys" => Msg(&DATA_SOURCE)]);

message!(CERTIFICATE_VALIDATION_CONTEXT, "envoy.extensions.transport_sockets.tls.v3.CertificateValidationContext", [
    "trusted_ca" => Msg(&DATA_SOURCE),
    "watched_directory" => Refuse(ReadsFiles),
    "crl" => Msg(&DATA_SOURCE),
]);

message!(GENERIC_SECRET, "envoy.extensions.transport_sockets.tls.v3.GenericSecret", [
    "secret" => Msg(&DATA_SOURCE),
    "secrets" => Map(&DATA_SOURCE),
]);

message!(DATA_SOURCE, "envoy.config.core.v3.DataSource", [
    "filename" => Refuse(ReadsFiles),
    // The grader's own environment is no submission's to read.
    "environment_variable" => Refuse(ReadsFiles),
    "watched_directory" => Refuse(ReadsFiles),
]);

message!(CLUSTER_MANAGER, "envoy.config.bootstrap.v3.ClusterManager", [
    "outlier_detection" => Msg(&CLUSTER_MANAGER_OUTLIER_DETECTION),
    "upstream_bind_config" => LocalSocket(&BIND_CONFIG),
    "load_stats_config" => Msg(&API_CONFIG_SOURCE),
]);

message!(CLUSTER_MANAGER_OUTLIER_DETECTION, "envoy.config.bootstrap.v3.ClusterManager.OutlierDetection", [
    "event_log_path" => DevNull,
    "event_service" => Msg(&EVENT_SERVICE_CONFIG),
]);

message!(LAYERED_RUNTIME, "envoy.config.bootstrap.v3.LayeredRuntime", ["layers" => Msg(&RUNTIME_LAYER)]);

message!(RUNTIME_LAYER, "envoy.config.bootstrap.v3.RuntimeLayer", [
    "static_layer" => Opaque,
    "disk_layer" => Refuse(ReadsFiles),
    "rtds_layer" => Msg(&RTDS_LAYER),
]);

message!(RTDS_LAYER, "envoy.config.bootstrap.v3.RuntimeLayer.RtdsLayer", ["rtds_config" => Msg(&CONFIG_SOURCE)]);

message!(APPLICATION_LOG_CONFIG, "envoy.config.bootstrap.v3.Bootstrap.ApplicationLogConfig", ["log_format" => Msg(&APPLICATION_LOG_FORMAT)]);

message!(APPLICATION_LOG_FORMAT, "envoy.config.bootstrap.v3.Bootstrap.ApplicationLogConfig.LogFormat", ["json_format" => Opaque]);

message!(SUBSTITUTION_FORMAT_STRING, "envoy.config.core.v3.SubstitutionFormatString", [
    "text_format_source" => Msg(&DATA_SOURCE),
    "json_format" => Opaque,
]);

// ---- The extensions the grader runs, and what is in them -------------------------

message!(FILE_ACCESS_LOG, "envoy.extensions.access_loggers.file.v3.FileAccessLog", [
    "path" => DevNull,
    "log_format" => Msg(&SUBSTITUTION_FORMAT_STRING),
    "json_format" => Opaque,
    "typed_json_format" => Opaque,
]);

message!(STREAM_ACCESS_LOG, "envoy.extensions.access_loggers.stream.v3.StdoutAccessLog", ["log_format" => Msg(&SUBSTITUTION_FORMAT_STRING)]);

message!(HTTP_PROTOCOL_OPTIONS, "envoy.extensions.upstreams.http.v3.HttpProtocolOptions", ["http_filters" => Msg(&HTTP_FILTER)]);

message!(HTTP_FILTER, "envoy.extensions.filters.network.http_connection_manager.v3.HttpFilter", ["config_discovery" => Msg(&EXTENSION_CONFIG_SOURCE)]);

message!(CARES_DNS_RESOLVER, "envoy.extensions.network.dns_resolver.cares.v3.CaresDnsResolverConfig", ["resolvers" => Msg(&ADDRESS)]);

/// The extension types (`@type`, after its last `/`) the grader runs: harmless ones a
/// bootstrap of the kind labs ask for may hold, with what to look into, if anything.
/// Any other is refused: an extension is code (Lua, Wasm, tracers, stats sinks, ...).
pub static ANY: &[(&str, Option<&Message>)] = &[
    ("envoy.extensions.upstreams.http.v3.HttpProtocolOptions", Some(&HTTP_PROTOCOL_OPTIONS)),
    ("envoy.extensions.upstreams.tcp.v3.TcpProtocolOptions", None),
    ("envoy.extensions.access_loggers.file.v3.FileAccessLog", Some(&FILE_ACCESS_LOG)),
    ("envoy.extensions.access_loggers.stream.v3.StdoutAccessLog", Some(&STREAM_ACCESS_LOG)),
    ("envoy.extensions.access_loggers.stream.v3.StderrAccessLog", Some(&STREAM_ACCESS_LOG)),
    ("envoy.extensions.transport_sockets.raw_buffer.v3.RawBuffer", None),
    ("envoy.extensions.load_balancing_policies.round_robin.v3.RoundRobin", None),
    ("envoy.extensions.load_balancing_policies.least_request.v3.LeastRequest", None),
    ("envoy.extensions.load_balancing_policies.random.v3.Random", None),
    ("envoy.extensions.load_balancing_policies.ring_hash.v3.RingHash", None),
    ("envoy.extensions.load_balancing_policies.maglev.v3.Maglev", None),
    ("envoy.extensions.network.dns_resolver.cares.v3.CaresDnsResolverConfig", Some(&CARES_DNS_RESOLVER)),
    ("envoy.extensions.network.dns_resolver.getaddrinfo.v3.GetAddrInfoDnsResolverConfig", None),
    ("envoy.extensions.regex_engines.v3.GoogleRE2", None),
    ("envoy.extensions.resource_monitors.fixed_heap.v3.FixedHeapConfig", None),
    ("envoy.extensions.resource_monitors.downstream_connections.v3.DownstreamConnectionsConfig", None),
    ("envoy.extensions.http.header_formatters.preserve_case.v3.PreserveCaseFormatterConfig", None),
    ("envoy.extensions.clusters.aggregate.v3.ClusterConfig", None),
];

/// Extension types whose config is another type's, named inside (`type_url`, `value`).
pub const TYPED_STRUCTS: &[&str] = &["udpa.type.v1.TypedStruct", "xds.type.v3.TypedStruct"];

impl Message {
    /// The rule for `key`, which Envoy may spell as the proto name (`access_log_path`)
    /// or in JSON's camel case (`accessLogPath`). Matched loosely (case and `_` aside),
    /// so that no spelling Envoy takes can slip past; one it does not take, it refuses.
    pub fn field(&self, key: &str) -> Option<&Field> {
        self.fields.iter().find(|(name, _)| loosely_equal(name, key)).map(|(_, f)| f)
    }
}

/// The same field name, case and `_` aside: `name` is a proto field name (lower case).
pub fn loosely_equal(name: &str, key: &str) -> bool {
    let mut k = key.bytes().filter(|b| *b != b'_').map(|b| b.to_ascii_lowercase());
    name.bytes().filter(|b| *b != b'_').all(|n| k.next() == Some(n)) && k.next().is_none()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_field_is_found_in_either_spelling_envoy_takes() {
        assert!(matches!(ADMIN.field("access_log_path"), Some(DevNull)));
        assert!(matches!(ADMIN.field("accessLogPath"), Some(DevNull)));
        assert!(matches!(ADMIN.field("ACCESS_LOG_PATH"), Some(DevNull)));
        assert!(ADMIN.field("access_log").is_none());
        assert!(ADMIN.field("access_log_paths").is_none());
    }
}
