//! The command line: combinations of options it refuses, and the environment it reads.


use crate::common::*;

#[test]
fn no_envoy_with_no_live_is_refused() {
    let g = Grade::sample().no_envoy().arg("--no-live").run();
    assert_eq!(g.code, Some(2), "{}", g.stderr);
    assert!(g.stdout.is_empty(), "graded anyway");
    assert!(g.stderr.contains("cannot be used with"), "{}", g.stderr);
    assert!(g.stderr.contains("--no-live") && g.stderr.contains("--no-envoy"), "{}", g.stderr);
}

/// With no live probe there is nothing to record: refused, not an empty run that
/// leaves no file.
#[test]
fn save_probe_without_a_probe_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let rec = dir.path().join("probe.json");
    for (off, g) in [("--no-live", Grade::sample().arg("--no-live")), ("--no-envoy", Grade::sample().no_envoy())] {
        let g = g.args(&["--save-probe", rec.to_str().unwrap()]).run();
        assert_eq!(g.code, Some(2), "{off}: {}", g.stderr);
        assert!(g.stdout.is_empty(), "{off}: graded anyway");
        assert_eq!(
            g.stderr,
            format!("labcheck: --save-probe records the live probe, which {off} turns off: there would be nothing to save\n")
        );
        assert!(!rec.exists());
    }
}

#[test]
fn timings_are_on_for_any_value_but_zero_or_empty() {
    for (value, on) in [("1", true), ("yes", true), ("0", false), ("", false)] {
        let g = Grade::sample().no_envoy().env("LABCHECK_TIMINGS", value).run();
        assert_eq!(g.code, Some(0), "{}", g.stderr);
        assert_eq!(g.stderr.contains("labcheck: grade: "), on, "LABCHECK_TIMINGS={value:?}: {}", g.stderr);
    }
}
