//! Golden files: every report format on the reference and on broken submissions.
//! Files are named `<case>.<exit code>.<format extension>` in tests/golden/; after a
//! deliberate change, `make bless` (BLESS=1) rewrites them from what labcheck prints.


use crate::common::*;
use regex::Regex;
use std::path::Path;

const FORMATS: [(&str, &str); 6] = [
    ("text", "txt"),
    ("json", "json"),
    ("junit", "junit.xml"),
    ("tap", "tap"),
    ("gradescope", "gradescope.json"),
    ("github", "github"),
];

/// What changes from run to run: times, ports, temporary directories.
fn normalise(out: &str, submission: &Path) -> String {
    let out = out.replace(submission.to_str().unwrap(), "SUBMISSION");
    let rules = [
        (r"127\.0\.0\.1:\d+", "127.0.0.1:PORT"),
        (r#"time="[0-9.]+""#, r#"time="T""#),
        (r#""execution_time": [0-9.e-]+"#, r#""execution_time": 0"#),
        (r#""(total_ms|envoy_ms)": [0-9.e-]+"#, r#""$1": 0"#),
    ];
    rules.iter().fold(out, |acc, (re, to)| Regex::new(re).unwrap().replace_all(&acc, *to).into_owned())
}

fn golden(case: &str, submission: &Path, grade: impl Fn() -> Grade) {
    for (format, ext) in FORMATS {
        let g = grade().text().args(&["--format", format, "--color", "never"]).run();
        compare(case, g.code.expect("exit code"), ext, &normalise(&g.stdout, submission));
    }
}

/// `got` against tests/golden/CASE.CODE.EXT, or written there with BLESS=1.
fn compare(case: &str, code: i32, ext: &str, got: &str) {
    let dir = root().join("tests/golden");
    let path = dir.join(format!("{case}.{code}.{ext}"));
    if std::env::var_os("BLESS").is_some() {
        for stale in std::fs::read_dir(&dir).unwrap().flatten() {
            let n = stale.file_name().to_string_lossy().into_owned();
            if n.starts_with(&format!("{case}.")) && n.ends_with(&format!(".{ext}")) && n[case.len() + 1..].split('.').next().is_some_and(|c| c.parse::<i32>().is_ok()) {
                std::fs::remove_file(stale.path()).unwrap();
            }
        }
        std::fs::write(&path, got).unwrap();
        return;
    }
    let want = std::fs::read_to_string(&path)
        .unwrap_or_else(|_| panic!("no golden file {} (exit code {code}); run `make bless` if the change is deliberate", path.display()));
    if got != want {
        let at = got.lines().zip(want.lines()).position(|(g, w)| g != w).unwrap_or(got.lines().count().min(want.lines().count()));
        panic!(
            "{case} as {ext} differs from {} at line {}:\n  now:    {}\n  golden: {}\nrun `make bless` if the change is deliberate",
            path.display(),
            at + 1,
            got.lines().nth(at).unwrap_or("(end)"),
            want.lines().nth(at).unwrap_or("(end)")
        );
    }
}

/// A copy of the reference broken in several steps at once, one of them with
/// terminal escapes in a value.
fn broken() -> Copy {
    let c = Copy::sample();
    c.edit("01-args.txt", "domain=$(POD_NAMESPACE).svc.cluster.local", "domain=default.svc.cluster.local")
        .edit("03-mesh.txt", "ca_addr_same=yes", "ca_addr_same=no")
        .edit("bootstrap.yaml", "    typed_extension_protocol_options:\n      envoy.extensions.upstreams.http.v3.HttpProtocolOptions:\n        \"@type\": type.googleapis.com/envoy.extensions.upstreams.http.v3.HttpProtocolOptions\n        explicit_http_config:\n          http2_protocol_options: {}\n", "")
        .edit("06-ready.txt", "ready_code=503", "ready_code=200")
        .edit("07-identity.txt", "token_audience=istio-ca", "token_audience=\u{1b}[31mistio\u{1b}[0m")
        .remove("08-report.md");
    c
}

#[test]
fn reference() {
    golden("reference", &sample(), || Grade::new("sample-answers/ist2-boot").launch());
}

#[test]
fn reference_without_envoy() {
    golden("reference-no-envoy", &sample(), || Grade::new("sample-answers/ist2-boot").no_envoy());
}

#[test]
fn broken_submission() {
    let c = broken();
    golden("broken", c.path(), || c.grade().launch());
}

/// The reference and the broken copy as a Korean or Chinese student reads them.
#[test]
fn in_korean_and_chinese() {
    let c = broken();
    for lang in ["ko", "zh"] {
        let text = |g: Grade| g.text().args(&["--lang", lang, "--color", "never"]).run();
        let g = text(Grade::new("sample-answers/ist2-boot").launch());
        compare(&format!("reference-{lang}"), g.code.expect("exit code"), "txt", &normalise(&g.stdout, &sample()));
        let g = text(c.grade().launch());
        compare(&format!("broken-{lang}"), g.code.expect("exit code"), "txt", &normalise(&g.stdout, c.path()));
    }
}

/// A student in the middle of the lab: inject.yaml, 01 and 02 done, the rest not begun.
#[test]
fn mid_lab() {
    let c = crate::midlab::midlab();
    golden("midlab", c.path(), || c.grade().launch());
    for lang in ["ko", "zh"] {
        let g = c.grade().launch().text().args(&["--lang", lang, "--color", "never"]).run();
        compare(&format!("midlab-{lang}"), g.code.expect("exit code"), "txt", &normalise(&g.stdout, c.path()));
    }
}

#[test]
fn envoy_missing() {
    golden("envoy-missing", &sample(), || Grade::new("sample-answers/ist2-boot").args(&["--envoy", "/nonexistent/envoy", "--no-live"]));
}

/// A class with a non-ASCII name, hostile names (a formula, markup, a newline, a comma
/// and a quote) and a name near the file-name limit: the gradebook and the GitHub
/// annotations of the batch.
#[test]
fn class() {
    let parent = tempfile::tempdir().unwrap();
    let long = format!("{}-end", "long".repeat(60));
    let names = ["alice", "张伟", "=SUM(A1:A9)", "<b>bob<b>, \"jr\"\nx", long.as_str()];
    for name in names {
        std::fs::rename(Copy::sample().dir.keep(), parent.path().join(name)).unwrap();
    }
    let f = parent.path().join("张伟/03-mesh.txt");
    std::fs::write(&f, std::fs::read_to_string(&f).unwrap().replace("ca_addr_same=yes", "ca_addr_same=no")).unwrap();
    std::fs::remove_file(parent.path().join(long.as_str()).join("08-report.md")).unwrap();
    let out = tempfile::tempdir().unwrap();
    let g = Grade::batch(parent.path()).no_envoy().text().args(&["--format", "github", "--out", out.path().to_str().unwrap()]).run();
    let code = g.code.expect("exit code");
    compare("class", code, "github", &normalise(&g.stdout, parent.path()));
    compare("class", code, "scores.csv", &std::fs::read_to_string(out.path().join("scores.csv")).unwrap());
}

/// The English texts the Korean and Chinese ones were translated from. A text reworded
/// in English changes this file: update its translations in checks/ist2-boot.ko.yaml
/// and .zh.yaml, then `make bless`. (`labcheck spec` finds a text added or removed; only
/// this finds one reworded.)
#[test]
fn the_english_the_translations_were_made_from() {
    let mut spec = labcheck::spec::Spec::builtin().unwrap_or_else(|e| panic!("{}", e[0]));
    let texts = labcheck::spec::translate::texts(&mut spec, &Default::default());
    let got: String = texts.into_iter().filter_map(|(what, en, _)| en.map(|en| format!("{what}: {en}\n"))).collect();
    let want = std::fs::read_to_string(root().join("tests/golden/spec-texts.0.en.txt")).unwrap_or_default();
    let changed: Vec<&str> = got.lines().filter(|l| !want.lines().any(|w| w == *l)).collect();
    assert!(changed.is_empty() || std::env::var_os("BLESS").is_some(), "English texts changed or added since the translations were made (update them, then `make bless`):\n{}", changed.join("\n"));
    compare("spec-texts", 0, "en.txt", &got);
}
