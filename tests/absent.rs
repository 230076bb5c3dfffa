//! No false pass from a value the grader could not derive: an expected value that is
//! absent (nothing, `null`, a missing key, an empty string, an empty list) never
//! matches anything, and the check says so in words, with the status its blame gives.

use crate::common::*;

/// The built-in spec with every check's `expect` made `form`, derived from a param
/// so that it is a value the grader derives, not a constant of the spec; and the ids
/// of the checks changed.
fn spec_with_every_expect(form: &str) -> (String, Vec<String>) {
    let text = std::fs::read_to_string(root().join("checks/ist2-boot.yaml")).unwrap();
    let (head, checks) = text.split_once("\nchecks:\n").unwrap();
    let mut out = format!("{head}\nchecks:\n");
    let (mut changed, mut id) = (Vec::new(), String::new());
    for line in checks.lines() {
        if let Some(i) = line.trim_start().strip_prefix("- id: ") {
            id = i.trim().to_string();
        }
        match line.split_once("expect: ") {
            Some((indent, _)) if indent.trim().is_empty() && indent.len() == 4 => {
                out.push_str(&format!("{indent}expect: '$namespace | {form}'\n"));
                changed.push(id.clone());
            }
            _ => out.push_str(&format!("{line}\n")),
        }
    }
    (out, changed)
}

#[test]
fn an_absent_expected_value_never_passes() {
    let dir = tempfile::tempdir().unwrap();
    // (`{}` is not among them: json_subset of an empty object asks for nothing, and passes.)
    for form in ["null", "empty", "\"\"", "[]", "{}.missing", "error(\"gone\")"] {
        let (spec, changed) = spec_with_every_expect(&form.replace('\'', "''"));
        assert!(changed.len() > 60, "{form}: only {} checks changed", changed.len());
        let file = dir.path().join("absent.yaml");
        std::fs::write(&file, spec).unwrap();
        let g = Grade::sample().launch().args(&["--spec", file.to_str().unwrap()]).run();
        for id in &changed {
            let (status, message) = (g.status(id), g.message(id));
            assert_ne!(status, "pass", "{form}: {id} passed");
            assert!(!message.contains("$namespace"), "{form}: {id} says jq: {message}");
            // The sample's files are the student's, the params the lab's: either may be why.
            assert!(["fail", "error"].contains(&status.as_str()), "{form}: {id} is {status}: {message}");
        }
        assert!(g.code == Some(1) || g.code == Some(2), "{form}: exit {:?}", g.code);
    }
}

/// The case that was found: an inject.yaml whose istio-proxy has no env, and a student
/// who writes `null` for the values it would have held. The lab's injection gives them,
/// so step 2 is graded against those (tests/inject_output.rs has more of this).
#[test]
fn null_is_no_answer_for_a_value_the_file_does_not_have() {
    let c = Copy::sample();
    let inject = c.read("inject.yaml");
    let start = inject.find("        env:\n").expect("istio-proxy has env");
    let end = start + inject[start..].find("        image:").expect("env is followed by image");
    c.write("inject.yaml", format!("{}{}", &inject[..start], &inject[end..]));
    let env = c.read("02-env.txt");
    let nulls: String = env.lines().map(|l| format!("{}=null\n", l.split('=').next().unwrap())).collect();
    c.write("02-env.txt", nulls);
    let g = c.grade().no_envoy().run();
    for id in ["env.ca_addr", "env.pod_namespace", "env.cluster_id", "env.trust_domain"] {
        assert_eq!(g.status(id), "fail", "{id}: {}", g.message(id));
        let m = g.message(id);
        assert!(m.contains("inject.yaml") && !m.contains('$'), "{id}: {m}");
    }
    assert_eq!(g.check("env.ca_addr")["expected"], "istiod.istio-system.svc:15012");
}
