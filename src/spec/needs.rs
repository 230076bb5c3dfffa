//! What the checks of some steps need from Envoy: which files' validations, and whether
//! a live view. A run of some steps (`--step`) runs no Envoy they do not need.

use super::{SourceKind, Spec};
use std::collections::BTreeSet;

#[derive(Debug, Default, PartialEq, Eq)]
pub struct EnvoyNeeds {
    /// Files whose `envoy --mode validate` a verdict reads.
    pub validate: BTreeSet<String>,
    /// Whether a verdict reads a live Envoy.
    pub live: bool,
}

impl EnvoyNeeds {
    pub fn any(&self) -> bool {
        self.live || !self.validate.is_empty()
    }
}

/// What the verdicts of the checks of `steps` (every step: `None`) read from Envoy,
/// through the variables their expressions read and the `let`s those are made of. An
/// `explain` only adds words to a failure, and is left out.
pub fn envoy_needs(spec: &Spec, steps: Option<&BTreeSet<u32>>) -> EnvoyNeeds {
    let globals = spec.globals();
    let mut needs = EnvoyNeeds::default();
    let mut todo: Vec<usize> = Vec::new();
    for c in spec.checks.iter().filter(|c| steps.is_none_or(|s| s.contains(&c.step))) {
        if c.kind.reads_validation() {
            needs.validate.insert(c.file.clone());
        }
        for id in c.needs() {
            todo.extend(spec.program.deps(id));
        }
    }
    let mut read = vec![false; globals.len()];
    while let Some(i) = todo.pop() {
        if std::mem::replace(&mut read[i], true) {
            continue;
        }
        if let Some(l) = spec.lets.iter().find(|l| l.name == globals[i]) {
            todo.extend(spec.program.deps(l.expr));
        }
    }
    for s in &spec.sources {
        if !globals.iter().position(|g| *g == s.name).is_some_and(|i| read[i]) {
            continue;
        }
        match &s.kind {
            SourceKind::EnvoyValidate { file } => {
                needs.validate.insert(file.clone());
            }
            // A live Envoy runs the file only if Envoy's validation accepts it (see
            // `source/live`), so the live view reads that validation too.
            SourceKind::EnvoyAdmin { bootstrap, .. } => {
                needs.live = true;
                needs.validate.insert(bootstrap.clone());
            }
            SourceKind::Submission { .. } | SourceKind::Lab { .. } => {}
        }
    }
    needs
}

#[cfg(test)]
mod tests {
    use super::*;

    fn steps(s: &[u32]) -> BTreeSet<u32> {
        s.iter().copied().collect()
    }

    #[test]
    fn the_builtin_steps_need_what_they_read() {
        let spec = Spec::builtin().unwrap_or_else(|e| panic!("{}", e[0]));
        assert!(!envoy_needs(&spec, Some(&steps(&[0, 1, 2, 3, 7]))).any());
        let four = envoy_needs(&spec, Some(&steps(&[4])));
        assert_eq!((four.validate.iter().map(String::as_str).collect::<Vec<_>>(), four.live), (vec!["bootstrap.yaml"], false));
        let six = envoy_needs(&spec, Some(&steps(&[6])));
        assert!(six.live && six.validate.iter().eq(["bootstrap.yaml"].iter()), "{six:?}");
        // Step 8 compares with what Envoy says of boot-typo.yaml, and with the live /ready.
        let eight = envoy_needs(&spec, Some(&steps(&[8])));
        assert!(eight.live && eight.validate.contains("boot-typo.yaml"), "{eight:?}");
        let all = envoy_needs(&spec, None);
        assert!(all.live && all.validate.len() == 2, "{all:?}");
    }
}
