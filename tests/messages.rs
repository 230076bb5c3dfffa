//! What a student reads for a common slip: the failure names the slip itself, where
//! it is, and never the expected value.


use crate::common::*;

/// Grade a copy without Envoy; the message of `id`, which must fail.
fn why(copy: &Copy, id: &str) -> String {
    failing(copy.grade().no_envoy().run(), id)
}

/// [`why`], for a check of a value Envoy gives (08's typo_rc= and ready_without_istiod=,
/// not graded without it): graded with a launched Envoy.
fn why_with_envoy(copy: &Copy, id: &str) -> String {
    failing(copy.grade().launch().run(), id)
}

fn failing(g: Graded, id: &str) -> String {
    assert_eq!(g.status(id), "fail", "{id}: {}", g.message(id));
    g.message(id)
}

#[test]
fn full_width_characters_from_an_input_method_are_named() {
    let c = Copy::sample();
    c.edit("08-report.md", "typo_rc=1", "typo_rc＝1");
    let m = why_with_envoy(&c, "report.typo_rc");
    assert!(m.contains("line 3 has `＝` (U+FF1D), a full-width `=`"), "{m}");

    let c = Copy::sample();
    c.edit("08-report.md", "svc:15012", "svc：15012");
    let m = why(&c, "report.xds_address");
    assert!(m.contains("line 1 has `：` (U+FF1A), a full-width `:`") && !m.contains("istiod.istio-system.svc:"), "{m}");

    // Four explanation lines typed with a full-width hyphen: the lines are named.
    let c = Copy::sample();
    let report = c.read("08-report.md").replace("\n- ", "\n－ ");
    c.write("08-report.md", &report);
    assert!(why(&c, "report.explanations").contains("lines 6, 7, 8, … have `－` (U+FF0D), a full-width `-`"), "{}", why(&c, "report.explanations"));
    // Three lines, all named.
    let c = Copy::sample();
    let three = c.read("08-report.md").replacen("\n- ", "\n－ ", 3);
    c.write("08-report.md", &three);
    assert!(why(&c, "report.explanations").contains("lines 6, 7 and 8 have `－` (U+FF0D)"), "{}", why(&c, "report.explanations"));
}

/// A letter of another script that looks Latin, and an invisible character pasted
/// before a key, are named with their line: the value on screen looks right.
#[test]
fn letters_of_other_scripts_and_invisible_characters_are_named() {
    let c = Copy::sample();
    c.edit("01-args.txt", "role=sidecar", "role=s\u{0456}decar");
    let m = why(&c, "args.role");
    assert!(m.contains("line 1 has `і` (U+0456), a Cyrillic letter that looks like `i`"), "{m}");
    assert!(!m.contains("sidecar"), "{m}");

    let c = Copy::sample();
    c.edit("01-args.txt", "proxy_log_level=", "\u{200B}proxy_log_level=");
    let m = why(&c, "args.proxy_log_level");
    assert!(m.contains("line 3 has an invisible character (U+200B)"), "{m}");
}

/// A file of look-alikes on every line, near the size cap, in four files: the
/// diagnosis costs time linear in each file, and bounded for the submission (it had
/// re-run each check once per line tried: 85 s for four such files).
#[test]
fn a_file_full_of_look_alikes_is_diagnosed_in_bounded_time() {
    let c = Copy::sample();
    let line = "note－x＝y－z\n";
    let big = format!("role＝sidecar\n{}", line.repeat((1 << 20) / line.len() - 2));
    for file in ["01-args.txt", "02-env.txt", "03-mesh.txt", "07-identity.txt"] {
        c.write(file, &big);
    }
    let start = std::time::Instant::now();
    let g = c.grade().no_envoy().run();
    let took = start.elapsed();
    assert!(took < std::time::Duration::from_secs(60), "took {took:?}");
    assert_eq!(g.status("args.role"), "fail");
    // Still diagnosed.
    assert!(g.message("args.role").contains("line 1 has `＝` (U+FF1D), a full-width `=`"), "{}", g.message("args.role"));
}

#[test]
fn full_width_punctuation_in_prose_is_no_slip() {
    // Chinese prose keeps its own punctuation: nothing fails, nothing is noted.
    let c = Copy::sample();
    let report = c.read("08-report.md").replace("\n- ", "\n- 症状：");
    c.write("08-report.md", &report);
    assert!(c.grade().no_envoy().run().with("fail").is_empty());
}

/// `why(copy, id)` holds every one of `parts`.
fn says(copy: &Copy, id: &str, parts: &[&str]) {
    let m = why(copy, id);
    for p in parts {
        assert!(m.contains(p), "{id}: {p:?} not in {m:?}");
    }
}

/// The sample with `from` made `to` in `file`: the failure of `id` holds every one of `parts`.
fn edited_says(file: &str, from: &str, to: &str, id: &str, parts: &[&str]) {
    let c = Copy::sample();
    c.edit(file, from, to);
    says(&c, id, parts);
}

#[test]
fn a_wrong_value_is_said_against_what_it_is_compared_with() {
    edited_says("01-args.txt", "role=sidecar", "role=router", "args.role", &["role= is not the second argument of istio-proxy in your inject.yaml"]);
    let c = Copy::sample();
    c.edit("06-ready.txt", "ready_body=PRE_INITIALIZING", "ready_body=LIVE");
    c.edit("08-report.md", "ready_without_istiod=PRE_INITIALIZING", "ready_without_istiod=INITIALIZING");
    assert!(why_with_envoy(&c, "report.ready_body").contains("matches neither ready_body= in your 06-ready.txt"));
    // Where the file it copies holds Envoy's own value, only 08's line is wrong: said so.
    let c = Copy::sample();
    c.edit("08-report.md", "ready_without_istiod=PRE_INITIALIZING", "ready_without_istiod=LIVE").edit("08-report.md", "typo_rc=1", "typo_rc=2");
    assert!(why_with_envoy(&c, "report.ready_body").contains("is not ready_body= of your 06-ready.txt, which is what /ready answers; copy it from there"));
    assert!(why_with_envoy(&c, "report.typo_rc").contains("is not rc= on the last line of your 05-typo.txt, which is Envoy's exit code"));
    edited_says("06-ready.txt", "ready_code=503", "ready_code=HTTP 503", "ready.code_form", &["not a three-digit HTTP status code"]);
    edited_says("05-typo.txt", "rc=1", "rc=0", "typo_txt.rc_nonzero", &["rc=0 is what envoy --mode validate gives when it accepts the file"]);
    // Where Envoy rejects boot-typo.yaml, the file is right and only its record is not.
    let c = Copy::sample();
    c.edit("05-typo.txt", "rc=1", "rc=0");
    let m = why_with_envoy(&c, "typo_txt.rc_nonzero");
    assert!(m.contains("Envoy rejects your boot-typo.yaml (typo.rejected passes), so this is not its run"), "{m}");
    assert!(!m.contains("must make it fail"), "{m}");
    edited_says("bootstrap.yaml", "\n  metadata:", "\n  metdata:", "bootstrap.node_metadata", &["`.node.metadata` is missing"]);
}

#[test]
fn a_key_written_another_way_is_pointed_at() {
    edited_says("01-args.txt", "role=sidecar", "role: sidecar", "args.role", &["line 1 reads `role: sidecar`", "write `role=` and the value at the start of a line"]);
    edited_says("02-env.txt", "CA_ADDR=", "export CA_ADDR=", "env.ca_addr", &["reads `export CA_ADDR="]);
    // Markdown's bold key and table row, in the one Markdown file.
    edited_says("08-report.md", "xds_address=", "**xds_address**=", "report.xds_address", &["line 1 reads `**xds_address**="]);
    edited_says("08-report.md", "typo_rc=1", "| typo_rc=1 |", "report.typo_rc", &["line 3 reads `| typo_rc=1 |`"]);
}

#[test]
fn output_without_envoys_words_says_stderr_was_lost() {
    // typo_txt.names_cluster goes by what Envoy prints for boot-typo.yaml: validated.
    let why = |c: &Copy, id: &str| {
        let g = c.grade().arg("--no-live").run();
        assert_eq!(g.status(id), "fail", "{id}: {}", g.message(id));
        g.message(id)
    };
    let c = Copy::sample();
    c.write("05-typo.txt", "rc=1\n");
    for p in ["holds only the exit code", "stderr"] {
        assert!(why(&c, "typo_txt.names_cluster").contains(p), "{p}");
    }
    // Output that is there, just not the rejection wanted, is not said to be missing.
    let c = Copy::sample();
    let typo = c.read("05-typo.txt").replace("istiod-xds", "istiod-xdz");
    c.write("05-typo.txt", &typo);
    assert!(!why(&c, "typo_txt.names_cluster").contains("only the exit code"));
}

#[test]
fn a_yaml_file_of_comments_fails_once_plainly() {
    let c = Copy::sample();
    c.write("bootstrap.yaml", "# to do\n");
    says(&c, "bootstrap.exists", &["bootstrap.yaml reads as YAML but holds a single value (null"]);
    says(&c, "bootstrap.admin_port", &["bootstrap.yaml reads as YAML but holds a single value"]);
}

#[test]
fn a_bootstrap_that_is_a_list_fails_once_without_jq_words() {
    let c = Copy::sample();
    let listed: String = c.read("bootstrap.yaml").lines().map(|l| if l.starts_with(' ') || l.is_empty() { format!("  {l}\n") } else { format!("- {l}\n") }).collect();
    c.write("bootstrap.yaml", &listed);
    for id in ["bootstrap.exists", "bootstrap.admin_port", "bootstrap.node_metadata"] {
        says(&c, id, &["bootstrap.yaml holds a list, where Envoy reads one config of fields"]);
        assert!(!c.grade().run().message(id).contains("cannot index"), "{id}");
    }
}

/// pilot-agent strips ISTIO_META_ when it moves the variable into the node's metadata,
/// as the lab says: a student may write the stripped name.
#[test]
fn a_key_written_without_its_prefix_is_pointed_at() {
    edited_says("02-env.txt", "ISTIO_META_CLUSTER_ID=", "CLUSTER_ID=", "env.cluster_id", &["line 3 sets `CLUSTER_ID=`", "`ISTIO_META_CLUSTER_ID` in full"]);
}

#[test]
fn a_key_written_as_the_statistic_s_full_name_is_pointed_at() {
    edited_says("06-ready.txt", "connected_state=", "control_plane.connected_state=", "ready.state_form", &["line 3 sets `control_plane.connected_state=`", "`connected_state` alone"]);
}

#[test]
fn an_h2_extension_without_explicit_http_config_is_said_so() {
    let c = Copy::sample();
    c.edit("bootstrap.yaml", "explicit_http_config:", "use_downstream_protocol_config:");
    says(&c, "bootstrap.http2", &["typed_extension_protocol_options has HttpProtocolOptions, but without explicit_http_config.http2_protocol_options"]);
}

#[test]
fn a_node_saved_as_a_list_is_said_to_be_one() {
    let c = Copy::sample();
    let node = c.read("06-node.json");
    c.write("06-node.json", &format!("[{node}]"));
    says(&c, "node.matches_bootstrap", &["`.` is a list where a map is expected"]);
}

/// A node whose key is misspelt, and a whole bootstrap saved as the node, are said as
/// such, not as "the rest of the node Envoy reports".
#[test]
fn a_node_with_a_misspelt_key_or_the_whole_bootstrap_is_said_so() {
    let c = Copy::sample();
    let node = c.read("06-node.json").replacen("\"cluster\"", "\"clsuter\"", 1);
    c.write("06-node.json", &node);
    says(&c, "node.fields", &["a key there looks like id, cluster or metadata misspelt"]);
    assert!(!why(&c, "node.fields").contains("the rest of the node"));
    let c = Copy::sample();
    let boot = serde_json::to_string(&serde_yaml::from_str::<serde_json::Value>(&c.read("bootstrap.yaml")).unwrap()).unwrap();
    c.write("06-node.json", &boot);
    says(&c, "node.fields", &["those are the fields of a whole bootstrap"]);
}

#[test]
fn a_renamed_static_cluster_is_said_once() {
    let c = Copy::sample();
    c.edit("bootstrap.yaml", "  - name: xds-grpc", "  - name: xds_grpc");
    says(&c, "bootstrap.static_cluster", &["no static cluster has it"]);
    // The name is one mistake: the type, HTTP/2 and endpoints of a cluster there is none
    // of are not graded, and say why.
    let g = c.grade().no_envoy().run();
    for id in ["bootstrap.strict_dns", "bootstrap.http2", "bootstrap.endpoint"] {
        assert_eq!(g.status(id), "skip", "{id}");
        assert_eq!(g.message(id), "not graded: the static cluster ADS must point to is not found by its name among bootstrap.yaml's static clusters (see bootstrap.static_cluster)");
    }
    // Renamed in both bootstraps, with ADS pointing at it: step 4 charges the name, once,
    // and boot-typo.yaml is a faithful copy of it.
    c.edit("bootstrap.yaml", "cluster_name: xds-grpc", "cluster_name: xds_grpc");
    c.edit("boot-typo.yaml", "  - name: xds-grpc", "  - name: xds_grpc").edit("boot-typo.yaml", "cluster_name: xds-grpc", "cluster_name: xds_grpc");
    let g = c.grade().arg("--no-live").run();
    assert_eq!(g.with("fail"), vec!["bootstrap.ads_cluster", "bootstrap.static_cluster"]);
    assert!(g.checks().iter().filter(|c| c["step"] == 5).all(|c| c["status"] == "pass"), "{}", g.stdout);
}

#[test]
fn explanations_in_other_list_forms_are_named() {
    let c = Copy::sample();
    let report = c.read("08-report.md").replace("\n- ", "\n* ");
    c.write("08-report.md", &report);
    says(&c, "report.explanations", &["and some words, each said once: 0;", "another list marker (*, +, •, a number)"]);
    // A nested Markdown item is still a line that starts with -.
    let c = Copy::sample();
    let report = c.read("08-report.md").replace("\n- ", "\n  - ");
    c.write("08-report.md", &report);
    assert!(c.grade().no_envoy().run().with("fail").is_empty());
}

#[test]
fn a_value_off_by_a_common_slip_names_the_slip() {
    edited_says("01-args.txt", "role=sidecar", "role=\"sidecar\"", "args.role", &["the value is in quotes; write it without them"]);
    edited_says("02-env.txt", "fieldRef:metadata.namespace", "fieldRef: metadata.namespace", "env.pod_namespace", &["differs only in spaces"]);
    let c = Copy::sample();
    c.write("bootstrap.yaml", "node:\n\tid: x\n");
    says(&c, "bootstrap.exists", &["a line is indented with a tab, where YAML needs spaces"]);
}

#[test]
fn a_json_difference_is_said_against_its_source_and_place() {
    edited_says("06-node.json", "\"mesh-payments\"", "\"mesh-x\"", "node.matches_bootstrap", &["06-node.json is not the node of your bootstrap.yaml: `.metadata.MESH_ID` has another value"]);
}

/// json_subset: a variable of the mesh config's proxyMetadata that istio-proxy lacks is
/// named, with why it matters.
#[test]
fn a_proxy_metadata_variable_missing_from_the_env_is_named() {
    let c = Copy::sample();
    let inject = c.read("inject.yaml");
    let at = inject.find("        - name: ISTIO_META_DNS_CAPTURE\n          value: \"true\"\n").unwrap();
    c.write("inject.yaml", format!("{}{}", &inject[..at], &inject[at + "        - name: ISTIO_META_DNS_CAPTURE\n          value: \"true\"\n".len()..]));
    says(&c, "inject.proxy_metadata", &["`.ISTIO_META_DNS_CAPTURE` is missing: those variables come from the mesh config", "--meshConfigFile"]);
}

/// An admin on a unix socket has no port_value: said as what it is, not only "not set".
#[test]
fn an_admin_on_a_pipe_is_named() {
    let c = Copy::sample();
    c.edit("bootstrap.yaml", "    socket_address:\n      address: 127.0.0.1\n      port_value: 9982\n", "    pipe:\n      path: \"@labcheck-admin\"\n");
    let m = why(&c, "bootstrap.admin_port");
    assert!(m.contains("the admin listens on a unix socket (pipe), where the lab asks for a TCP port"), "{m}");
}

/// An explanation whose text itself starts with a dash (`- --mode validate ...`, `- -1
/// ...`) is an explanation; `-- note` and a line of dashes are no list items.
#[test]
fn explanations_may_start_with_a_dash() {
    let c = Copy::sample();
    let report = c.read("08-report.md");
    let keys: Vec<&str> = report.lines().take_while(|l| !l.trim().is_empty()).collect();
    let four = [
        "- --mode validate catches the typo before the Pod is deployed",
        "- -1 is no exit code Envoy gives; a rejected bootstrap exits 1",
        "- CrashLoop: the bootstrap is rejected, the log names the cluster",
        "- Not Ready: no istiod, /ready answers PRE_INITIALIZING",
    ];
    c.write("08-report.md", format!("{}\n\n{}\n", keys.join("\n"), four.join("\n")));
    let g = c.grade().no_envoy().run();
    assert_eq!(g.status("report.explanations"), "pass", "{}", g.message("report.explanations"));
    assert_eq!(g.status("report.below"), "pass", "{}", g.message("report.below"));
    c.write("08-report.md", format!("{}\n\n{}\n-- more notes\n---\n-\u{3000}\n", keys.join("\n"), four[..3].join("\n")));
    let m = failing(c.grade().no_envoy().run(), "report.explanations");
    assert!(m.starts_with("lines that start with - and some words, each said once: 3; at least four are needed"), "{m}");
    // Placeholders and one line written four times are not four explanations.
    // One line in four spellings that differ in no letter or digit either.
    let spelt = format!("{0}\n{1}\n{2}\n{3}\n", four[0], four[0].replace(' ', "\u{a0}"), four[0].replacen("mode", "mo\u{200B}de", 1), four[0].to_uppercase() + ".");
    for placeholders in ["- x\n- y\n- z\n- w\n", "- 1s\n- .\n- --\n- a\n", &format!("{}\n", [four[0]; 4].join("\n")), &spelt] {
        c.write("08-report.md", format!("{}\n\n{placeholders}", keys.join("\n")));
        let m = failing(c.grade().no_envoy().run(), "report.explanations");
        assert!(m.starts_with("lines that start with - and some words, each said once: "), "{m}");
    }
    // A dash and blanks of any kind are no explanation below the key lines either.
    c.write("08-report.md", format!("{}\n\n{}\n", four.join("\n"), keys.join("\n")) + &"-\u{3000}\n".repeat(4));
    failing(c.grade().no_envoy().run(), "report.below");
}

/// A key line that is not there fails whatever value were expected: also where the run
/// does not derive that value (no live Envoy, no Envoy at all), as the live run fails it.
#[test]
fn a_missing_key_line_fails_even_where_its_value_is_not_derived() {
    for (line, id) in [("typo_rc=1\n", "report.typo_rc"), ("ready_without_istiod=PRE_INITIALIZING\n", "report.ready_body")] {
        let c = Copy::sample();
        c.edit("08-report.md", line, "");
        for g in [c.grade().no_envoy().run(), c.grade().arg("--no-live").run()] {
            assert_eq!(g.status(id), "fail", "{id}: {}", g.message(id));
            assert_eq!(g.failing_steps(), [8].into(), "{:?}", g.with("fail"));
        }
        // Present, it is not graded without the value it must hold.
        let g = Copy::sample().grade().no_envoy().run();
        assert_eq!(g.status(id), "skip", "{id}: {}", g.message(id));
    }
}

/// A spec sentence said instead of the check's own keeps the look-alike note: what a
/// character is stays true whatever the spec says.
#[test]
fn a_sentence_said_instead_keeps_the_look_alike_note() {
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("spec.yaml");
    std::fs::write(&spec, "lab: one\ntitle: One\nsteps:\n  1: one\nparams:\n  word: {default: hello}\nchecks:\n  - id: word\n    step: 1\n    title: greeting= is the word\n    kind: kv_line\n    file: kv.txt\n    key: greeting\n    expect: '$word'\n    explain:\n      - {if: 'true', say: greeting= is not the word, instead: true}\n").unwrap();
    let c = Copy { dir: tempfile::tempdir().unwrap() };
    c.write("kv.txt", "greeting=hell\u{043E}\n");
    let g = c.grade().no_params().args(&["--spec", spec.to_str().unwrap()]).arg("--no-live").run();
    let m = g.message("word");
    assert!(m.starts_with("greeting= is not the word") && m.contains("line 1 has `о` (U+043E), a Cyrillic letter that looks like `o`"), "{m}");
}

/// A duration written as an object is shown as found in seconds with its nanos as
/// digits, not in float form (`1e-7s`).
#[test]
fn a_duration_object_is_shown_as_seconds() {
    for (written, shown) in [("{nanos: 100}", "0.0000001s"), ("{seconds: 15, nanos: 5000000}", "15.005s")] {
        let c = Copy::sample();
        c.edit("bootstrap.yaml", "initial_fetch_timeout: 0s", &format!("initial_fetch_timeout: {written}"));
        let g = c.grade().no_envoy().run();
        assert_eq!(g.check("bootstrap.cds_timeout")["found"], shown, "{written}");
    }
}
