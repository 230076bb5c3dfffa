//! Grading one submission: read its files, run Envoy where the spec asks, derive the
//! expected values, then decide every check.

use crate::check::{self, Cx};
use crate::derive::{Env, Unavailable};
use crate::result::{StepScore, SubmissionResult};
use crate::source::artifacts::Artifact;
use crate::source::params::Params;
use crate::source::{live, validation, Options, Sources};
use crate::spec::{SourceKind, Spec};
use std::collections::HashMap;
use std::path::Path;
use std::time::{Duration, Instant};

/// A run's grader: the compiled spec and the run's sources, shared by its submissions.
pub struct Grader<'s> {
    spec: &'s Spec,
    sources: Sources<'s>,
}

impl<'s> Grader<'s> {
    pub fn new(spec: &'s Spec, params: Params, opts: Options) -> Grader<'s> {
        Grader { spec, sources: Sources::new(spec, params, opts) }
    }

    /// Lab files that could not be read (a set-up problem, not the student's).
    pub fn lab_problems(&self) -> Vec<String> {
        self.sources.lab_problems()
    }

    pub fn grade(&self, dir: &Path) -> SubmissionResult {
        let start = Instant::now();
        let spec = self.spec;
        let artifacts: HashMap<String, Artifact> = spec
            .files()
            .into_iter()
            .map(|f| {
                let a = Artifact::load(dir, &f, spec.file_format(&f));
                (f, a)
            })
            .collect();

        let envoy_start = Instant::now();
        let validations = validation::all(&self.sources, &artifacts);
        let live = live::acquire(&self.sources, &artifacts, dir);
        let envoy_time = if validations.is_empty() && live.is_none() { Duration::ZERO } else { envoy_start.elapsed() };

        let mut env = Env::new(spec);
        for (i, p) in spec.params.iter().enumerate() {
            env.set(&p.name, self.sources.param(i), false);
        }
        for s in &spec.sources {
            if let SourceKind::Lab { .. } = &s.kind {
                env.set_jaq(&s.name, self.sources.lab(&s.name), false);
                continue;
            }
            let (slot, student) = match &s.kind {
                SourceKind::Submission { file, .. } => {
                    let a = &artifacts[file];
                    env.set_jaq(&s.name, a.jaq_data().map_err(Unavailable::student), true);
                    continue;
                }
                SourceKind::Lab { .. } => unreachable!("handled above"),
                SourceKind::EnvoyValidate { file } => (validations[file].clone(), true),
                SourceKind::EnvoyAdmin { .. } => {
                    (live.as_ref().map(|l| l.slot.clone()).unwrap_or_else(|| Err(Unavailable::grader("not probed"))), true)
                }
            };
            env.set(&s.name, slot, student);
        }
        env.derive_lets();

        let checks = spec
            .checks
            .iter()
            .map(|c| {
                let cx = Cx { env: &env, artifact: &artifacts[&c.file], validation: validations.get(&c.file) };
                check::run(c, &cx)
            })
            .collect::<Vec<_>>();

        let steps = spec
            .steps
            .iter()
            .map(|(n, title)| {
                let of_step = checks.iter().filter(|c| c.step == *n);
                StepScore {
                    step: *n,
                    title: title.clone(),
                    score: of_step.clone().map(|c| c.points).sum(),
                    max_score: of_step.map(|c| c.max_points).sum(),
                }
            })
            .collect();

        SubmissionResult {
            lab: spec.lab.clone(),
            title: spec.title.clone(),
            // Both name paths from the command line: made safe here, like found values,
            // so that every format shows them escaped (and, being paths, never cut).
            submission: crate::display::path(dir),
            checks,
            steps,
            live_source: live.map(|l| crate::display::safe_lines(&l.described)),
            elapsed: start.elapsed(),
            envoy_time,
        }
    }
}
