//! Where a derived value comes from, in words a student reads: the files and inputs
//! behind the spec variables an expression uses, never the jq.

use crate::lang::{checks::Checks, t};
use crate::spec::{SourceKind, Spec};
use std::collections::BTreeSet;

/// `your inject.yaml`, `the lab's mesh_config and your inject.yaml`, ...: every input
/// behind the variables `deps` (indices into the spec's globals), through the `let`s
/// they read.
pub fn words(spec: &Spec, deps: &BTreeSet<usize>) -> String {
    let mut inputs: Vec<String> = Vec::new();
    let mut seen = BTreeSet::new();
    let mut todo: Vec<usize> = deps.iter().rev().copied().collect();
    while let Some(g) = todo.pop() {
        if !seen.insert(g) {
            continue;
        }
        match input(spec, g) {
            Input::Words(w) => {
                if !inputs.contains(&w) {
                    inputs.push(w);
                }
            }
            Input::Let(l) => todo.extend(spec.program.deps(spec.lets[l].expr).iter().rev()),
        }
    }
    match inputs.split_last() {
        None => t!(Checks::FromSpec),
        Some(_) => crate::lang::list(&inputs),
    }
}

enum Input {
    Words(String),
    /// A `let` (its index), itself derived from other variables.
    Let(usize),
}

/// What the global variable `g` is: params, then sources, then lets, as the jq
/// program orders them.
fn input(spec: &Spec, g: usize) -> Input {
    let (params, sources) = (spec.params.len(), spec.sources.len());
    if g < params {
        return Input::Words(t!(Checks::FromParam, name = spec.params[g].name));
    }
    if g >= params + sources {
        return Input::Let(g - params - sources);
    }
    Input::Words(match &spec.sources[g - params].kind {
        SourceKind::Submission { file, .. } => t!(Checks::FromYour, file = file),
        SourceKind::Lab { param, .. } => t!(Checks::FromLabFile, name = spec.params[*param].name),
        SourceKind::EnvoyValidate { file } => t!(Checks::FromValidation, file = file),
        SourceKind::EnvoyAdmin { bootstrap, .. } => t!(Checks::FromLive, file = bootstrap),
    })
}
