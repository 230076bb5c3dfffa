//! Class statistics: the numbers, and class.json, class.csv and class.html agreeing.

use labcheck::class::{self, Submission};
use labcheck::result::{CheckResult, Status, StepScore, SubmissionResult};
use scraper::{ElementRef, Html, Selector};
use serde_json::{json, Value};
use std::time::Duration;
use Status::*;

const XSS: &str = "<script>alert(1)</script>";

/// (id, step, max points); found values or messages come with each verdict.
const CHECKS: [(&str, u32, u32); 4] = [("files.identity", 1, 2), ("files.port", 1, 3), ("files.name", 1, 1), ("envoy.validates", 2, 5)];

/// A verdict: its status and, for a failure, what was found (None: the message counts).
type V<'a> = (Status, Option<&'a str>);

fn submission(name: &str, verdicts: [V; 4]) -> SubmissionResult {
    let checks: Vec<CheckResult> = CHECKS
        .iter()
        .zip(verdicts)
        .map(|(&(id, step, max), (status, found))| CheckResult {
            id: id.into(),
            step,
            title: format!("Title of {id}"),
            status,
            points: if status == Pass { max } else { 0 },
            // As the grader does: a skipped check is worth nothing.
            max_points: if status == Skip { 0 } else { max },
            expected: Some("secret".into()),
            found: found.map(String::from),
            message: match (id, status) {
                ("files.identity", Fail) => "07-identity.txt is missing".into(),
                ("envoy.validates", Fail) => "Envoy rejected the configuration".into(),
                _ => format!("{id} {}", status.word()),
            },
            place: None,
            hint: None,
            hidden: false,
            file_problem: None,
            charged_by: None,
            saved_as: None,
        })
        .collect();
    let steps = [(1, "Files"), (2, "Envoy")]
        .map(|(step, title)| {
            let of = checks.iter().filter(|c| c.step == step);
            StepScore {
                step,
                title: title.into(),
                score: of.clone().map(|c| c.points).sum(),
                max_score: of.map(|c| c.max_points).sum(),
                not_started: Vec::new(),
            }
        })
        .to_vec();
    SubmissionResult {
        lab: "ist2-boot".into(),
        title: "Boot an Envoy".into(),
        submission: name.into(),
        checks,
        steps,
        live_source: None,
        elapsed: Duration::ZERO,
        envoy_time: Duration::ZERO,
    }
}

/// identity: 3 pass, 2 missing files. port: 2 pass, "8080" twice, the script once.
/// name: ties broken by value. envoy: pass, fail, error, and two skips.
fn batch() -> Vec<SubmissionResult> {
    vec![
        submission("alice", [(Pass, None), (Pass, None), (Pass, None), (Pass, None)]),
        submission("bob", [(Pass, None), (Fail, Some("8080")), (Fail, Some("b")), (Fail, None)]),
        submission("carol", [(Fail, None), (Fail, Some("8080")), (Fail, Some("a")), (Error, None)]),
        submission("dave & <dan>", [(Fail, None), (Fail, Some(XSS)), (Fail, Some("")), (Skip, None)]),
        submission("eve", [(Pass, None), (Pass, None), (Pass, None), (Skip, None)]),
    ]
}

fn stats_json() -> Value {
    let results = batch();
    let subs: Vec<Submission> = results.iter().map(|r| Submission { name: &r.submission, report: &r.submission, result: r }).collect();
    serde_json::to_value(class::stats(&subs)).unwrap()
}

fn by_id<'a>(list: &'a Value, key: &str, id: impl Into<Value>) -> &'a Value {
    let id = id.into();
    list.as_array().unwrap().iter().find(|x| x[key] == id).unwrap_or_else(|| panic!("no {key} {id}"))
}

#[test]
fn the_numbers() {
    let s = stats_json();
    assert_eq!((&s["lab"], &s["title"], &s["submissions"], &s["max_score"]), (&json!("ist2-boot"), &json!("Boot an Envoy"), &json!(5), &json!(11)));
    // alice 11, bob 2, carol 0, dave 0 (of 6: envoy skipped), eve 6 (of 6).
    assert_eq!(s["scores"], json!({
        "mean": 3.8, "median": 2.0, "min": 0, "max": 11,
        "distribution": [{"score": 0, "count": 2}, {"score": 2, "count": 1}, {"score": 6, "count": 1}, {"score": 11, "count": 1}],
    }));
    assert_eq!(
        by_id(&s["submission_scores"], "name", "dave & <dan>"),
        &json!({"name": "dave & <dan>", "report": "dave & <dan>", "score": 0, "max_score": 6, "status": "some failed"})
    );
    let status: Vec<&str> = s["submission_scores"].as_array().unwrap().iter().map(|s| s["status"].as_str().unwrap()).collect();
    assert_eq!(status, ["all passed", "some failed", "could not be graded", "some failed", "all passed"]);

    assert_eq!(s["checks"].as_array().unwrap().iter().map(|c| c["id"].as_str().unwrap()).collect::<Vec<_>>(), CHECKS.map(|c| c.0));
    let identity = by_id(&s["checks"], "id", "files.identity");
    assert_eq!((&identity["passed"], &identity["failed"], &identity["pass_rate"]), (&json!(3), &json!(2), &json!(0.6)));
    // A file missing is no value a student wrote.
    assert_eq!(identity["wrong_values"], json!([]));
    let port = by_id(&s["checks"], "id", "files.port");
    assert_eq!(port["wrong_values"], json!([{"value": "8080", "count": 2}, {"value": XSS, "count": 1}]));
    assert_eq!(by_id(&s["checks"], "id", "files.name")["wrong_values"], json!([{"value": "", "count": 1}, {"value": "a", "count": 1}, {"value": "b", "count": 1}]));
    // A skip is not graded; an error is the grader's, so no failure and out of the rate.
    assert_eq!(by_id(&s["checks"], "id", "envoy.validates"), &json!({
        "id": "envoy.validates", "step": 2, "title": "Title of envoy.validates",
        "passed": 1, "failed": 1, "errors": 1, "skipped": 2, "pass_rate": 0.5,
        "wrong_values": [],
    }));

    assert_eq!(s["steps"], json!([
        {"step": 1, "title": "Files", "passed": 7, "graded": 15, "errors": 0, "pass_rate": 0.4667, "full_marks": 2, "mean_score": 2.8, "max_score": 6},
        {"step": 2, "title": "Envoy", "passed": 1, "graded": 2, "errors": 1, "pass_rate": 0.5, "full_marks": 1, "mean_score": 1.0, "max_score": 5},
    ]));
}

#[test]
fn a_step_graded_nowhere_has_a_null_pass_rate() {
    let results = [submission("x", [(Pass, None), (Pass, None), (Pass, None), (Skip, None)])];
    let subs = [Submission { name: "x", report: "x", result: &results[0] }];
    let s = serde_json::to_value(class::stats(&subs)).unwrap();
    assert_eq!(by_id(&s["steps"], "step", 2)["pass_rate"], Value::Null);
    assert_eq!(by_id(&s["steps"], "step", 2)["graded"], 0);
    assert_eq!(by_id(&s["checks"], "id", "envoy.validates")["pass_rate"], Value::Null);
}

fn sel(s: &str) -> Selector {
    Selector::parse(s).unwrap()
}

/// What a number cell holds, as JSON: its `data-value`, null when absent.
fn value_of(row: ElementRef, field: &str) -> Value {
    let cell = row.select(&sel(&format!("[data-field=\"{field}\"]"))).next().unwrap_or_else(|| panic!("no {field}"));
    cell.value().attr("data-value").map(|v| serde_json::from_str::<Value>(v).unwrap()).unwrap_or(Value::Null)
}

fn text_of(row: ElementRef, field: &str) -> String {
    row.select(&sel(&format!("[data-field=\"{field}\"]"))).next().unwrap().text().collect()
}

/// JSON numbers compared as numbers: 3.0 in JSON may be written 3 in HTML.
fn same(a: &Value, b: &Value) -> bool {
    match (a.as_f64(), b.as_f64()) {
        (Some(x), Some(y)) => x == y,
        _ => a == b,
    }
}

fn assert_fields(row: ElementRef, json: &Value, fields: &[&str]) {
    for f in fields {
        assert!(same(&value_of(row, f), &json[f]), "{f}: html {} json {}", value_of(row, f), json[f]);
    }
}

#[test]
fn the_files_agree() {
    let results = batch();
    let subs: Vec<Submission> = results.iter().map(|r| Submission { name: &r.submission, report: &r.submission, result: r }).collect();
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("class");
    write(&out, &subs);
    let json: Value = serde_json::from_str(&std::fs::read_to_string(out.join("class.json")).unwrap()).unwrap();
    assert_eq!(json, stats_json());
    let raw = std::fs::read_to_string(out.join("class.html")).unwrap();
    let page = Html::parse_document(&raw);

    let summary = page.select(&sel("dl.summary")).next().unwrap();
    for f in ["submissions", "max_score"] {
        assert!(same(&value_of(summary, f), &json[f]), "{f}");
    }
    for f in ["mean", "median", "min", "max"] {
        assert!(same(&value_of(summary, f), &json["scores"][f]), "{f}");
    }

    let rows: Vec<_> = page.select(&sel("tr[data-score]")).collect();
    assert_eq!(rows.len(), json["scores"]["distribution"].as_array().unwrap().len());
    for (row, d) in rows.into_iter().zip(json["scores"]["distribution"].as_array().unwrap()) {
        assert_fields(row, d, &["score", "count"]);
    }
    let bar = sel("svg rect[data-score]");
    let bars = page.select(&bar).map(|r| (r.attr("data-score").unwrap().to_string(), r.attr("data-count").unwrap().to_string()));
    let want = json["scores"]["distribution"].as_array().unwrap().iter().map(|d| (d["score"].to_string(), d["count"].to_string()));
    assert!(bars.eq(want));

    let rows: Vec<_> = page.select(&sel("tr[data-step]")).collect();
    assert_eq!(rows.len(), 2);
    for (row, st) in rows.into_iter().zip(json["steps"].as_array().unwrap()) {
        assert_eq!(row.attr("data-step").unwrap(), st["step"].to_string());
        assert_eq!(text_of(row, "title"), st["title"].as_str().unwrap());
        assert_fields(row, st, &["step", "full_marks", "passed", "graded", "errors", "pass_rate", "mean_score", "max_score"]);
    }

    let check_row = sel("tr[data-check]");
    let rows: Vec<_> = page
        .select(&sel("table[data-checks-of]"))
        .flat_map(|t| t.select(&check_row).map(move |r| (t.attr("data-checks-of").unwrap(), r)))
        .collect();
    assert_eq!(rows.len(), json["checks"].as_array().unwrap().len());
    for ((step, row), c) in rows.into_iter().zip(json["checks"].as_array().unwrap()) {
        assert_eq!(row.attr("data-check").unwrap(), c["id"].as_str().unwrap());
        assert_eq!(text_of(row, "id"), c["id"].as_str().unwrap());
        assert_eq!(step, c["step"].to_string());
        assert_eq!(text_of(row, "title"), c["title"].as_str().unwrap());
        assert_fields(row, c, &["passed", "failed", "errors", "skipped", "pass_rate"]);
        let wrong: Vec<Value> = row
            .select(&sel("[data-field=wrong_values] li"))
            .map(|li| json!({"value": li.attr("data-value").unwrap(), "count": li.attr("data-count").unwrap().parse::<u64>().unwrap()}))
            .collect();
        assert_eq!(Value::Array(wrong), c["wrong_values"], "{}", c["id"]);
    }

    let rows: Vec<_> = page.select(&sel("tr[data-submission]")).collect();
    for (row, sub) in rows.iter().zip(json["submission_scores"].as_array().unwrap()) {
        assert_eq!(row.attr("data-submission").unwrap(), sub["name"].as_str().unwrap());
        assert_eq!(text_of(*row, "name"), sub["name"].as_str().unwrap());
        assert_fields(*row, sub, &["score", "max_score"]);
    }
    assert_eq!(rows.len(), 5);

    // Self-contained and inert.
    assert_eq!(page.select(&sel("script, link, img, iframe, object, embed")).count(), 0);
    for attr in ["src", "href", "action", "xlink:href"] {
        assert_eq!(page.select(&sel(&format!("[{}]", attr.replace(':', "\\:")))).count(), 0, "{attr}");
    }
    assert!(!raw.contains("http:") && !raw.contains("https:") && !raw.contains("url("));
    // The found value is text on the page, never markup.
    assert!(!raw.contains(XSS));
    assert!(raw.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
    let code: Vec<String> = page.select(&sel("tr[data-check='files.port'] li code")).map(|c| c.text().collect()).collect();
    assert!(code.contains(&XSS.to_string()), "{code:?}");
    assert!(raw.contains("dave &amp; &lt;dan&gt;"));

    // class.csv: one row per check, in order, the top wrong value quoted as needed.
    let mut csv = csv::Reader::from_path(out.join("class.csv")).unwrap();
    let header: Vec<String> = csv.headers().unwrap().iter().map(String::from).collect();
    assert_eq!(header, ["id", "step", "title", "passed", "failed", "errors", "skipped", "pass_rate", "top_wrong_value", "top_wrong_count"]);
    let records: Vec<csv::StringRecord> = csv.records().map(Result::unwrap).collect();
    assert_eq!(records.len(), json["checks"].as_array().unwrap().len());
    for (r, c) in records.iter().zip(json["checks"].as_array().unwrap()) {
        assert_eq!(&r[0], c["id"].as_str().unwrap());
        assert_eq!(&r[2], c["title"].as_str().unwrap());
        for (i, f) in [(1, "step"), (3, "passed"), (4, "failed"), (5, "errors"), (6, "skipped"), (7, "pass_rate")] {
            assert_eq!(r[i].parse::<f64>().unwrap(), c[f].as_f64().unwrap(), "{f}");
        }
        let top = &c["wrong_values"][0];
        assert_eq!(&r[8], top["value"].as_str().unwrap_or(""));
        assert_eq!(&r[9], top["count"].as_u64().map(|n| n.to_string()).unwrap_or_default());
    }
}

/// The class files, as `--out` writes them.
fn write(dir: &std::path::Path, subs: &[Submission]) {
    std::fs::create_dir_all(dir).unwrap();
    for (name, content) in class::files(subs, &[]).unwrap() {
        std::fs::write(dir.join(name), content).unwrap();
    }
}

#[test]
fn an_empty_batch_writes_all_four_files() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), &[]);
    let json: Value = serde_json::from_str(&std::fs::read_to_string(dir.path().join("class.json")).unwrap()).unwrap();
    assert_eq!(json["scores"]["mean"], Value::Null);
    assert!(std::fs::read_to_string(dir.path().join("class.html")).unwrap().contains("No submissions."));
    assert_eq!(std::fs::read_to_string(dir.path().join("class.csv")).unwrap().lines().count(), 1);
    assert_eq!(std::fs::read_to_string(dir.path().join("scores.csv")).unwrap(), "submission,score,max_score,status,report\n");
}
