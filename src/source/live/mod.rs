//! The live source: what a running Envoy shows, from a probe of the student's own
//! Envoy, an Envoy the grader launches, or a recording.
//!
//! Probe and launch give the same verdicts for every bootstrap Envoy accepts (docs/
//! live-envoy.md): both first ask whether any Envoy can run the file (past the screen,
//! accepted by the grader's validation, with an admin address to ask), a launched
//! Envoy is read in the state it starts in, and a probe reads the student's Envoy only
//! while it still shows that state (else it launches one as CI would).

mod advice;
mod same_bootstrap;

use crate::lang::{envoy::EnvoyWords, t};
use super::artifacts::Artifact;
use super::Sources;
use crate::envoy::admin::{self, Ask};
use crate::envoy::{launch, recording::Recording};
use crate::slot::{Blame, Slot, Unavailable};
use crate::spec::envoy::{fill, Envoy, LiveTexts};
use crate::spec::SourceKind;
use same_bootstrap::Differ;
use serde_json::Value;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// Where live values come from.
#[derive(Debug, Clone)]
pub enum Live {
    /// Probe the Envoy already running at the spec's admin URL (the student's own).
    Probe,
    /// Start Envoy from the submission's bootstrap, probe it, stop it.
    Launch,
    /// Read a recording made with `--save-probe`.
    Replay(PathBuf),
    /// Do not look at a live Envoy.
    Off,
}

pub struct Acquired {
    pub slot: Slot,
    /// Said in reports: where the live values came from.
    pub described: String,
}

/// What one acquisition needs to know.
struct Cx<'a> {
    sources: &'a Sources<'a>,
    envoy: &'a Envoy,
    texts: &'a LiveTexts,
    artifact: &'a Artifact,
    validation: Option<&'a Slot>,
    /// The submission's folder.
    dir: &'a Path,
}

/// The live view the spec's `envoy_admin` source asks for (if it asks).
pub fn acquire(sources: &Sources, artifacts: &HashMap<String, Artifact>, validations: &HashMap<String, Slot>, dir: &Path) -> Option<Acquired> {
    let (bootstrap, admin_param) = sources.spec.sources.iter().find_map(|s| match &s.kind {
        SourceKind::EnvoyAdmin { bootstrap, admin } => Some((bootstrap.as_str(), *admin)),
        _ => None,
    })?;
    // A spec with a live source has these (checked when it loads).
    let envoy = sources.spec.envoy.as_ref()?;
    let cx = Cx { sources, envoy, texts: envoy.live.as_ref()?, artifact: &artifacts[bootstrap], validation: validations.get(bootstrap), dir };
    // A recording needs no Envoy: --no-envoy --replay FILE re-grades without one.
    if sources.opts.no_envoy && !matches!(sources.opts.live, Live::Replay(_)) {
        let got = skipped(t!(EnvoyWords::NoEnvoyFlag));
        return Some(Acquired { slot: got.slot, described: got.described });
    }
    let acquired = match &sources.opts.live {
        Live::Off => skipped(t!(EnvoyWords::NoLiveFlag)),
        Live::Replay(file) => cx.replayed(file),
        // A student who has not reached a step that reads a running Envoy runs none yet,
        // and nothing is said of a probe. Its checks fail, as in a CI run where the
        // grader launches Envoy: their steps' files are missing (they say not started).
        Live::Probe if !reached(sources, artifacts) => none(Unavailable::student(t!(EnvoyWords::NotReached)), EnvoyWords::NotProbed),
        Live::Probe => cx.probed(admin_param),
        Live::Launch => cx.launched(None),
    };
    if let Some(path) = &sources.opts.save_probe {
        let saved = acquired.recording.as_ref().map_or_else(|| Err(t!(EnvoyWords::NothingSaved, path = crate::display::path(path))), |r| r.save(path));
        if let Err(e) = saved {
            eprintln!("labcheck: warning: {}", crate::display::safe_lines(&e));
        }
    }
    Some(Acquired { slot: acquired.slot, described: acquired.described })
}

/// An acquisition and the recording it made, if any.
struct Got {
    slot: Slot,
    described: String,
    recording: Option<Recording>,
}

fn skipped(why: String) -> Got {
    Got { slot: Err(Unavailable::skip(why)), described: t!(EnvoyWords::Skipped), recording: None }
}

/// No live values, and why in a few words (the live checks say it in full): the first
/// clause of the reason.
fn none(u: Unavailable, lead: EnvoyWords) -> Got {
    let why = crate::lang::clause(crate::lang::first_clause(&u.message).trim_end_matches('.'));
    Got { described: crate::lang::fill(crate::lang::tr(lead), &[("why", &why)]), slot: Err(u), recording: None }
}

/// The header of a probe that read nothing usable at `admin`: the first sentence of why
/// (a clause would cut at the URL's own colon).
fn read_nothing(admin: &str, problem: &str) -> String {
    let end = [". ", "。"].iter().filter_map(|sep| problem.find(sep)).min().unwrap_or(problem.len());
    let why = crate::lang::clause(problem[..end].trim().trim_end_matches('.'));
    t!(EnvoyWords::ProbeFailed, admin = admin, why = why)
}

impl Cx<'_> {
    fn ask(&self) -> Ask<'_> {
        Ask { endpoints: &self.envoy.endpoints, stats: &self.envoy.stats }
    }

    fn replayed(&self, file: &Path) -> Got {
        let rec = match Recording::load(file) {
            Ok(r) => r,
            Err(e) => return Got { slot: Err(Unavailable::grader(e)), described: t!(EnvoyWords::BadRecording), recording: None },
        };
        let described = fill(&self.texts.replayed, &[("recording", &crate::display::path(file)), ("mode", &rec.mode), ("admin", &rec.admin)]);
        let view = admin::view(&rec, &self.ask()).map_err(Unavailable::grader);
        // A launched Envoy ran the file by construction (and its copy differs on purpose).
        let slot = if rec.mode == "launch" { view } else { view.and_then(|v| self.same_bootstrap(&v).map(|_| v)) };
        Got { slot, described, recording: None }
    }

    /// The student's own Envoy, if it runs the file and still shows the state it
    /// started in; else one the grader launches, as CI would.
    fn probed(&self, admin_param: usize) -> Got {
        let data = match self.runnable() {
            Ok(d) => d,
            Err(u) => return none(u, EnvoyWords::NotProbed),
        };
        let rec = self.probe(admin_param, data);
        let url = rec.admin.clone();
        let described = fill(&self.texts.probed, &[("admin", &url)]);
        let view = match admin::view(&rec, &self.ask()) {
            Ok(v) => v,
            Err(problem) => {
                let said = advice::start(self.texts, &problem, self.dir, self.artifact);
                return Got { described: read_nothing(&url, &problem), slot: Err(Unavailable::grader(said)), recording: Some(rec) };
            }
        };
        if let Err(u) = self.same_bootstrap(&view) {
            return Got { described: read_nothing(&url, &u.message), slot: Err(u), recording: Some(rec) };
        }
        let uptime = view.pointer("/server_info/uptime").and_then(Value::as_f64);
        // Uptime is in whole seconds: one more is when it may have changed already.
        match (uptime, crate::envoy::fetch::first_change(data)) {
            (Some(up), Some(change)) if up + 1.0 >= change => {
                let moved = fill(&self.texts.moved_on, &[
                    ("admin", &url),
                    ("file", &self.artifact.name),
                    ("uptime", &format!("{up}s")),
                    ("timeout", &format!("{change}s")),
                ]);
                self.launched(Some(moved))
            }
            // Read as the state it started in: then it must be Envoy that said it.
            _ => match admin::not_envoy(&rec) {
                Some(problem) => {
                    let said = advice::start(self.texts, &problem, self.dir, self.artifact);
                    Got { described: read_nothing(&url, &problem), slot: Err(Unavailable::grader(said)), recording: Some(rec) }
                }
                None => Got { slot: Ok(view), described, recording: Some(rec) },
            },
        }
    }

    /// Start Envoy from the file, probe it, stop it. `why`: why a probe of the
    /// student's own Envoy led here, said after where the values came from.
    fn launched(&self, why: Option<String>) -> Got {
        let name = &self.artifact.name;
        let failed = |u: Unavailable| none(u, EnvoyWords::NotLaunched);
        let data = match self.runnable() {
            Ok(d) => d.clone(),
            Err(u) => return failed(u),
        };
        let envoy = match self.sources.envoy_path() {
            Ok(e) => e,
            Err(u) => return failed(u),
        };
        let mut running = match launch::launch(envoy, name, &data) {
            Ok(r) => r,
            // Envoy refusing the student's bootstrap is the student's finding, not ours:
            // the failure's kind says whose it is.
            Err(f) => return failed(self.of_file(f.unavailable())),
        };
        let rec = admin::probe(&running.admin, "launch", &self.ask());
        // A probe that failed because Envoy rejected the bootstrap (or ran out of a
        // limit) after opening its admin port is the student's finding, said in
        // Envoy's words.
        let rejected = if rec.exchanges.iter().any(|e| e.error.is_some()) { running.exited_within(std::time::Duration::from_secs(1)) } else { None };
        let cpu = running.cpu_so_far();
        running.stop();
        let mut described = fill(&self.texts.launched, &[("file", name), ("admin", &rec.admin)]);
        let changes = super::screened::changes(self.sources.spec, &data, crate::envoy::offline::LAUNCH_WAIT);
        if !changes.is_empty() {
            described = crate::lang::clauses(&described, &changes);
        }
        if let Some(why) = why {
            described = crate::lang::sentences(&described, &why);
        }
        let slot = match rejected {
            Some(f) => Err(self.of_file(f.unavailable())),
            None => admin::view(&rec, &self.ask()).map_err(|problem| self.launched_broke(&rec, problem, cpu)),
        };
        Got { slot, described, recording: Some(rec) }
    }

    /// An Envoy that would not run the file (it validates, but Envoy ends on it: ADS
    /// left out) is the file's doing: where a check of the file fails for it (in step
    /// 4), the live checks are not graded (`grade::charge`).
    fn of_file(&self, u: Unavailable) -> Unavailable {
        if u.blame == Blame::Student { u.of_file(&self.artifact.name) } else { u }
    }

    /// A launched Envoy runs the grader's screened copy and has opened its admin port
    /// (it wrote the address); a probe of it that then reads nothing usable (a runtime
    /// limiting its connections, admin socket options, a dump too large to read) is the
    /// file's doing, unless an answer did not come in time, which is the machine's.
    /// Too late to answer is the grader's trouble (a machine too loaded), unless Envoy
    /// spent the wait working: `cpu`, what it had used by then, is half the wait or
    /// more (on the lab's bootstrap, a launch uses about 0.15 s), and the file gave it
    /// that work (thousands of stat tag regexes over long cluster names).
    fn launched_broke(&self, rec: &Recording, problem: String, cpu: Option<std::time::Duration>) -> Unavailable {
        let name = &self.artifact.name;
        let late = rec.exchanges.iter().any(|e| e.error.is_some() && e.elapsed_ms >= admin::TIMEOUT.as_millis() as u64);
        if late {
            return match busy_with_the_file(cpu) {
                Some(c) => Unavailable::student(t!(EnvoyWords::LaunchedBusy, file = name, problem = problem, cpu = format!("{:.1}", c.as_secs_f64()))).of_file(name),
                None => Unavailable::grader(problem),
            };
        }
        Unavailable::student(t!(EnvoyWords::LaunchedBroke, file = name, problem = problem)).of_file(name)
    }

    /// The file, if an Envoy can run it and be asked about it: readable, past the
    /// screen, not rejected by the grader's own validation, with an admin address.
    /// Decided from the file alone, so probe and launch say the same. Each reason is
    /// the student's, said to be the file's: where a check of the file fails for it (in
    /// step 4), the live checks are not graded (`grade::charge`); else they fail for it.
    fn runnable(&self) -> Result<&Value, Unavailable> {
        let name = &self.artifact.name;
        let not_graded = |text: &str, said: &str| Unavailable::student(fill(text, &[("file", name), ("said", said)])).of_file(name);
        let data = self.artifact.data().map_err(|e| not_graded(&self.texts.unreadable, &e))?;
        super::screened::screened(self.sources.spec, name, data).map_err(|u| not_graded(&self.texts.refused, &u.message))?;
        match self.validation {
            Some(Ok(v)) if v["rc"].as_i64().is_some_and(|rc| rc != 0) => {
                return Err(not_graded(&self.texts.rejected, v["message"].as_str().unwrap_or_default()));
            }
            // Envoy gave no verdict because of the file (it ran out of memory on it).
            Some(Err(u)) if u.blame == Blame::Student => return Err(not_graded(&self.texts.refused, &u.message)),
            _ => {}
        }
        if admin_port(data).is_none() {
            return Err(not_graded(&self.texts.no_admin, ""));
        }
        Ok(data)
    }

    /// A probe at the admin param's URL; if nothing answers there and the file sets
    /// another port (or another local address), there, where the student's Envoy listens
    /// (its mistake there is the file's check to say, as a launch would leave it).
    fn probe(&self, admin_param: usize, data: &Value) -> Recording {
        let url = self.sources.params.values[admin_param].value.clone().unwrap_or_default();
        let rec = admin::probe(&url, "probe", &self.ask());
        let no_answer = rec.exchanges.first().is_none_or(|e| e.status.is_none());
        match admin_port(data).map(|port| with_host_port(&url, admin_host(data).as_deref(), port)) {
            Some(theirs) if no_answer && theirs != url => {
                let other = admin::probe(&theirs, "probe", &self.ask());
                if other.exchanges.first().is_some_and(|e| e.status.is_some()) { other } else { rec }
            }
            _ => rec,
        }
    }

    /// The live Envoy must be running this submission's bootstrap as the file is now: an
    /// Envoy started from an older version would answer for that one (an earlier
    /// bootstrap without `initial_fetch_timeout` turns Ready, which this lab's never does).
    fn same_bootstrap(&self, view: &Value) -> Result<(), Unavailable> {
        let Some(same) = &self.envoy.same else { return Ok(()) };
        let data = self.artifact.data().map_err(|e| Unavailable::student(t!(EnvoyWords::CannotMatch, problem = e)))?;
        let admin = view["admin"].as_str().unwrap_or_default();
        let name = &self.artifact.name;
        let spec_error = |e: String| Unavailable::grader(format!("the spec's envoy.same_bootstrap does not compile: {e}"));
        let id = crate::display::value_text(&same.value(&same.identity, &view["bootstrap"]).map_err(spec_error)?);
        match same_bootstrap::differences(same, &view["bootstrap"], data).map_err(spec_error)? {
            Differ::None => Ok(()),
            Differ::Identity => Err(Unavailable::grader(advice::not_same(self.texts, admin, self.dir, name, &id, None))),
            Differ::Fields(names) => Err(Unavailable::grader(advice::not_same(self.texts, admin, self.dir, name, &id, Some(&names)))),
        }
    }
}

/// Whether a step whose checks read a running Envoy is started (has any of its files).
fn reached(sources: &Sources, artifacts: &HashMap<String, Artifact>) -> bool {
    sources.live_steps.iter().any(|n| super::artifacts::not_started(sources.spec, *n, artifacts).is_empty())
}

/// The admin port a bootstrap sets (a number, a whole one written `9982.0` too, or a
/// string of one, as Envoy takes them all: `compare::number_in_text`).
fn admin_port(data: &Value) -> Option<u16> {
    let port = admin_field(data, "port_value")?;
    let whole = |f: f64| (f.fract() == 0.0 && f >= 0.0).then_some(f as u64);
    let n = port.as_u64().or_else(|| port.as_f64().and_then(whole)).or_else(|| crate::compare::number_in_text(port.as_str()?).and_then(whole))?;
    u16::try_from(n).ok().filter(|p| *p != 0)
}

/// A field of the admin's socket address, spelt as Envoy takes it (`port_value` or
/// `portValue`).
fn admin_field<'v>(data: &'v Value, name: &str) -> Option<&'v Value> {
    ["admin", "address", "socket_address", name].iter().try_fold(data, |v, step| {
        v.as_object()?.iter().find(|(k, _)| crate::envoy::schema::loosely_equal(step, k)).map(|(_, v)| v)
    })
}

/// Where on this machine to reach an admin that listens on the file's address: a
/// loopback address as it is, any address (`0.0.0.0`, `::`) at loopback. Never another
/// machine's: the grader asks only this one.
fn admin_host(data: &Value) -> Option<String> {
    let address = admin_field(data, "address")?;
    let ip: std::net::IpAddr = match address.as_str()?.trim() {
        "localhost" => return Some("127.0.0.1".into()),
        a => a.trim_start_matches('[').trim_end_matches(']').parse().ok()?,
    };
    match ip {
        std::net::IpAddr::V4(v4) if v4.is_unspecified() => Some("127.0.0.1".into()),
        std::net::IpAddr::V6(v6) if v6.is_unspecified() => Some("[::1]".into()),
        std::net::IpAddr::V4(v4) if v4.is_loopback() => Some(v4.to_string()),
        std::net::IpAddr::V6(v6) if v6.is_loopback() => Some(format!("[{v6}]")),
        _ => None,
    }
}

/// `url` with another port, and another host when one is given.
fn with_host_port(url: &str, new_host: Option<&str>, port: u16) -> String {
    let Some((scheme, rest)) = url.split_once("://") else { return url.to_string() };
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let (authority, path) = rest.split_at(end);
    // After an IPv6 literal's `]`, or after the host.
    let host = match authority.rfind(']') {
        Some(i) => &authority[..=i],
        None => authority.rsplit_once(':').map_or(authority, |(h, _)| h),
    };
    format!("{scheme}://{}:{port}{path}", new_host.unwrap_or(host))
}

/// A launched Envoy's CPU time when it is half the wait for an answer or more: it was
/// working on the file, not waiting for a loaded machine. (Of the process the grader
/// started: an `--envoy` wrapper that runs Envoy as its child, not by exec, is never
/// found busy, and its Envoy's silence stays the grader's.)
fn busy_with_the_file(cpu: Option<std::time::Duration>) -> Option<std::time::Duration> {
    cpu.filter(|c| *c >= admin::TIMEOUT / 2)
}

#[cfg(test)]
mod tests {
    #[test]
    fn an_envoy_that_worked_half_the_wait_was_busy_with_the_file() {
        let wait = super::admin::TIMEOUT;
        assert_eq!(super::busy_with_the_file(Some(wait / 2)), Some(wait / 2));
        assert_eq!(super::busy_with_the_file(Some(wait)), Some(wait));
        // A launch on the lab's file uses about 0.15 s: a loaded machine's silence.
        assert_eq!(super::busy_with_the_file(Some(std::time::Duration::from_millis(150))), None);
        assert_eq!(super::busy_with_the_file(None), None);
    }

    use super::*;
    use serde_json::json;

    #[test]
    fn the_port_of_the_admin() {
        assert_eq!(admin_port(&json!({"admin": {"address": {"socket_address": {"port_value": 9901}}}})), Some(9901));
        assert_eq!(admin_port(&json!({"admin": {"address": {"socket_address": {"port_value": 9901.0}}}})), Some(9901));
        assert_eq!(admin_port(&json!({"admin": {"address": {"socket_address": {"port_value": 9901.5}}}})), None);
        for text in ["9901", "9901.0", "9.901e3", "0x26AD", "+9901"] {
            assert_eq!(admin_port(&json!({"admin": {"address": {"socket_address": {"port_value": text}}}})), Some(9901), "{text}");
        }
        assert_eq!(admin_port(&json!({"admin": {"address": {"socketAddress": {"portValue": "9982"}}}})), Some(9982));
        for none in [json!({}), json!({"admin": {}}), json!({"admin": {"address": {"pipe": {"path": "/x"}}}}), json!({"admin": {"address": {"socket_address": {"port_value": 0}}}}), json!({"admin": {"address": {"socket_address": {"port_value": 70000}}}})] {
            assert_eq!(admin_port(&none), None, "{none}");
        }
    }

    #[test]
    fn a_url_on_another_port() {
        assert_eq!(with_host_port("http://127.0.0.1:9982", None, 9901), "http://127.0.0.1:9901");
        assert_eq!(with_host_port("http://[::1]:9982/x", None, 1), "http://[::1]:1/x");
        assert_eq!(with_host_port("http://[::1]", None, 1), "http://[::1]:1");
        assert_eq!(with_host_port("https://envoy.lab", None, 2), "https://envoy.lab:2");
        assert_eq!(with_host_port("http://127.0.0.1:9982/x", Some("[::1]"), 9982), "http://[::1]:9982/x");
    }

    #[test]
    fn the_admin_is_asked_on_this_machine_only() {
        let at = |a: &str| admin_host(&json!({"admin": {"address": {"socket_address": {"address": a, "port_value": 9982}}}}));
        assert_eq!(at("0.0.0.0").as_deref(), Some("127.0.0.1"));
        assert_eq!(at("::").as_deref(), Some("[::1]"));
        assert_eq!(at("127.0.0.2").as_deref(), Some("127.0.0.2"));
        assert_eq!(at("::1").as_deref(), Some("[::1]"));
        assert_eq!(at("localhost").as_deref(), Some("127.0.0.1"));
        assert_eq!(at("10.0.0.7"), None, "another machine's address is never asked");
        assert_eq!(at("example.com"), None);
    }
}
