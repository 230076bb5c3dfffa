//! For each step, a copy of the reference broken in one realistic way fails exactly
//! that step (graded with a launched Envoy, so live checks count too).


use crate::common::*;

/// Grade a broken copy and assert that the failures are all in `step`, and include `must`.
fn fails_only(step: u64, copy: &Copy, must: &[&str]) {
    let g = copy.grade().launch().run();
    let failing = g.with("fail");
    assert_eq!(g.failing_steps().into_iter().collect::<Vec<_>>(), vec![step], "failing: {failing:?}");
    for id in must {
        assert!(failing.contains(&id.to_string()), "{id} should fail; failing: {failing:?}");
    }
    assert!(g.with("error").is_empty(), "errors: {:?}", g.with("error"));
    assert_eq!(g.code, Some(1));
}

const HTTP2: &str = "    typed_extension_protocol_options:
      envoy.extensions.upstreams.http.v3.HttpProtocolOptions:
        \"@type\": type.googleapis.com/envoy.extensions.upstreams.http.v3.HttpProtocolOptions
        explicit_http_config:
          http2_protocol_options: {}
";

#[test]
fn step0_inject_without_the_values_file() {
    // What istioctl gives without --valuesFile: Istio's defaults, carried consistently
    // into every later artifact, as a student would.
    let c = Copy::sample();
    c.edit("inject.yaml", "value: cluster-west", "value: Kubernetes")
        .edit("inject.yaml", "value: mesh-payments", "value: cluster.local")
        .edit("02-env.txt", "ISTIO_META_CLUSTER_ID=cluster-west", "ISTIO_META_CLUSTER_ID=Kubernetes");
    for f in ["bootstrap.yaml", "boot-typo.yaml"] {
        c.edit(f, "CLUSTER_ID: cluster-west", "CLUSTER_ID: Kubernetes").edit(f, "MESH_ID: mesh-payments", "MESH_ID: cluster.local");
    }
    c.edit("06-node.json", "\"cluster-west\"", "\"Kubernetes\"").edit("06-node.json", "\"mesh-payments\"", "\"cluster.local\"");
    fails_only(0, &c, &["inject.cluster_id", "inject.mesh_id"]);
    let g = c.grade().no_envoy().run();
    assert!(g.message("inject.cluster_id").contains("without the values file"), "{}", g.message("inject.cluster_id"));
}

#[test]
fn step1_domain_expanded() {
    let c = Copy::sample();
    c.edit("01-args.txt", "domain=$(POD_NAMESPACE).svc.cluster.local", "domain=default.svc.cluster.local");
    fails_only(1, &c, &["args.domain"]);
}

#[test]
fn step2_field_ref_written_as_its_value() {
    let c = Copy::sample();
    c.edit("02-env.txt", "POD_NAMESPACE=fieldRef:metadata.namespace", "POD_NAMESPACE=default");
    fails_only(2, &c, &["env.pod_namespace"]);
}

#[test]
fn step3_wrong_comparison() {
    let c = Copy::sample();
    c.edit("03-mesh.txt", "ca_addr_same=yes", "ca_addr_same=no");
    fails_only(3, &c, &["mesh.ca_addr_same"]);
}

#[test]
fn step4_http2_forgotten() {
    // validate mode does not notice; boot-typo.yaml is a copy, so it lacks it too.
    let c = Copy::sample();
    c.edit("bootstrap.yaml", HTTP2, "").edit("boot-typo.yaml", HTTP2, "");
    fails_only(4, &c, &["bootstrap.http2"]);
}

/// A YAML mistake in bootstrap.yaml, copied into boot-typo.yaml as step 5 copies the
/// file: step 4 charges it, once; boot-typo.yaml's checks are not graded, and say why.
#[test]
fn step4_yaml_mistake_copied_into_boot_typo() {
    let c = Copy::sample();
    c.edit("bootstrap.yaml", "\n  cluster: ", "\n cluster: ");
    c.edit("boot-typo.yaml", "\n  cluster: ", "\n cluster: ");
    fails_only(4, &c, &["bootstrap.exists"]);
    let g = c.grade().launch().run();
    for id in ["typo.exists", "typo.only_change", "typo.rejected", "typo_txt.rejection"] {
        assert_eq!(g.status(id), "skip", "{id}: {}", g.message(id));
    }
    assert!(g.message("typo.exists").contains("boot-typo.yaml is a copy of bootstrap.yaml and keeps its mistake"), "{}", g.message("typo.exists"));
    // Step 5 alone: step 4, which charges the mistake, is not graded, so step 5 is.
    let g = c.grade().arg("--no-live").args(&["--step", "5"]).run();
    assert_eq!(g.code, Some(1));
    assert_eq!(g.status("typo.exists"), "fail", "{}", g.message("typo.exists"));
    assert!(g.message("typo.exists").contains("boot-typo.yaml is a copy of bootstrap.yaml and keeps its mistake"), "{}", g.message("typo.exists"));
    // Nothing failed, but some checks are not graded: "every check passed" would hide them.
    let g = Copy::sample().grade().arg("--no-live").text().run();
    assert!(g.stdout.contains("Every check graded passed; 5 are not graded (--verbose says why)."), "{}", g.stdout);
    assert!(!g.stdout.contains("Every check passed"), "{}", g.stdout);
    // The same mistake in boot-typo.yaml alone is step 5's.
    let c = Copy::sample();
    c.edit("boot-typo.yaml", "\n  cluster: ", "\n cluster: ");
    fails_only(5, &c, &["typo.exists"]);
    // Two files that are no YAML config for a reason with no place (only comments) are
    // not copies of each other: each is its own step's.
    let c = Copy::sample();
    c.write("bootstrap.yaml", "# TODO\n").write("boot-typo.yaml", "# step 5: copy bootstrap.yaml here later\n");
    let g = c.grade().launch().run();
    assert_eq!(g.status("typo.exists"), "fail", "{}", g.message("typo.exists"));
    assert_eq!(g.status("bootstrap.exists"), "fail", "{}", g.message("bootstrap.exists"));
}

#[test]
fn step5_both_names_renamed() {
    // Renaming the static cluster too makes Envoy accept the file: no failure to study.
    let c = Copy::sample();
    c.edit("boot-typo.yaml", "- name: xds-grpc", "- name: istiod-xds")
        .edit("boot-typo.yaml", "cluster_name: xds-grpc", "cluster_name: istiod-xds")
        .write("05-typo.txt", "configuration 'boot-typo.yaml' OK\nrc=0\n")
        .edit("08-report.md", "typo_rc=1", "typo_rc=0");
    fails_only(5, &c, &["typo.static_kept", "typo.rejected", "typo_txt.rc_nonzero"]);
    // 05-typo.txt kept from before both were renamed: the record of another file.
    let c = Copy::sample();
    c.edit("boot-typo.yaml", "- name: xds-grpc", "- name: istiod-xds");
    let g = c.grade().launch().run();
    assert_eq!(g.status("typo_txt.rc"), "fail");
    assert!(g.message("typo_txt.rc").contains("Envoy accepts boot-typo.yaml as it is now (see typo.rejected)"), "{}", g.message("typo_txt.rc"));
}

#[test]
fn step6_ready_code_guessed() {
    let c = Copy::sample();
    c.edit("06-ready.txt", "ready_code=503", "ready_code=200");
    fails_only(6, &c, &["ready.code_live"]);
}

#[test]
fn step7_wrong_mount() {
    let c = Copy::sample();
    c.edit("07-identity.txt", "token_mount=/var/run/secrets/tokens", "token_mount=/var/run/secrets/istio");
    fails_only(7, &c, &["identity.token_mount"]);
}

#[test]
fn step8_too_few_explanations() {
    let c = Copy::sample();
    let report = c.read("08-report.md");
    let mut bullets = 0;
    let cut: String = report
        .lines()
        .filter(|l| !l.starts_with("- ") || {
            bullets += 1;
            bullets <= 3
        })
        .map(|l| format!("{l}\n"))
        .collect();
    c.write("08-report.md", cut);
    fails_only(8, &c, &["report.explanations"]);
}

#[test]
fn a_wrong_node_id_field_is_named_without_its_value() {
    let why = |from: &str, to: &str| {
        let c = Copy::sample();
        c.edit("bootstrap.yaml", from, to);
        c.grade().no_envoy().run().message("bootstrap.node_id")
    };
    let m = why("id: sidecar~10.0.0.7~", "id: sidecar~10.0.0.8~");
    assert!(m.contains("the second field, the Pod IP") && !m.contains("first field") && !m.contains("10.0.0.7"), "{m}");
    let m = why("~payments-6d5f9.default~", "~payments-6d5f9~");
    assert!(m.contains("the third field") && !m.contains("second field"), "{m}");
    let m = why("id: sidecar~10.0.0.7~", "id: sidecar~");
    assert!(m.contains("does not have four fields"), "{m}");
}

#[test]
fn step4_ads_config_left_out_says_envoys_reason_when_launched() {
    // Envoy takes the file and ends by itself, saying why only as a warning.
    let c = Copy::sample();
    let boot = c.read("bootstrap.yaml");
    let (start, end) = (boot.find("  ads_config:").unwrap(), boot.find("  cds_config:").unwrap());
    c.write("bootstrap.yaml", format!("{}{}", &boot[..start], &boot[end..]));
    let g = c.grade().launch().run();
    assert_eq!(g.failing_steps(), [4].into_iter().collect(), "{:?}", g.with("fail"));
    let said = g.message("node.live");
    assert!(said.contains("ADS must be configured to support an ADS config source"), "{said}");
    assert!(!said.contains("downstream connections"), "{said}");
}

#[test]
fn step4_a_cluster_begun_inside_the_labs_one() {
    // A `- name:` line added under the lab's cluster in bootstrap.yaml alone empties it:
    // step 4's; boot-typo.yaml, whose clusters are right, copies no mistake.
    let c = Copy::sample();
    c.edit("bootstrap.yaml", "  - name: xds-grpc\n", "  - name: xds-grpc\n  - name: xds-grPc\n");
    fails_only(4, &c, &["bootstrap.strict_dns", "bootstrap.endpoint"]);
    // A cluster added in boot-typo.yaml alone, bootstrap.yaml's own cluster wrong: two
    // mistakes, each its step's.
    let c = Copy::sample();
    c.edit("bootstrap.yaml", "type: STRICT_DNS", "type: LOGICAL_DNS");
    c.edit("boot-typo.yaml", "  clusters:\n", "  clusters:\n  - name: extra\n    type: STATIC\n");
    let g = c.grade().arg("--no-live").run();
    assert_eq!(g.failing_steps(), [4, 5].into_iter().collect(), "{:?}", g.with("fail"));
    assert_eq!(g.status("typo.static_kept"), "fail");
    // The extra cluster before the lab's, which stays right: boot-typo.yaml lacks one
    // cluster of bootstrap.yaml, step 5's.
    let c = Copy::sample();
    c.edit("bootstrap.yaml", "  - name: xds-grpc\n", "  - name: xds-grPc\n  - name: xds-grpc\n");
    fails_only(5, &c, &["typo.static_kept"]);
}

#[test]
fn step4_a_list_copied_into_boot_typo() {
    // The whole config under a leading `- ` in both files, boot-typo.yaml with the lab's
    // one change: step 4's mistake, copied.
    let c = Copy::sample();
    for f in ["bootstrap.yaml", "boot-typo.yaml"] {
        let listed: String = c.read(f).lines().filter(|l| !l.starts_with('#')).enumerate().map(|(i, l)| format!("{}{l}\n", if i == 0 { "- " } else { "  " })).collect();
        c.write(f, listed);
    }
    fails_only(4, &c, &["bootstrap.exists"]);
    // The same list unchanged: the one change not made is step 5's own mistake.
    c.write("boot-typo.yaml", c.read("bootstrap.yaml"));
    let g = c.grade().launch().run();
    assert_eq!(g.status("typo.exists"), "fail", "{}", g.message("typo.exists"));
    c.edit("boot-typo.yaml", "cluster_name: xds-grpc\n", "cluster_name: istiod-xds\n");
    // Two lists that differ in more than one value are no copy: each is its step's.
    c.edit("boot-typo.yaml", "port_value: 9982", "port_value: 9983").edit("boot-typo.yaml", "type: STRICT_DNS", "type: LOGICAL_DNS");
    let g = c.grade().launch().run();
    assert_eq!(g.status("typo.exists"), "fail", "{}", g.message("typo.exists"));
}

#[test]
fn step4_misspelt_dynamic_resources_copied_into_boot_typo() {
    let c = Copy::sample();
    for f in ["bootstrap.yaml", "boot-typo.yaml"] {
        c.edit(f, "\ndynamic_resources:", "\ndynamic_resource:");
    }
    // What Envoy now says of each, saved as the lab says.
    student_validates(&c, "bootstrap.yaml", "04-validate.txt");
    student_validates(&c, "boot-typo.yaml", "05-typo.txt");
    let rc = c.read("05-typo.txt").lines().last().unwrap().to_string();
    let report = c.read("08-report.md").lines().map(|l| if l.starts_with("typo_rc=") { format!("typo_{rc}\n") } else { format!("{l}\n") }).collect::<String>();
    c.write("08-report.md", report);
    fails_only(4, &c, &["bootstrap.ads_grpc"]);
    // The step-5 name written elsewhere than under that section is a second change.
    c.edit("boot-typo.yaml", "cluster_name: istiod-xds", "cluster_name: xds-grpc").edit("boot-typo.yaml", "  cluster: payments.default", "  cluster: istiod-xds");
    let g = c.grade().arg("--no-live").run();
    assert_eq!(g.status("typo.only_change"), "fail", "{}", g.message("typo.only_change"));
}

#[test]
fn step4_no_ads_leaves_connected_state_nothing_to_hold() {
    // Envoy runs a bootstrap without dynamic_resources, LIVE, and keeps no
    // control_plane.connected_state: the student writes connected_state= empty.
    let c = Copy::sample();
    for f in ["bootstrap.yaml", "boot-typo.yaml"] {
        let boot = c.read(f);
        let (start, end) = (boot.find("dynamic_resources:").unwrap(), boot.find("static_resources:").unwrap());
        c.write(f, format!("{}{}", &boot[..start], &boot[end..]));
    }
    let ready = c.read("06-ready.txt");
    let ready: String = ready.lines().map(|l| match l.split_once('=') {
        Some(("ready_code", _)) => "ready_code=200".to_string(),
        Some(("ready_body", _)) => "ready_body=LIVE".to_string(),
        Some(("connected_state", _)) => "connected_state=".to_string(),
        _ => l.to_string(),
    }).map(|l| l + "\n").collect();
    c.write("06-ready.txt", ready);
    let g = c.grade().launch().run();
    assert!(!g.failing_steps().contains(&6), "{:?}", g.with("fail"));
    assert!(g.failing_steps().contains(&4), "{:?}", g.with("fail"));
    assert_eq!(g.status("ready.state_form"), "skip", "{}", g.message("ready.state_form"));
}

#[test]
fn a_field_left_out_is_found_not_set_in_words() {
    let c = Copy::sample();
    let boot: String = c.read("bootstrap.yaml").lines().filter(|l| !l.contains("initial_fetch_timeout")).map(|l| format!("{l}\n")).collect();
    c.write("bootstrap.yaml", boot);
    let g = c.grade().arg("--no-live").run();
    assert_eq!(g.status("bootstrap.cds_timeout"), "fail");
    assert_eq!(g.check("bootstrap.cds_timeout")["found"], "(not set)", "{}", g.check("bootstrap.cds_timeout"));
    assert_eq!(g.check("bootstrap.cds_timeout")["where"], "bootstrap.yaml (dynamic_resources.cds_config.initial_fetch_timeout)");
}

/// ADS's cluster name written twice, in camel case to a decoy and as the proto name to
/// the lab's cluster: Envoy reads the two spellings as one field and takes one by
/// chance, so the bootstrap is step 4's mistake (once, its copy in boot-typo.yaml too).
/// The same value under both spellings is the same to Envoy.
#[test]
fn step4_a_field_set_under_both_spellings() {
    let c = Copy::sample();
    for (f, name) in [("bootstrap.yaml", "xds-grpc"), ("boot-typo.yaml", "istiod-xds")] {
        c.edit(f, &format!("    - envoy_grpc:\n        cluster_name: {name}"), &format!("    - envoy_grpc:\n        clusterName: decoy\n        cluster_name: {name}"));
    }
    fails_only(4, &c, &["bootstrap.exists", "bootstrap.ads_cluster"]);
    let g = c.grade().no_envoy().run();
    assert!(g.message("bootstrap.exists").starts_with("bootstrap.yaml sets one field twice, as `clusterName` and as `cluster_name`"), "{}", g.message("bootstrap.exists"));
    let same = Copy::sample();
    same.edit("bootstrap.yaml", "    - envoy_grpc:\n        cluster_name: xds-grpc", "    - envoy_grpc:\n        clusterName: xds-grpc\n        cluster_name: xds-grpc");
    same.grade().launch().run().assert_full_marks();
}

/// boot-typo.yaml with a second change Envoy refuses before it gets to the ADS name (a
/// duration written `1`, which the comparison with bootstrap.yaml's 1s reads alike),
/// its output saved as the lab says: step 5, which the output cannot name the cluster.
#[test]
fn step5_a_second_change_envoy_refuses_first() {
    let c = Copy::sample();
    c.edit("boot-typo.yaml", "connect_timeout: 1s", "connect_timeout: 1");
    student_validates(&c, "boot-typo.yaml", "05-typo.txt");
    fails_only(5, &c, &["typo_txt.names_cluster"]);
    let g = c.grade().arg("--no-live").run();
    assert!(g.message("typo_txt.names_cluster").starts_with("Envoy rejects your boot-typo.yaml before it gets to the wrong ADS name"), "{}", g.message("typo_txt.names_cluster"));
}
