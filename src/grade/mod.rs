//! Grading one submission, start to end, and nothing else: read its sources
//! (`source`), derive the jq variables (`derive`), decide every check (`check`),
//! score the steps. Each step's work is done in its own module.

mod charge;
mod progress;

use crate::check::{self, Cx};
use crate::derive::{Env, RunLets};
use crate::result::{CheckResult, StepScore, SubmissionResult};
use crate::source::params::Params;
use crate::source::{Options, Read, Sources};
use crate::spec::Spec;
use std::collections::BTreeSet;
use std::sync::OnceLock;
use std::path::Path;
use std::time::{Duration, Instant};

/// A run's grader: the compiled spec and the run's sources, shared by its submissions.
pub struct Grader<'s> {
    spec: &'s Spec,
    sources: Sources<'s>,
    /// The steps graded (`--step`); `None` is every step.
    steps: Option<BTreeSet<u32>>,
    /// The lets that read only params and lab files, evaluated once for the run when
    /// first needed: while the first submission's files are validated.
    run_lets: OnceLock<RunLets>,
}

impl<'s> Grader<'s> {
    pub fn new(spec: &'s Spec, params: Params, opts: Options) -> Grader<'s> {
        let steps = opts.steps.clone();
        let sources = Sources::new(spec, params, opts);
        Grader { spec, sources, steps, run_lets: OnceLock::new() }
    }

    /// The lets that read only params and lab files (which this reads, the first time).
    fn run_lets(&self) -> &RunLets {
        self.run_lets.get_or_init(|| {
            let mut env = Env::new(self.spec);
            Self::set_run_values(self.spec, &self.sources, &mut env);
            env.run_lets()
        })
    }

    /// The params and lab files: the values every submission of the run shares.
    fn set_run_values(spec: &Spec, sources: &Sources, env: &mut Env) {
        for (i, p) in spec.params.iter().enumerate() {
            env.set(&p.name, sources.param(i), false);
        }
        for s in spec.sources.iter().filter(|s| matches!(s.kind, crate::spec::SourceKind::Lab { .. })) {
            env.set_jaq(&s.name, sources.lab_value(s), false);
        }
    }

    /// Lab files that could not be read (a set-up problem, not the student's).
    pub fn lab_problems(&self) -> Vec<String> {
        self.sources.lab_problems()
    }

    /// One submission, step by step: each step takes what the one before gave.
    pub fn grade(&self, dir: &Path) -> SubmissionResult {
        let start = Instant::now();
        // The lab is read while Envoy validates: its time is then Envoy's.
        let read = self.sources.read(dir, || {
            self.run_lets();
        });
        let env = self.derive(&read);
        let mut checks = self.check(&env, &read);
        charge::charged(self.spec, &mut checks);
        let steps = self.score(&checks, |n| progress::file_problems(self.spec, n, &read));
        progress::not_started(&mut checks, &steps);
        let live_source = read.live.map(|l| crate::display::safe_lines(&l.described));
        self.result(dir, checks, steps, live_source, start.elapsed(), read.envoy_time)
    }

    /// The result of grading `dir`: its checks, scored by step.
    fn result(&self, dir: &Path, checks: Vec<CheckResult>, steps: Vec<StepScore>, live_source: Option<String>, elapsed: Duration, envoy_time: Duration) -> SubmissionResult {
        SubmissionResult {
            lab: self.spec.lab.clone(),
            title: self.spec.title.clone(),
            // Both name paths from the command line: made safe here, like found values,
            // so that every format shows them escaped (and, being paths, never cut).
            submission: crate::display::path(dir),
            checks,
            steps,
            live_source,
            elapsed,
            envoy_time,
        }
    }

    /// The result of a submission whose grading failed (`why`, said in every check):
    /// each check is an error, worth nothing, so the class's other results stand.
    pub fn failed(&self, dir: &Path, why: &str, elapsed: Duration) -> SubmissionResult {
        let message = crate::display::safe_max(&crate::lang::t!(crate::lang::run::Run::GradingFailed, why = why), 1000);
        let checks: Vec<CheckResult> = self
            .spec
            .checks
            .iter()
            .filter(|c| self.graded(c.step))
            .map(|c| CheckResult {
                id: c.id.clone(),
                step: c.step,
                title: c.title.clone(),
                status: crate::result::Status::Error,
                points: 0,
                max_points: c.points,
                expected: None,
                found: None,
                message: message.clone(),
                place: Some(crate::display::safe(&c.file)),
                hint: None,
                hidden: c.hidden,
                file_problem: None,
                charged_by: None,
            })
            .collect();
        let steps = self.score(&checks, |_| Vec::new());
        self.result(dir, checks, steps, None, elapsed, Duration::ZERO)
    }

    /// Every jq variable: the params, then the sources in the spec's order, then the
    /// `let`s, which may read any of them.
    fn derive(&self, read: &Read) -> Env<'s> {
        let mut env = Env::new(self.spec);
        Self::set_run_values(self.spec, &self.sources, &mut env);
        for s in self.spec.sources.iter().filter(|s| !matches!(s.kind, crate::spec::SourceKind::Lab { .. })) {
            let (value, from_submission) = self.sources.value(read, s);
            env.set_jaq(&s.name, value, from_submission);
            if let Some(file) = Sources::file_of(s) {
                env.set_file(&s.name, file);
            }
        }
        env.derive_lets(self.run_lets());
        env
    }

    /// A verdict for every check of the spec, in its order.
    fn check(&self, env: &Env, read: &Read) -> Vec<CheckResult> {
        let diagnosis = check::Diagnosis::default();
        self.spec
            .checks
            .iter()
            .filter(|c| self.graded(c.step))
            .map(|c| {
                let cx = Cx { env, artifact: &read.artifacts[&c.file], validation: read.validations.get(&c.file) };
                check::run(c, &cx, &diagnosis)
            })
            .collect()
    }

    fn graded(&self, step: u32) -> bool {
        self.steps.as_ref().is_none_or(|s| s.contains(&step))
    }

    /// Each graded step's score: the points of its checks; and whether it is started.
    /// `not_started`: a step's files when it is not started (see `progress`).
    fn score(&self, checks: &[CheckResult], not_started: impl Fn(u32) -> Vec<String>) -> Vec<StepScore> {
        self.spec
            .steps
            .iter()
            .filter(|(n, _)| self.graded(**n))
            .map(|(n, title)| {
                let of_step = checks.iter().filter(|c| c.step == *n);
                StepScore {
                    step: *n,
                    title: title.clone(),
                    score: of_step.clone().map(|c| c.points).sum(),
                    max_score: of_step.map(|c| c.max_points).sum(),
                    not_started: not_started(*n),
                }
            })
            .collect()
    }
}
