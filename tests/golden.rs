//! Golden files: every report format on the reference and on broken submissions.
//! Files are named `<case>.<exit code>.<format extension>` in tests/golden/; after a
//! deliberate change, `make bless` (BLESS=1) rewrites them from what labcheck prints.


use crate::common::*;
use regex::Regex;
use std::path::Path;

const FORMATS: [(&str, &str); 5] =
    [("text", "txt"), ("json", "json"), ("junit", "junit.xml"), ("tap", "tap"), ("gradescope", "gradescope.json")];

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
    let dir = root().join("tests/golden");
    let bless = std::env::var_os("BLESS").is_some();
    for (format, ext) in FORMATS {
        let g = grade().text().args(&["--format", format, "--color", "never"]).run();
        let code = g.code.expect("exit code");
        let got = normalise(&g.stdout, submission);
        let path = dir.join(format!("{case}.{code}.{ext}"));
        if bless {
            for stale in std::fs::read_dir(&dir).unwrap().flatten() {
                let n = stale.file_name().to_string_lossy().into_owned();
                if n.starts_with(&format!("{case}.")) && n.ends_with(&format!(".{ext}")) && n[case.len() + 1..].split('.').next().is_some_and(|c| c.parse::<i32>().is_ok()) {
                    std::fs::remove_file(stale.path()).unwrap();
                }
            }
            std::fs::write(&path, &got).unwrap();
            continue;
        }
        let want = std::fs::read_to_string(&path).unwrap_or_else(|_| {
            panic!("no golden file {} (exit code {code}); run `make bless` if the change is deliberate", path.display())
        });
        if got != want {
            let at = got.lines().zip(want.lines()).position(|(g, w)| g != w).unwrap_or(got.lines().count().min(want.lines().count()));
            panic!(
                "{case} as {format} differs from {} at line {}:\n  now:    {}\n  golden: {}\nrun `make bless` if the change is deliberate",
                path.display(),
                at + 1,
                got.lines().nth(at).unwrap_or("(end)"),
                want.lines().nth(at).unwrap_or("(end)")
            );
        }
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

#[test]
fn envoy_missing() {
    golden("envoy-missing", &sample(), || Grade::new("sample-answers/ist2-boot").args(&["--envoy", "/nonexistent/envoy", "--no-live"]));
}
