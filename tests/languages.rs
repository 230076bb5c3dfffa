//! The self-check in Korean, Chinese and English: the language from --lang or the
//! locale, every text of the built-in spec in each, no expected value in any, and the
//! machine formats' ids and status words the same in all three.

use crate::common::*;
use serde_json::Value;

const LANGS: [&str; 3] = ["en", "ko", "zh"];

/// A copy with one wrong value in step 3, graded as text.
fn one_slip() -> Copy {
    let c = Copy::sample();
    c.edit("03-mesh.txt", "trust_domain=cluster.local", "trust_domain=example.org");
    c
}

#[test]
fn the_locale_picks_the_language_and_lang_overrides_it() {
    let c = one_slip();
    let run = |envs: &[(&str, &str)], args: &[&str]| {
        let mut g = c.grade().no_envoy().text().args(args);
        for (k, v) in envs {
            g = g.env(k, v);
        }
        g.run().stdout
    };
    let says = |out: &str| {
        if out.contains("점수 ") {
            "ko"
        } else if out.contains("得分 ") {
            "zh"
        } else if out.contains("Score ") {
            "en"
        } else {
            "?"
        }
    };
    assert_eq!(says(&run(&[], &[])), "en");
    assert_eq!(says(&run(&[("LANG", "ko_KR.UTF-8")], &[])), "ko");
    assert_eq!(says(&run(&[("LANG", "zh_TW.UTF-8")], &[])), "zh");
    assert_eq!(says(&run(&[("LANG", "ko_KR.UTF-8"), ("LC_ALL", "zh_CN.UTF-8")], &[])), "zh");
    assert_eq!(says(&run(&[("LANG", "zh_CN.UTF-8"), ("LC_MESSAGES", "ko_KR.UTF-8")], &[])), "ko");
    // An empty variable is skipped, as POSIX says; C is English.
    assert_eq!(says(&run(&[("LANG", "ko_KR.UTF-8"), ("LC_ALL", "")], &[])), "ko");
    assert_eq!(says(&run(&[("LANG", "ko_KR.UTF-8"), ("LC_ALL", "C")], &[])), "en");
    assert_eq!(says(&run(&[("LANG", "ko_KR.UTF-8")], &["--lang", "en"])), "en");
    assert_eq!(says(&run(&[], &["--lang", "zh"])), "zh");
}

/// What a student of each language reads is in that language: the lab's title, the
/// step titles, the check titles, why and hint, and the engine's own words.
#[test]
fn a_failure_reads_in_the_students_language() {
    let c = one_slip();
    for (lang, words) in [
        ("ko", ["부트스트랩을 직접 만들고", "3단계: 메시 설정과 CA 주소", "trust_domain= 값이 메시 설정의 trustDomain임", "이유:", "힌트:", "먼저 고칠 것"]),
        ("zh", ["编写引导配置", "第 3 步：网格配置与 CA 地址", "trust_domain= 是网格配置的 trustDomain", "原因：", "提示：", "首先要修正"]),
    ] {
        let out = c.grade().no_envoy().text().args(&["--lang", lang]).run().stdout;
        for w in words {
            assert!(out.contains(w), "{lang}: no {w:?} in\n{out}");
        }
        assert!(!out.contains("Step ") && !out.contains("hint:"), "{lang}: English left in\n{out}");
    }
}

/// The audience test's breaks, and two whose sentences explain the slip.
fn broken() -> Copy {
    let c = crate::audience::broken();
    c.edit("03-mesh.txt", "ca_addr_same=yes", "ca_addr_same=Yes")
        .edit("01-args.txt", "domain=$(POD_NAMESPACE).svc.cluster.local", "domain=default.svc.cluster.local");
    c
}

#[test]
fn no_language_shows_a_student_an_expected_value() {
    let c = broken();
    let instructor = c.grade().no_envoy().run();
    let expected = instructor.expected_of_failing();
    for e in ["/var/run/secrets/tokens", "istiod.istio-system.svc:15012", "payments.default", "xds-grpc", "yes", "$(POD_NAMESPACE).svc.cluster.local"] {
        assert!(expected.iter().any(|x| x == e), "the test needs {e} among the expected values: {expected:?}");
    }
    for lang in LANGS {
        for format in ["text", "json", "junit", "tap", "gradescope", "github"] {
            let student = c.grade().no_envoy().text().args(&["--lang", lang, "--format", format, "--audience", "student", "--verbose"]).run();
            assert_eq!(student.code, Some(1), "{lang} {format}");
            // A short one ("yes") is a word the sentences use too: the labels say whether it is shown.
            for e in expected.iter().filter(|e| e.len() >= 5) {
                assert!(!student.stdout.contains(e.as_str()), "{lang} {format} shows a student the expected value {e:?}:\n{}", student.stdout);
            }
            for label in ["expected:", "기대값:", "期望值："] {
                assert!(!student.stdout.contains(label), "{lang} {format}:\n{}", student.stdout);
            }
            if format == "json" {
                let r: Value = serde_json::from_str(&student.stdout).unwrap();
                assert!(r["checks"].as_array().unwrap().iter().all(|ch| ch["expected"].is_null()), "{lang}");
            }
        }
        // The instructor's still do, in every language.
        let teacher = c.grade().no_envoy().text().args(&["--lang", lang, "--audience", "instructor"]).run();
        assert!(teacher.stdout.contains("istiod.istio-system.svc:15012"), "{lang}:\n{}", teacher.stdout);
    }
}

/// JSON, JUnit, TAP, Gradescope and GitHub keep ids, statuses and points whatever the
/// language; titles and messages follow it.
#[test]
fn machine_formats_keep_ids_and_status_words() {
    let c = broken();
    let json = |lang: &str| c.grade().no_envoy().args(&["--lang", lang]).run().json.expect("JSON");
    let stable = |r: &Value| -> Vec<(Value, Value, Value, Value, Value)> {
        r["checks"].as_array().unwrap().iter().map(|ch| (ch["id"].clone(), ch["step"].clone(), ch["status"].clone(), ch["points"].clone(), ch["expected"].clone())).collect()
    };
    let en = json("en");
    for lang in ["ko", "zh"] {
        let other = json(lang);
        assert_eq!(stable(&other), stable(&en), "{lang}");
        assert_eq!((&other["score"], &other["max_score"]), (&en["score"], &en["max_score"]));
        let title = |r: &Value| r["checks"][0]["title"].as_str().unwrap().to_string();
        assert_ne!(title(&other), title(&en), "{lang}: the titles follow --lang");
        let message = |r: &Value| r["checks"].as_array().unwrap().iter().find(|ch| ch["id"] == "mesh.discovery_address").unwrap()["message"].clone();
        assert_ne!(message(&other), message(&en), "{lang}: the messages follow --lang");
    }
    for lang in LANGS {
        let out = |format: &str| c.grade().no_envoy().text().args(&["--lang", lang, "--format", format]).run().stdout;
        let tap = out("tap");
        assert!(tap.contains("not ok ") && tap.contains(" - mesh.discovery_address - ") && tap.contains("severity: \"fail\""), "{lang}:\n{tap}");
        assert!(tap.contains("\n  why: "), "{lang}: TAP's YAML keys stay English:\n{tap}");
        let junit = out("junit");
        assert!(junit.contains("<testcase name=\"mesh.discovery_address: ") && junit.contains("<failure message="), "{lang}");
        let gradescope: Value = serde_json::from_str(&out("gradescope")).unwrap();
        assert!(gradescope["tests"].as_array().unwrap().iter().any(|t| t["status"] == "failed" && t["name"].as_str().unwrap().starts_with("mesh.discovery_address: ")), "{lang}");
        assert!(out("github").contains(",title=mesh.discovery_address::"), "{lang}");
    }
}

/// `labcheck spec` lists what a translation lacks, and exits 1 for it; the built-in
/// spec lacks nothing.
#[test]
fn labcheck_spec_lists_every_text_a_language_lacks() {
    let out = assert_cmd::Command::cargo_bin("labcheck").unwrap().arg("spec").output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(stdout.contains("ist2-boot.ko.yaml: every text") && stdout.contains("ist2-boot.zh.yaml: every text"), "{stdout}");

    let dir = tempfile::tempdir().unwrap();
    let spec = std::fs::read_to_string(root().join("checks/ist2-boot.yaml")).unwrap();
    std::fs::write(dir.path().join("ist2-boot.yaml"), &spec).unwrap();
    let ko = std::fs::read_to_string(root().join("checks/ist2-boot.ko.yaml")).unwrap();
    let without_role = ko.replace("  args.role:\n", "  args.role_renamed:\n").replace("    restart: ", "    restarted: ");
    assert_ne!(without_role, ko);
    std::fs::write(dir.path().join("ist2-boot.ko.yaml"), without_role).unwrap();
    std::fs::copy(root().join("checks/ist2-boot.zh.yaml"), dir.path().join("ist2-boot.zh.yaml")).unwrap();
    let out = assert_cmd::Command::cargo_bin("labcheck").unwrap().args(["spec", "--spec"]).arg(dir.path().join("ist2-boot.yaml")).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    for gap in ["check args.role title: missing", "check args.role why: missing", "check args.role hint: missing", "check args.role_renamed: the spec has no such check", "envoy live restart: missing", "envoy live restarted: the spec has no such text"] {
        assert!(stdout.contains(gap), "no {gap:?} in\n{stdout}");
    }
    assert!(stdout.contains("ist2-boot.zh.yaml: every text"), "{stdout}");
    // Grading still works, the missing texts in English.
    let g = Grade::sample().no_envoy().text().args(&["--spec", dir.path().join("ist2-boot.yaml").to_str().unwrap(), "--lang", "ko", "--verbose"]).run();
    assert_eq!(g.code, Some(0), "{}", g.stderr);
    assert!(g.stdout.contains("role= is istio-proxy's second argument") && g.stdout.contains("01-args.txt가 있음"), "{}", g.stdout);
    // A spec copied without its translation files grades in its own texts, and says so.
    std::fs::remove_file(dir.path().join("ist2-boot.ko.yaml")).unwrap();
    let g = Grade::sample().no_envoy().text().args(&["--spec", dir.path().join("ist2-boot.yaml").to_str().unwrap(), "--lang", "ko"]).run();
    assert_eq!(g.code, Some(0), "{}", g.stderr);
    assert!(g.stderr.contains("warning") && g.stderr.contains("ist2-boot.ko.yaml"), "{}", g.stderr);
    assert!(g.stdout.contains("점수 "), "{}", g.stdout);
}

