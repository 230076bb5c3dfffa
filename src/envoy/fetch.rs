//! How long Envoy waits for its first configuration: a config source's
//! `initial_fetch_timeout` (0: for ever; not set: 15 s). While Envoy waits it is not
//! Ready; when a wait runs out it goes on without, and may turn Ready. So what a
//! running Envoy shows depends on how long it has run, unless every wait is for ever.

use super::schema::loosely_equal;
use serde_json::{json, Value};

/// Envoy's default wait, when a config source sets none.
pub const DEFAULT: f64 = 15.0;

/// A duration as Envoy reads it (`"0s"`, `"1.5s"`, `{seconds, nanos}`), in seconds.
pub fn seconds(d: &Value) -> Option<f64> {
    match d {
        Value::String(s) => s.strip_suffix('s').and_then(|n| n.trim().parse::<f64>().ok()),
        Value::Object(m) => {
            let part = |k: &str| m.get(k).map_or(Some(0.0), |v| v.as_f64().or_else(|| crate::compare::number_in_text(v.as_str()?)));
            part("seconds").zip(part("nanos")).map(|(s, n)| s + n / 1e9)
        }
        _ => None,
    }
}

/// The first moment (seconds after start) at which an Envoy of this bootstrap may leave
/// the state it starts in: its shortest finite wait, but LDS only once CDS is done (a
/// CDS that waits for ever holds LDS back). None if no wait ever ends.
pub fn first_change(data: &Value) -> Option<f64> {
    let waits = waits(data);
    let cds_for_ever = waits.iter().any(|(at, w)| *at == Some("cds_config") && *w == Some(0.0));
    let ending = waits.into_iter().filter(|(at, _)| !(cds_for_ever && *at == Some("lds_config")));
    ending.filter_map(|(_, w)| w.filter(|w| *w > 0.0)).reduce(f64::min)
}

/// Each config source's wait, in seconds (None: one Envoy would not take), and whether
/// it is the bootstrap's `cds_config` or `lds_config`.
fn waits(data: &Value) -> Vec<(Option<&'static str>, Option<f64>)> {
    super::screen::places(data)
        .fetch_timeouts
        .iter()
        .map(|p| {
            let wait = match data.pointer(&p.holder).and_then(|h| h.get(&p.key)) {
                None | Some(Value::Null) => Some(DEFAULT),
                Some(d) => seconds(d).filter(|s| *s >= 0.0),
            };
            let steps: Vec<&str> = p.holder.split('/').skip(1).collect();
            let which = ["cds_config", "lds_config"].into_iter().find(|name| {
                matches!(steps.as_slice(), [d, c] if loosely_equal("dynamic_resources", d) && loosely_equal(name, c))
            });
            (which, wait)
        })
        .collect()
}

/// `data` with every finite wait at least `floor` seconds: a launched Envoy is read in
/// the state it starts in, however slow the machine (the probe takes well under that).
pub fn lengthened(data: &Value, floor: f64) -> Value {
    let mut copy = data.clone();
    for p in super::screen::places(data).fetch_timeouts {
        let Some(Value::Object(holder)) = copy.pointer_mut(&p.holder) else { continue };
        let wait = match holder.get(&p.key) {
            None | Some(Value::Null) => Some(DEFAULT),
            Some(d) => seconds(d),
        };
        if wait.is_some_and(|w| w > 0.0 && w < floor) {
            holder.insert(p.key.clone(), json!(format!("{floor}s")));
        }
    }
    copy
}

#[cfg(test)]
mod tests {
    use super::*;

    fn boot(cds: Value, lds: Value) -> Value {
        let mut b = json!({"dynamic_resources": {"cds_config": {"ads": {}}, "lds_config": {"ads": {}}}});
        for (k, v) in [("cds_config", cds), ("lds_config", lds)] {
            if !v.is_null() {
                b["dynamic_resources"][k]["initial_fetch_timeout"] = v;
            }
        }
        b
    }

    #[test]
    fn durations_as_envoy_reads_them() {
        assert_eq!(seconds(&json!("0s")), Some(0.0));
        assert_eq!(seconds(&json!("1.5s")), Some(1.5));
        assert_eq!(seconds(&json!({"seconds": 2, "nanos": 500000000})), Some(2.5));
        assert_eq!(seconds(&json!({"seconds": "3"})), Some(3.0));
        assert_eq!(seconds(&json!({"seconds": "0x0", "nanos": "+0"})), Some(0.0));
        assert_eq!(seconds(&json!("5")), None);
        assert_eq!(seconds(&json!(5)), None);
    }

    #[test]
    fn the_first_change_is_the_shortest_finite_wait() {
        assert_eq!(first_change(&boot(json!("0s"), json!({"seconds": 0}))), None);
        assert_eq!(first_change(&boot(json!("2s"), json!("0.5s"))), Some(0.5));
        assert_eq!(first_change(&json!({"node": {}})), None);
        // LDS starts once CDS is done: a CDS that waits for ever holds it back.
        assert_eq!(first_change(&boot(json!("0s"), Value::Null)), None);
        assert_eq!(first_change(&boot(Value::Null, json!("0s"))), Some(DEFAULT));
    }

    #[test]
    fn short_waits_are_lengthened_and_for_ever_kept() {
        let copy = lengthened(&boot(json!("0s"), json!("2s")), 60.0);
        assert_eq!(copy["dynamic_resources"]["cds_config"]["initial_fetch_timeout"], "0s");
        assert_eq!(copy["dynamic_resources"]["lds_config"]["initial_fetch_timeout"], "60s");
        let copy = lengthened(&boot(Value::Null, json!("90s")), 60.0);
        assert_eq!(copy["dynamic_resources"]["cds_config"]["initial_fetch_timeout"], "60s");
        assert_eq!(copy["dynamic_resources"]["lds_config"]["initial_fetch_timeout"], "90s");
    }
}
