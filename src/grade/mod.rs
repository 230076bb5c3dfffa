//! Grading one submission: read its files, run Envoy where the spec asks, derive the
//! expected values, then decide every check.

mod advice;
mod live;
mod same_bootstrap;

use crate::check::{self, Cx};
use crate::derive::{Env, Slot, Unavailable};
use crate::envoy::{screen, validate};
use crate::result::{StepScore, SubmissionResult};
use crate::source::artifacts::Artifact;
use crate::source::lab;
use crate::source::params::Params;
use crate::spec::{CheckKind, SourceKind, Spec};
pub use live::Live;
use serde_json::Value;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// How this run treats Envoy.
pub struct Options {
    /// Never run Envoy nor look at one: those checks are skipped.
    pub no_envoy: bool,
    /// `--envoy PATH`
    pub envoy: Option<PathBuf>,
    pub live: Live,
    /// Write what the probe saw here (one submission only).
    pub save_probe: Option<PathBuf>,
}

/// Everything shared by the submissions of a run: the compiled spec, params, lab files
/// (read once), and the Envoy validation cache.
pub struct Grader<'s> {
    spec: &'s Spec,
    params: Params,
    /// Lab sources, read and converted to jaq's form once a run.
    lab: HashMap<String, Result<jaq_json::Val, Unavailable>>,
    envoy: Result<PathBuf, String>,
    cache: validate::Cache,
    opts: Options,
}

impl<'s> Grader<'s> {
    pub fn new(spec: &'s Spec, params: Params, opts: Options) -> Grader<'s> {
        let envoy = if opts.no_envoy {
            Err("not used (--no-envoy)".into())
        } else {
            crate::envoy::binary::locate(opts.envoy.as_deref())
        };
        let cache = envoy.as_ref().map(|e| validate::Cache::new(e.clone())).unwrap_or_default();
        let lab = lab::read_all(spec, &params);
        Grader { spec, params, lab, envoy, cache, opts }
    }

    /// Lab files that could not be read (a set-up problem, not the student's).
    pub fn lab_problems(&self) -> Vec<String> {
        self.lab
            .values()
            .filter_map(|slot| match slot {
                Err(u) if u.blame == crate::derive::Blame::Grader => Some(u.message.clone()),
                _ => None,
            })
            .collect()
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
        let validations = self.validations(&artifacts);
        let live = live::acquire(self, &artifacts, dir);
        let envoy_time = if validations.is_empty() && live.is_none() { Duration::ZERO } else { envoy_start.elapsed() };

        let mut env = Env::new(spec);
        for (i, p) in spec.params.iter().enumerate() {
            let slot = match &self.params.values[i].value {
                Some(v) => Ok(Value::String(v.clone())),
                None => Err(Unavailable::grader(format!("param `{}` has no value (give --param {}=VALUE)", p.name, p.name))),
            };
            env.set(&p.name, slot, false);
        }
        for s in &spec.sources {
            if let SourceKind::Lab { .. } = &s.kind {
                env.set_jaq(&s.name, self.lab[&s.name].clone(), false);
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

    /// Every validation the spec asks for, run at once (they are independent).
    fn validations(&self, artifacts: &HashMap<String, Artifact>) -> HashMap<String, Slot> {
        let mut files: Vec<&str> = Vec::new();
        for s in &self.spec.sources {
            if let SourceKind::EnvoyValidate { file } = &s.kind {
                files.push(file);
            }
        }
        for c in &self.spec.checks {
            if matches!(c.kind, CheckKind::EnvoyValidate { .. }) {
                files.push(&c.file);
            }
        }
        files.sort();
        files.dedup();
        if self.opts.no_envoy || self.envoy.is_err() || files.len() < 2 {
            // Nothing to wait for in parallel: no Envoy will run, or only once.
            return files.iter().map(|f| (f.to_string(), self.validate_one(&artifacts[*f]))).collect();
        }
        std::thread::scope(|scope| {
            let handles: Vec<_> = files
                .iter()
                .map(|f| {
                    let artifact = &artifacts[*f];
                    (f.to_string(), scope.spawn(move || self.validate_one(artifact)))
                })
                .collect();
            handles
                .into_iter()
                .map(|(f, h)| (f, h.join().unwrap_or_else(|_| Err(Unavailable::grader("the validation thread failed")))))
                .collect()
        })
    }

    fn validate_one(&self, artifact: &Artifact) -> Slot {
        let data = self.envoy_input(artifact)?;
        self.envoy_path()?;
        self.cache
            .validate(&artifact.name, &data)
            .map(|v| v.to_value(&artifact.name))
            .map_err(Unavailable::grader)
    }

    /// Envoy, or why it is not run.
    fn envoy_path(&self) -> Result<&Path, Unavailable> {
        if self.opts.no_envoy {
            return Err(Unavailable::skip("Envoy is not run (--no-envoy)"));
        }
        self.envoy.as_deref().map_err(|e| Unavailable::grader(e.clone()))
    }

    /// A bootstrap fit to hand to Envoy: readable, parsed, and past the screen.
    fn envoy_input(&self, artifact: &Artifact) -> Result<Value, Unavailable> {
        if self.opts.no_envoy {
            return Err(Unavailable::skip("Envoy is not run (--no-envoy)"));
        }
        let data = artifact.data().map_err(Unavailable::student)?;
        screen::screen(data).map_err(|reasons| {
            const SHOWN: usize = 3;
            let mut said = reasons.iter().take(SHOWN).cloned().collect::<Vec<_>>().join("; ");
            if reasons.len() > SHOWN {
                said.push_str(&format!("; and {} more", reasons.len() - SHOWN));
            }
            Unavailable::student(format!(
                "{} was not given to Envoy, because the grader only runs a bootstrap this lab needs: {said}",
                artifact.name
            ))
        })?;
        Ok(data.clone())
    }
}
