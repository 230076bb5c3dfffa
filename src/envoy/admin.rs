//! Reading a live Envoy's admin API: GET only, each request bounded in time and size,
//! so a hung or hostile server cannot stall grading. What is read besides the bootstrap
//! Envoy runs (`/config_dump`) and how long it has run (`/server_info`) is the lab's:
//! the endpoints and statistics an [`Ask`] names.

use crate::lang::{envoy::EnvoyWords, t};
use super::recording::{Exchange, Recording, FORMAT};
use serde_json::{json, Map, Value};
use std::time::{Duration, Instant, SystemTime};

pub const CONFIG_DUMP: &str = "/config_dump";
pub const SERVER_INFO: &str = "/server_info";

pub const TIMEOUT: Duration = Duration::from_secs(3);
const MAX_BODY: u64 = 8 << 20;

/// What to read: endpoints by name (`ready` -> `/ready`) and statistics by full name.
pub struct Ask<'a> {
    pub endpoints: &'a [(String, String)],
    pub stats: &'a [String],
}

impl Ask<'_> {
    /// Every path asked, in order: the lab's endpoints, its statistics, then what the
    /// grader itself needs.
    fn paths(&self) -> Vec<String> {
        let mut paths: Vec<String> = self.endpoints.iter().map(|(_, p)| p.clone()).collect();
        paths.extend(self.stats_path());
        paths.extend([CONFIG_DUMP.to_string(), SERVER_INFO.to_string()]);
        paths
    }

    /// `/stats` filtered to exactly the statistics asked for.
    fn stats_path(&self) -> Option<String> {
        let names: Vec<String> = self.stats.iter().map(|s| s.replace('.', r"\.")).collect();
        let regex = match names.as_slice() {
            [] => return None,
            [one] => format!("^{one}$"),
            many => format!("^(?:{})$", many.join("|")),
        };
        let encoded: String = regex
            .chars()
            .map(|c| match c {
                'A'..='Z' | 'a'..='z' | '0'..='9' | '.' | '_' | '-' => c.to_string(),
                other => format!("%{:02X}", other as u32),
            })
            .collect();
        Some(format!("/stats?filter={encoded}"))
    }
}

/// Ask every path; failures are recorded, not returned, so a recording always exists.
pub fn probe(base: &str, mode: &str, ask: &Ask) -> Recording {
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .max_redirects(0)
        .proxy(None)
        .timeout_global(Some(TIMEOUT))
        .build()
        .into();
    let base = base.trim_end_matches('/');
    let stats = ask.stats_path();
    let mut exchanges = Vec::new();
    for (i, path) in ask.paths().iter().enumerate() {
        let e = if Some(path) == stats.as_ref() { steady_stats(&agent, base, path) } else { get(&agent, base, path) };
        let no_answer = e.error.is_some() && e.status.is_none();
        exchanges.push(e);
        // Nothing listening, or not answering: the other paths would say the same, slower.
        if no_answer && i == 0 {
            break;
        }
    }
    Recording { format: FORMAT.into(), mode: mode.into(), admin: base.into(), exchanges }
}

/// The stats answer once its values are steady. An Envoy with no control plane reads
/// `control_plane.connected_state: 0`, but for an instant now and then (about 1 read in
/// 10 000, each time it retries the connection) it reads 1; a grade must not hang on
/// that. So an answer with a value other than 0 is read again, until two reads in a row
/// agree.
fn steady_stats(agent: &ureq::Agent, base: &str, path: &str) -> Exchange {
    let values = |e: &Exchange| parse_stats(&e.body);
    let mut e = get(agent, base, path);
    for _ in 0..3 {
        if e.error.is_some() || values(&e).values().all(|v| v.as_i64() == Some(0)) {
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
        let again = get(agent, base, path);
        let steady = values(&again) == values(&e);
        e = again;
        if steady {
            break;
        }
    }
    e
}

/// `name: value` lines; a value that is a whole number is one.
fn parse_stats(body: &str) -> Map<String, Value> {
    body.lines()
        .filter_map(|l| l.split_once(": "))
        .map(|(k, v)| {
            let v = v.trim();
            (k.trim().to_string(), v.parse::<i64>().map_or_else(|_| json!(v), |n| json!(n)))
        })
        .collect()
}

fn get(agent: &ureq::Agent, base: &str, path: &str) -> Exchange {
    let at = humantime::format_rfc3339_millis(SystemTime::now()).to_string();
    let start = Instant::now();
    let result = agent.get(&format!("{base}{path}")).call();
    let (status, body, error) = match result {
        Ok(mut resp) => {
            let status = resp.status().as_u16();
            match resp.body_mut().with_config().limit(MAX_BODY).lossy_utf8(true).read_to_string() {
                Ok(body) => (Some(status), body, None),
                Err(e) => (Some(status), String::new(), Some(describe(&e))),
            }
        }
        Err(e) => (None, String::new(), Some(describe(&e))),
    };
    Exchange { path: path.into(), status, body, at, elapsed_ms: start.elapsed().as_millis() as u64, error }
}

fn describe(e: &ureq::Error) -> String {
    match e {
        ureq::Error::Timeout(_) => t!(EnvoyWords::NoAnswer, n = TIMEOUT.as_secs()),
        ureq::Error::Io(io) if io.kind() == std::io::ErrorKind::ConnectionRefused => t!(EnvoyWords::Refused),
        ureq::Error::Io(io) => t!(EnvoyWords::ConnectFailed, error = io),
        ureq::Error::BodyExceedsLimit(_) => t!(EnvoyWords::TooLarge, n = MAX_BODY >> 20),
        other => t!(EnvoyWords::NotHttp, error = other),
    }
}

/// The spec's view of a recording, or why the live checks cannot use it:
/// `{mode, admin, <endpoint>: {code, body}, stats: {<name>: value or null}, node,
/// bootstrap, server_info: {state, version, uptime}}`.
pub fn view(rec: &Recording, ask: &Ask) -> Result<Value, String> {
    let need = |path: &str| -> Result<&Exchange, String> {
        let e = rec.get(path).ok_or_else(|| format!("{} was not asked", shown(path)))?;
        if let Some(err) = &e.error {
            return Err(t!(EnvoyWords::AskedOn, path = shown(path), admin = rec.admin, error = err));
        }
        Ok(e)
    };
    let mut view = Map::new();
    view.insert("mode".into(), json!(rec.mode));
    view.insert("admin".into(), json!(rec.admin));
    for (name, path) in ask.endpoints {
        let e = need(path)?;
        view.insert(name.clone(), json!({"code": e.status, "body": e.body.trim_end_matches(['\r', '\n'])}));
    }
    if let Some(path) = ask.stats_path() {
        let read = parse_stats(&need(&path)?.body);
        let stats: Map<String, Value> = ask.stats.iter().map(|s| (s.clone(), read.get(s).cloned().unwrap_or(Value::Null))).collect();
        view.insert("stats".into(), Value::Object(stats));
    }
    let dump: Value = serde_json::from_str(&need(CONFIG_DUMP)?.body)
        .map_err(|_| t!(EnvoyWords::NotJson, path = CONFIG_DUMP, admin = rec.admin))?;
    let bootstrap = dump.pointer("/configs/0/bootstrap").cloned().unwrap_or(Value::Null);
    let node = bootstrap.get("node").cloned().ok_or_else(|| t!(EnvoyWords::NoNode, path = CONFIG_DUMP, admin = rec.admin))?;
    view.insert("node".into(), node);
    view.insert("bootstrap".into(), bootstrap);
    let info = rec.get(SERVER_INFO).and_then(|e| serde_json::from_str::<Value>(&e.body).ok()).unwrap_or(Value::Null);
    let uptime = info.get("uptime_current_epoch").and_then(super::fetch::seconds);
    view.insert("server_info".into(), json!({"state": info.get("state"), "version": info.get("version"), "uptime": uptime}));
    Ok(Value::Object(view))
}

/// Why what answered a probe is not an Envoy, if it is not: Envoy's `/server_info`
/// names its build (`<commit>/<version>/...`) and its command line, and its `/ready`
/// answers the state `/server_info` gives (200 when LIVE, else 503). A web server
/// serving copied or made-up answers on the admin port is not read as Envoy's word.
pub fn not_envoy(rec: &Recording) -> Option<String> {
    // No answer in time, or one too large: said as such, not as a look-alike's.
    let asked = rec.get(SERVER_INFO);
    if let Some(err) = asked.and_then(|e| e.error.as_ref()) {
        return Some(t!(EnvoyWords::AskedOn, path = SERVER_INFO, admin = rec.admin, error = err));
    }
    let info = asked.and_then(|e| serde_json::from_str::<Value>(&e.body).ok()).unwrap_or(Value::Null);
    let build: Vec<&str> = info["version"].as_str().unwrap_or_default().split('/').collect();
    let envoys_build = build.len() >= 3 && build[0].len() == 40 && build[0].bytes().all(|b| b.is_ascii_hexdigit()) && build[1].split('.').count() >= 3;
    let state = info["state"].as_str();
    let (Some(state), true, true) = (state, envoys_build, info["command_line_options"].is_object()) else {
        return Some(t!(EnvoyWords::NoEnvoyBuild, admin = rec.admin));
    };
    let ready = rec.get("/ready").filter(|e| e.status.is_some())?;
    let body = ready.body.trim();
    (body != state || (ready.status == Some(200)) != (state == "LIVE"))
        .then(|| t!(EnvoyWords::ReadyNotState, admin = rec.admin, code = ready.status.unwrap_or_default(), body = crate::display::safe(body), state = crate::display::safe(state)))
}

fn shown(path: &str) -> String {
    match path.strip_prefix("/stats?filter=") {
        Some(_) => "/stats".into(),
        None => path.into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stats_asked_for_and_nothing_else() {
        let one = ["control_plane.connected_state".to_string()];
        let ask = Ask { endpoints: &[], stats: &one };
        // The same path as recordings made before the lab named its statistics.
        assert_eq!(ask.stats_path().unwrap(), "/stats?filter=%5Econtrol_plane%5C.connected_state%24");
        let two = ["a.b".to_string(), "c".to_string()];
        assert_eq!(Ask { endpoints: &[], stats: &two }.stats_path().unwrap(), "/stats?filter=%5E%28%3F%3Aa%5C.b%7Cc%29%24");
        assert_eq!(Ask { endpoints: &[], stats: &[] }.stats_path(), None);
    }

    #[test]
    fn stats_lines_are_read_as_numbers_where_they_are() {
        let read = parse_stats("control_plane.connected_state: 0\ncontrol_plane.identifier: \"\"\nh: P0(nan,1)\n");
        assert_eq!(read["control_plane.connected_state"], json!(0));
        assert_eq!(read["control_plane.identifier"], json!("\"\""));
        assert_eq!(read["h"], json!("P0(nan,1)"));
    }
}
