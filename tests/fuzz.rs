//! Bounded property tests ("fuzzing") of what reads untrusted input: the answer parsers
//! (YAML, JSON, key=value, text), the screen of a bootstrap and the copy Envoy is given,
//! Envoy's words made a pattern, the spec loader, and a whole grading of a submission
//! with one file broken at random. Each property: no panic, a verdict or an error value,
//! each case within a generous time bound, and within a bound of memory that the
//! allocator below counts.
//!
//! `make test` runs a short pass (64 cases per property, 8 for the two slow ones); `make
//! fuzz` sets PROPTEST_CASES for a run of a few minutes.

use crate::common::*;
use labcheck::envoy::{logs, offline, said::Said, said::PATTERN_BUDGET, screen, weight};
use labcheck::grade::Grader;
use labcheck::source::artifacts::Artifact;
use labcheck::source::live::Live;
use labcheck::source::params::Params;
use labcheck::source::Options;
use labcheck::spec::{Format, Pattern, Spec};
use proptest::prelude::*;
use proptest::sample::{select, Index};
use proptest::test_runner::Config;
use serde_json::{Map, Value};
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::time::{Duration, Instant};

/// The system allocator, counting each thread's bytes in use and their peak: a case
/// runs on one thread, so its peak is what it cost.
struct Counting;

thread_local! {
    static IN_USE: Cell<usize> = const { Cell::new(0) };
    static PEAK: Cell<usize> = const { Cell::new(0) };
}

fn grew(n: usize) {
    let _ = IN_USE.try_with(|u| {
        u.set(u.get() + n);
        let _ = PEAK.try_with(|p| p.set(p.get().max(u.get())));
    });
}

fn shrank(n: usize) {
    let _ = IN_USE.try_with(|u| u.set(u.get().saturating_sub(n)));
}

// SAFETY: every call is passed on to the system allocator unchanged.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) };
        shrank(layout.size());
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            shrank(layout.size());
            grew(new_size);
        }
        p
    }
}

#[global_allocator]
static COUNTING: Counting = Counting;

/// The most memory one case may take: a 100,000-value YAML document (the least budget
/// of any text) takes about 20 MiB in a debug build.
const MEMORY: usize = 128 << 20;
/// The longest one case may take; cases take milliseconds.
const TIME: Duration = Duration::from_secs(20);

/// `f` run as one case: within [`TIME`] and [`MEMORY`].
fn bounded<R>(what: &str, f: impl FnOnce() -> R) -> R {
    let start_use = IN_USE.with(Cell::get);
    PEAK.with(|p| p.set(start_use));
    let start = Instant::now();
    let r = f();
    let (took, peak) = (start.elapsed(), PEAK.with(Cell::get) - start_use);
    assert!(took < TIME, "{what} took {took:?}");
    assert!(peak < MEMORY, "{what} took {} MiB", peak >> 20);
    r
}

/// Cases from PROPTEST_CASES, or a short pass of 64, divided by `slower` for slow
/// properties.
fn config(slower: u32) -> Config {
    let cases = if std::env::var_os("PROPTEST_CASES").is_some() { Config::default().cases } else { 64 };
    Config { cases: (cases / slower).max(1), failure_persistence: None, ..Config::default() }
}

/// Text made of `tokens` (now and then a token repeated many times, or any string).
fn text(tokens: &'static [&'static str], len: usize) -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        12 => select(tokens).prop_map(str::to_string),
        1 => (select(tokens), 1..5000usize).prop_map(|(t, n)| t.repeat(n)),
        1 => any::<String>(),
    ];
    prop::collection::vec(piece, 0..len).prop_map(|p| p.concat())
}

/// Changes to make to a text: where (an index into it), what, and a token.
fn mutations(tokens: &'static [&'static str]) -> impl Strategy<Value = Vec<(Index, u8, String)>> {
    let token = prop_oneof![4 => select(tokens).prop_map(str::to_string), 1 => any::<String>()];
    prop::collection::vec((any::<Index>(), 0..4u8, token), 1..6)
}

/// `base` with each change made: insert the token, replace a line with it, delete a
/// line, or cut the text there.
fn mutated(base: &str, changes: &[(Index, u8, String)]) -> String {
    let mut text = base.to_string();
    for (at, op, token) in changes {
        let mut i = at.index(text.len() + 1);
        while !text.is_char_boundary(i) {
            i -= 1;
        }
        let line_start = text[..i].rfind('\n').map_or(0, |n| n + 1);
        let line_end = text[i..].find('\n').map_or(text.len(), |n| i + n);
        match op {
            0 => text.insert_str(i, token),
            1 => text.replace_range(line_start..line_end, token),
            2 => text.replace_range(line_start..(line_end + 1).min(text.len()), ""),
            _ => text.truncate(i),
        }
    }
    text
}

const YAML: &[&str] = &[
    "a", "b", "key", ":", ": ", " ", "  ", "\n", "\n  ", "- ", "-", "[", "]", "{", "}", ",", "&a ", "*a", "&b ", "*b", "!t ",
    "!!str ", "---\n", "...\n", "'q'", "\"d\\n\"", "|\n  x\n", ">\n  y\n", "# c", "\t", "? ", "1", "-0.5", "0x1F", ".nan",
    ".inf", "~", "null", "true", "%YAML 1.2\n", "<<: *a", "\u{feff}", "é", "\r\n", "a: &a [x, x, x]\n", "b: [*a, *a, *a]\n",
];
const JSON: &[&str] = &[
    "{", "}", "[", "]", ",", ":", "\"k\"", "\"\"", "1", "-0.5e3", "1e999", "true", "false", "null", "\"\\u00e9\"", "\"\\ud800\"",
    " ", "\n", "\"id\": ", "\"metadata\": {", "\u{0}",
];
const KV: &[&str] = &[
    "role", "domain", "rc", "ready_code", "=", "＝", "－", "—", ":", "：", " ", "\u{3000}", "\t", "\r", "\n", "export ", "- ", "#",
    "$(POD_NAMESPACE)", "value", "0", "1", "503", "`", "\u{202e}", "\u{1b}[31m", "\u{feff}", "rc=1\n", "\\",
];

proptest! {
    #![proptest_config(config(1))]

    /// Every answer format reads any text into data or a sentence why not.
    #[test]
    fn answer_files_read_into_a_value_or_a_reason(
        yaml in text(YAML, 200), json in text(JSON, 200), kv in text(KV, 200), format in 0..5usize, proto in any::<bool>(),
    ) {
        let dir = tempfile::tempdir().unwrap();
        let (format, content) = [
            (Format::Yaml, &yaml), (Format::YamlStream, &yaml), (Format::Json, &json), (Format::Kv, &kv), (Format::Text, &kv),
        ][format];
        std::fs::write(dir.path().join("f"), content).unwrap();
        bounded("reading a file", || {
            // As an Envoy config too: proto names, the last of a key said twice.
            let a = Artifact::load(dir.path(), "f", format, proto);
            let said = |r: Result<(), String>| r.err().is_none_or(|e| !e.is_empty());
            prop_assert!(said(a.text().map(|_| ())));
            prop_assert!(said(a.data().map(|_| ())));
            prop_assert!(said(a.kv().map(|_| ())));
            prop_assert!(said(a.jaq_data().map(|_| ())));
            Ok(())
        })?;
    }

    /// Whatever the bootstrap, the screen says yes or why not; and what Envoy is then
    /// given (logs to /dev/null, names made local, endpoints isolated) passes it too.
    #[test]
    fn the_screen_says_yes_or_why_not(bootstrap in bootstrap_like()) {
        bounded("screening a bootstrap", || {
            let _ = weight::check(&bootstrap);
            match screen::screen(&bootstrap) {
                Err(reasons) => prop_assert!(!reasons.is_empty()),
                Ok(_) => {
                    let copy = logs::to_dev_null(&bootstrap);
                    prop_assert!(screen::screen(&offline::without_dns(&copy)).is_ok());
                    prop_assert!(screen::screen(&offline::isolated(&copy, 1)).is_ok());
                }
            }
            Ok(())
        })?;
    }

    /// Whatever Envoy logged, its words make a pattern within the budget that compiles
    /// and matches the log it came from (the student's own run of the same file).
    #[test]
    fn envoys_words_make_a_pattern_that_compiles_and_matches(log in text(LOG, 60), accepted in any::<bool>()) {
        bounded("reading Envoy's words", || {
            let said = Said::from_log(&log, accepted);
            let _ = said.text();
            let pattern = said.pattern("boot-typo.yaml");
            prop_assert!(pattern.len() <= PATTERN_BUDGET, "{} bytes", pattern.len());
            let p = Pattern::new(&pattern, true).map_err(|e| TestCaseError::fail(e.to_string()))?;
            prop_assert!(p.is_match(&log), "/{}/", pattern);
            Ok(())
        })?;
    }
}

proptest! {
    #![proptest_config(config(8))]

    /// A spec changed at random loads, or says what is wrong, with a place.
    #[test]
    fn a_spec_loads_or_says_why(changes in mutations(YAML)) {
        let text = mutated(labcheck::spec::DEFAULT_SPEC, &changes);
        bounded("loading a spec", || {
            if let Err(errors) = Spec::load(&text, "fuzzed.yaml") {
                prop_assert!(!errors.is_empty());
                prop_assert!(errors.iter().all(|e| !e.to_string().is_empty()));
            }
            Ok(())
        })?;
    }

    /// The reference submission with one file changed at random: every check gets a
    /// verdict, and none is the grader's error (the lab and the run are sound; only
    /// the submission changed).
    #[test]
    fn a_broken_submission_gets_verdicts_never_errors(file in any::<Index>(), changes in mutations(MIXED)) {
        let (spec, copy) = (&*SPEC, Copy::sample());
        let files = spec.files();
        let name = &files[file.index(files.len())];
        let before = std::fs::read_to_string(copy.file(name)).unwrap_or_default();
        copy.write(name, mutated(&before, &changes));
        let params = Params::resolve(spec, Some(&sample_lab()), &[]).unwrap();
        let opts = Options { no_envoy: true, envoy: None, live: Live::Off, save_probe: None, steps: None };
        let grader = Grader::new(spec, params, opts);
        let result = bounded("grading a submission", || grader.grade(copy.path()));
        prop_assert_eq!(result.checks.len(), spec.checks.len());
        for c in &result.checks {
            prop_assert!(c.status != labcheck::result::Status::Error, "{}: {}", c.id, c.message);
            prop_assert!(c.status == labcheck::result::Status::Pass || !c.message.is_empty(), "{}", c.id);
        }
    }
}

static SPEC: std::sync::LazyLock<Spec> = std::sync::LazyLock::new(|| Spec::builtin().unwrap());

const MIXED: &[&str] = &[
    "a", ":", ": ", " ", "\n", "- ", "[", "{", "}", ",", "&a ", "*a", "---\n", "'", "\"", "#", "=", "＝", "rc=1\n", "\t", "\r\n",
    "istiod-xds", "xds-grpc", "0s", "9982", "127.0.0.1", "\u{1b}[31m", "\u{202e}", "é", "null", "[[[[", "a: &a [x, x]\nb: [*a, *a]\n",
];

const LOG: &[&str] = &[
    "[2026-11-29 21:28:27.279]", "[8158]", "[critical]", "[error]", "[info]", "[main]", "[source/server/server.cc:76] ",
    "error initializing configuration 'boot-typo.yaml': ", "Unknown gRPC client cluster 'x'", "goo.gle/debugstr ",
    "near 1:2 (offset 3)", ", near 10:20 (offset 30)", ": {\"a\": 1}", ": [1, 2]", "\n", " ", "  ", "field: 1\n", "field {\n", "}\n",
    "[type.googleapis.com/x] {\n", "error `", "` initializing config '", "'", ":", ";", "configuration 'boot-typo.yaml' OK", "é",
    "\t", "\r\n", "'boot-typo.yaml'", "'/root/x/boot-typo.yaml'", "\u{2028}", "\u{3000}",
];

/// Values shaped like a bootstrap: its field names, its kinds of values, any depth.
fn bootstrap_like() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        select(SCALARS).prop_map(Value::from),
        any::<String>().prop_map(Value::from),
    ];
    leaf.prop_recursive(10, 400, 8, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
            prop::collection::vec((select(KEYS), inner), 0..8)
                .prop_map(|kv| Value::Object(kv.into_iter().map(|(k, v)| (k.to_string(), v)).collect::<Map<_, _>>())),
        ]
    })
}

const KEYS: &[&str] = &[
    "node", "id", "cluster", "metadata", "locality", "admin", "address", "socket_address", "port_value", "protocol",
    "ipv4_compat", "access_log_path", "access_log", "name", "typed_config", "@type", "path", "dynamic_resources", "ads_config",
    "api_type", "transport_api_version", "grpc_services", "envoy_grpc", "cluster_name", "authority", "timeout", "cds_config",
    "lds_config", "ads", "initial_fetch_timeout", "resource_api_version", "static_resources", "clusters", "type",
    "connect_timeout", "lb_policy", "load_assignment", "endpoints", "lb_endpoints", "endpoint", "http2_protocol_options",
    "typed_extension_protocol_options", "envoy.extensions.upstreams.http.v3.HttpProtocolOptions", "explicit_http_config",
    "listeners", "secrets", "seconds", "nanos", "log_format", "circuit_breakers", "common_lb_config", "filename",
    "upstream_connection_options", "tcp_keepalive", "dns_refresh_rate", "google_grpc", "transport_socket",
];

const SCALARS: &[&str] = &[
    "STATIC", "static", "STRICT_DNS", "0", " 00", "127.0.0.1", "istiod.istio-system.svc", "0s", "/tmp/x", "GRPC", "V3",
    "type.googleapis.com/envoy.extensions.access_loggers.file.v3.FileAccessLog",
    "type.googleapis.com/envoy.extensions.access_loggers.stream.v3.StdoutAccessLog",
    "type.googleapis.com/envoy.extensions.upstreams.http.v3.HttpProtocolOptions",
];
