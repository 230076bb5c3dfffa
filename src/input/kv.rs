//! `key=value` lines, the form of most of the lab's text artifacts.
//!
//! Lenient where careful students differ (CRLF, spaces around `=`, trailing spaces,
//! order), strict where it matters: a key given twice is reported, not guessed.

use super::lines;
use serde_json::{Map, Value};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// 1-based line number.
    pub line: usize,
    pub key: String,
    pub value: String,
}

#[derive(Debug, Default)]
pub struct KvFile {
    pub entries: Vec<Entry>,
}

impl KvFile {
    pub fn parse(text: &str) -> KvFile {
        let entries = text
            .split('\n')
            .enumerate()
            .filter_map(|(i, raw)| {
                let line = raw.trim();
                let (k, v) = line.split_once('=')?;
                let key = k.trim();
                is_key(key).then(|| Entry { line: i + 1, key: key.to_string(), value: v.trim().to_string() })
            })
            .collect();
        KvFile { entries }
    }

    /// Every line that sets `key`, in file order.
    pub fn get<'a>(&'a self, key: &str) -> Vec<&'a Entry> {
        self.entries.iter().filter(|e| e.key == key).collect()
    }

    /// As an object; a key given twice keeps its last value, as in a shell script and
    /// as the lab reads `rc=` (its last line). Checks of the file itself report the duplicate.
    pub fn to_value(&self) -> Value {
        let mut m = Map::new();
        for e in &self.entries {
            m.insert(e.key.clone(), Value::String(e.value.clone()));
        }
        Value::Object(m)
    }
}

/// The first line that sets `key` in a form the lab does not ask for (`role: sidecar`,
/// `export CA_ADDR=...`, `- typo_rc=1`, `Role=sidecar`, Markdown's `**typo_rc**=1` and
/// `| typo_rc=1 |`): its number and text. What a
/// student wrote that way is their slip to be shown, not a value to be guessed at.
pub fn near_miss(text: &str, key: &str) -> Option<(usize, String)> {
    lines(text).enumerate().find_map(|(i, raw)| {
        let mut l = raw.trim();
        for prefix in ["|", "- ", "* ", "+ ", "export ", "`", "**", "__"] {
            l = l.strip_prefix(prefix).unwrap_or(l).trim_start();
        }
        let rest = l.get(..key.len()).filter(|k| k.eq_ignore_ascii_case(key)).and(l.get(key.len()..))?;
        let rest = rest.trim_start_matches(['*', '_', '`']).trim_start();
        (rest.starts_with('=') || rest.starts_with(':')).then(|| (i + 1, raw.trim().to_string()))
    })
}

/// The first `key=value` line whose key looks like a misspelling of `key`: the same but
/// for case, `_`, `-` and `.`, or one letter added, dropped, changed or two swapped
/// (`proxy_loglevel=` for `proxy_log_level`). Its number and key.
pub fn misspelled(file: &KvFile, key: &str) -> Option<(usize, String)> {
    let plain = |k: &str| k.chars().filter(|c| !matches!(c, '_' | '-' | '.')).collect::<String>().to_ascii_lowercase();
    let want = plain(key);
    file.entries
        .iter()
        .find(|e| e.key != key && (plain(&e.key) == want || (want.chars().count() >= 5 && super::near_name::one_edit(&plain(&e.key), &want))))
        .map(|e| (e.line, e.key.clone()))
}

/// The first `key=value` line whose key is `key` with a prefix before a `.`, `_` or `-`
/// (`control_plane.connected_state=` for `connected_state`, the statistic's full name).
pub fn prefixed(file: &KvFile, key: &str) -> Option<(usize, String)> {
    file.entries
        .iter()
        .find(|e| e.key.len() > key.len() + 1 && e.key.ends_with(key) && e.key[..e.key.len() - key.len()].ends_with(['.', '_', '-']))
        .map(|e| (e.line, e.key.clone()))
}

/// The first `key=value` line whose key is `key` without a prefix that ends in a `.`,
/// `_` or `-` (`CLUSTER_ID=` for `ISTIO_META_CLUSTER_ID`, as pilot-agent strips it).
pub fn shortened(file: &KvFile, key: &str) -> Option<(usize, String)> {
    file.entries
        .iter()
        .find(|e| e.key.len() >= 2 && key.len() > e.key.len() + 1 && key.ends_with(e.key.as_str()) && key[..key.len() - e.key.len()].ends_with(['.', '_', '-']))
        .map(|e| (e.line, e.key.clone()))
}

fn is_key(k: &str) -> bool {
    let mut chars = k.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_with_a_prefix_is_found() {
        let f = KvFile::parse("ready_code=503\ncontrol_plane.connected_state=0\n");
        assert_eq!(prefixed(&f, "connected_state"), Some((2, "control_plane.connected_state".into())));
        assert_eq!(prefixed(&f, "code"), Some((1, "ready_code".into())));
        assert_eq!(prefixed(&f, "state"), Some((2, "control_plane.connected_state".into())));
        assert_eq!(prefixed(&f, "ready_code"), None);
        assert_eq!(prefixed(&KvFile::parse("xconnected_state=0\n"), "connected_state"), None);
    }

    #[test]
    fn a_key_without_its_prefix_is_found() {
        let f = KvFile::parse("CA_ADDR=x\nCLUSTER_ID=Kubernetes\n");
        assert_eq!(shortened(&f, "ISTIO_META_CLUSTER_ID"), Some((2, "CLUSTER_ID".into())));
        assert_eq!(shortened(&f, "CLUSTER_ID"), None);
        assert_eq!(shortened(&f, "XCLUSTER_ID"), None, "no prefix of its own");
        assert_eq!(shortened(&KvFile::parse("D=x\n"), "ISTIO_META_MESH_ID"), None);
    }

    #[test]
    fn careful_variations_read_alike() {
        let f = KvFile::parse("role=sidecar\r\n  domain = $(POD_NAMESPACE).svc.cluster.local  \n- note=x\nno equals\n");
        assert_eq!(f.get("role")[0].value, "sidecar");
        assert_eq!(f.get("domain")[0].value, "$(POD_NAMESPACE).svc.cluster.local");
        assert_eq!(f.get("domain")[0].line, 2);
        assert!(f.get("- note").is_empty());
        assert_eq!(f.entries.len(), 2);
    }

    #[test]
    fn as_a_value_the_last_of_a_repeated_key_wins() {
        let f = KvFile::parse("rc=0\nsome output\nrc=1\n");
        assert_eq!(f.to_value(), serde_json::json!({"rc": "1"}));
    }

    #[test]
    fn near_misses_are_found() {
        let text = "# notes\nrole: sidecar\nexport CA_ADDR=x\n- typo_rc=1\nRole=a\nroles=b\n";
        assert_eq!(near_miss(text, "role"), Some((2, "role: sidecar".into())));
        assert_eq!(near_miss(text, "CA_ADDR"), Some((3, "export CA_ADDR=x".into())));
        assert_eq!(near_miss(text, "typo_rc"), Some((4, "- typo_rc=1".into())));
        assert_eq!(near_miss("Role=a\n", "role"), Some((1, "Role=a".into())));
        assert_eq!(near_miss("x\n**typo_rc**=1\n", "typo_rc"), Some((2, "**typo_rc**=1".into())));
        assert_eq!(near_miss("| typo_rc=1 |\n", "typo_rc"), Some((1, "| typo_rc=1 |".into())));
        assert_eq!(near_miss("`typo_rc`=1\n", "typo_rc"), Some((1, "`typo_rc`=1".into())));
        assert_eq!(near_miss("roles=b\nrolé=c\n", "role"), None);
    }

    #[test]
    fn misspelled_keys_are_found() {
        let f = KvFile::parse("role=sidecar\nproxy_loglevel=warning\ncomponent-log-level=misc:error\nca_mout=/x\nTypo_RC=1\n");
        assert_eq!(misspelled(&f, "proxy_log_level"), Some((2, "proxy_loglevel".into())));
        assert_eq!(misspelled(&f, "component_log_level"), Some((3, "component-log-level".into())));
        assert_eq!(misspelled(&f, "ca_mount"), Some((4, "ca_mout".into())));
        assert_eq!(misspelled(&f, "typo_rc"), Some((5, "Typo_RC".into())));
        assert_eq!(misspelled(&f, "role"), None, "the key itself is no misspelling");
        assert_eq!(misspelled(&f, "domain"), None);
        assert_eq!(misspelled(&KvFile::parse("ready_body=x\n"), "ready_code"), None);
    }

    #[test]
    fn values_keep_inner_equals_signs() {
        let f = KvFile::parse("a=b=c\n");
        assert_eq!(f.get("a")[0].value, "b=c");
    }
}
