//! The paths a bootstrap has Envoy write to, sent to /dev/null in the grader's copies.
//!
//! Envoy's examples give the admin an access log in a file (`access_log_path:
//! /tmp/admin_access.log`), and Envoy creates that file even in validate mode. Every
//! path the screen finds Envoy would write to (access logs, event logs, profiles:
//! `Field::DevNull` in `schema.rs`) becomes /dev/null in every Envoy the grader runs.
//! What is not a non-empty string is left for Envoy to refuse, as it refuses it in the
//! student's own run.

use serde_json::Value;

/// `data` with every path Envoy would write to made /dev/null.
pub fn to_dev_null(data: &Value) -> Value {
    let mut copy = data.clone();
    for place in super::screen::places(data).dev_null {
        let path = copy.pointer_mut(&place.holder).and_then(|h| h.get_mut(&place.key));
        if let Some(path) = path.filter(|p| p.as_str().is_some_and(|p| !p.is_empty())) {
            *path = "/dev/null".into();
        }
    }
    copy
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const FILE_ACCESS_LOG: &str = "type.googleapis.com/envoy.extensions.access_loggers.file.v3.FileAccessLog";

    #[test]
    fn every_file_envoy_would_write_becomes_dev_null() {
        let b = json!({"admin": {"access_log_path": "/tmp/admin_access.log", "profilePath": "/tmp/p", "access_log": [
            {"name": "f", "typed_config": {"@type": FILE_ACCESS_LOG, "path": "/root/.bashrc"}},
            {"name": "s", "typed_config": {"@type": "type.googleapis.com/envoy.extensions.access_loggers.stream.v3.StdoutAccessLog"}}]},
            "cluster_manager": {"outlier_detection": {"event_log_path": "/tmp/o"}},
            "static_resources": {"clusters": [{"health_checks": [{"event_log_path": "/tmp/h"}]}]}});
        let copy = to_dev_null(&b);
        assert_eq!(copy["admin"]["access_log_path"], "/dev/null");
        assert_eq!(copy["admin"]["profilePath"], "/dev/null");
        assert_eq!(copy["admin"]["access_log"][0]["typed_config"]["path"], "/dev/null");
        assert_eq!(copy["admin"]["access_log"][1], b["admin"]["access_log"][1]);
        assert_eq!(copy["cluster_manager"]["outlier_detection"]["event_log_path"], "/dev/null");
        assert_eq!(copy["static_resources"]["clusters"][0]["health_checks"][0]["event_log_path"], "/dev/null");
    }

    #[test]
    fn what_envoy_refuses_is_left_for_it_to_refuse() {
        // Envoy says a number is not a path, and an empty path is no log (or, for a
        // file logger, too short): the finding stays the student's.
        let b = json!({"admin": {"access_log_path": 5, "access_log": [{"typed_config": {"@type": FILE_ACCESS_LOG, "path": ""}}]}});
        assert_eq!(to_dev_null(&b), b);
        let none = json!({"node": {"id": "x"}});
        assert_eq!(to_dev_null(&none), none);
    }
}
