//! What a student reads for a common slip: the failure names the slip itself, where
//! it is, and never the expected value.

mod common;
use common::*;

/// Grade a copy without Envoy; the message of `id`, which must fail.
fn why(copy: &Copy, id: &str) -> String {
    let g = copy.grade().no_envoy().run();
    assert_eq!(g.status(id), "fail", "{id}: {}", g.message(id));
    g.message(id)
}

#[test]
fn full_width_characters_from_an_input_method_are_named() {
    let c = Copy::sample();
    c.edit("08-report.md", "typo_rc=1", "typo_rc＝1");
    assert!(why(&c, "report.typo_rc").contains("line 3 has `＝` (U+FF1D), a full-width `=`"), "{}", why(&c, "report.typo_rc"));

    let c = Copy::sample();
    c.edit("08-report.md", "svc:15012", "svc：15012");
    let m = why(&c, "report.xds_address");
    assert!(m.contains("line 1 has `：` (U+FF1A), a full-width `:`") && !m.contains("istiod.istio-system.svc:"), "{m}");

    // Four explanation lines typed with a full-width hyphen: the lines are named.
    let c = Copy::sample();
    let report = c.read("08-report.md").replace("\n- ", "\n－ ");
    c.write("08-report.md", &report);
    assert!(why(&c, "report.explanations").contains("lines 6, 7 and 8 have `－` (U+FF0D), a full-width `-`"));
}

#[test]
fn full_width_punctuation_in_prose_is_no_slip() {
    // Chinese prose keeps its own punctuation: nothing fails, nothing is noted.
    let c = Copy::sample();
    let report = c.read("08-report.md").replace("\n- ", "\n- 症状：");
    c.write("08-report.md", &report);
    assert!(c.grade().no_envoy().run().with("fail").is_empty());
}
