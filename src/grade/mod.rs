//! Grading one submission, start to end, and nothing else: read its sources
//! (`source`), derive the jq variables (`derive`), decide every check (`check`),
//! score the steps. Each step's work is done in its own module.

mod charge;
mod progress;

use crate::check::{self, Cx};
use crate::derive::{Env, RunLets};
use crate::result::{CheckResult, StepScore, SubmissionResult};
use crate::source::params::Params;
use crate::source::artifacts::Artifact;
use crate::source::{Options, Read, Sources};
use crate::spec::Spec;
use std::collections::{BTreeSet, HashMap};
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
        let diagnosis = check::Diagnosis::default();
        // All that reads nothing of Envoy is derived and checked while Envoy validates:
        // its time is then Envoy's.
        let (read, (mut env, early_checks)) = self.sources.read(dir, |artifacts| self.before_envoy(artifacts, &diagnosis));
        self.set_envoy_values(&mut env, &read);
        env.derive_lets(self.run_lets());
        let mut checks = self.check_rest(&env, &read, early_checks, &diagnosis);
        // Every step's checks were decided, so that a mistake is charged where the full
        // run charges it, or, when that step is not graded, in a step that is; only the
        // graded steps' are reported.
        charge::charged(self.spec, &mut checks, |step| self.graded(step));
        checks.retain(|c| self.graded(c.step));
        let steps = self.score(&checks, |n| crate::source::artifacts::not_started(self.spec, n, &read.artifacts));
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
            .graded_checks()
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
                saved_as: None,
            })
            .collect();
        let steps = self.score(&checks, |_| Vec::new());
        self.result(dir, checks, steps, None, elapsed, Duration::ZERO)
    }

    /// What is known before Envoy runs: the params, the lab's and the submission's
    /// files, the lets that read only those, and the verdicts of the checks that read
    /// only those (by check, in the spec's order; `None` for the others).
    fn before_envoy(&self, artifacts: &HashMap<String, Artifact>, diagnosis: &check::Diagnosis) -> (Env<'s>, Vec<Option<CheckResult>>) {
        let mut env = Env::new(self.spec);
        Self::set_run_values(self.spec, &self.sources, &mut env);
        for s in &self.spec.sources {
            if let Some(value) = Sources::file_value(artifacts, s) {
                env.set_jaq(&s.name, value, true);
                env.set_file(&s.name, Sources::file_of(s).unwrap_or_default());
            }
        }
        env.derive_ready_lets(self.run_lets());
        let checks = self
            .spec
            .checks
            .iter()
            .map(|c| Self::ready(c, &env).then(|| check::run(c, &Cx { env: &env, artifact: &artifacts[&c.file], validation: None }, diagnosis)))
            .collect();
        (env, checks)
    }

    /// Whether a check reads nothing of Envoy's (nor anything not yet derived).
    fn ready(c: &crate::spec::Check, env: &Env) -> bool {
        !c.kind.reads_validation() && c.needs().into_iter().chain(c.explain.iter().map(|e| e.when)).all(|id| env.ready(id))
    }

    /// Envoy's validations and live view, as jq variables.
    fn set_envoy_values(&self, env: &mut Env, read: &Read) {
        for s in &self.spec.sources {
            if let Some(value) = Sources::envoy_value(read, s) {
                env.set_jaq(&s.name, value, true);
                if let Some(file) = Sources::file_of(s) {
                    env.set_file(&s.name, file);
                }
            }
        }
    }

    /// A verdict for every check, in the spec's order: those decided before Envoy ran
    /// (`early`), and the others now. A check of a step not graded (`--step`) whose
    /// Envoy is not run is skipped; the others decide whether a mistake is charged to
    /// their step, as in a run of every step.
    fn check_rest(&self, env: &Env, read: &Read, early: Vec<Option<CheckResult>>, diagnosis: &check::Diagnosis) -> Vec<CheckResult> {
        self.spec
            .checks
            .iter()
            .zip(early)
            .map(|(c, done)| {
                done.unwrap_or_else(|| {
                    let cx = Cx { env, artifact: &read.artifacts[&c.file], validation: read.validations.get(&c.file) };
                    check::run(c, &cx, diagnosis)
                })
            })
            .collect()
    }

    fn graded_checks(&self) -> impl Iterator<Item = &'s crate::spec::Check> + '_ {
        self.spec.checks.iter().filter(|c| self.graded(c.step))
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::result::Status;
    use crate::source::live::Live;

    /// While Envoy runs, only what reads nothing of it is decided, as it will stand:
    /// the checks of Envoy's validation, of what it said and of the live Envoy wait.
    #[test]
    fn only_what_reads_nothing_of_envoy_is_decided_before_it() {
        let spec = Spec::builtin().unwrap_or_else(|e| panic!("{}", e[0]));
        let params = Params::resolve(&spec, Some(Path::new("sample-answers/lab/params.yaml")), &[]).expect("the sample lab's params");
        let opts = Options { no_envoy: true, envoy: None, live: Live::Off, save_probe: None, steps: None };
        let grader = Grader::new(&spec, params, opts);
        let artifacts = crate::source::artifacts::load_all(&spec, Path::new("sample-answers/ist2-boot"));
        let (_, early) = grader.before_envoy(&artifacts, &check::Diagnosis::default());
        let waiting: Vec<&str> = spec.checks.iter().zip(&early).filter(|(_, r)| r.is_none()).map(|(c, _)| c.id.as_str()).collect();
        for id in ["bootstrap.validates", "typo.rejected", "typo_txt.rc", "report.typo_rc", "ready.code_live"] {
            assert!(waiting.contains(&id), "{id} reads Envoy: {waiting:?}");
        }
        for id in ["inject.role", "args.role", "bootstrap.node_id", "typo.ads_cluster", "typo_txt.exists", "report.xds_address"] {
            assert!(!waiting.contains(&id), "{id} reads nothing of Envoy: {waiting:?}");
        }
        let decided: Vec<&CheckResult> = early.iter().flatten().collect();
        assert!(decided.iter().all(|r| r.status == Status::Pass), "{:?}", decided.iter().find(|r| r.status != Status::Pass).map(|r| &r.message));
    }
}
