//! Any text a submission can bring (found values, messages, its folder's name) leaves
//! every format valid for its reader: JSON, JUnit (xmllint with the schema), TAP
//! (TAP::Parser and tap-parser), Gradescope, GitHub's workflow commands and step
//! summary, text, and the class files (class.json, class.csv, class.html, scores.csv).
//! Arbitrary strings from proptest, with a fixed seed: the same cases every run.

use crate::consumers::{assert_valid_junit, github_markdown, node_tap, perl_tap};
use labcheck::class::{self, Submission};
use labcheck::report::{self, Format, Options};
use labcheck::result::{CheckResult, Status, StepScore, SubmissionResult};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed, TestRunner};
use std::time::Duration;

/// Text a student could bring: any characters at all, or one of the known troublemakers.
fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::collection::vec(any::<char>(), 0..24).prop_map(String::from_iter),
        prop::sample::select(vec![
            "no", "yes", "on", "off", "null", "~", "1e3", "0o17", "0x1F", ".inf", "- x", "? y", "'", "\"", "\\", "#", "# TODO",
            "\\# SKIP", "a: b", "{x}", "[y]", "&anchor", "*alias", "!tag", "|", ">", "%", "%0A", "::error::x", "a,b:c",
            "\u{fffe}\u{ffff}", "\u{0}\u{1}\u{8}\u{b}\u{c}\u{1b}[2J", "\r\n\r", "\u{85}\u{2028}\u{2029}", "\u{feff}\u{202e}",
            "\u{fdd0}\u{1fffe}\u{10ffff}", "]]>", "<!--", "<script>x</script>", "=SUM(A1)", "@x", "-1", "+1", "\t=x",
            "张伟", "",
        ])
        .prop_map(String::from),
    ]
}

fn status() -> impl Strategy<Value = Status> {
    prop::sample::select(vec![Status::Pass, Status::Fail, Status::Error, Status::Skip])
}

fn check() -> impl Strategy<Value = CheckResult> {
    (text(), text(), status(), 0u32..3, text(), text(), text(), prop::option::of(text()), prop::option::of(text())).prop_map(
        |(id, title, status, step, found, message, place, expected, hint)| CheckResult {
            id,
            step,
            title,
            status,
            points: u32::from(status == Status::Pass),
            max_points: u32::from(status != Status::Skip),
            expected,
            found: Some(found),
            message,
            place: Some(place),
            hint,
            hidden: false,
            file_problem: None,
            charged_by: None,
            saved_as: None,
        },
    )
}

fn result() -> impl Strategy<Value = SubmissionResult> {
    (text(), prop::collection::vec(check(), 0..6), text()).prop_map(|(submission, checks, title)| {
        let steps = (0..3)
            .map(|step| StepScore {
                step,
                title: title.clone(),
                score: checks.iter().filter(|c| c.step == step).map(|c| c.points).sum(),
                max_score: checks.iter().filter(|c| c.step == step).map(|c| c.max_points).sum(),
                not_started: Vec::new(),
            })
            .collect();
        SubmissionResult {
            lab: "lab".into(),
            title,
            submission,
            checks,
            steps,
            live_source: None,
            elapsed: Duration::from_millis(3),
            envoy_time: Duration::ZERO,
        }
    })
}

/// No character an XML, YAML or HTML reader refuses, nor one a terminal obeys (HTML
/// keeps a tab: it is white space there).
fn assert_clean(format: &str, out: &str) {
    let kept = |c: char| c == '\n' || (c == '\t' && format == "class.html");
    let bad = out.chars().find(|&c| (c.is_control() && !kept(c)) || labcheck::display::is_noncharacter(c));
    assert_eq!(bad, None, "{format} holds {bad:?}:\n{out}");
}

fn check_all(results: &[SubmissionResult]) {
    let opts = Options { audience: Some(report::Audience::Instructor), color: false, verbose: false };
    let render = |f: Format, rs: &[SubmissionResult]| report::render(f, rs, &opts);

    for (f, parse) in [(Format::Json, true), (Format::Gradescope, true)] {
        let out = render(f, results);
        assert!(!parse || serde_json::from_str::<serde_json::Value>(&out).is_ok(), "{f:?}:\n{out}");
    }
    for one in results {
        let g: serde_json::Value = serde_json::from_str(&render(Format::Gradescope, std::slice::from_ref(one))).unwrap();
        assert!(g["tests"].is_array());
    }

    let junit = render(Format::Junit, results);
    assert_valid_junit(&junit);

    let tap = render(Format::Tap, results);
    assert_clean("tap", &tap);
    perl_tap(&tap);
    let node = node_tap(&tap);
    let points = if let [one] = results { one.checks.len() } else { results.len() };
    assert_eq!(node["count"], points, "{tap}");

    let github = render(Format::Github, results);
    assert_clean("github", &github);
    let command = regex::Regex::new(r"^::(error|warning) (?:file=[^:,\r\n]*,)?(?:line=\d+,)?title=[^:,\r\n]*::[^\r\n]*$").unwrap();
    for line in github.lines() {
        assert!(command.is_match(line) || line.starts_with("labcheck: "), "{line:?}");
    }
    let summary = report::step_summary::render(results, &report::View::of(Format::Github, &opts));
    let pipe = regex::Regex::new(r"(^|[^\\])(\\\\)*\|").unwrap();
    for line in summary.lines().filter(|l| l.starts_with("| ")) {
        assert_eq!(pipe.find_iter(line).count(), 4, "a table row of three cells: {line:?}");
    }
    assert_clean("step summary", &summary);
    // No student text becomes a link, an image or markup of its own.
    let html = github_markdown(&summary);
    for tag in ["<a ", "<img", "<script", "<em>", "<code>"] {
        assert!(!html.contains(tag), "{tag} in GitHub's rendering of the step summary:\n{html}");
    }

    assert_clean("text", &render(Format::Text, results));

    let names: Vec<String> = results.iter().map(|r| r.submission.clone()).collect();
    let subs: Vec<Submission> = results.iter().zip(&names).map(|(r, n)| Submission { name: n, report: "r", result: r }).collect();
    for (name, content) in class::files(&subs, &[]).unwrap() {
        match name {
            "class.json" => {
                let v: serde_json::Value = serde_json::from_str(&content).unwrap();
                let listed: Vec<&str> = v["submission_scores"].as_array().unwrap().iter().map(|s| s["name"].as_str().unwrap()).collect();
                assert_eq!(listed, names);
            }
            "class.html" => {
                assert_clean(name, &content);
                let page = scraper::Html::parse_document(&content);
                assert!(page.errors.is_empty(), "{:?}", page.errors);
                let rows = page.select(&scraper::Selector::parse("tr[data-submission]").unwrap()).count();
                assert_eq!(rows, results.len());
                assert_eq!(page.select(&scraper::Selector::parse("script, img, iframe").unwrap()).count(), 0);
            }
            csv_file => {
                let mut r = csv::Reader::from_reader(content.as_bytes());
                let rows = r.records().collect::<Result<Vec<_>, _>>().unwrap();
                let want = if csv_file == "scores.csv" { results.len() } else { rows.len() };
                assert_eq!(rows.len(), want, "{csv_file}");
                for row in &rows {
                    for cell in row {
                        assert!(!cell.starts_with(['=', '+', '-', '@', '\t', '\r']), "{csv_file}: a formula cell {cell:?}");
                    }
                }
            }
        }
    }
}

#[test]
fn any_text_leaves_every_format_valid() {
    let config = Config { cases: 16, rng_seed: RngSeed::Fixed(0x1ab_c4ec), failure_persistence: None, ..Config::default() };
    let mut runner = TestRunner::new(config);
    runner
        .run(&prop::collection::vec(result(), 1..5), |results| {
            check_all(&results);
            Ok(())
        })
        .unwrap();
}
