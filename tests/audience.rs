//! Students never see expected values, in any format; instructors do; a hidden
//! check's expected value stays out of every student-facing format.


use crate::common::*;

/// Breaks whose expected values are distinctive strings seen nowhere else.
pub fn broken() -> Copy {
    let c = Copy::sample();
    c.edit("07-identity.txt", "token_mount=/var/run/secrets/tokens", "token_mount=/tokens")
        .edit("03-mesh.txt", "discovery_address=istiod.istio-system.svc:15012", "discovery_address=pilot:15010")
        .edit("bootstrap.yaml", "cluster: payments.default", "cluster: payments")
        .edit("boot-typo.yaml", "cluster: payments.default", "cluster: payments")
        .edit("06-node.json", "\"cluster\": \"payments.default\"", "\"cluster\": \"payments\"")
        .edit("08-report.md", "xds_cluster=xds-grpc", "xds_cluster=grpc");
    c
}

#[test]
fn no_expected_value_reaches_a_student_in_any_format() {
    let c = broken();
    let instructor = c.grade().no_envoy().run();
    let expected = instructor.expected_of_failing();
    for e in ["/var/run/secrets/tokens", "istiod.istio-system.svc:15012", "payments.default", "xds-grpc"] {
        assert!(expected.iter().any(|x| x == e), "the test needs {e} among the expected values: {expected:?}");
    }
    for format in ["text", "json", "junit", "tap", "gradescope", "github"] {
        let student = c.grade().no_envoy().text().args(&["--format", format, "--audience", "student"]).run();
        assert_eq!(student.code, Some(1));
        for e in &expected {
            assert!(!student.stdout.contains(e.as_str()), "{format} shows a student the expected value {e:?}:\n{}", student.stdout);
        }
        let teacher = c.grade().no_envoy().text().args(&["--format", format, "--audience", "instructor"]).run();
        // Gradescope's results and GitHub's annotations are shown to the student, whoever renders them.
        let shown = teacher.stdout.contains("istiod.istio-system.svc:15012");
        assert_eq!(shown, !["gradescope", "github"].contains(&format), "{format} for an instructor:\n{}", teacher.stdout);
    }
    // Defaults: text, gradescope and github are for students.
    for format in ["text", "gradescope", "github"] {
        let out = c.grade().no_envoy().text().args(&["--format", format]).run();
        assert!(!out.stdout.contains("istiod.istio-system.svc:15012"), "{format} by default");
    }
}

#[test]
fn hidden_checks_stay_hidden_where_students_look() {
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("hidden.yaml");
    std::fs::write(
        &spec,
        "lab: h\ntitle: H\nsteps: {1: one}\nparams:\n  secret: {default: tr0ub4dor}\n  open: {default: op3n-answer}\nchecks:\n  - {id: hidden, step: 1, title: t, kind: kv_line, file: a.txt, key: a, expect: '$secret', hidden: true}\n  - {id: shown, step: 1, title: t, kind: kv_line, file: a.txt, key: b, expect: '$open'}\n",
    )
    .unwrap();
    let c = Copy { dir: tempfile::tempdir().unwrap() };
    c.write("a.txt", "a=guess\nb=guess\n");
    let run = |format: &str, audience: &str| {
        c.grade().no_params().no_envoy().text().args(&["--spec", spec.to_str().unwrap(), "--format", format, "--audience", audience]).run().stdout
    };
    // Gradescope's and GitHub's are shown to students even when an instructor renders
    // them: no expected value at all.
    for format in ["gradescope", "github"] {
        let out = run(format, "instructor");
        assert!(!out.contains("tr0ub4dor") && !out.contains("op3n-answer"), "{format}: {out}");
    }
    // An instructor's own formats show both.
    for format in ["json", "junit", "tap", "text"] {
        let out = run(format, "instructor");
        assert!(out.contains("tr0ub4dor") && out.contains("op3n-answer"), "{format}");
    }
}
