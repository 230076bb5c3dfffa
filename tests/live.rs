//! The live part: probing the student's own Envoy, launching one, and recordings.
//! Real Envoys throughout; a small fake server only for what Envoy cannot do (hang,
//! answer garbage).


use crate::common::*;
use std::io::{Read, Write};
use std::net::TcpListener;
use std::time::{Duration, Instant};

/// An Envoy this test starts from a bootstrap, on a free admin port, as a student would.
struct Running {
    child: std::process::Child,
    pub admin: String,
    _dir: tempfile::TempDir,
}

impl Running {
    // The child is reaped by Drop, which clippy does not follow.
    #[allow(clippy::zombie_processes)]
    fn start(bootstrap: &std::path::Path) -> Running {
        Running::start_with(bootstrap, "")
    }

    /// With more sections on Envoy's command line (`, stats_config: {...}`), besides the
    /// admin address there.
    fn start_with(bootstrap: &std::path::Path, more: &str) -> Running {
        let dir = tempfile::tempdir().unwrap();
        let addr = dir.path().join("admin");
        let mut child = std::process::Command::new(envoy())
            .arg("-c")
            .arg(bootstrap)
            .args(["--config-yaml", &format!("{{admin: {{address: {{socket_address: {{address: 127.0.0.1, port_value: 0}}}}}}{more}}}")])
            .arg("--admin-address-path")
            .arg(&addr)
            .args(["--disable-hot-restart", "--log-level", "error"])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let start = Instant::now();
        loop {
            if let Ok(a) = std::fs::read_to_string(&addr)
                && a.contains(':') {
                    return Running { child, admin: format!("http://{}", a.trim()), _dir: dir };
                }
            if start.elapsed() > Duration::from_secs(20) {
                let _ = child.kill();
                let _ = child.wait();
                panic!("Envoy did not start");
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        // By PID: this test's own Envoy only.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn probe_mode_reads_the_students_running_envoy() {
    let envoy = Running::start(&sample().join("bootstrap.yaml"));
    let g = Grade::sample().param(&format!("admin={}", envoy.admin)).run();
    g.assert_full_marks();
    assert!(g.report()["live_source"].as_str().unwrap().contains(&format!("a probe of the Envoy at {}", envoy.admin)));
}

#[test]
fn probe_mode_refuses_an_envoy_running_another_bootstrap() {
    let envoy = Running::start(&sample_b().join("bootstrap.yaml"));
    let g = Grade::sample().param(&format!("admin={}", envoy.admin)).run();
    for id in ["node.live", "ready.code_live", "ready.body_live", "ready.state_live"] {
        assert_eq!(g.status(id), "error", "{id}");
    }
    let m = g.message("node.live");
    assert!(m.contains(&format!("could not check: the Envoy at {} is not running your bootstrap.yaml", envoy.admin)), "{m}");
    // Its own node.id is not quoted: it may be another bootstrap's right answer.
    assert!(!m.contains("ledger-7c9d4f-x2k8p"), "{m}");
    // How to start it again, with the file's own path.
    let restart = format!("Stop it (in the lab's machine, pkill -x envoy, as the lab says; on a machine others share, kill it by its PID) and start it again with the file: setsid --fork nohup envoy -c {}", sample().canonicalize().unwrap().join("bootstrap.yaml").display());
    assert!(m.contains(&restart), "{m}");
    assert_eq!(g.code, Some(2));
}

#[test]
fn probe_mode_refuses_an_envoy_started_from_an_older_bootstrap() {
    // Started before initial_fetch_timeout was added, such an Envoy turns Ready after a
    // while; the student then copies LIVE. It runs the same node, but not the file.
    let old = tempfile::tempdir().unwrap();
    let older = std::fs::read_to_string(sample().join("bootstrap.yaml")).unwrap().replace("    initial_fetch_timeout: 0s\n", "");
    assert!(!older.contains("initial_fetch_timeout"));
    std::fs::write(old.path().join("bootstrap.yaml"), older).unwrap();
    let envoy = Running::start(&old.path().join("bootstrap.yaml"));
    let g = Grade::sample().param(&format!("admin={}", envoy.admin)).run();
    assert_eq!(g.status("ready.body_live"), "error");
    let m = g.message("node.live");
    assert!(m.contains("runs a bootstrap with your node.id, but not your bootstrap.yaml as it is now"), "{m}");
    assert!(m.contains("cds_config initial_fetch_timeout, lds_config initial_fetch_timeout"), "{m}");
    assert_eq!(g.code, Some(2));
}

#[test]
fn probe_mode_refuses_an_envoy_started_before_the_metadata_changed() {
    // The student changed MESH_ID in the file and in 06-node.json but kept the Envoy
    // already running: it reports the old metadata, and node.live would blame the file.
    let envoy = Running::start(&sample().join("bootstrap.yaml"));
    let c = Copy::sample();
    for f in ["bootstrap.yaml", "boot-typo.yaml"] {
        c.edit(f, "MESH_ID: mesh-payments", "MESH_ID: mesh-payments-2");
    }
    c.edit("06-node.json", "\"mesh-payments\"", "\"mesh-payments-2\"");
    let g = c.grade().param(&format!("admin={}", envoy.admin)).run();
    assert_eq!(g.status("node.live"), "error");
    let m = g.message("node.live");
    assert!(m.contains("runs a bootstrap with your node.id, but not your bootstrap.yaml as it is now (they differ in node.metadata)"), "{m}");
    assert!(m.contains(&format!("Stop it (in the lab's machine, pkill -x envoy, as the lab says; on a machine others share, kill it by its PID) and start it again with the file: setsid --fork nohup envoy -c {}", c.path().canonicalize().unwrap().join("bootstrap.yaml").display())), "{m}");
    assert_eq!(g.code, Some(2));
}

#[test]
fn a_bootstrap_envoy_rejects_has_no_live_values_in_either_mode() {
    // Envoy writes its admin address before it rejects the configuration, so a probe
    // alone would say "nothing listens there" and blame the grader. No Envoy can run
    // the file, which step 4 charges: the live checks are not graded, and say why, in
    // Envoy's words, whether probed or launched.
    let c = Copy::sample();
    c.edit("bootstrap.yaml", "- envoy_grpc:\n        cluster_name: xds-grpc", "- envoy_grpc:\n        cluster_name: xds-grcp");
    let wrapper = Wrapper::new();
    for run in [c.grade().launch(), c.grade().param(&format!("admin_port={}", free_port()))] {
        let out = run.command_with(Some(&wrapper)).output().unwrap();
        let g: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        for id in ["node.live", "ready.code_live"] {
            let check = g["checks"].as_array().unwrap().iter().find(|c| c["id"] == id).unwrap();
            assert_eq!(check["status"], "skip", "{id}: {}", check["message"]);
            assert_eq!(check["max_points"], 0, "{id}");
        }
        let m = g["checks"].as_array().unwrap().iter().find(|c| c["id"] == "node.live").unwrap()["message"].as_str().unwrap().to_string();
        assert!(m.starts_with("not graded: Envoy rejects your bootstrap.yaml, so no Envoy can run it: "), "{m}");
        assert!(m.contains("Unknown gRPC client cluster 'xds-grcp'"), "{m}");
        assert!(m.ends_with(" (step 4) charges it"), "{m}");
        // No other step is charged for it: not 6 nor 8, nor 5 (boot-typo.yaml, left as
        // it was, differs from this bootstrap.yaml only in ADS's name).
        let failing: std::collections::BTreeSet<u64> = g["checks"].as_array().unwrap().iter().filter(|c| c["status"] == "fail").map(|c| c["step"].as_u64().unwrap()).collect();
        assert_eq!(failing, [4].into(), "{g}");
        assert_eq!(out.status.code(), Some(1));
    }
    // Only the validations ran: nothing was launched from the rejected file.
    assert!(wrapper.starts().iter().all(|s| s.contains("--mode validate")), "{:?}", wrapper.starts());
}

#[test]
fn a_bootstrap_without_an_admin_address_costs_step_4_alone_in_either_mode() {
    // Envoy accepts it, but no Envoy running it can be asked anything: the admin port's
    // check charges it, and the live checks are not graded, probed or launched alike.
    let c = Copy::sample();
    for f in ["bootstrap.yaml", "boot-typo.yaml"] {
        let mut boot: serde_json::Value = serde_yaml::from_str(&c.read(f)).unwrap();
        boot.as_object_mut().unwrap().remove("admin");
        c.write(f, serde_yaml::to_string(&boot).unwrap());
    }
    let (probed, launched) = (c.grade().param(&format!("admin_port={}", free_port())).run(), c.grade().launch().run());
    assert_same(&probed, &launched);
    // The reference's maximum without the live checks.
    let live = ["node.live", "ready.code_live", "ready.body_live", "ready.state_live"];
    let reference = Grade::sample().launch().run();
    let live_points: u64 = live.iter().map(|id| reference.check(id)["max_points"].as_u64().unwrap()).sum();
    let without_live = serde_json::json!(reference.report()["max_score"].as_u64().unwrap() - live_points);
    for g in [&probed, &launched] {
        assert_eq!(g.failing_steps(), [4].into(), "{:?}", g.with("fail"));
        assert_eq!(g.with("fail"), ["bootstrap.admin_port".to_string()].to_vec());
        for id in ["node.live", "ready.code_live", "ready.body_live", "ready.state_live"] {
            assert_eq!(g.status(id), "skip", "{id}");
            assert_eq!(g.message(id), "not graded: Your bootstrap.yaml gives Envoy's admin no TCP port the grader can know (none, 0, or a pipe), so no Envoy running it can be asked anything; bootstrap.admin_port (step 4) charges it");
        }
        assert_eq!(g.report()["max_score"], without_live, "the live checks' points are not in this submission's maximum");
        assert_eq!(g.code, Some(1));
    }
}

#[test]
fn a_bootstrap_that_does_not_parse_leaves_the_live_checks_ungraded_in_either_mode() {
    // No check passes on a value the grader could not read, and none is charged twice.
    let c = Copy::sample();
    c.write("bootstrap.yaml", "admin: [unclosed\n");
    let (probed, launched) = (c.grade().param(&format!("admin_port={}", free_port())).run(), c.grade().launch().run());
    assert_same(&probed, &launched);
    for g in [&probed, &launched] {
        for id in ["node.live", "ready.code_live", "ready.body_live", "ready.state_live"] {
            assert_eq!(g.status(id), "skip", "{id}: {}", g.message(id));
            let m = g.message(id);
            assert!(m.starts_with("not graded: ") && m.ends_with(", so no Envoy can run it; bootstrap.exists (step 4) charges it"), "{id}: {m}");
        }
        assert!(g.with("pass").iter().all(|id| !id.ends_with("_live") && id != "node.live"), "{:?}", g.with("pass"));
    }
}

#[test]
fn nothing_listening_tells_how_to_start_envoy() {
    // The lab's admin port, which the bootstrap sets, with nothing there.
    let port = free_port();
    let c = Copy::sample();
    c.edit("bootstrap.yaml", "port_value: 9982", &format!("port_value: {port}"));
    let g = c.grade().param(&format!("admin_port={port}")).run();
    let m = g.message("ready.code_live");
    assert_eq!(g.status("ready.code_live"), "error");
    assert!(m.contains("connection refused"), "{m}");
    assert!(m.contains("Start Envoy as step 6 says (setsid --fork nohup envoy -c"), "{m}");
    assert!(m.contains("--launch-envoy") && !m.contains("sets admin port"), "{m}");
    assert_eq!(g.code, Some(2));
    let text = c.grade().param(&format!("admin_port={port}")).text().run();
    assert!(text.stdout.contains("ERROR  ready.code_live"));
}

#[test]
fn a_bootstrap_with_another_admin_port_is_probed_on_that_port() {
    // Envoy's usual 9901 in the file, say: the student's Envoy listens where the file
    // says; nothing answers at the lab's port, so it is read there, as a launched one
    // would be. The port is step 4's mistake.
    let (theirs, lab_port) = (free_port(), free_port());
    let c = Copy::sample();
    for f in ["bootstrap.yaml", "boot-typo.yaml"] {
        c.edit(f, "port_value: 9982", &format!("port_value: {theirs}"));
    }
    let envoy = Student::start(&c.file("bootstrap.yaml"), theirs);
    // Whether the lab's admin URL follows its admin port or is given outright.
    for g in [c.grade().param(&format!("admin_port={lab_port}")), c.grade().param(&format!("admin=http://127.0.0.1:{lab_port}"))] {
        let g = g.run();
        assert_eq!(g.status("bootstrap.admin_port"), "fail");
        for id in ["node.live", "ready.code_live", "ready.state_live"] {
            assert_eq!(g.status(id), "pass", "{id}: {}", g.message(id));
        }
        assert!(g.report()["live_source"].as_str().unwrap().contains(&format!("127.0.0.1:{theirs}")));
        assert_eq!(g.failing_steps(), [4].into());
    }
    drop(envoy);
}

/// A fake admin port that accepts and then does `what` with each connection.
fn fake_server(what: fn(std::net::TcpStream)) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    std::thread::spawn(move || {
        for s in listener.incoming().flatten() {
            std::thread::spawn(move || what(s));
        }
    });
    url
}

#[test]
fn a_hanging_admin_port_is_bounded() {
    let url = fake_server(|mut s| {
        let mut buf = [0u8; 1024];
        let _ = s.read(&mut buf);
        std::thread::sleep(Duration::from_secs(60));
    });
    let start = Instant::now();
    let g = Grade::sample().param(&format!("admin={url}")).run();
    assert!(start.elapsed() < Duration::from_secs(15), "took {:?}", start.elapsed());
    assert_eq!(g.status("ready.body_live"), "error");
    assert!(g.message("ready.body_live").contains("no answer within"), "{}", g.message("ready.body_live"));
}

#[test]
fn a_garbage_admin_port_is_could_not_check() {
    let url = fake_server(|mut s| {
        let mut buf = [0u8; 1024];
        let _ = s.read(&mut buf);
        let _ = s.write_all(b"\x00\xffSSH-2.0-OpenSSH\r\n\x1b[31mgarbage");
    });
    let g = Grade::sample().param(&format!("admin={url}")).run();
    assert_eq!(g.status("ready.code_live"), "error");
    assert!(g.message("ready.code_live").contains("not an HTTP answer"), "{}", g.message("ready.code_live"));
    assert!(!g.stdout.contains('\u{1b}'));
}

#[test]
fn an_http_server_that_is_not_envoy_is_could_not_check() {
    let url = fake_server(|mut s| {
        let mut buf = [0u8; 1024];
        let _ = s.read(&mut buf);
        let _ = s.write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello");
    });
    let g = Grade::sample().param(&format!("admin={url}")).run();
    assert_eq!(g.status("ready.code_live"), "error");
    assert!(g.message("ready.code_live").contains("is this an Envoy admin port?"), "{}", g.message("ready.code_live"));
}

#[test]
fn launch_mode_grades_a_broken_submission_against_what_envoy_shows() {
    let c = Copy::sample();
    c.edit("06-ready.txt", "ready_body=PRE_INITIALIZING", "ready_body=LIVE")
        .edit("08-report.md", "ready_without_istiod=PRE_INITIALIZING", "ready_without_istiod=LIVE");
    let g = c.grade().launch().run();
    assert_eq!(g.status("ready.body_live"), "fail");
    assert_eq!(g.check("ready.body_live")["expected"], "PRE_INITIALIZING");
    assert_eq!(g.status("report.ready_body"), "pass");
    // One validation per file and one launch, all stopped.
    assert_eq!(g.envoy_pids.len(), 3, "{:?}", g.envoy_pids);
}

#[test]
fn launch_mode_never_runs_a_refused_bootstrap() {
    let c = Copy::sample();
    let port = free_port();
    let out = tempfile::tempdir().unwrap();
    let log = out.path().join("access.log");
    let listener = format!(
        "static_resources:\n  listeners:\n  - name: l\n    address:\n      socket_address: {{address: 127.0.0.1, port_value: {port}}}\n    filter_chains: []\n    access_log:\n    - name: envoy.access_loggers.file\n      typed_config:\n        \"@type\": type.googleapis.com/envoy.extensions.access_loggers.file.v3.FileAccessLog\n        path: {}\n",
        log.display()
    );
    c.edit("bootstrap.yaml", "static_resources:\n", &listener);
    let wrapper = Wrapper::new();
    let out_ = c.grade().launch().command_with(Some(&wrapper)).output().unwrap();
    let g: serde_json::Value = serde_json::from_slice(&out_.stdout).unwrap();
    let node_live = g["checks"].as_array().unwrap().iter().find(|c| c["id"] == "node.live").unwrap();
    assert_eq!(node_live["status"], "skip");
    assert!(node_live["message"].as_str().unwrap().starts_with("not graded: bootstrap.yaml was not given to Envoy"), "{node_live}");
    assert!(node_live["message"].as_str().unwrap().ends_with("; so no Envoy can run it; bootstrap.validates (step 4) charges it"), "{node_live}");
    assert!(node_live["message"].as_str().unwrap().contains("`.static_resources.listeners` would have Envoy open ports"), "{node_live}");
    // Envoy never saw bootstrap.yaml: the only start is the validation of boot-typo.yaml.
    let starts = wrapper.starts();
    assert!(starts.iter().all(|s| s.contains("boot-typo.yaml")), "{starts:?}");
    assert!(!log.exists());
    assert!(TcpListener::bind(("127.0.0.1", port)).is_ok(), "something listened on the listener's port");
}

#[test]
fn two_launches_at_once_do_not_clash() {
    let a = Grade::sample().launch();
    let b = Grade::new(sample_b()).params(lab_b()).launch();
    let (ga, gb) = std::thread::scope(|s| {
        let ha = s.spawn(|| a.run());
        let hb = s.spawn(|| b.run());
        (ha.join().unwrap(), hb.join().unwrap())
    });
    ga.assert_full_marks();
    gb.assert_full_marks();
}

#[test]
fn sigterm_stops_the_launched_envoy() {
    // The wrapper starts the real Envoy but hides the admin-address path from it, so
    // the grader is still waiting for the admin port when the signal comes.
    let wrapper = Wrapper::with_body(
        r#"case "$*" in
*admin-address-path*)
  skip=0
  for a in "$@"; do
    shift
    if [ $skip = 1 ]; then skip=0; continue; fi
    if [ "$a" = --admin-address-path ]; then skip=1; continue; fi
    set -- "$@" "$a"
  done
  "$REAL" "$@" &
  echo "$! envoy" >> "$LOG"
  wait;;
*) exec "$REAL" "$@";;
esac"#,
    );
    let c = Copy::sample();
    let mut child = c.grade().launch().std_command_with(Some(&wrapper)).stderr(std::process::Stdio::piped()).spawn().unwrap();
    let start = Instant::now();
    let envoy_pid = loop {
        if let Some(pid) = wrapper.starts().iter().find(|l| l.ends_with(" envoy")).and_then(|l| l.split(' ').next()?.parse::<i32>().ok()) {
            break pid;
        }
        assert!(start.elapsed() < Duration::from_secs(20), "Envoy was not launched: {:?}", wrapper.starts());
        std::thread::sleep(Duration::from_millis(20));
    };
    std::thread::sleep(Duration::from_millis(300));
    assert!(alive(envoy_pid), "Envoy should be running now");
    unsafe { libc_kill(child.id() as i32, 15) };
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(128 + 15));
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.ends_with("labcheck: stopped by SIGTERM before the report was written; every Envoy it started is stopped\n"), "{said}");
    let start = Instant::now();
    while alive(envoy_pid) && start.elapsed() < Duration::from_secs(5) {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(!alive(envoy_pid), "Envoy {envoy_pid} outlived the grader");
}

unsafe extern "C" {
    #[link_name = "kill"]
    fn libc_kill(pid: i32, sig: i32) -> i32;
}

#[test]
fn a_recording_regrades_without_envoy() {
    let rec_dir = tempfile::tempdir().unwrap();
    let rec = rec_dir.path().join("probe.json");
    Grade::sample().launch().args(&["--save-probe", rec.to_str().unwrap()]).run().assert_full_marks();
    let saved: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&rec).unwrap()).unwrap();
    let ex = saved["exchanges"].as_array().unwrap();
    assert_eq!(ex[0]["path"], "/ready");
    assert_eq!(ex[0]["status"], 503);
    assert!(ex.iter().all(|e| e["at"].as_str().unwrap().ends_with('Z')));

    let g = Grade::sample().no_envoy().args(&["--replay", rec.to_str().unwrap()]).run();
    for id in ["node.live", "ready.code_live", "ready.body_live", "ready.state_live"] {
        assert_eq!(g.status(id), "pass", "{id}");
    }
    assert!(g.report()["live_source"].as_str().unwrap().contains("the recording"));
    assert!(g.envoy_pids.is_empty());

    // An audit sees what Envoy said: change the recording, the verdict follows.
    std::fs::write(&rec, std::fs::read_to_string(&rec).unwrap().replace("PRE_INITIALIZING", "LIVE")).unwrap();
    let g = Grade::sample().no_envoy().args(&["--replay", rec.to_str().unwrap()]).run();
    assert_eq!(g.status("ready.body_live"), "fail");
}

/// A real Envoy with no control plane now and then reads connected_state 1 for an
/// instant. Replayed from a real probe, with that blip on the first stats read: the
/// grade takes the steady value.
#[test]
fn a_blip_of_connected_state_is_read_past() {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;
    let rec_dir = tempfile::tempdir().unwrap();
    let rec = rec_dir.path().join("probe.json");
    Grade::sample().launch().args(&["--save-probe", rec.to_str().unwrap()]).run().assert_full_marks();
    let saved: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&rec).unwrap()).unwrap();
    let answers: Vec<(String, u64, String)> = saved["exchanges"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (e["path"].as_str().unwrap().to_string(), e["status"].as_u64().unwrap(), e["body"].as_str().unwrap().to_string()))
        .collect();
    let stats_reads = Arc::new(AtomicUsize::new(0));
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let reads = stats_reads.clone();
    std::thread::spawn(move || {
        for mut s in listener.incoming().flatten() {
            let mut buf = [0u8; 4096];
            let n = s.read(&mut buf).unwrap_or(0);
            let request = String::from_utf8_lossy(&buf[..n]).to_string();
            let path = request.split_whitespace().nth(1).unwrap_or("").to_string();
            let Some((_, status, body)) = answers.iter().find(|(p, _, _)| *p == path) else { continue };
            let mut body = body.clone();
            if path.starts_with("/stats") && reads.fetch_add(1, Ordering::SeqCst) == 0 {
                body = body.replace("connected_state: 0", "connected_state: 1");
            }
            let head = format!("HTTP/1.1 {status} X\r\nContent-Length: {}\r\nConnection: close\r\n\r\n", body.len());
            let _ = s.write_all(head.as_bytes());
            let _ = s.write_all(body.as_bytes());
        }
    });
    let g = Grade::sample().param(&format!("admin={url}")).run();
    assert_eq!(g.status("ready.state_live"), "pass", "{}", g.message("ready.state_live"));
    assert_eq!(stats_reads.load(Ordering::SeqCst), 2, "the blip was read past, not missed");
}

/// A probe that found nothing to read is not named as where the live values came
/// from: the header says none came, and why.
#[test]
fn the_header_of_a_probe_that_read_nothing_says_so() {
    let port = free_port();
    let g = Grade::sample().param(&format!("admin_port={port}")).run();
    let source = g.report()["live_source"].as_str().unwrap().to_string();
    assert!(source.starts_with(&format!("none: the probe of http://127.0.0.1:{port} read nothing usable (")), "{source}");
    assert!(source.contains("nothing listens there"), "{source}");
}

#[test]
fn a_launched_envoy_whose_file_breaks_its_admin_is_the_files_doing() {
    // The runtime limits connections to none: the launched Envoy opens its admin port,
    // then resets every probe. The file is why, not the grader: the live
    // checks fail for it, and nothing is `error`.
    let c = Copy::sample();
    let boot = c.read("bootstrap.yaml");
    c.write("bootstrap.yaml", format!("{boot}layered_runtime:\n  layers:\n  - name: s\n    static_layer:\n      overload:\n        global_downstream_max_connections: 0\n"));
    let g = c.grade().launch().run();
    assert!(g.with("error").is_empty(), "{:?}", g.with("error"));
    assert_eq!(g.status("node.live"), "fail");
    assert!(g.message("node.live").contains("something in the file changes how its admin answers"), "{}", g.message("node.live"));
    assert_eq!(g.code, Some(1));
}

/// An Envoy started from the file with a section added on its command line (a stats
/// matcher that hides the statistic step 6 reads) is another Envoy than the file's: the
/// grader says so, as its own trouble, where a launch from the file would pass.
#[test]
fn probe_mode_refuses_an_envoy_with_a_section_added_on_its_command_line() {
    let envoy = Running::start_with(&sample().join("bootstrap.yaml"), ", stats_config: {stats_matcher: {reject_all: true}}");
    let g = Grade::sample().param(&format!("admin={}", envoy.admin)).run();
    assert_eq!(g.status("ready.state_live"), "error", "{}", g.message("ready.state_live"));
    assert!(g.message("node.live").contains("but not your bootstrap.yaml as it is now (they differ in top-level sections)"), "{}", g.message("node.live"));
    assert_eq!(g.code, Some(2));
}

/// A web server on the admin port that answers with a real Envoy's words, but a
/// /ready no Envoy in that state gives: not read as Envoy's. One with no Envoy build in
/// its /server_info neither.
#[test]
fn a_web_server_with_envoys_answers_is_not_taken_for_envoy() {
    let rec_dir = tempfile::tempdir().unwrap();
    let rec = rec_dir.path().join("probe.json");
    Grade::sample().launch().args(&["--save-probe", rec.to_str().unwrap()]).run().assert_full_marks();
    let saved: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&rec).unwrap()).unwrap();
    let answers: Vec<(String, String)> = saved["exchanges"].as_array().unwrap().iter().map(|e| (e["path"].as_str().unwrap().to_string(), e["body"].as_str().unwrap().to_string())).collect();
    for (ready, info) in [("LIVE", None), ("PRE_INITIALIZING", Some(r#"{"state":"PRE_INITIALIZING","uptime_current_epoch":"1s"}"#))] {
        let mut answers = answers.clone();
        for (path, body) in answers.iter_mut() {
            match path.as_str() {
                "/ready" => *body = format!("{ready}\n"),
                "/server_info" if info.is_some() => *body = info.unwrap().to_string(),
                _ => {}
            }
        }
        let url = replaying_server(answers);
        let g = Grade::sample().param(&format!("admin={url}")).run();
        assert_eq!(g.status("ready.body_live"), "error", "{}", g.message("ready.body_live"));
        assert!(g.message("node.live").contains(&format!("could not check: what answers at {url} is not Envoy")), "{}", g.message("node.live"));
        assert_eq!(g.code, Some(2));
    }
}

/// A web server that answers each path with the body given (200 for /ready, as a
/// LIVE Envoy would), whatever its query.
fn replaying_server(answers: Vec<(String, String)>) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    std::thread::spawn(move || {
        for mut s in listener.incoming().flatten() {
            let mut buf = [0u8; 4096];
            let n = s.read(&mut buf).unwrap_or(0);
            let asked = String::from_utf8_lossy(&buf[..n]).split_whitespace().nth(1).unwrap_or("").to_string();
            let body = answers.iter().find(|(p, _)| *p == asked).map(|(_, b)| b.clone()).unwrap_or_default();
            let _ = write!(s, "HTTP/1.1 200 OK\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}", body.len());
        }
    });
    url
}
