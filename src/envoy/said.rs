//! What Envoy said about a bootstrap, taken from its log: the verdict line, without
//! Envoy's echo of the configuration it was given.
//!
//! The grader runs Envoy on its own copy of the file (JSON, addresses rewritten), and
//! Envoy often repeats that copy in its error: as a protobuf dump after a
//! `goo.gle/debug…` marker, or as JSON after `Unable to parse JSON as proto (…):`.
//! That echo is not the student's file (it holds a closed port the student never
//! wrote), it is long, and its form changes from run to run, as do the parse position
//! (`near 1:940 (offset 939)`, an offset into Envoy's own JSON with its keys in hash
//! order) and the number of spaces protobuf puts between words. So the message shown
//! leaves those out, and the pattern derived from it, which must match what the
//! student's own run printed, skips over them.

use regex::Regex;
use std::borrow::Cow;
use std::sync::LazyLock;

/// Envoy's words, with the places it echoed the grader's copy marked.
#[derive(Debug, Clone, PartialEq)]
pub struct Said {
    parts: Vec<Part>,
}

#[derive(Debug, Clone, PartialEq)]
enum Part {
    Words(String),
    /// A dump of the configuration; said by nothing, matched by anything.
    Echo,
    /// `near L:C (offset N)`, a place in Envoy's own JSON.
    Position,
    /// Said, but matched by anything: what follows `@` in a JSON parse error, the first
    /// bad field Envoy met in its own JSON, whose keys are in an order that changes from
    /// run to run (with two bad fields, either is named).
    Varies(String),
}

/// A warning Envoy logs on every start without a connection limit: no reason for anything.
const EVERY_START: &str = "There is no configured limit to the number of allowed active downstream connections";

/// Protobuf's marker before a dump: `goo.gle/debugstr`, `…/debugonly`, `…/debugproto`.
static MARKER: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"goo\.gle/debug[a-z]*").expect("valid"));
/// A line of protobuf's text format: `field: value`, `field {`, `[type] {`, `}`, blank.
static DUMP_LINE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^\s*(?:\}|[A-Za-z_][A-Za-z0-9_]*\s*(?::(?:\s.*)?|\{)|\[[^\]]*\]\s*\{)?\s*$").expect("valid")
});
static POSITION: LazyLock<Regex> = LazyLock::new(|| Regex::new(r",?\s*\bnear\s+\d+:\d+\s+\(offset\s+\d+\)").expect("valid"));
/// What [`Part::Position`] matches in a student's file: the same, or nothing.
const POSITION_PATTERN: &str = r"(?:,?\s*near\s+[0-9]+:[0-9]+\s+\(offset\s+[0-9]+\))?";

impl Said {
    /// Envoy's verdict in `log`. When it `accepted` the file, its last line (`configuration
    /// 'x' OK`); otherwise the first `critical` record from the end (an `error` one if
    /// there is none), with the lines that continue it.
    pub fn from_log(log: &str, accepted: bool) -> Said {
        Said::read(log, if accepted { &[] } else { &["critical", "error"] })
    }

    /// Why a launched Envoy ended: as [`Said::from_log`], or its last `warning` (an
    /// Envoy that ends by itself, its bootstrap lacking ADS, says why only so), never
    /// the notice it logs on every start.
    pub fn from_launch_log(log: &str) -> Said {
        Said::read(log, &["critical", "error", "warning"])
    }

    /// The last record of the first of `levels` that has one; without one, the last line.
    fn read(log: &str, levels: &[&str]) -> Said {
        let lines: Vec<&str> = log.lines().collect();
        let at_level = |level: &&str| lines.iter().rposition(|l| prefix(l).0.get(2) == Some(level) && !prefix(l).1.starts_with(EVERY_START));
        let start = levels.iter().find_map(at_level);
        let record = match start {
            Some(i) => {
                let rest = lines[i + 1..].iter().take_while(|l| prefix(l).0.len() < 4);
                std::iter::once(prefix(lines[i]).1).chain(rest.copied()).collect::<Vec<_>>().join("\n")
            }
            None => prefix(lines.iter().rev().map(|l| l.trim()).find(|l| !l.is_empty()).unwrap_or("")).1.to_string(),
        };
        Said { parts: field_varies(parts(unwrapped(&record))) }
    }

    /// What a crashed Envoy said: its own records before the crash, else the crash
    /// (`Caught Segmentation fault, ...`), never the backtrace after it, which is
    /// addresses in Envoy's memory.
    pub fn from_crash_log(log: &str) -> Said {
        let trace = |l: &&str| prefix(l).0.get(3) == Some(&"backtrace");
        let own: Vec<&str> = log.lines().filter(|l| !trace(l)).collect();
        let says_why = own.iter().any(|l| matches!(prefix(l).0.get(2), Some(&"critical" | &"error")));
        let caught = log.lines().filter(trace).find(|l| prefix(l).1.starts_with("Caught ")).filter(|_| !says_why);
        Said::from_log(&caught.map_or_else(|| own.join("\n"), str::to_string), false)
    }

    /// The words, spaced once, with the echo and parse position left out.
    pub fn text(&self) -> String {
        let mut out = String::new();
        for part in &self.parts {
            let (Part::Words(w) | Part::Varies(w)) = part else { continue };
            let w = w.split_whitespace().collect::<Vec<_>>().join(" ");
            // `configuration 'x': <echo>: Proto constraint…` reads as one colon.
            let w = if out.ends_with(':') { w.trim_start_matches(':').trim_start() } else { &w };
            if !out.is_empty() && !w.is_empty() && !w.starts_with([':', ';', ',', '.', ')']) {
                out.push(' ');
            }
            out.push_str(w);
        }
        out.trim_end_matches([':', ' ']).to_string()
    }

    /// A regex for these words in the student's own output: any run of spaces, the file
    /// under any path (`'/root/x/bootstrap.yaml'`), anything where Envoy echoed the
    /// configuration, and the parse position or none.
    ///
    /// Envoy quotes a student's text (a cluster name of 10,000 words) in full, so the
    /// pattern is kept within [`PATTERN_BUDGET`] bytes: past that, its middle is left
    /// out and matched by anything, and its first and last parts are matched in order.
    /// Whatever the student wrote, the pattern compiles.
    pub fn pattern(&self, file: &str) -> String {
        let mut pieces: Vec<Cow<'static, str>> = Vec::new();
        let said = |p: &Part| matches!(p, Part::Words(w) if !w.trim().is_empty());
        let first = self.parts.iter().position(said);
        let last = self.parts.iter().rposition(said);
        for (i, part) in self.parts.iter().enumerate() {
            let before = pieces.len();
            match part {
                Part::Words(w) => {
                    let w = w.trim();
                    let w = if Some(i) == last { w.trim_end_matches([':', ' ']) } else { w };
                    words_pattern(w, file, &mut pieces);
                }
                // Only between words: an echo before or after them adds nothing to match.
                Part::Echo if first.is_some_and(|f| f < i) && last.is_some_and(|l| i < l) => pieces.push(ANYTHING.into()),
                Part::Echo => {}
                Part::Position => pieces.push(POSITION_PATTERN.into()),
                Part::Varies(_) => pieces.push(ANYTHING.into()),
            }
            // Parts are joined by any run of spaces, or none.
            if pieces.len() > before && before > 0 {
                pieces.insert(before, r"\s*".into());
            }
        }
        within_budget(&pieces)
    }
}

/// The most bytes a derived pattern has. Its compiled form then stays within the regex
/// size limit of a spec's patterns whatever the pieces: at twice this, every kind of
/// piece still compiles (`\s+`, repeated, costs the most); at four times, not. Envoy's
/// longest verdicts in this lab give patterns of a few hundred bytes.
pub const PATTERN_BUDGET: usize = 2048;
/// Matches whatever Envoy echoed, or whatever part of its words a pattern leaves out.
const ANYTHING: &str = r"[\s\S]*?";

/// The pieces joined, or, past [`PATTERN_BUDGET`], the first and last pieces that fit
/// half of it each, with anything between them.
fn within_budget(pieces: &[Cow<'static, str>]) -> String {
    let total: usize = pieces.iter().map(|p| p.len()).sum();
    if total <= PATTERN_BUDGET {
        return pieces.concat();
    }
    let half = (PATTERN_BUDGET - ANYTHING.len()) / 2;
    let fitting = |pieces: &mut dyn Iterator<Item = &Cow<'static, str>>| {
        let mut used = 0;
        pieces.take_while(|p| {
            used += p.len();
            used <= half
        }).count()
    };
    let head = fitting(&mut pieces.iter());
    let tail = fitting(&mut pieces.iter().rev());
    let mut out = pieces[..head].concat();
    out.push_str(ANYTHING);
    out.push_str(&pieces[pieces.len() - tail..].concat());
    out
}

/// `[time][thread][level][logger] [source:line] message`: the bracketed fields and the
/// message after them.
fn prefix(line: &str) -> (Vec<&str>, &str) {
    let mut fields = Vec::new();
    let mut rest = line.trim();
    while let Some(stripped) = rest.strip_prefix('[') {
        let Some(end) = stripped.find(']') else { break };
        fields.push(&stripped[..end]);
        rest = stripped[end + 1..].trim_start();
    }
    (fields, rest)
}

/// A launched Envoy says ``error `WHY` initializing config '…'``, then WHY again.
fn unwrapped(record: &str) -> &str {
    let inner = record.strip_prefix("error `").and_then(|r| Some(&r[..r.find("` initializing config '")?]));
    inner.unwrap_or(record)
}

/// Words, echoes and positions, in order.
fn parts(text: &str) -> Vec<Part> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(m) = MARKER.find(rest) {
        words(&rest[..m.start()], &mut out);
        out.push(Part::Echo);
        // The dump: the rest of the marker's line, then every line of text format.
        let after = &rest[m.end()..];
        let mut end = after.find('\n').map_or(after.len(), |n| n + 1);
        for line in after[end..].split_inclusive('\n') {
            if !DUMP_LINE.is_match(line.trim_end_matches('\n')) {
                break;
            }
            end += line.len();
        }
        rest = &after[end..];
    }
    words(rest, &mut out);
    out
}

/// In a JSON parse error (`Unable to parse JSON as proto (… Bootstrap @ field: …`),
/// all from the field on varies (see [`Part::Varies`]).
fn field_varies(parts: Vec<Part>) -> Vec<Part> {
    // `Unable to parse JSON as proto (…)`, and `Protobuf message (… invalid JSON in …) has
    // unknown fields`, where Envoy names one of the unknown fields, run by run, with or
    // without its path: from the path (` @ `) on, or from the message's type on.
    static FIELD: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| regex::Regex::new(r" @ |invalid\s+JSON\s+in\s+[\w.]+").unwrap());
    // Envoy pads its words with runs of spaces that vary run by run ("invalid JSON   in").
    let plain = |w: &str| w.split_whitespace().collect::<Vec<_>>().join(" ");
    let parse_error = |p: &Part| matches!(p, Part::Words(w) if { let w = plain(w); w.contains("as proto") || w.contains("invalid JSON in") });
    let Some(from) = parts.iter().position(parse_error) else { return parts };
    let split = |p: &Part| match p {
        Part::Words(w) => FIELD.find(w).map(|m| if m.as_str() == " @ " { m.start() + 2 } else { m.end() }),
        _ => None,
    };
    let Some((at, cut)) = parts.iter().enumerate().skip(from).find_map(|(i, p)| split(p).map(|c| (i, c))) else { return parts };
    let mut out: Vec<Part> = parts[..at].to_vec();
    let Part::Words(w) = &parts[at] else { return parts };
    let (before, after) = w.split_at(cut);
    out.push(Part::Words(before.to_string()));
    let rest: Vec<&str> = std::iter::once(after).chain(parts[at + 1..].iter().filter_map(|p| if let Part::Words(w) = p { Some(w.as_str()) } else { None })).collect();
    out.push(Part::Varies(rest.concat()));
    out
}

/// Text with no dump marker: a JSON echo (`: {…}` to the end of its line) is cut out,
/// and parse positions are marked.
fn words(text: &str, out: &mut Vec<Part>) {
    let mut rest = text;
    while let Some((before, after)) = json_echo(rest) {
        positions(before, out);
        out.push(Part::Echo);
        rest = after;
    }
    positions(rest, out);
}

/// Colons of a line tried as the start of a JSON echo: Envoy's lines have one, and a
/// student's text (a cluster name of a million `: [`) must not cost a parse each.
const ECHO_TRIES: usize = 16;

/// The text before a `: {…}` that runs to the end of its line and is JSON, and after it.
/// Linear in the text: each line is scanned once, and parsed at most [`ECHO_TRIES`] times.
fn json_echo(text: &str) -> Option<(&str, &str)> {
    let mut start = 0;
    for line in text.split_inclusive('\n') {
        let body = line.strip_suffix('\n').unwrap_or(line);
        let mut tries = 0;
        for (i, _) in body.match_indices(':') {
            let echoed = body[i + 1..].trim_start();
            if !echoed.starts_with(['{', '[']) {
                continue;
            }
            tries += 1;
            if tries > ECHO_TRIES {
                break;
            }
            if serde_json::from_str::<serde_json::Value>(echoed).is_ok() {
                return Some((&text[..=start + i], &text[start + body.len()..]));
            }
        }
        start += line.len();
    }
    None
}

fn positions(text: &str, out: &mut Vec<Part>) {
    let mut last = 0;
    for m in POSITION.find_iter(text) {
        out.push(Part::Words(text[last..m.start()].to_string()));
        out.push(Part::Position);
        last = m.end();
    }
    out.push(Part::Words(text[last..].to_string()));
}

/// The words as regex pieces, one per character or run of spaces: each run of spaces
/// any run of spaces, `'FILE'` under any path.
fn words_pattern(words: &str, file: &str, out: &mut Vec<Cow<'static, str>>) {
    let quoted = format!("'{file}'");
    let mut rest = words;
    while let Some(c) = rest.chars().next() {
        if rest.starts_with(&quoted) {
            out.push(format!("'(?:[^'\\n]*/)?{}'", regex::escape(file)).into());
            rest = &rest[quoted.len()..];
        } else if c.is_whitespace() {
            out.push(r"\s+".into());
            rest = rest.trim_start();
        } else {
            out.push(regex::escape(&rest[..c.len_utf8()]).into());
            rest = &rest[c.len_utf8()..];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Real Envoy 1.40 logs (tests/fixtures/envoy-logs): the grader's validation, and a
    /// launch of the same file.
    fn log(name: &str) -> String {
        std::fs::read_to_string(format!("{}/tests/fixtures/envoy-logs/{name}.log", env!("CARGO_MANIFEST_DIR"))).unwrap()
    }

    fn said(name: &str) -> String {
        Said::from_log(&log(name), false).text()
    }

    #[test]
    fn a_verdict_loses_its_log_prefix() {
        let out = "[2026-11-29 21:28:27.278][8158][info][config] [source/server/configuration_impl.cc:138] loading 1 cluster(s)\n[2026-11-29 21:28:27.279][8158][critical][main] [source/server/config_validation/server.cc:76] error initializing configuration 'boot-typo.yaml': Unknown gRPC client cluster 'istiod-xds'\n";
        assert_eq!(Said::from_log(out, false).text(), "error initializing configuration 'boot-typo.yaml': Unknown gRPC client cluster 'istiod-xds'");
        assert_eq!(Said::from_log("x\nconfiguration 'bootstrap.yaml' OK\n\n", true).text(), "configuration 'bootstrap.yaml' OK");
    }

    #[test]
    fn a_crash_is_said_without_its_backtrace() {
        let log = log("segv.launch");
        assert_eq!(Said::from_crash_log(&log).text(), "Caught Segmentation fault, suspect faulting address 0x6601");
        // An assertion or error Envoy logged before it aborted says more than the crash.
        let assert = "[2026-12-03 14:55:51.990][26201][critical][assert] [source/x.cc:1] assert failure: false.\n";
        assert_eq!(Said::from_crash_log(&format!("{assert}{log}")).text(), "assert failure: false.");
        let error = "[2026-12-03 14:55:51.990][26201][error][main] [source/x.cc:1] cannot go on\n";
        assert_eq!(Said::from_crash_log(&format!("{error}{log}")).text(), "cannot go on");
    }

    #[test]
    fn an_envoy_ending_by_itself_is_said_by_its_warning_not_the_notice_of_every_start() {
        assert_eq!(Said::from_launch_log(&log("no-ads.launch")).text(), "Skipping initialization of secondary cluster: ADS must be configured to support an ADS config source");
    }

    #[test]
    fn the_critical_line_is_taken_not_the_dump_after_it() {
        let want = "error initializing configuration 'bootstrap.yaml': envoy.config.core.v3.ApiConfigSource, if not a gRPC type, must not have a gRPC service specified";
        assert_eq!(said("rest.validate"), want);
        assert_eq!(said("rest.launch"), &want["error initializing configuration 'bootstrap.yaml': ".len()..]);
    }

    #[test]
    fn a_json_echo_and_its_position_are_left_out() {
        let want = "Unable to parse JSON as proto (INVALID_ARGUMENT: invalid JSON in envoy.config.bootstrap.v3.Bootstrap @ dynamic_resources.cds_config.initial_fetch_timeout: message google.protobuf.Duration: unexpected character: '0'; expected '\"')";
        assert_eq!(said("duration.validate"), format!("error initializing configuration 'bootstrap.yaml': {want}"));
        assert_eq!(said("duration.launch"), want);
    }

    #[test]
    fn the_reason_after_a_dump_is_kept() {
        for name in ["port.validate", "port.launch"] {
            let s = said(name);
            assert!(s.ends_with("SocketAddressValidationError.PortValue: value must be less than or equal to 65535)"), "{name}: {s}");
            assert!(!s.contains("sidecar~") && !s.contains("127.0.0.1") && !s.contains(": :"), "{name}: {s}");
        }
        assert_eq!(said("negative.validate"), "error initializing configuration 'bootstrap.yaml': Invalid duration: Expected positive duration");
        assert_eq!(said("negative.launch"), "Invalid duration: Expected positive duration");
    }

    /// The student's own run of the same file: other spacing, key order and positions.
    #[test]
    fn the_pattern_matches_another_run_of_envoy() {
        let student = "[2026-11-30 07:31:28.891][8141][critical][main] [source/server/config_validation/server.cc:76] error initializing configuration '/root/ist2-boot/bootstrap.yaml': Unable to parse JSON as proto (INVALID_ARGUMENT: invalid JSON in  envoy.config.bootstrap.v3.Bootstrap @ dynamic_resources.cds_config.initial_fetch_timeout:  message google.protobuf.Duration, near   1:987 (offset 986):   unexpected character: '0'; expected  '\"'): {\"node\":{\"id\":\"x\"}}\nrc=1\n";
        let p = Regex::new(&Said::from_log(&log("duration.validate"), false).pattern("bootstrap.yaml")).unwrap();
        assert!(p.is_match(student), "{p}");
        // With two bad fields, Envoy names either, run by run: the student's may be the other.
        assert!(p.is_match(&student.replace("cds_config", "lds_config")), "{p}");
        assert!(!p.is_match(&student.replace("Unable to parse JSON as proto", "Proto constraint validation failed")));
        assert!(!p.is_match(&student.replace("Bootstrap @", "Cluster @")));
        let rest = Regex::new(&Said::from_log(&log("rest.validate"), false).pattern("bootstrap.yaml")).unwrap();
        assert!(rest.is_match(&log("rest.validate")));
        let port = Regex::new(&Said::from_log(&log("port.validate"), false).pattern("bootstrap.yaml")).unwrap();
        assert!(port.is_match(&log("port.validate").replace("127.0.0.1", "istiod.istio-system.svc")));
        assert!(!port.is_match(&log("port.validate").replace("65535", "1")));
    }

    /// Two unknown fields: Envoy names either, run by run, and a file saved from one run
    /// is Envoy's rejection all the same.
    #[test]
    fn either_of_two_unknown_fields_matches() {
        let run = |field: &str| format!("[2026-12-02 16:06:46.863][3265][critical][main] [source/server/config_validation/server.cc:76] error initializing configuration 'boot-typo.yaml': Protobuf message (type envoy.config.bootstrap.v3.Bootstrap reason INVALID_ARGUMENT: invalid JSON in envoy.config.bootstrap.v3.Bootstrap @ static_resources.clusters[0]: message envoy.config.cluster.v3.Cluster, near  1:790 (offset 789): no  such field: '{field}') has unknown fields\n");
        let grader = Regex::new(&Said::from_log(&run("aa_timeout"), false).pattern("boot-typo.yaml")).unwrap();
        assert!(grader.is_match(&run("zz_timeout")), "{grader}");
        assert!(grader.is_match(&run("aa_timeout")), "{grader}");
        assert!(!grader.is_match(&run("zz_timeout").replace("Bootstrap @", "Cluster @")), "{grader}");
        assert!(Said::from_log(&run("aa_timeout"), false).text().ends_with("no such field: 'aa_timeout') has unknown fields"));
    }

    /// The same at the top level, where Envoy gives no ` @ ` path, or gives one for
    /// one field and none for the other (a merge key under node, an unknown key above).
    #[test]
    fn either_of_two_unknown_top_level_fields_matches() {
        let run = |field: &str| format!("[2026-12-02 18:20:30.291][28009][critical][main] [source/server/config_validation/server.cc:76] error initializing configuration 'bootstrap.yaml': Protobuf message (type envoy.config.bootstrap.v3.Bootstrap reason INVALID_ARGUMENT: invalid JSON in envoy.config.bootstrap.v3.Bootstrap, near 1:10   (offset  9): no  such field: '{field}') has unknown fields\n");
        let grader = Regex::new(&Said::from_log(&run("zzfoo"), false).pattern("bootstrap.yaml")).unwrap();
        assert!(grader.is_match(&run("aabar").replace("1:10   (offset  9)", "1:855 (offset 854)")), "{grader}");
        assert!(grader.is_match(&run("zzfoo")), "{grader}");
        let nested = run("<<").replace("Bootstrap, near", "Bootstrap @ node: message envoy.config.core.v3.Node, near");
        assert!(grader.is_match(&nested), "{grader}");
        assert!(!grader.is_match(&run("aabar").replace("v3.Bootstrap,", "v3.Cluster,")), "{grader}");
        assert!(Said::from_log(&run("zzfoo"), false).text().ends_with("no such field: 'zzfoo') has unknown fields"));
        // Whatever spaces Envoy pads its words with in the grader's run.
        let padded = Regex::new(&Said::from_log(&run("zzfoo").replace("invalid JSON in", "invalid JSON   in"), false).pattern("bootstrap.yaml")).unwrap();
        assert!(padded.is_match(&run("aabar")), "{padded}");
    }

    /// Envoy's rejection of a boot-typo.yaml whose ADS cluster name is `name`.
    fn rejection(name: &str) -> String {
        format!("[2026-11-29 21:28:27.279][8158][critical][main] [source/server/config_validation/server.cc:76] error initializing configuration 'boot-typo.yaml': Unknown gRPC client cluster '{name}'\n")
    }

    /// `pattern` as a check compiles it.
    fn compiles(pattern: &str) -> bool {
        crate::spec::Pattern::new(pattern, true).is_ok()
    }

    #[test]
    fn a_student_text_of_any_size_gives_a_pattern_that_compiles() {
        let words: Vec<String> = (0..10_000).map(|i| format!("w{}", i % 7)).collect();
        let long = rejection(&words.join(" "));
        let said = Said::from_log(&long, false);
        let pattern = said.pattern("boot-typo.yaml");
        assert!(pattern.len() <= PATTERN_BUDGET, "{}", pattern.len());
        assert!(compiles(&pattern));
        let p = Regex::new(&pattern).unwrap();
        assert!(p.is_match(&long.replace("'boot-typo.yaml'", "'/root/ist2-boot/boot-typo.yaml'")));
        // Its first and last words are still matched, in order.
        assert!(!p.is_match(&rejection("w1 w2")));
        assert!(!p.is_match(&long.replace("Unknown gRPC", "Unknown HTTP")));
        assert!(!p.is_match(&long.replace("w6 w0 w1 w2 w3'", "w6 w0 w1 w2 w4'")));
        // Pieces of every kind, each repeated past the budget.
        for piece in ["a b ", "near 1:2 (offset 3) x ", "goo.gle/debugstr x\n", "'boot-typo.yaml' ", "\u{1F600}|"] {
            let p = Said::from_log(&rejection(&piece.repeat(20_000)), false).pattern("boot-typo.yaml");
            assert!(p.len() <= PATTERN_BUDGET && compiles(&p), "{piece:?}: {} bytes", p.len());
        }
    }

    #[test]
    fn a_short_message_keeps_its_whole_pattern() {
        let said = Said::from_log(&rejection("istiod-xds"), false);
        assert_eq!(said.pattern("boot-typo.yaml"), r"error\s+initializing\s+configuration\s+'(?:[^'\n]*/)?boot\-typo\.yaml':\s+Unknown\s+gRPC\s+client\s+cluster\s+'istiod\-xds'");
    }

    /// Each colon once looked for the end of its line: a million took 54 s.
    #[test]
    fn reading_a_message_is_linear() {
        // Colons; colons each followed by a list; one list with a colon in each item.
        for name in [":".repeat(1_000_000), ": [".repeat(300_000), format!(": [{}x", "\": [\", ".repeat(100_000))] {
            let log = rejection(&name);
            let start = std::time::Instant::now();
            let said = Said::from_log(&log, false);
            let (text, pattern) = (said.text(), said.pattern("boot-typo.yaml"));
            let took = start.elapsed();
            assert!(took < std::time::Duration::from_secs(10), "{took:?} for {} bytes", name.len());
            assert!(text.ends_with(&format!("'{name}'")), "{} ... {}", &text[..80], &text[text.len() - 80..]);
            assert!(Regex::new(&pattern).unwrap().is_match(&log));
        }
    }

    #[test]
    fn the_pattern_accepts_any_directory() {
        let p = Regex::new(&Said::from_log("configuration 'bootstrap.yaml' OK", true).pattern("bootstrap.yaml")).unwrap();
        assert!(p.is_match("configuration '/root/ist2-boot/bootstrap.yaml' OK"));
        assert!(p.is_match("configuration 'bootstrap.yaml' OK"));
        assert!(!p.is_match("configuration 'other.yaml' OK"));
    }
}
