//! Self-check equals CI: for a table of bootstraps Envoy accepts, a student's own Envoy,
//! started as the lab's step 6 says and probed, and an Envoy the grader launches give
//! the same status on every check. The student's later files are made from what their
//! own Envoy says (as the lab has them made), so they are right for that bootstrap: a
//! bootstrap's own mistakes cost step 4, and nothing else.

use crate::common::*;
use serde_json::{json, Value};
use std::collections::BTreeSet;
use std::path::PathBuf;

/// A lab environment and its reference submission.
struct Lab {
    submission: PathBuf,
    params: PathBuf,
    typo_cluster: &'static str,
}

fn lab(which: char) -> Lab {
    match which {
        'a' => Lab { submission: sample(), params: sample_lab(), typo_cluster: "istiod-xds" },
        'b' => Lab { submission: sample_b(), params: lab_b(), typo_cluster: "istiod-xds" },
        'c' => Lab { submission: fixture("ist2-boot-c"), params: fixture("lab-c/params.yaml"), typo_cluster: "xds-upstraem" },
        _ => Lab { submission: fixture("ist2-boot-d"), params: fixture("lab-d/params.yaml"), typo_cluster: "pilot_ads" },
    }
}

/// The student's submission for `lab` with its bootstrap changed by `change`: their
/// own boot-typo.yaml, validations and step-6 files, made with the real Envoy, on a
/// free admin port. Graded by a probe of their Envoy, then by a launch.
fn both_ways(lab: &Lab, change: impl Fn(&mut Value)) -> (Graded, Graded) {
    let c = Copy::of(&lab.submission);
    let mut boot: Value = serde_yaml::from_str(&c.read("bootstrap.yaml")).unwrap();
    change(&mut boot);
    let port = free_port();
    boot["admin"]["address"]["socket_address"]["port_value"] = json!(port);
    let mut typo = boot.clone();
    typo["dynamic_resources"]["ads_config"]["grpc_services"][0]["envoy_grpc"]["cluster_name"] = json!(lab.typo_cluster);
    c.write("bootstrap.yaml", serde_yaml::to_string(&boot).unwrap());
    c.write("boot-typo.yaml", serde_yaml::to_string(&typo).unwrap());
    student_validates(&c, "bootstrap.yaml", "04-validate.txt");
    student_validates(&c, "boot-typo.yaml", "05-typo.txt");
    let envoy = Student::start(&c.file("bootstrap.yaml"), port);
    student_reads(&c, port);
    let grade = || c.grade().params(&lab.params).param(&format!("admin_port={port}")).param(&format!("admin=http://127.0.0.1:{port}"));
    let probed = grade().run();
    let launched = grade().launch().run();
    drop(envoy);
    assert_same(&probed, &launched);
    (probed, launched)
}

/// Step 6 and the values of step 8 as the student makes them: from their own Envoy.
fn student_reads(c: &Copy, port: u16) {
    let get = |path: &str| -> (u16, String) {
        let agent: ureq::Agent = ureq::Agent::config_builder().http_status_as_error(false).build().into();
        let mut resp = agent.get(&format!("http://127.0.0.1:{port}{path}")).call().unwrap();
        (resp.status().as_u16(), resp.body_mut().read_to_string().unwrap())
    };
    let dump: Value = serde_json::from_str(&get("/config_dump").1).unwrap();
    let node = &dump["configs"][0]["bootstrap"]["node"];
    let node = json!({"id": node["id"], "cluster": node["cluster"], "metadata": node["metadata"]});
    c.write("06-node.json", serde_json::to_string_pretty(&node).unwrap() + "\n");
    let (code, body) = get("/ready");
    let stats = get("/stats?filter=^control_plane%5C.connected_state$").1;
    let state = stats.trim().strip_prefix("control_plane.connected_state: ").unwrap_or("");
    let body = body.trim_end();
    c.write("06-ready.txt", format!("ready_code={code}\nready_body={body}\nconnected_state={state}\n"));
    let rc = c.read("05-typo.txt").lines().last().unwrap().to_string();
    let report: Vec<String> = c
        .read("08-report.md")
        .lines()
        .map(|l| match l.split_once('=').map(|(k, _)| k) {
            Some("typo_rc") => format!("typo_{rc}"),
            Some("ready_without_istiod") => format!("ready_without_istiod={body}"),
            _ => l.to_string(),
        })
        .collect();
    c.write("08-report.md", report.join("\n") + "\n");
}

/// Every field name in lowerCamelCase, as protobuf's JSON spells it (`port_value` as
/// `portValue`); a name with a dot (an extension's) stays.
fn camel_case(v: &mut Value) {
    match v {
        Value::Array(items) => items.iter_mut().for_each(camel_case),
        Value::Object(map) => {
            let old = std::mem::take(map);
            for (k, mut v) in old {
                camel_case(&mut v);
                let k = if k.contains('.') { k } else {
                    let mut parts = k.split('_');
                    let first = parts.next().unwrap_or_default().to_string();
                    parts.fold(first, |acc, p| acc + &p[..1].to_uppercase() + &p[1..])
                };
                map.insert(k, v);
            }
        }
        _ => {}
    }
}

/// A named change to a bootstrap.
type Variant = (&'static str, fn(&mut Value));

fn steps(s: &[u64]) -> BTreeSet<u64> {
    s.iter().copied().collect()
}

fn cluster(boot: &mut Value) -> &mut Value {
    &mut boot["static_resources"]["clusters"][0]
}

#[test]
fn the_references_of_the_four_labs() {
    for which in ['a', 'b', 'c', 'd'] {
        let (probed, launched) = both_ways(&lab(which), |_| {});
        probed.assert_full_marks();
        launched.assert_full_marks();
    }
}

#[test]
fn allowed_variants_get_full_marks_both_ways() {
    let variants: Vec<Variant> = vec![
        ("legacy http2_protocol_options", |b| {
            let c = cluster(b).as_object_mut().unwrap();
            c.remove("typed_extension_protocol_options");
            c.insert("http2_protocol_options".into(), json!({}));
        }),
        ("DELTA_GRPC", |b| b["dynamic_resources"]["ads_config"]["api_type"] = json!("DELTA_GRPC")),
        ("api_type by number", |b| b["dynamic_resources"]["ads_config"]["api_type"] = json!(2)),
        ("durations as objects", |b| {
            for s in ["cds_config", "lds_config"] {
                b["dynamic_resources"][s]["initial_fetch_timeout"] = json!({"seconds": 0});
            }
            cluster(b)["connect_timeout"] = json!({"seconds": 1, "nanos": 0});
        }),
        ("a Duration with no fields, and one as text with decimals", |b| {
            b["dynamic_resources"]["lds_config"]["initial_fetch_timeout"] = json!({});
            b["dynamic_resources"]["cds_config"]["initial_fetch_timeout"] = json!("0.000s");
        }),
        ("ADS names the node on its first message only, on an extra static cluster", |b| {
            b["dynamic_resources"]["ads_config"]["set_node_on_first_message_only"] = json!(true);
            let extra = json!({"name": "prometheus_stats", "type": "STATIC", "connect_timeout": "0.250s", "load_assignment": {"cluster_name": "prometheus_stats",
                "endpoints": [{"lb_endpoints": [{"endpoint": {"address": {"socket_address": {"address": "127.0.0.1", "port_value": 15000}}}}]}]}});
            b["static_resources"]["clusters"].as_array_mut().unwrap().push(extra);
        }),
        ("the static resources' fields in lowerCamelCase", |b| {
            let o = b.as_object_mut().unwrap();
            let mut statics = o.remove("static_resources").unwrap();
            camel_case(&mut statics);
            o.insert("staticResources".into(), statics);
        }),
        ("metadata of other types", |b| {
            let m = b["node"]["metadata"].as_object_mut().unwrap();
            for (k, v) in [("REPLICAS", json!(3)), ("CANARY", json!(true)), ("TAGS", json!(["a", "b"])), ("LIMITS", json!({"cpu": 500})), ("RATIO", json!(1.5)), ("NOTE", Value::Null)] {
                m.insert(k.into(), v);
            }
        }),
        ("harmless extra fields", |b| {
            let o = b.as_object_mut().unwrap();
            o.insert("stats_config".into(), json!({"use_all_default_tags": false, "stats_tags": [{"tag_name": "x", "regex": "^x\\.(.*)$"}]}));
            o.insert("stats_flush_interval".into(), json!("10s"));
            o.insert("layered_runtime".into(), json!({"layers": [{"name": "static", "static_layer": {"overload.global_downstream_max_connections": 1000}}, {"name": "admin", "admin_layer": {}}]}));
            o.insert("cluster_manager".into(), json!({"enable_deferred_cluster_creation": false}));
            o.insert("overload_manager".into(), json!({"refresh_interval": "0.25s", "resource_monitors": [{"name": "envoy.resource_monitors.fixed_heap",
                "typed_config": {"@type": "type.googleapis.com/envoy.extensions.resource_monitors.fixed_heap.v3.FixedHeapConfig", "max_heap_size_bytes": 1073741824}}]}));
            b["node"]["locality"] = json!({"region": "lab", "zone": "a"});
            b["admin"]["access_log"] = json!([{"name": "envoy.access_loggers.stdout", "typed_config": {"@type": "type.googleapis.com/envoy.extensions.access_loggers.stream.v3.StdoutAccessLog"}}]);
            let options = &mut cluster(b)["typed_extension_protocol_options"]["envoy.extensions.upstreams.http.v3.HttpProtocolOptions"];
            options["common_http_protocol_options"] = json!({"idle_timeout": "3600s"});
            cluster(b)["circuit_breakers"] = json!({"thresholds": [{"max_connections": 100}]});
        }),
    ];
    for (name, change) in variants {
        let (probed, launched) = both_ways(&lab('a'), change);
        for g in [&probed, &launched] {
            let not: Vec<String> = g.checks().iter().filter(|c| c["status"] != "pass").map(|c| format!("{}: {}", c["id"], c["message"])).collect();
            assert!(not.is_empty(), "{name}:\n{}", not.join("\n"));
        }
    }
}

#[test]
fn a_bootstrap_mistake_costs_step_4_both_ways() {
    let variants: Vec<Variant> = vec![
        ("no initial_fetch_timeout", |b| {
            for s in ["cds_config", "lds_config"] {
                b["dynamic_resources"][s].as_object_mut().unwrap().remove("initial_fetch_timeout");
            }
        }),
        ("a second endpoint elsewhere", |b| {
            let eps = cluster(b)["load_assignment"]["endpoints"][0]["lb_endpoints"].as_array_mut().unwrap();
            eps.push(json!({"endpoint": {"address": {"socket_address": {"address": "127.0.0.1", "port_value": 15012}}}}));
        }),
        ("STATIC with an IP", |b| {
            cluster(b)["type"] = json!("STATIC");
            cluster(b)["load_assignment"]["endpoints"][0]["lb_endpoints"][0]["endpoint"]["address"]["socket_address"]["address"] = json!("127.0.0.1");
        }),
        ("no HTTP/2", |b| {
            cluster(b).as_object_mut().unwrap().remove("typed_extension_protocol_options");
        }),
        ("HTTP/1.1 options instead", |b| {
            let options = &mut cluster(b)["typed_extension_protocol_options"]["envoy.extensions.upstreams.http.v3.HttpProtocolOptions"]["explicit_http_config"];
            *options = json!({"http_protocol_options": {}});
        }),
        ("a 30 s initial_fetch_timeout", |b| b["dynamic_resources"]["lds_config"]["initial_fetch_timeout"] = json!("30s")),
        ("LOGICAL_DNS", |b| cluster(b)["type"] = json!("LOGICAL_DNS")),
        ("the loopback as the Pod IP", |b| {
            let id = b["node"]["id"].as_str().unwrap().split('~').enumerate().map(|(i, f)| if i == 1 { "127.0.0.1" } else { f }).collect::<Vec<_>>().join("~");
            b["node"]["id"] = json!(id);
        }),
        ("MESH_ID left out of node.metadata", |b| {
            b["node"]["metadata"].as_object_mut().unwrap().remove("MESH_ID");
        }),
    ];
    for (name, change) in variants {
        let (probed, _) = both_ways(&lab('a'), change);
        assert_eq!(probed.failing_steps(), steps(&[4]), "{name}: {:?}", probed.checks().iter().filter(|c| c["status"] == "fail").map(|c| format!("{}: {}", c["id"], c["message"])).collect::<Vec<_>>());
    }
}

#[test]
fn cds_and_lds_from_their_own_api_config_source_grade_alike() {
    // Not over ADS: step 4 says so, and only step 4. Envoy still runs it (ADS stays
    // configured, so `control_plane.connected_state` is there, besides the per-
    // subscription ones), and both modes read the same.
    let (probed, _) = both_ways(&lab('a'), |b| {
        let source = json!({"api_config_source": {"api_type": "GRPC", "transport_api_version": "V3",
            "grpc_services": [{"envoy_grpc": {"cluster_name": "xds-grpc"}}]}, "initial_fetch_timeout": "0s", "resource_api_version": "V3"});
        b["dynamic_resources"]["cds_config"] = source.clone();
        b["dynamic_resources"]["lds_config"] = source;
    });
    assert_eq!(probed.failing_steps(), steps(&[4]), "{:?}", probed.with("fail"));
}

#[test]
fn an_envoy_past_its_first_fetch_timeout_is_read_as_it_started() {
    // A 1 s wait: the student's Envoy turns LIVE after it, the state the student saw
    // is PRE_INITIALIZING. The probe sees it has run longer, and reads a fresh Envoy.
    let lab = lab('a');
    let c = Copy::of(&lab.submission);
    let mut boot: Value = serde_yaml::from_str(&c.read("bootstrap.yaml")).unwrap();
    for s in ["cds_config", "lds_config"] {
        boot["dynamic_resources"][s]["initial_fetch_timeout"] = json!("1s");
    }
    let port = free_port();
    boot["admin"]["address"]["socket_address"]["port_value"] = json!(port);
    for f in ["bootstrap.yaml", "boot-typo.yaml"] {
        let mut b = boot.clone();
        if f == "boot-typo.yaml" {
            b["dynamic_resources"]["ads_config"]["grpc_services"][0]["envoy_grpc"]["cluster_name"] = json!(lab.typo_cluster);
        }
        c.write(f, serde_yaml::to_string(&b).unwrap());
    }
    student_validates(&c, "bootstrap.yaml", "04-validate.txt");
    student_validates(&c, "boot-typo.yaml", "05-typo.txt");
    let envoy = Student::start(&c.file("bootstrap.yaml"), port);
    student_reads(&c, port);
    assert!(c.read("06-ready.txt").contains("ready_body=PRE_INITIALIZING"));
    std::thread::sleep(std::time::Duration::from_millis(3500));
    let grade = || c.grade().param(&format!("admin_port={port}"));
    let probed = grade().run();
    let launched = grade().launch().run();
    drop(envoy);
    assert_same(&probed, &launched);
    assert_eq!(probed.failing_steps(), steps(&[4]));
    let source = probed.report()["live_source"].as_str().unwrap().to_string();
    assert!(source.contains("an Envoy the grader launched") && source.contains("longer than your bootstrap.yaml lets it wait for its first configuration (1s: its shortest initial_fetch_timeout"), "{source}");
}

/// A student's admin on another local address (127.0.0.2, or any address): the probe
/// asks it there, on this machine only, and agrees with a launch.
#[test]
fn an_admin_on_another_local_address_is_probed_there() {
    let c = Copy::sample();
    let port = free_port();
    for f in ["bootstrap.yaml", "boot-typo.yaml"] {
        let text = c.read(f).replace("address: 127.0.0.1\n      port_value: 9982", &format!("address: 127.0.0.2\n      port_value: {port}"));
        assert!(text.contains("127.0.0.2"), "{f}: the sample's admin address moved");
        c.write(f, text);
    }
    let envoy = Student::start_at(&c.file("bootstrap.yaml"), "127.0.0.2", port);
    let probed = c.grade().param(&format!("admin_port={port}")).run();
    drop(envoy);
    let launched = c.grade().param(&format!("admin_port={port}")).launch().run();
    probed.assert_full_marks();
    assert_same(&probed, &launched);
}

/// Without `initial_fetch_timeout: 0s` (a step-4 mistake), Envoy turns Ready once the
/// default timeout passes, and a student who looked then wrote 200 and LIVE: step 6
/// and step 8 are not charged for what step 4 charges.
#[test]
fn a_missing_fetch_timeout_costs_step_4_alone_whenever_the_student_looked() {
    let c = Copy::sample();
    for f in ["bootstrap.yaml", "boot-typo.yaml"] {
        let text: String = c.read(f).lines().filter(|l| !l.contains("initial_fetch_timeout")).map(|l| format!("{l}\n")).collect();
        c.write(f, text);
    }
    c.edit("06-ready.txt", "ready_code=503", "ready_code=200")
        .edit("06-ready.txt", "ready_body=PRE_INITIALIZING", "ready_body=LIVE")
        .edit("08-report.md", "ready_without_istiod=PRE_INITIALIZING", "ready_without_istiod=LIVE");
    let g = c.grade().launch().run();
    assert_eq!(g.failing_steps(), [4].into(), "{:?}", g.with("fail"));
    for id in ["ready.code_live", "ready.body_live"] {
        assert_eq!(g.status(id), "skip", "{id}: {}", g.message(id));
        assert!(g.message(id).contains("initial_fetch_timeout") && g.message(id).contains("(step 4) charges it"), "{}", g.message(id));
    }
    assert_eq!(g.status("report.ready_body"), "pass");
}

/// A key said twice in the bootstrap, which Envoy takes (the last one wins): read as
/// Envoy reads it, full marks when the last is right, and no step charged for it.
#[test]
fn a_key_said_twice_in_the_bootstrap_reads_as_envoy_reads_it() {
    let c = Copy::sample();
    for f in ["bootstrap.yaml", "boot-typo.yaml"] {
        let text = c.read(f);
        let line = text.lines().find(|l| l.trim_start().starts_with("connect_timeout:")).expect("a connect_timeout line").to_string();
        c.write(f, text.replacen(&line, &format!("{line}\n{line}"), 1));
    }
    let g = c.grade().launch().run();
    g.assert_full_marks();
    // The last wins, as in Envoy: a wrong last port is the finding.
    c.edit("bootstrap.yaml", "      port_value: 9982\n", "      port_value: 9982\n      port_value: 9901\n");
    let g = c.grade().launch().run();
    assert_eq!(g.status("bootstrap.admin_port"), "fail", "{}", g.message("bootstrap.admin_port"));
}
