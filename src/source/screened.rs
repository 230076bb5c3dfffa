//! A submission's bootstrap as the grader hands it to Envoy: past the safety screen
//! (`envoy::screen`), or why not, and what the grader's launched copy changes, in the
//! words of the spec's `envoy.screen` texts.

use crate::slot::Unavailable;
use crate::envoy::schema::Risk;
use crate::envoy::screen::{self, Refusal, Why};
use crate::spec::envoy::{fill, ScreenTexts};
use crate::spec::Spec;
use serde_json::Value;

/// Refusals said at most; a bootstrap full of them needs no longer list.
const SHOWN: usize = 3;

/// The fields the screen refuses in `data`, and why, in a form to compare.
pub fn refused(data: &Value) -> Vec<String> {
    screen::screen(data).err().unwrap_or_default().iter().map(|r| format!("{}: {:?}", r.field, r.why)).collect()
}

/// `data` (the file `name`) if the screen lets it through; else why, the student's.
pub fn screened(spec: &Spec, name: &str, data: &Value) -> Result<(), Unavailable> {
    let refusals = screen::screen(data).err().unwrap_or_default();
    if refusals.is_empty() {
        return Ok(());
    }
    let texts = texts(spec);
    let mut reasons: Vec<String> = refusals.iter().take(SHOWN).map(|r| reason(&texts, r)).collect();
    if refusals.len() > SHOWN {
        reasons.push("…".into());
    }
    Err(Unavailable::student(fill(&texts.refused, &[("file", name), ("reasons", &reasons.join("; "))])))
}

/// What the launched copy of `data` changes, said for the report; empty if nothing.
pub fn changes(spec: &Spec, data: &Value, wait_floor: f64) -> String {
    let texts = texts(spec);
    let places = screen::places(data);
    let written = |p: &screen::Place| data.pointer(&p.holder).and_then(|h| h.get(&p.key)).and_then(Value::as_str).is_some_and(|s| !s.is_empty());
    let mut said: Vec<String> = places.dev_null.iter().filter(|p| written(p)).map(|p| fill(&texts.dev_null, &[("field", &p.shown)])).collect();
    if !places.connects.is_empty() {
        said.push(texts.closed_port.clone());
    }
    said.extend(places.local_sockets.iter().map(|p| fill(&texts.left_out, &[("field", &p.shown)])));
    if crate::envoy::fetch::lengthened(data, wait_floor) != *data {
        said.push(fill(&texts.waits, &[("timeout", &format!("{wait_floor}s"))]));
    }
    if said.is_empty() { String::new() } else { fill(&texts.changed, &[("changes", &crate::lang::statements(&said))]) }
}

fn reason(texts: &ScreenTexts, r: &Refusal) -> String {
    let text = match &r.why {
        Why::Risk(Risk::ReadsFiles) => &texts.reads_files,
        Why::Risk(Risk::Listens) => &texts.listens,
        Why::Risk(Risk::Connects) => &texts.connects,
        Why::Extension(_) => &texts.extension,
        Why::Weight(too_heavy) => return too_heavy.clone(),
    };
    let ty = if let Why::Extension(t) = &r.why { t.as_str() } else { "" };
    fill(text, &[("field", &r.field), ("type", ty)])
}

/// The spec's texts; a spec that runs Envoy has them (its load checks so).
fn texts(spec: &Spec) -> ScreenTexts {
    spec.envoy.as_ref().and_then(|e| e.screen.clone()).expect("a spec that runs Envoy has `envoy.screen` (checked when it loads)")
}
