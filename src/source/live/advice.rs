//! What to do when the student's own Envoy could not be probed: start it as step 6
//! says, and, when the bootstrap's admin port is not the one probed, that first.
//!
//! The port probed is no secret: the lab's text gives it (step 4: "admin port 9982")
//! and the probe's own error already names the URL, so saying it costs nothing and
//! spares a student who used Envoy's usual 9901 a hunt.

use crate::envoy::recording::Recording;
use crate::source::artifacts::Artifact;
use crate::spec::Spec;
use serde_json::Value;
use std::path::Path;

/// A probe that failed, said so the reader knows what to do next.
pub fn advice(spec: &Spec, rec: &Recording, dir: &Path, bootstrap: &Artifact, problem: String) -> String {
    if rec.mode != "probe" {
        return problem;
    }
    let sub = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
    let start = format!(
        "start Envoy as step 6 says (setsid --fork nohup envoy -c {} --log-level warn > envoy.log 2>&1 </dev/null) and wait for the admin port; to grade without a running Envoy, use --launch-envoy",
        sub.join(&bootstrap.name).display()
    );
    let theirs = bootstrap.data().ok().and_then(|d| port_number(d.pointer("/admin/address/socket_address/port_value")?));
    match (theirs, url_port(&rec.admin)) {
        (Some(theirs), Some(probed)) if theirs != u64::from(probed) => {
            // The check that says so, if the spec has one.
            let check = spec.checks.iter().find(|c| c.file == bootstrap.name && c.id.ends_with("admin_port"));
            let see = check.map(|c| format!(" (see {})", c.id)).unwrap_or_default();
            format!(
                "{problem}. Your {} sets admin port {theirs}, but the grader probes port {probed}, the lab's admin port{see}: set that port in the file, stop your Envoy, then {start}",
                bootstrap.name
            )
        }
        _ => format!("{problem}. {}{}", start[..1].to_uppercase(), &start[1..]),
    }
}

/// A port as the bootstrap gives it: a number, or a string of one (Envoy takes both).
fn port_number(v: &Value) -> Option<u64> {
    v.as_u64().or_else(|| v.as_str()?.trim().parse().ok())
}

/// The port of an `http://` or `https://` URL, said or implied.
fn url_port(url: &str) -> Option<u16> {
    let (scheme, rest) = url.split_once("://")?;
    let authority = rest.split(['/', '?', '#']).next()?;
    // After an IPv6 literal's `]`, or after the host.
    let after_host = authority.rsplit_once(']').map_or(authority, |(_, p)| p);
    match after_host.rsplit_once(':') {
        Some((_, port)) => port.parse().ok(),
        None => match scheme {
            "http" => Some(80),
            "https" => Some(443),
            _ => None,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_port_of_a_url() {
        assert_eq!(url_port("http://127.0.0.1:9982"), Some(9982));
        assert_eq!(url_port("http://[::1]:9982/"), Some(9982));
        assert_eq!(url_port("http://[::1]"), Some(80));
        assert_eq!(url_port("https://envoy.lab"), Some(443));
    }
}
