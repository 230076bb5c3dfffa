//! Reading a live Envoy's admin API: GET only, the few endpoints the lab needs, each
//! with a short timeout and a size cap, so a hung or hostile server cannot stall grading.

use super::recording::{Exchange, Recording, FORMAT};
use serde_json::{json, Value};
use std::time::{Duration, Instant, SystemTime};

/// The endpoints the lab looks at, in the order they are asked.
pub const READY: &str = "/ready";
pub const STATS: &str = "/stats?filter=%5Econtrol_plane%5C.connected_state%24";
pub const CONFIG_DUMP: &str = "/config_dump";
pub const SERVER_INFO: &str = "/server_info";
const PATHS: [&str; 4] = [READY, STATS, CONFIG_DUMP, SERVER_INFO];

pub const TIMEOUT: Duration = Duration::from_secs(3);
const MAX_BODY: u64 = 8 << 20;

/// Ask every endpoint; failures are recorded, not returned, so a recording always exists.
pub fn probe(base: &str, mode: &str) -> Recording {
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .max_redirects(0)
        .proxy(None)
        .timeout_global(Some(TIMEOUT))
        .build()
        .into();
    let base = base.trim_end_matches('/');
    let mut exchanges = Vec::new();
    for path in PATHS {
        let e = if path == STATS { steady_stats(&agent, base) } else { get(&agent, base, path) };
        let no_answer = e.error.is_some() && e.status.is_none();
        exchanges.push(e);
        // Nothing listening, or not answering: the other endpoints would say the same, slower.
        if no_answer && path == READY {
            break;
        }
    }
    Recording { format: FORMAT.into(), mode: mode.into(), admin: base.into(), exchanges }
}

/// The stats answer once its value is steady. An Envoy with no control plane reads
/// `control_plane.connected_state: 0`, but for an instant now and then (about 1 read in
/// 10 000, each time it retries the connection) it reads 1; a grade must not hang on
/// that. So a value other than 0 is read again, until two reads in a row agree.
fn steady_stats(agent: &ureq::Agent, base: &str) -> Exchange {
    let value = |e: &Exchange| e.body.lines().find_map(|l| l.strip_prefix("control_plane.connected_state:")).map(|v| v.trim().to_string());
    let mut e = get(agent, base, STATS);
    for _ in 0..3 {
        if e.error.is_some() || value(&e).is_none_or(|v| v == "0") {
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
        let again = get(agent, base, STATS);
        let steady = value(&again) == value(&e);
        e = again;
        if steady {
            break;
        }
    }
    e
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
        ureq::Error::Timeout(_) => format!("no answer within {}s", TIMEOUT.as_secs()),
        ureq::Error::Io(io) if io.kind() == std::io::ErrorKind::ConnectionRefused => "connection refused: nothing listens there".into(),
        ureq::Error::Io(io) => format!("connection failed: {io}"),
        ureq::Error::BodyExceedsLimit(_) => format!("answer larger than {} MiB", MAX_BODY >> 20),
        other => format!("not an HTTP answer ({other})"),
    }
}

/// The spec's view of a recording, or why the live checks cannot use it.
pub fn view(rec: &Recording) -> Result<Value, String> {
    let need = |path: &str| -> Result<&Exchange, String> {
        let e = rec.get(path).ok_or_else(|| format!("{} was not asked", shown(path)))?;
        if let Some(err) = &e.error {
            return Err(format!("{} on {}: {err}", shown(path), rec.admin));
        }
        Ok(e)
    };
    let ready = need(READY)?;
    let stats = need(STATS)?;
    let dump = need(CONFIG_DUMP)?;
    let connected_state = stats
        .body
        .lines()
        .find_map(|l| l.strip_prefix("control_plane.connected_state:"))
        .and_then(|v| v.trim().parse::<i64>().ok())
        .ok_or_else(|| format!("{} on {} has no control_plane.connected_state (is this an Envoy admin port?)", shown(STATS), rec.admin))?;
    let dump_json: Value = serde_json::from_str(&dump.body)
        .map_err(|_| format!("{} on {} is not JSON (is this an Envoy admin port?)", CONFIG_DUMP, rec.admin))?;
    let bootstrap = dump_json.pointer("/configs/0/bootstrap").cloned().unwrap_or(Value::Null);
    let node = bootstrap
        .get("node")
        .cloned()
        .ok_or_else(|| format!("{} on {} has no .configs[0].bootstrap.node", CONFIG_DUMP, rec.admin))?;
    let server_info = rec
        .get(SERVER_INFO)
        .and_then(|e| serde_json::from_str::<Value>(&e.body).ok())
        .unwrap_or(Value::Null);
    Ok(json!({
        "mode": rec.mode,
        "admin": rec.admin,
        "ready": {"code": ready.status, "body": ready.body.trim_end_matches(['\r', '\n'])},
        "connected_state": connected_state,
        "node": node,
        "bootstrap": bootstrap,
        "server_info": {"state": server_info.get("state"), "version": server_info.get("version")},
    }))
}

fn shown(path: &str) -> &str {
    if path == STATS { "/stats?filter=control_plane.connected_state" } else { path }
}
