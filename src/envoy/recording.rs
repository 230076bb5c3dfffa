//! What a probe of the admin API saw, as a file: `--save-probe` writes it, `--replay`
//! grades from it, so live checks can be re-run or audited without an Envoy.

use crate::display::{path as shown, safe};
use serde::{Deserialize, Serialize};

/// One GET and its answer.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Exchange {
    pub path: String,
    /// HTTP status, when an answer came.
    pub status: Option<u16>,
    pub body: String,
    /// When the request was sent (RFC 3339, UTC).
    pub at: String,
    pub elapsed_ms: u64,
    /// Why no answer came (refused, timed out, not HTTP, ...).
    pub error: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Recording {
    pub format: String,
    /// "probe" (an Envoy already running) or "launch" (started by the grader).
    pub mode: String,
    /// The admin address probed, e.g. `http://127.0.0.1:9982`.
    pub admin: String,
    pub exchanges: Vec<Exchange>,
}

pub const FORMAT: &str = "labcheck-probe/1";

impl Recording {
    pub fn get(&self, path: &str) -> Option<&Exchange> {
        self.exchanges.iter().find(|e| e.path == path)
    }

    pub fn save(&self, file: &std::path::Path) -> Result<(), String> {
        let text = serde_json::to_string_pretty(self).map_err(|e| e.to_string())?;
        std::fs::write(file, text + "\n").map_err(|e| format!("cannot write {}: {e}", shown(file)))
    }

    pub fn load(file: &std::path::Path) -> Result<Recording, String> {
        let text = crate::input::file::read_lab(file).map_err(|e| format!("cannot read the recording: {}", e.said(&shown(file))))?;
        let r: Recording = serde_json::from_str(&text).map_err(|e| format!("{} is not a probe recording: {e}", shown(file)))?;
        if r.format != FORMAT {
            return Err(format!("{} is a recording of format `{}`; this grader reads `{FORMAT}`", shown(file), safe(&r.format)));
        }
        Ok(r)
    }
}
