//! Envoy's own words: a rejection is shown by its reason (not the configuration Envoy
//! echoes after it, which is the grader's copy), and a student who saved their own run
//! of Envoy, as the lab says, has saved what the grader looks for.


use crate::common::*;

/// The sample with `from` changed to `to` in both bootstraps, and 04-validate.txt and
/// 05-typo.txt made again by running Envoy on them.
fn broken(from: &str, to: &str) -> Copy {
    let c = Copy::sample();
    for f in ["bootstrap.yaml", "boot-typo.yaml"] {
        c.edit(f, from, to);
    }
    student_validates(&c, "bootstrap.yaml", "04-validate.txt");
    student_validates(&c, "boot-typo.yaml", "05-typo.txt");
    c
}

/// The student's file holds the grader's finding; what is shown is Envoy's reason,
/// short, and none of the grader's copy: by validation, and by the live checks if
/// `launched` (which Envoy refuses to run, so they say why).
fn assert_said_well(c: &Copy, reason: &str, launched: bool) {
    // Protobuf puts one to three spaces between words, differently in every run.
    let text = c.read("04-validate.txt");
    assert!(text.split_whitespace().collect::<Vec<_>>().join(" ").contains(reason) && text.ends_with("rc=1\n"), "{text}");
    let g = c.grade().arg("--no-live").run();
    for id in ["validate.output", "typo_txt.rejection"] {
        assert_eq!(g.status(id), "pass", "{id}: {}", g.message(id));
    }
    assert_eq!(g.status("bootstrap.validates"), "fail");
    let m = g.message("bootstrap.validates");
    assert!(m.starts_with("Envoy rejects this file: error initializing configuration 'bootstrap.yaml': "), "{m}");
    assert!(m.contains(reason), "{m}");
    assert_copy_left_out(&m);
    if !launched {
        return;
    }
    // Envoy rejects the file: no Envoy can run it, in either live mode, for that reason,
    // which step 4 charges: the live checks are not graded.
    for g in [c.grade().launch().run(), c.grade().param("admin_port=1").run()] {
        let m = g.message("node.live");
        assert_eq!(g.status("node.live"), "skip", "{m}");
        assert!(m.starts_with("not graded: Envoy rejects your bootstrap.yaml, so no Envoy can run it: ") && m.contains(reason), "{m}");
        assert_copy_left_out(&m);
    }
}

/// Nothing of the grader's copy: no JSON or protobuf dump, no rewritten address, no
/// position in Envoy's own JSON; and the message whole.
fn assert_copy_left_out(m: &str) {
    for copy in ["{", "127.0.0.1", "sidecar~", "near 1:", "goo.gle", "transport_api_version"] {
        assert!(!m.contains(copy), "{copy:?} in {m}");
    }
    // Whole: the report cuts a message past 1,000 characters, as the echo made it.
    assert!(!m.contains("more characters)"), "{m}");
}

#[test]
fn the_sample_typo_saved_by_envoy_itself_passes() {
    let c = Copy::sample();
    student_validates(&c, "boot-typo.yaml", "05-typo.txt");
    assert_ne!(c.read("05-typo.txt"), std::fs::read_to_string(sample().join("05-typo.txt")).unwrap());
    c.grade().launch().run().assert_full_marks();
}

#[test]
fn a_duration_written_as_a_bare_number() {
    let c = broken("initial_fetch_timeout: 0s\n    resource_api_version: V3\n  lds_config", "initial_fetch_timeout: 0\n    resource_api_version: V3\n  lds_config");
    assert_said_well(&c, "@ dynamic_resources.cds_config.initial_fetch_timeout", true);
}

#[test]
fn ads_over_rest_with_a_grpc_service() {
    // Envoy prints the ApiConfigSource after its reason: the last line is part of it.
    let c = broken("api_type: GRPC", "api_type: REST");
    assert_said_well(&c, "if not a gRPC type, must not have a gRPC service specified", true);
}

#[test]
fn a_port_out_of_range_is_said_after_the_dump() {
    // Envoy dumps the whole bootstrap first, then says why.
    let c = broken("port_value: 15012", "port_value: 99999");
    assert_said_well(&c, "PortValue: value must be less than or equal to 65535", false);
}

#[test]
fn a_negative_timeout_is_said_without_its_dump() {
    let c = broken("connect_timeout: 1s", "connect_timeout: -1s");
    assert_said_well(&c, "Invalid duration: Expected positive duration", true);
}

#[test]
fn boot_typo_rejected_first_for_the_bootstraps_own_mistake_costs_step_5_nothing() {
    // boot-typo.yaml copies the bootstrap's mistake, and Envoy stops at it before the
    // ADS name: 05-typo.txt, Envoy's own words, cannot show the wrong name. Step 4
    // charges the mistake; typo_txt.names_cluster is not graded, and says why.
    let c = broken("api_type: GRPC", "api_type: REST");
    assert!(!c.read("05-typo.txt").contains("'istiod-xds'"), "{}", c.read("05-typo.txt"));
    for g in [c.grade().launch().run(), c.grade().param(&format!("admin_port={}", free_port())).run()] {
        assert_eq!(g.status("typo_txt.names_cluster"), "skip", "{}", g.message("typo_txt.names_cluster"));
        assert_eq!(
            g.message("typo_txt.names_cluster"),
            "not graded: Envoy's own validation of your boot-typo.yaml does not name the wrong cluster (see typo.rejected), so 05-typo.txt cannot show it"
        );
        for id in ["typo.rejected", "typo_txt.rejection", "typo_txt.rc"] {
            assert_eq!(g.status(id), "pass", "{id}: {}", g.message(id));
        }
        assert_eq!(g.failing_steps(), [4].into(), "{:?}", g.with("fail"));
    }
    // Where Envoy's rejection does name it, 05-typo.txt must show it.
    let c = Copy::sample();
    student_validates(&c, "boot-typo.yaml", "05-typo.txt");
    let without = c.read("05-typo.txt").replace("'istiod-xds'", "istiod-xds");
    c.write("05-typo.txt", &without);
    let g = c.grade().arg("--no-live").run();
    assert_eq!(g.status("typo_txt.names_cluster"), "fail", "{}", g.message("typo_txt.names_cluster"));
}

#[test]
fn another_wrong_ads_name_is_charged_once_and_05_shows_it() {
    // boot-typo.yaml points ADS at another wrong name than the lab's, and 05-typo.txt is
    // Envoy's own rejection of that file: typo.ads_cluster charges the name; the
    // rejection naming it is what the file must show, not a second finding (nor a
    // "not graded" that blames Envoy).
    let c = Copy::sample();
    c.edit("boot-typo.yaml", "cluster_name: istiod-xds", "cluster_name: istio-xds");
    student_validates(&c, "boot-typo.yaml", "05-typo.txt");
    let g = c.grade().arg("--no-live").run();
    assert_eq!(g.with("fail"), ["typo.ads_cluster".to_string()].to_vec());
    assert_eq!(g.status("typo_txt.names_cluster"), "pass", "{}", g.message("typo_txt.names_cluster"));
}

#[test]
fn both_names_changed_are_said_as_the_name_that_moved() {
    // Both the ADS name and the static cluster's changed: the difference is the static
    // cluster's name, not a cluster list of another length.
    let c = Copy::sample();
    let typo = c.read("boot-typo.yaml").replace("name: xds-grpc", "name: istiod-xds").replace("cluster_name: xds-grpc", "cluster_name: istiod-xds");
    c.write("boot-typo.yaml", &typo);
    let g = c.grade().arg("--no-live").run();
    assert_eq!(g.status("typo.only_change"), "fail");
    let m = g.message("typo.only_change");
    assert!(m.contains("`.static_resources.clusters[0].name` has another value") && !m.contains("number of items"), "{m}");
}
