//! Checks a choice of this run leaves ungraded (`--no-envoy`, `--no-live`, an optional
//! lab file absent), decided before the check's file is looked at.

use super::{Cx, Verdict};
use crate::derive::Blame;
use crate::spec::{Check, CheckKind};

/// The skip verdict, if a value the check needs is skipped in this run. It comes
/// before the file's own state: otherwise a missing file fails a check the reference
/// skips, and the submissions of one run are scored out of different maximums.
pub fn verdict(check: &Check, cx: &Cx) -> Option<Verdict> {
    if let (CheckKind::EnvoyValidate { .. }, Some(Err(u))) = (&check.kind, cx.validation)
        && u.blame == Blame::Skip {
            return Some(Verdict::unavailable(u));
        }
    check.kind.exprs().find_map(|id| cx.env.skipped(id)).map(Verdict::unavailable)
}
