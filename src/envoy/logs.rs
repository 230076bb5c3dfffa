//! The admin's access logs, sent to /dev/null in the grader's copy of a bootstrap.
//!
//! Envoy's examples give the admin an access log in a file (`access_log_path:
//! /tmp/admin_access.log`), and Envoy creates that file even in validate mode. The
//! screen lets these paths through (only these: the admin's `access_log_path` and its
//! file loggers' `path`), and every Envoy the grader runs gets /dev/null there instead.
//! What is not a non-empty string is left for Envoy to refuse, as it refuses it in the
//! student's own run.

use serde_json::Value;

pub const FILE_ACCESS_LOG: &str = "type.googleapis.com/envoy.extensions.access_loggers.file.v3.FileAccessLog";

/// `data` with every admin access log path made /dev/null.
pub fn to_dev_null(data: &Value) -> Value {
    let mut data = data.clone();
    let Some(admin) = data.get_mut("admin") else { return data };
    if let Some(path) = admin.get_mut("access_log_path") {
        to_null_device(path);
    }
    let loggers = admin.get_mut("access_log").and_then(Value::as_array_mut).into_iter().flatten();
    for config in loggers.filter_map(|l| l.get_mut("typed_config")) {
        if config.get("@type").and_then(Value::as_str) == Some(FILE_ACCESS_LOG)
            && let Some(path) = config.get_mut("path")
        {
            to_null_device(path);
        }
    }
    data
}

fn to_null_device(path: &mut Value) {
    if path.as_str().is_some_and(|p| !p.is_empty()) {
        *path = "/dev/null".into();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn every_admin_log_file_becomes_dev_null() {
        let b = json!({"admin": {"access_log_path": "/tmp/admin_access.log", "access_log": [
            {"name": "f", "typed_config": {"@type": FILE_ACCESS_LOG, "path": "/root/.bashrc"}},
            {"name": "s", "typed_config": {"@type": "type.googleapis.com/envoy.extensions.access_loggers.stream.v3.StdoutAccessLog"}}]}});
        let copy = to_dev_null(&b);
        assert_eq!(copy["admin"]["access_log_path"], "/dev/null");
        assert_eq!(copy["admin"]["access_log"][0]["typed_config"]["path"], "/dev/null");
        assert_eq!(copy["admin"]["access_log"][1], b["admin"]["access_log"][1]);
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
