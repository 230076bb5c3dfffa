//! A student in the middle of the lab: steps not started are one line each, the checks
//! of a missing file one line, `--step` grades some steps and runs no Envoy they do not
//! need, and a file saved under a near name or in another format is said so.

use crate::common::*;

/// inject.yaml, 01 and 02 done; nothing else begun.
pub fn midlab() -> Copy {
    let c = Copy::sample();
    for f in ["03-mesh.txt", "bootstrap.yaml", "04-validate.txt", "boot-typo.yaml", "05-typo.txt", "06-node.json", "06-ready.txt", "07-identity.txt", "08-report.md"] {
        c.remove(f);
    }
    c
}

#[test]
fn a_submission_in_the_middle_of_the_lab_gets_a_short_report() {
    let c = midlab();
    let g = c.grade().launch().text().run();
    assert_eq!(g.code, Some(1));
    let lines: Vec<&str> = g.stdout.lines().collect();
    assert!(lines.len() <= 16, "{} lines:\n{}", lines.len(), g.stdout);
    // Each missing file: in its step's title, once where the step is said not started.
    for f in ["03-mesh.txt", "bootstrap.yaml", "04-validate.txt", "06-ready.txt", "08-report.md"] {
        let named = g.stdout.matches(f).count();
        assert!(named <= 3, "{f} named {named} times:\n{}", g.stdout);
    }
    assert!(g.stdout.contains("Step 3: The mesh config and the CA address (03-mesh.txt)  0/5  not started: 03-mesh.txt is missing\n"), "{}", g.stdout);
    assert!(g.stdout.contains("not started: bootstrap.yaml and 04-validate.txt are missing"), "{}", g.stdout);
    assert!(g.stdout.contains("Step 1: pilot-agent's args (01-args.txt)  5/5\n"), "{}", g.stdout);
    assert!(!g.stdout.contains("PASS") && !g.stdout.contains("FAIL"), "{}", g.stdout);
    assert!(g.stdout.trim_end().ends_with("Next: start step 3, The mesh config and the CA address (03-mesh.txt)"), "{}", g.stdout);
    // --verbose lists every check.
    let v = c.grade().launch().text().arg("--verbose").run();
    assert_eq!(v.stdout.matches("  PASS ").count(), 35, "{}", v.stdout);
    assert_eq!(v.stdout.matches("  FAIL ").count(), 58, "{}", v.stdout);
    // Step 6 is not started: its live checks fail with it, for its own missing files
    // (not "not graded" for the missing bootstrap.yaml).
    assert_eq!(v.stdout.matches("  SKIP ").count(), 0, "{}", v.stdout);
    for id in ["node.live", "ready.code_live", "ready.body_live", "ready.state_live"] {
        assert!(v.stdout.contains(&format!("  FAIL   {id} ")), "{id}: {}", v.stdout);
    }
    // The machine formats keep every check, each failing with one sentence.
    let j = c.grade().launch().run();
    assert_eq!(j.checks().len(), 93);
    assert_eq!(j.status("bootstrap.validates"), "fail");
    assert_eq!(j.message("bootstrap.validates"), "not started: bootstrap.yaml and 04-validate.txt are missing");
    assert_eq!(j.message("report.typo_rc"), "not started: 08-report.md is missing");
}

#[test]
fn a_step_passed_is_one_line_and_a_failing_check_is_said_in_full() {
    let c = Copy::sample();
    c.edit("03-mesh.txt", "trust_domain=cluster.local", "trust_domain=example.org");
    let g = c.grade().no_envoy().text().run();
    assert!(g.stdout.contains("Step 1: pilot-agent's args (01-args.txt)  5/5\nStep 2: istio-proxy's environment (02-env.txt)  8/8\n\nStep 3:"), "{}", g.stdout);
    assert!(g.stdout.contains("  FAIL   mesh.trust_domain "), "{}", g.stdout);
    for label in ["where:    03-mesh.txt:3 (trust_domain)", "why:", "found:    example.org", "hint:"] {
        assert!(g.stdout.contains(label), "no {label}:\n{}", g.stdout);
    }
    // Skipped checks (no Envoy here) leave a passed step one line.
    assert!(g.stdout.contains("Step 6: No istiod, so never Ready (06-node.json, 06-ready.txt)  7/7  (4 skipped)\n"), "{}", g.stdout);
    assert!(g.stdout.trim_end().ends_with("First to fix: step 3, mesh.trust_domain at 03-mesh.txt:3 (trust_domain): trust_domain= is the mesh config's trustDomain"), "{}", g.stdout);
}

/// A started step with one file missing: that file's checks on one line, with the hint.
#[test]
fn the_checks_of_a_file_problem_are_one_line() {
    let c = Copy::sample();
    c.remove("04-validate.txt");
    let g = c.grade().launch().text().run();
    assert!(g.stdout.contains("  FAIL   04-validate.txt is missing (3 checks: validate.exists, validate.rc, validate.output)\n"), "{}", g.stdout);
    // Once in its step, once as the first thing to fix.
    assert_eq!(g.stdout.matches("04-validate.txt is missing").count(), 2, "{}", g.stdout);
    assert!(g.stdout.trim_end().ends_with("First to fix: step 4, 04-validate.txt is missing"), "{}", g.stdout);
    assert!(g.stdout.contains("hint:     Save what envoy --mode validate prints"), "{}", g.stdout);
    // So are those of a file that cannot be read as text; a reason said before is pointed at.
    c.write("07-identity.txt", " \n");
    c.write("06-node.json", "id: x\n");
    let g = c.grade().launch().text().run();
    assert!(g.stdout.contains("  FAIL   07-identity.txt is empty (6 checks: identity.exists, identity.token_volume, "), "{}", g.stdout);
    // And those of a file that does not read as its format: the reason once.
    assert!(g.stdout.contains("  FAIL   06-node.json holds YAML, not JSON; save it as JSON (jq prints JSON; yq -o=json turns YAML into JSON) (4 checks: node.exists, "), "{}", g.stdout);
    assert_eq!(g.stdout.matches("holds YAML, not JSON").count(), 1, "{}", g.stdout);
}

#[test]
fn step_grades_only_the_steps_named() {
    let c = Copy::sample();
    c.edit("01-args.txt", "role=sidecar", "role=router");
    let only = |steps: &[&str]| {
        let mut g = c.grade().no_envoy();
        for s in steps {
            g = g.args(&["--step", s]);
        }
        g.run()
    };
    let two = only(&["2"]);
    assert_eq!(two.code, Some(0), "step 1 is broken, step 2 is not");
    assert!(two.checks().iter().all(|ch| ch["step"] == 2));
    assert_eq!((&two.report()["score"], &two.report()["max_score"]), (&serde_json::json!(8), &serde_json::json!(8)));
    assert_eq!(two.report()["steps"].as_array().unwrap().len(), 1);
    let some = only(&["0-1", "3"]);
    assert_eq!(some.code, Some(1));
    let steps: std::collections::BTreeSet<u64> = some.checks().iter().map(|ch| ch["step"].as_u64().unwrap()).collect();
    assert_eq!(steps.into_iter().collect::<Vec<_>>(), [0, 1, 3]);
    let text = c.grade().no_envoy().text().args(&["--step", "2-3"]).run().stdout;
    assert!(text.contains("Step 2:") && text.contains("Step 3:") && !text.contains("Step 1:") && !text.contains("Step 4:"), "{text}");
    assert!(text.contains("Score 13/13 points"), "{text}");
    let g = c.grade().args(&["--step", "1", "--save-probe", "/nonexistent/probe.json"]).run();
    assert_eq!(g.code, Some(2));
    assert!(g.stderr.contains("there would be nothing to save"), "{}", g.stderr);
    for (bad, says) in [("9", "there is no step 9; the steps are 0, 1, 2, 3, 4, 5, 6, 7, 8"), ("3-1", "give a step number or a range"), ("x", "give a step number or a range")] {
        let g = c.grade().no_envoy().args(&["--step", bad]).run();
        assert_eq!(g.code, Some(2), "--step {bad}");
        assert!(g.stderr.contains(says), "--step {bad}: {}", g.stderr);
    }
}

/// Envoy runs only for what the steps graded read: none for steps 0 to 3, a validation
/// for step 4, a launch (and the validation a launch waits for) for step 6.
#[test]
fn step_runs_no_envoy_the_steps_do_not_need() {
    let starts = |steps: &str, mode: &str| {
        let w = Wrapper::new();
        let g = Grade::sample().args(&["--step", steps, mode]);
        let out = g.command_with(Some(&w)).output().unwrap();
        for pid in w.pids() {
            assert!(!alive(pid), "Envoy {pid} outlived the run");
        }
        (out.status.code(), w.starts())
    };
    for mode in ["--launch-envoy", "--no-live"] {
        let (code, started) = starts("0-3", mode);
        assert_eq!((code, started.len()), (Some(0), 0), "{mode}: {started:?}");
    }
    // Probe mode probes no one for steps that do not read a live Envoy.
    let (code, started) = starts("7", "--color=never");
    assert_eq!((code, started), (Some(0), Vec::<String>::new()));
    let (code, started) = starts("4", "--launch-envoy");
    assert_eq!(code, Some(0));
    assert!(!started.is_empty() && started.iter().all(|s| s.contains("--mode validate") && s.contains("bootstrap")), "{started:?}");
    let (code, started) = starts("6", "--launch-envoy");
    assert_eq!(code, Some(0));
    assert!(started.iter().any(|s| !s.contains("--mode validate")), "no launch: {started:?}");
    assert_eq!(started.iter().filter(|s| s.contains("--mode validate")).count(), 1, "boot-typo.yaml is not validated for step 6: {started:?}");
}

/// A file saved under a near name is said once, with the name it is under.
#[test]
fn a_file_under_a_near_name_is_pointed_at() {
    let c = Copy::sample();
    std::fs::rename(c.file("02-env.txt"), c.file("02-env")).unwrap();
    std::fs::rename(c.file("03-mesh.txt"), c.file("03-Mesh.txt")).unwrap();
    std::fs::rename(c.file("07-identity.txt"), c.file("07-identitiy.txt")).unwrap();
    std::fs::create_dir(c.file("ist2-boot")).unwrap();
    std::fs::rename(c.file("08-report.md"), c.file("ist2-boot/08-report.md")).unwrap();
    let g = c.grade().no_envoy().run();
    assert_eq!(g.message("env.ca_addr"), "02-env.txt is missing, but there is 02-env: rename it to 02-env.txt");
    assert_eq!(g.message("mesh.exists"), "03-mesh.txt is missing, but there is 03-Mesh.txt: rename it to 03-mesh.txt");
    assert_eq!(g.message("identity.token_mount"), "07-identity.txt is missing, but there is 07-identitiy.txt: rename it to 07-identity.txt");
    assert_eq!(
        g.message("report.explanations"),
        "08-report.md is missing, but there is ist2-boot/08-report.md, one folder down: move it into the submission folder as 08-report.md"
    );
    let text = c.grade().no_envoy().text().run().stdout;
    // Each once in its step; the first also as the first thing to fix.
    for (f, n) in [("02-env:", 2), ("03-Mesh.txt", 1), ("07-identitiy.txt", 1), ("ist2-boot/08-report.md", 1)] {
        assert_eq!(text.matches(&format!("but there is {f}")).count(), n, "{f}:\n{text}");
    }
    // Not "not started": the work is there, under another name.
    assert!(!text.contains("not started"), "{text}");

    let c = Copy::sample();
    std::fs::rename(c.file("bootstrap.yaml"), c.file("bootstrap.json")).unwrap();
    let text = c.grade().no_envoy().text().run().stdout;
    assert_eq!(text.matches("bootstrap.yaml is missing, but there is bootstrap.json: rename it to bootstrap.yaml").count(), 2, "{text}");
    assert!(text.trim_end().ends_with("First to fix: step 4, bootstrap.yaml is missing, but there is bootstrap.json: rename it to bootstrap.yaml"), "{text}");
    // Not 18 times "bootstrap.yaml is missing": the checks of other files that need it point back.
    assert_eq!(text.matches("bootstrap.yaml is missing").count(), 2, "{text}");
    assert!(text.lines().count() <= 32, "{text}");
}

#[test]
fn a_json_file_saved_as_yaml_is_said_to_be_yaml() {
    let c = Copy::sample();
    c.write("06-node.json", "id: sidecar~10.0.0.7~payments-6d5f9.default~default.svc.cluster.local\ncluster: payments.default\nmetadata:\n  NAMESPACE: default\n");
    let g = c.grade().no_envoy().run();
    assert_eq!(g.message("node.exists"), "06-node.json holds YAML, not JSON; save it as JSON (jq prints JSON; yq -o=json turns YAML into JSON)");
    // JSON gone wrong is still said as JSON's error.
    c.write("06-node.json", "{\"id\": \"x\",}");
    let g = c.grade().no_envoy().run();
    assert!(g.message("node.exists").starts_with("06-node.json is not valid JSON: "), "{}", g.message("node.exists"));
}

/// Slips in a key=value file, each said for what it is.
#[test]
fn slips_in_key_value_lines_are_named() {
    let c = Copy::sample();
    c.edit("01-args.txt", "proxy_log_level=warning", "proxy_loglevel=warning")
        .edit("01-args.txt", "role=sidecar", "role=sidecar   # the 2nd arg")
        .edit("03-mesh.txt", "ca_addr_same=yes", "ca_addr_same=true");
    let g = c.grade().no_envoy().run();
    assert_eq!(
        g.message("args.proxy_log_level"),
        "there is no `proxy_log_level=` line; line 3 sets `proxy_loglevel=`, which looks like a misspelling of it: spell the key `proxy_log_level`"
    );
    assert_eq!(g.check("args.proxy_log_level")["where"], "01-args.txt:3 (proxy_log_level)");
    let role = g.message("args.role");
    assert!(role.contains("the text after the value, `# the 2nd arg`, is part of the value"), "{role}");
    let same = g.message("mesh.ca_addr_same");
    // Said alone: `true` is no wrong answer, only not an answer.
    assert_eq!(same, "the answer is the word yes or the word no", "{same}");
    c.edit("03-mesh.txt", "ca_addr_same=true", "ca_addr_same=Yes");
    let same = c.grade().no_envoy().run().message("mesh.ca_addr_same");
    // Neither "wrong answer" nor "differs only in case", which would give the answer
    // away, whatever it is.
    assert_eq!(same, "yes and no are written in lower case", "{same}");
    c.edit("03-mesh.txt", "ca_addr_same=Yes", "ca_addr_same=No");
    assert_eq!(c.grade().no_envoy().run().message("mesh.ca_addr_same"), "yes and no are written in lower case");
    assert!(!same.contains("the file it comes from"), "no file holds yes or no: {same}");
    // In Korean and Chinese too.
    for (lang, words) in [("ko", "철자가 틀린 것 같습니다"), ("zh", "看起来是拼写错误")] {
        let g = c.grade().no_envoy().args(&["--lang", lang]).run();
        assert!(g.message("args.proxy_log_level").contains(words), "{lang}: {}", g.message("args.proxy_log_level"));
    }
}

/// Where live values came from says what happened when none were had, not that an
/// Envoy was launched or probed.
#[test]
fn the_live_header_says_why_there_were_no_live_values() {
    let header = |g: Graded| g.stdout.lines().find(|l| l.starts_with("live values from: ")).unwrap_or_default().to_string();
    let c = Copy::sample();
    c.remove("bootstrap.yaml");
    assert_eq!(header(c.grade().launch().text().run()), "live values from: none: no Envoy was launched (bootstrap.yaml is missing)");
    assert_eq!(header(c.grade().text().run()), "live values from: none: no Envoy was probed (bootstrap.yaml is missing)");
    let c = Copy::sample();
    c.edit("bootstrap.yaml", "static_resources:\n", "static_resources:\n  listeners:\n  - name: l\n    address:\n      socket_address: {address: 127.0.0.1, port_value: 1}\n    filter_chains: []\n");
    assert_eq!(header(c.grade().launch().text().run()), "live values from: none: no Envoy was launched (bootstrap.yaml was not given to Envoy)");
    let g = Grade::sample().args(&["--envoy", "/nonexistent/envoy", "--launch-envoy"]).text().run();
    assert_eq!(header(g), "live values from: none: no Envoy was launched (Envoy not found at /nonexistent/envoy (from --envoy))");
    let g = Grade::sample().launch().text().args(&["--lang", "zh"]).run();
    assert!(g.stdout.contains("运行中 Envoy 的值：评分程序用 bootstrap.yaml 启动的 Envoy"), "{}", g.stdout);
}

/// A student who has not started step 6 and runs no Envoy yet: its checks fail for
/// the missing files (exit 1), not "could not be checked" for the Envoy nobody runs.
#[test]
fn a_step_not_started_fails_even_where_no_envoy_answers() {
    let c = Copy::sample();
    c.remove("06-ready.txt").remove("06-node.json");
    let g = c.grade().param(&format!("admin_port={}", free_port())).run();
    for id in ["node.live", "ready.code_live", "ready.body_live", "ready.state_live"] {
        assert_eq!(g.status(id), "fail", "{id}: {}", g.message(id));
    }
    assert!(g.with("error").is_empty(), "{:?}", g.with("error"));
    assert_eq!(g.code, Some(1));
}

/// Before any step that reads a running Envoy is started, no Envoy is probed, and the
/// report does not say that nothing answered. The checks that read one fail as not
/// started, as in CI, where the grader launches Envoy: the same verdicts and total.
#[test]
fn no_envoy_is_probed_before_a_step_that_reads_one() {
    let c = Copy::sample();
    c.remove("06-ready.txt").remove("06-node.json").remove("07-identity.txt").remove("08-report.md");
    let admin = format!("admin=http://127.0.0.1:{}", free_port());
    let g = c.grade().param(&admin).text().run();
    assert!(g.stdout.contains("live values from: none: no Envoy was probed (no step that reads a running Envoy is started yet)"), "{}", g.stdout);
    assert!(!g.stdout.contains("connection refused"), "{}", g.stdout);
    assert!(g.stdout.contains("Score 70/94 points") && g.stdout.contains(" 0 skipped"), "{}", g.stdout);
    assert_eq!(g.code, Some(1), "{}", g.stdout);
    let (probe, ci) = (c.grade().param(&admin).run(), c.grade().launch().run());
    for id in ["node.live", "ready.code_live", "ready.body_live", "ready.state_live", "report.ready_body"] {
        assert_eq!(probe.status(id), "fail", "{id}: {}", probe.message(id));
        assert_eq!((probe.status(id), probe.message(id)), (ci.status(id), ci.message(id)), "{id}");
    }
    assert_eq!(probe.report()["score"], ci.report()["score"]);
    assert_eq!(probe.report()["max_score"], ci.report()["max_score"]);
}

/// Step 6 done but its Envoy not running: the report ends on what could not be checked
/// there, not on starting step 7 (the student would move on without noticing).
#[test]
fn a_step_that_could_not_be_checked_comes_before_the_next_step() {
    let c = Copy::sample();
    c.remove("07-identity.txt").remove("08-report.md");
    let g = c.grade().param(&format!("admin=http://127.0.0.1:{}", free_port())).text().run();
    assert_eq!(g.code, Some(2), "{}", g.stdout);
    let last = g.stdout.lines().rev().find(|l| !l.trim().is_empty()).unwrap_or_default();
    assert!(last.starts_with("First to look at: step 6, node.live could not be checked"), "{}", g.stdout);
}

/// `--step N` gives step N the verdicts a run of every step gives it, but for a mistake
/// another step charges: when that step is graded too, the mistake is not graded again
/// here; when it is not, the mistake is charged in the first step graded that needs the
/// file, and in no later one (a step that needs a missing file never scores full marks).
#[test]
fn a_step_alone_is_charged_what_an_ungraded_step_would_charge() {
    let statuses = |g: &Graded, step: u64| -> Vec<(String, String)> {
        g.checks().iter().filter(|c| c["step"] == step).map(|c| (c["id"].as_str().unwrap().to_string(), c["status"].as_str().unwrap().to_string())).collect()
    };
    let has = |g: &Graded, step: u64, status: &str| statuses(g, step).iter().any(|(_, s)| s == status);
    let no_bootstrap = Copy::sample();
    no_bootstrap.remove("bootstrap.yaml");
    let slow_boot = Copy::sample();
    slow_boot.edit("bootstrap.yaml", "initial_fetch_timeout: 0s", "initial_fetch_timeout: 10s").edit("boot-typo.yaml", "initial_fetch_timeout: 0s", "initial_fetch_timeout: 10s");
    let no_typo = Copy::sample();
    no_typo.remove("boot-typo.yaml").remove("05-typo.txt");
    for (copy, steps, charger) in [(&no_bootstrap, &[5u64, 6][..], 4u64), (&slow_boot, &[6], 4), (&no_typo, &[8], 5)] {
        let full = copy.grade().launch().run();
        let with_charger = copy.grade().launch().args(&["--step", &format!("{charger}-8")]).run();
        for step in steps {
            assert!(has(&full, *step, "skip") && !has(&full, *step, "fail"), "step {step} in the full run: {:?}", statuses(&full, *step));
            assert_eq!(statuses(&with_charger, *step), statuses(&full, *step), "--step {charger}-8, step {step}");
            let alone = copy.grade().launch().args(&["--step", &step.to_string()]).run();
            assert_eq!(alone.code, Some(1), "--step {step}: {:?}", statuses(&alone, *step));
            assert!(has(&alone, *step, "fail") && !has(&alone, *step, "skip"), "--step {step}: {:?}", statuses(&alone, *step));
        }
    }
    // A check the spec says is not graded for step 4's mistake (no ADS cluster_name in
    // either file) is graded in step 5 when step 4 is not.
    let no_ads_name = Copy::sample();
    no_ads_name.edit("bootstrap.yaml", "    grpc_services:\n    - envoy_grpc:\n        cluster_name: xds-grpc\n", "");
    no_ads_name.edit("boot-typo.yaml", "    grpc_services:\n    - envoy_grpc:\n        cluster_name: istiod-xds\n", "");
    let full = no_ads_name.grade().launch().run();
    assert_eq!(full.status("typo.ads_cluster"), "skip", "{}", full.message("typo.ads_cluster"));
    // Said as not graded, with the check that charges it (found, not written in the spec).
    assert!(full.message("typo.ads_cluster").ends_with("its copy; bootstrap.ads_cluster (step 4) charges it"), "{}", full.message("typo.ads_cluster"));
    let alone = no_ads_name.grade().launch().args(&["--step", "5"]).run();
    assert_eq!(alone.status("typo.ads_cluster"), "fail", "{}", alone.message("typo.ads_cluster"));
    // The mistake itself, not that step 4 charges it (it is not graded in this run).
    assert_eq!(alone.message("typo.ads_cluster"), "your bootstrap.yaml has no ADS cluster_name where Envoy reads it, and neither has boot-typo.yaml, its copy");
    // Charged once: in step 5, the first step graded that needs bootstrap.yaml.
    let both = no_bootstrap.grade().launch().args(&["--step", "5-6"]).run();
    assert!(has(&both, 5, "fail") && !has(&both, 6, "fail"), "{:?}", statuses(&both, 6));
    let said = both.checks().iter().find(|c| c["id"] == "node.matches_bootstrap").map(|c| c["message"].as_str().unwrap().to_string()).unwrap();
    assert!(said.contains("(step 5) charges it"), "{said}");
}
