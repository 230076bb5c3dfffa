//! The reference submissions score full marks, and one spec grades two lab
//! environments with different values correctly.


use crate::common::*;

#[test]
fn reference_scores_full_marks_with_a_launched_envoy() {
    Grade::sample().launch().run().assert_full_marks();
}

#[test]
fn second_lab_environment_is_graded_by_the_same_spec() {
    // External CA (ca_addr_same=no), other trust domain, cluster id, namespace, pod,
    // admin port, and the native sidecar layout.
    Grade::new(sample_b()).params(lab_b()).launch().run().assert_full_marks();
}

#[test]
fn lab_environments_with_other_injection_rules_are_graded_by_the_same_spec() {
    // C: a revisioned install (CA_ADDR istiod-<revision>), another cluster domain, token
    // audience, trust domain, mesh id and proxyMetadata; two application containers.
    Grade::new(fixture("ist2-boot-c")).params(fixture("lab-c/params.yaml")).launch().run().assert_full_marks();
    // D: log levels from the pod's sidecar.istio.io annotations, an app label that is
    // not the canonical name (node.cluster follows app), an external CA, a custom
    // injection template, and no `admin` param: it follows admin_port.
    Grade::new(fixture("ist2-boot-d")).params(fixture("lab-d/params.yaml")).launch().run().assert_full_marks();
}

#[test]
fn step_0_ties_inject_yaml_to_the_lab_files() {
    // Values steps 1, 2 and 7 copy from inject.yaml are each anchored to the lab here.
    let c = Copy::of(fixture("ist2-boot-c"));
    c.edit("inject.yaml", "$(POD_NAMESPACE).svc.acme.internal", "$(POD_NAMESPACE).svc.cluster.local")
        .edit("inject.yaml", "- name: PILOT_CERT_PROVIDER\n          value: istiod", "- name: PILOT_CERT_PROVIDER\n          value: kubernetes")
        .edit("inject.yaml", "- name: ISTIO_META_WORKLOAD_NAME\n          value: inventory", "- name: ISTIO_META_WORKLOAD_NAME\n          value: shop")
        .edit("inject.yaml", "audience: acme-ca", "audience: istio-ca")
        .edit("inject.yaml", "- name: ISTIO_META_DNS_AUTO_ALLOCATE\n          value: \"true\"", "- name: ISTIO_META_DNS_AUTO_ALLOCATE\n          value: \"false\"");
    let g = c.grade().params(fixture("lab-c/params.yaml")).no_envoy().run();
    for id in ["inject.domain", "inject.cert_provider", "inject.workload_name", "inject.token_volume", "inject.proxy_metadata"] {
        assert_eq!(g.status(id), "fail", "{id}");
    }
    // The variable that differs is named, with the value found and the one expected.
    assert_eq!((&g.check("inject.proxy_metadata")["found"], &g.check("inject.proxy_metadata")["expected"]), (&"false".into(), &"true".into()));
    assert!(g.message("inject.proxy_metadata").starts_with("`.ISTIO_META_DNS_AUTO_ALLOCATE` has another value: "), "{}", g.message("inject.proxy_metadata"));
    // What C's revision and D's annotations and labels make of the template, against
    // values from the sample's lab.
    let c = Copy::of(fixture("ist2-boot-c"));
    c.edit("inject.yaml", "value: istiod-canary.mesh-system.svc:15012", "value: istiod.istio-system.svc:15012");
    let g = c.grade().params(fixture("lab-c/params.yaml")).no_envoy().run();
    assert_eq!(g.check("inject.ca_addr")["expected"], "istiod-canary.mesh-system.svc:15012");
    let c = Copy::of(fixture("ist2-boot-d"));
    c.edit("inject.yaml", "--proxyLogLevel=debug", "--proxyLogLevel=warning").edit("bootstrap.yaml", "cluster: gateway.ops-tools", "cluster: metrics-gw.ops-tools");
    let g = c.grade().params(fixture("lab-d/params.yaml")).no_envoy().run();
    assert_eq!(g.check("inject.log_levels")["expected"], r#"{"component":"misc:info,jwt:trace","proxy":"debug"}"#);
    assert_eq!(g.check("bootstrap.node_cluster")["expected"], "gateway.ops-tools");
}

#[test]
fn each_reference_fails_against_the_other_lab_environment() {
    let g = Grade::new(sample_b()).no_envoy().run();
    assert_eq!(g.code, Some(1));
    for id in ["inject.deployment", "inject.cluster_id", "mesh.trust_domain", "mesh.discovery_address", "bootstrap.node_id"] {
        assert_eq!(g.status(id), "fail", "{id}");
    }
    let g = Grade::sample().params(lab_b()).no_envoy().run();
    for id in ["inject.deployment", "inject.ca_addr", "mesh.root_namespace", "bootstrap.admin_port"] {
        assert_eq!(g.status(id), "fail", "{id}");
    }
}

#[test]
fn without_envoy_the_envoy_checks_are_skipped_and_say_so() {
    let g = Grade::sample().no_envoy().run();
    assert_eq!(g.code, Some(0));
    let skipped = g.with("skip");
    assert!(skipped.contains(&"bootstrap.validates".to_string()));
    assert!(skipped.contains(&"node.live".to_string()));
    assert!(g.message("bootstrap.validates").contains("--no-envoy"));
    assert!(g.with("fail").is_empty() && g.with("error").is_empty());
}

#[test]
fn a_report_written_in_chinese_is_read_as_unicode() {
    // The lab has a Chinese edition; the pattern must see 启 as a character, not bytes,
    // and must not count a dash followed only by the ideographic space (U+3000) an
    // input method types, while text after such a space counts.
    let report = |lines: &str| format!("{}\n{lines}", Copy::sample().read("08-report.md").split("\n- ").next().unwrap());
    let c = Copy::sample();
    c.write("08-report.md", report("- 启动即崩溃：引导配置被拒绝。\n- 运行但未就绪：等待 istiod。\n- 身份：CSR 发往 CA_ADDR。\n- 节点标识不变。\n"));
    assert_eq!(c.grade().no_envoy().run().status("report.explanations"), "pass");
    c.write("08-report.md", report("- 启动即崩溃。\n- 运行但未就绪。\n- \u{3000}\n- \u{3000}身份\n"));
    let g = c.grade().no_envoy().run();
    assert_eq!(g.status("report.explanations"), "fail", "{}", g.stdout);
    assert!(g.message("report.explanations").contains("and some words, each said once: 3;"), "{}", g.message("report.explanations"));
}

/// Numbers written as strings the way Envoy still reads them (hex, a sign, an exponent,
/// `.0`), and a duration as an object of such numbers, are the same bootstrap: full
/// marks offline and launched alike (the launch reads the admin port as the check does).
#[test]
fn numbers_as_envoy_reads_them_in_strings_are_the_same_bootstrap() {
    let c = Copy::sample();
    for f in ["bootstrap.yaml", "boot-typo.yaml"] {
        c.edit(f, "port_value: 9982", "port_value: \"0x26FE\"")
            .edit(f, "port_value: 15012", "port_value: \"1.5012e4\"")
            .edit(f, "cds_config:\n    ads: {}\n    initial_fetch_timeout: 0s", "cds_config:\n    ads: {}\n    initial_fetch_timeout: {seconds: \"+0\"}")
            .edit(f, "lds_config:\n    ads: {}\n    initial_fetch_timeout: 0s", "lds_config:\n    ads: {}\n    initial_fetch_timeout: {seconds: 0.0, nanos: \"0x0\"}");
    }
    c.grade().launch().run().assert_full_marks();
    let offline = c.grade().arg("--no-live").run();
    assert_eq!(offline.code, Some(0), "{:?}", offline.with("fail"));
}
