//! inject.yaml is graded against what kube-inject makes of the lab's target with the
//! lab's files (the rendered injection template), on outputs of the shapes real
//! kube-inject runs give; a wrong inject.yaml costs step 0 only; what the lab's output
//! cannot answer is the grader's error, said once, never the student's failure.

use crate::common::*;

fn graded(lab: &str) -> Graded {
    Grade::new(fixture(&format!("ist2-boot-{lab}"))).params(fixture(&format!("lab-{lab}/params.yaml"))).launch().run()
}

#[test]
fn real_output_shapes_get_full_marks() {
    // E: a gateway (`proxy router`), its template chosen by the target's annotation out
    // of several, a Service before the Deployment, extra args after the log levels,
    // ISTIO_META_CLUSTER_ID moved to the end of the env, a trailing `---`.
    graded("e").assert_full_marks();
    // F: two Deployments, the lab's the second; a proxy.istio.io/config annotation that
    // overrides the discovery address and adds proxy metadata; an older template (the
    // pod spec itself, --serviceCluster, the token volume on jwtPolicy).
    graded("f").assert_full_marks();
    // G: native sidecars and a custom template that only adds mounts: two containers
    // named istio-proxy, the complete one under initContainers.
    graded("g").assert_full_marks();
    // K: a target injected before with other values (kube-inject strips what its
    // sidecar.istio.io/status lists and takes the user's istio-proxy fields from
    // proxy.istio.io/overrides), and a proxyMetadata variable whose empty value the output
    // leaves out (`- name: X` alone).
    graded("k").assert_full_marks();
    // O and P: a proxy.istio.io/config annotation in YAML as Istio reads it, beyond
    // `key: value` lines: a flow map of proxyMetadata (O); a nested map, and a comment
    // after the discovery address it overrides (P).
    graded("o").assert_full_marks();
    graded("p").assert_full_marks();
}

#[test]
fn the_lab_target_is_found_by_name_not_by_order() {
    let g = graded("f");
    assert_eq!(g.check("inject.workload_name")["expected"], "orders");
    assert_eq!(g.check("bootstrap.node_cluster")["expected"], "orders.shop");
    // The annotation's discovery address is what the output's PROXY_CONFIG holds; step 3
    // still reads the mesh config's.
    assert_eq!(g.check("inject.discovery")["expected"], "istiod-blue.istio-system.svc:15012");
    assert_eq!(g.check("mesh.discovery_address")["expected"], "istiod.istio-system.svc:15012");
    // A pod_name that is the Deployment's own name names it too.
    let g = Grade::new(fixture("ist2-boot-f")).params(fixture("lab-f/params.yaml")).param("pod_name=orders").no_envoy().run();
    assert_eq!(g.check("inject.workload_name")["expected"], "orders");
}

/// The checks that need a part the lab's own injection output lacks are errors for that
/// reason, which the text report says once; nothing else fails or errs.
fn errors_exactly(lab: &str, ids: &[&str], reason: &str) {
    let g = graded(lab);
    assert!(g.with("fail").is_empty(), "failed: {:?}", g.with("fail"));
    let mut errors = g.with("error");
    errors.sort();
    let mut want: Vec<String> = ids.iter().map(|s| s.to_string()).collect();
    want.sort();
    assert_eq!(errors, want);
    assert!(ids.iter().all(|id| g.message(id).contains(reason)), "{:?}", ids.iter().map(|id| g.message(id)).collect::<Vec<_>>());
    assert_eq!(g.code, Some(2));
    let text = Grade::new(fixture(&format!("ist2-boot-{lab}"))).params(fixture(&format!("lab-{lab}/params.yaml"))).launch().text().run();
    assert_eq!(text.stdout.matches(reason).count(), 1, "{}", text.stdout);
}

#[test]
fn own_args_without_domain_are_an_error_on_what_needs_domain() {
    errors_exactly("h", &["inject.domain", "args.domain", "bootstrap.node_id"], "no --domain argument");
    // The target's own args give the role and the log levels.
    assert_eq!(graded("h").check("args.proxy_log_level")["expected"], "debug");
}

#[test]
fn a_template_without_args_env_or_volumes_is_an_error_where_they_are_needed() {
    let g = graded("i");
    assert!(g.with("fail").is_empty(), "failed: {:?}", g.with("fail"));
    for id in ["inject.role", "args.role", "args.domain", "env.ca_addr", "env.pod_namespace", "identity.token_volume", "identity.ca_mount", "mesh.ca_addr_same", "bootstrap.node_id"] {
        assert_eq!(g.status(id), "error", "{id}");
    }
    assert!(g.message("inject.role").contains("istio-proxy has no args in the lab's injection output"), "{}", g.message("inject.role"));
    // kube-inject itself adds the cluster id from the values: that one is graded.
    assert_eq!(g.status("env.cluster_id"), "pass");
    assert_eq!(g.status("mesh.discovery_address"), "pass");
}

#[test]
fn a_list_target_is_an_error_with_its_reason() {
    let g = graded("j");
    assert!(g.with("fail").is_empty(), "failed: {:?}", g.with("fail"));
    assert_eq!(g.status("inject.deployment"), "error");
    assert!(g.message("inject.deployment").contains("kind: List"), "{}", g.message("inject.deployment"));
    assert!(g.message("args.role").contains("kind: List"), "{}", g.message("args.role"));
    assert_eq!(g.status("bootstrap.validates"), "pass");
}

#[test]
fn a_pod_target_is_an_error_with_its_reason() {
    let g = graded("m");
    assert!(g.with("fail").is_empty(), "failed: {:?}", g.with("fail"));
    for id in ["inject.deployment", "args.role", "env.ca_addr", "identity.token_volume"] {
        assert_eq!(g.status(id), "error", "{id}");
        assert!(g.message(id).contains("a Pod"), "{}", g.message(id));
    }
}

#[test]
fn a_template_without_istio_proxy_is_an_error_never_a_fail() {
    // The target asks for a template that only adds settings to the application: what
    // needs istio-proxy cannot be checked, the discovery address in its PROXY_CONFIG too.
    let g = graded("l");
    assert!(g.with("fail").is_empty(), "failed: {:?}", g.with("fail"));
    for id in ["inject.proxy", "inject.discovery", "inject.proxy_metadata", "args.role", "env.ca_addr", "identity.ca_mount"] {
        assert_eq!(g.status(id), "error", "{id}");
        assert!(g.message(id).contains("adds no istio-proxy container"), "{id}: {}", g.message(id));
    }
    assert_eq!(g.status("identity.token_volume"), "error");
    assert_eq!(g.status("inject.deployment"), "pass");
    assert_eq!(g.status("bootstrap.validates"), "pass");
}

#[test]
fn a_target_kube_inject_does_not_inject_is_an_error_never_a_fail() {
    // N: the pod template's sidecar.istio.io/inject annotation says no; kube-inject prints
    // it as it is.
    const REASON: &str = "kube-inject does not inject the lab's inject target";
    let g = graded("n");
    assert!(g.with("fail").is_empty(), "failed: {:?}", g.with("fail"));
    for id in ["inject.proxy", "inject.status", "inject.role", "inject.discovery", "args.role", "env.ca_addr", "identity.token_volume"] {
        assert_eq!(g.status(id), "error", "{id}");
        assert!(g.message(id).contains(REASON), "{id}: {}", g.message(id));
    }
    assert_eq!(g.status("bootstrap.validates"), "pass");
    // The label says it as the annotation does (the label wins over the annotation).
    let grade = |lab: &Copy| Grade::new(fixture("ist2-boot-n")).params(lab.file("params.yaml")).no_envoy().run();
    let lab = Copy::of(fixture("lab-n"));
    lab.edit("inject-target.yaml", "      annotations:\n        sidecar.istio.io/inject: \"false\"\n      labels:\n", "      annotations:\n        sidecar.istio.io/inject: \"true\"\n      labels:\n        sidecar.istio.io/inject: \"false\"\n");
    let g = grade(&lab);
    assert!(g.with("fail").is_empty() && g.message("inject.role").contains(REASON), "{:?} {}", g.with("fail"), g.message("inject.role"));
    let lab = Copy::of(fixture("lab-n"));
    lab.edit("inject-target.yaml", "        sidecar.istio.io/inject: \"false\"\n", "        other.example.com/note: none\n");
    // kube-inject injects whatever the injection config's policy (it always injects as if
    // it were enabled): a target that does not say no is injected, and the output without
    // istio-proxy is then the student's; so is one that asks.
    lab.edit("inject-config.yaml", "policy: enabled", "policy: disabled");
    assert_eq!(grade(&lab).status("inject.proxy"), "fail");
    lab.edit("inject-target.yaml", "        other.example.com/note: none\n", "        sidecar.istio.io/inject: \"yes\"\n");
    assert_eq!(grade(&lab).status("inject.proxy"), "fail");
}

/// The sample with inject.yaml changed where kube-inject's output could not be so.
fn tampered() -> Copy {
    let c = Copy::sample();
    c.edit("inject.yaml", "        - proxy\n        - sidecar\n", "        - proxy\n        - router\n")
        .edit("inject.yaml", "      - configMap:\n          name: istio-ca-root-cert\n        name: istiod-ca-cert", "      - configMap:\n          name: my-ca\n        name: istiod-ca-cert")
        .edit("inject.yaml", "      - name: istio-token\n        projected:", "      - name: my-token\n        projected:")
        .edit("inject.yaml", "        - mountPath: /var/run/secrets/tokens\n          name: istio-token", "        - mountPath: /var/run/secrets/mytokens\n          name: my-token")
        .edit("inject.yaml", "        - mountPath: /var/run/secrets/istio\n          name: istiod-ca-cert", "        - mountPath: /etc/myca\n          name: istiod-ca-cert")
        .edit("inject.yaml", "              fieldPath: metadata.namespace", "              fieldPath: metadata.name");
    c
}

const TAMPERED: [&str; 5] = ["inject.role", "inject.field_refs", "inject.token_volume", "inject.ca_configmap", "inject.mounts"];

#[test]
fn a_tampered_inject_yaml_fails_step_0_only() {
    // The later files as the lab gives them: they are right.
    let g = tampered().grade().no_envoy().run();
    assert_eq!(g.with("fail"), TAMPERED.map(String::from).to_vec());
    assert_eq!(g.check("inject.role")["expected"], "sidecar");
    // The later files copied from that inject.yaml, node.id from its role: right too.
    let c = tampered();
    c.edit("01-args.txt", "role=sidecar", "role=router")
        .edit("02-env.txt", "POD_NAMESPACE=fieldRef:metadata.namespace", "POD_NAMESPACE=fieldRef:metadata.name")
        .write("07-identity.txt", "token_volume=my-token\ntoken_audience=istio-ca\ntoken_mount=/var/run/secrets/mytokens\nca_configmap=my-ca\nca_mount=/etc/myca\n")
        .edit("bootstrap.yaml", "id: sidecar~", "id: router~")
        .edit("boot-typo.yaml", "id: sidecar~", "id: router~")
        .edit("06-node.json", "\"sidecar~", "\"router~");
    let g = c.grade().no_envoy().run();
    assert_eq!(g.with("fail"), TAMPERED.map(String::from).to_vec());
    // A value that is neither the lab's nor inject.yaml's fails its step.
    c.edit("01-args.txt", "role=router", "role=gateway");
    assert_eq!(c.grade().no_envoy().run().failing_steps(), [0, 1].into());
}

#[test]
fn inject_yaml_lacking_a_value_leaves_later_steps_graded_against_the_lab() {
    let c = Copy::sample();
    let inject = c.read("inject.yaml");
    let start = inject.find("        env:\n").expect("istio-proxy has env");
    let end = start + inject[start..].find("        image:").expect("env is followed by image");
    c.write("inject.yaml", format!("{}{}", &inject[..start], &inject[end..]));
    let g = c.grade().no_envoy().run();
    assert_eq!(g.failing_steps(), [0].into(), "{:?}", g.with("fail"));
    c.edit("02-env.txt", "CA_ADDR=istiod.istio-system.svc:15012", "CA_ADDR=null");
    let g = c.grade().no_envoy().run();
    assert_eq!(g.status("env.ca_addr"), "fail");
    assert_eq!(g.check("env.ca_addr")["expected"], "istiod.istio-system.svc:15012");
}

/// Each full-mark lab graded with some of its lab files absent or unreadable.
fn without(pair: (&str, &str), drop: &[&str], unreadable: &[&str]) -> Graded {
    let (lab, sub) = pair;
    let dir = Copy::of(root().join(lab));
    let params: String = dir.read("params.yaml").lines().filter(|l| !drop.iter().any(|d| l.starts_with(&format!("{d}:")))).map(|l| format!("{l}\n")).collect();
    dir.write("params.yaml", params);
    let mut g = Grade::new(root().join(sub)).params(dir.file("params.yaml")).no_envoy();
    for p in unreadable {
        g = g.param(&format!("{p}=/nonexistent/{p}.yaml"));
    }
    g.run()
}

const FULL_MARK_LABS: [(&str, &str); 8] = [
    ("sample-answers/lab", "sample-answers/ist2-boot"),
    ("tests/fixtures/lab-b", "tests/fixtures/ist2-boot-b"),
    ("tests/fixtures/lab-c", "tests/fixtures/ist2-boot-c"),
    ("tests/fixtures/lab-d", "tests/fixtures/ist2-boot-d"),
    ("tests/fixtures/lab-e", "tests/fixtures/ist2-boot-e"),
    ("tests/fixtures/lab-f", "tests/fixtures/ist2-boot-f"),
    ("tests/fixtures/lab-g", "tests/fixtures/ist2-boot-g"),
    ("tests/fixtures/lab-k", "tests/fixtures/ist2-boot-k"),
];

#[test]
fn without_the_injection_files_later_steps_are_graded_against_inject_yaml() {
    for pair in FULL_MARK_LABS {
        for drop in [&["inject_values"][..], &["inject_config"], &["inject_values", "inject_config"]] {
            let g = without(pair, drop, &[]);
            assert!(g.with("fail").is_empty() && g.with("error").is_empty(), "{pair:?} without {drop:?}: failed {:?}, errors {:?}", g.with("fail"), g.with("error"));
            // Step 0 compares with the lab's injection only with all three files.
            assert_eq!(g.status("inject.role"), "skip", "{pair:?} without {drop:?}");
            assert_eq!(g.status("inject.proxy"), "pass", "{pair:?} without {drop:?}");
        }
    }
}

#[test]
fn an_unreadable_mesh_config_is_an_error_where_it_is_read_only() {
    // Nothing kube-inject gives is known without it: step 0 cannot compare, later steps
    // take inject.yaml's values; step 3 and what reads the discovery address cannot check.
    let reads_mesh = ["mesh.discovery_address", "mesh.root_namespace", "mesh.trust_domain", "mesh.ca_addr_same", "bootstrap.node_cluster", "bootstrap.endpoint", "report.xds_address"];
    for pair in FULL_MARK_LABS {
        let g = without(pair, &[], &["mesh_config"]);
        assert!(g.with("fail").is_empty(), "{pair:?}: failed {:?}", g.with("fail"));
        let later: Vec<String> = g.with("error").into_iter().filter(|id| !id.starts_with("inject.")).collect();
        assert_eq!(later, reads_mesh.map(String::from).to_vec(), "{pair:?}");
        assert_eq!(g.status("inject.role"), "error", "{pair:?}");
        assert_eq!(g.status("inject.proxy"), "pass", "{pair:?}");
        assert!(g.message("inject.role").contains("mesh_config"), "{}", g.message("inject.role"));
    }
}

#[test]
fn two_complete_istio_proxies_in_inject_yaml_fail_step_0_only() {
    // Two complete istio-proxy containers: no kube-inject output (it merges containers
    // by name, and the lab's template adds one), so the student's file is why. Pasting
    // the container twice never turns step 0 into the grader's error.
    let c = Copy::of(fixture("ist2-boot-g"));
    let inject = c.read("inject.yaml");
    let proxy_start = inject.find("      - args:\n        - proxy\n").expect("the complete istio-proxy");
    let proxy_end = proxy_start + 1 + inject[proxy_start + 1..].find("      - args:\n").expect("the container after it");
    let complete = &inject[proxy_start..proxy_end];
    c.edit("inject.yaml", "      - name: istio-proxy\n        resources: {}\n        volumeMounts:\n        - mountPath: /etc/ledger/certs\n          name: ledger-certs\n          readOnly: true\n", complete);
    let g = c.grade().params(fixture("lab-g/params.yaml")).no_envoy().run();
    assert_eq!(g.status("inject.proxy"), "fail");
    assert_eq!(g.message("inject.proxy"), "the pod template has 2 complete istio-proxy containers, where kube-inject adds one");
    assert_eq!(g.status("inject.role"), "fail");
    assert!(g.message("inject.role").contains("more than one complete istio-proxy container"), "{}", g.message("inject.role"));
    assert!(g.with("error").is_empty(), "{:?}", g.with("error"));
    assert_eq!(g.failing_steps().into_iter().collect::<Vec<_>>(), vec![0]);
    assert_eq!(g.code, Some(1));
    // Later steps take the lab's values, which the lab's injection files give.
    assert_eq!(g.status("args.role"), "pass");
}

#[test]
fn explanations_above_the_key_lines_fail_report_below_only() {
    let c = Copy::sample();
    let report = c.read("08-report.md");
    let (keys, explanations) = report.split_once("\n\n").unwrap();
    c.write("08-report.md", format!("{}\n\n{keys}\n", explanations.trim()));
    let g = c.grade().no_envoy().run();
    assert_eq!(g.with("fail"), vec!["report.below".to_string()]);
    assert!(g.message("report.below").contains("below the four key lines"), "{}", g.message("report.below"));
    // Fewer than four in all is report.explanations' failure alone.
    c.write("08-report.md", format!("{keys}\n\n- one\n"));
    assert_eq!(c.grade().no_envoy().run().with("fail"), vec!["report.explanations".to_string()]);
}

#[test]
fn a_05_without_rc_fails_05_not_08() {
    let c = Copy::sample();
    let typo = c.read("05-typo.txt");
    let kept: Vec<&str> = typo.lines().filter(|l| !l.starts_with("rc=")).collect();
    c.write("05-typo.txt", kept.join("\n") + "\n");
    let g = c.grade().launch().run();
    assert_eq!(g.failing_steps(), [5].into(), "{:?}", g.with("fail"));
    assert_eq!(g.status("report.typo_rc"), "pass");
    // A wrong typo_rc= is still wrong: against Envoy's own exit code.
    c.edit("08-report.md", "typo_rc=1", "typo_rc=7");
    let g = c.grade().launch().run();
    assert_eq!(g.status("report.typo_rc"), "fail");
}

#[test]
fn a_full_node_in_06_fails_node_fields_only() {
    let c = Copy::sample();
    let node: serde_json::Value = serde_json::from_str(&c.read("06-node.json")).unwrap();
    let mut full = node.as_object().unwrap().clone();
    full.insert("user_agent_name".into(), "envoy".into());
    full.insert("user_agent_build_version".into(), serde_json::json!({"version": {"major_number": 1, "minor_number": 40}}));
    c.write("06-node.json", serde_json::to_string_pretty(&full).unwrap());
    let g = c.grade().launch().run();
    assert_eq!(g.with("fail"), vec!["node.fields".to_string()]);
    assert!(g.message("node.fields").contains("only id, cluster and metadata belong there"), "{}", g.message("node.fields"));
}
