//! Sources: where the value of each of the spec's jq variables comes from.
//!
//! The spec's params are variables too, given to the run (`params.rs`); they also name
//! the lab files and the admin URL that sources read. Each `source` of a spec is read
//! from one place: a file of the submission (`artifacts.rs`), a lab file a param names
//! (`lab.rs`), the grader's own `envoy --mode validate` of a submission file
//! (`validation.rs`), or a running Envoy's admin interface (`live/`). A value that
//! cannot be had carries why, and who is to blame.

pub mod artifacts;
pub mod gotemplate;
pub mod lab;
pub mod live;
pub mod params;
pub mod screened;
pub mod validation;

use crate::envoy::validate;
use crate::slot::{Blame, Slot, Unavailable};
use crate::spec::{Source, SourceKind, Spec};
use artifacts::Artifact;
use live::Live;
use params::Params;
use serde_json::Value;
use std::collections::{BTreeSet, HashMap};
use std::sync::OnceLock;
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
    /// The steps graded (`--step`); `None` is every step.
    pub steps: Option<BTreeSet<u32>>,
}

/// One submission's sources, as read.
pub struct Read {
    /// The submission's files, by name.
    pub artifacts: HashMap<String, Artifact>,
    /// The grader's own validation of each file the spec validates, by name.
    pub validations: HashMap<String, Slot>,
    /// The live view, if the spec has a live source.
    pub live: Option<live::Acquired>,
    /// How long validating and the live view took; zero when neither was asked for.
    pub envoy_time: Duration,
}

/// A run's sources, shared by its submissions: params, lab files (read once), where
/// Envoy is, and the Envoy validation cache.
pub struct Sources<'s> {
    spec: &'s Spec,
    params: Params,
    /// Lab sources, read and converted to jaq's form once a run, when first needed.
    lab: OnceLock<HashMap<String, Result<jaq_json::Val, Unavailable>>>,
    envoy: Result<PathBuf, String>,
    /// Validations already made this run, by file name and content (`validation.rs`).
    cache: validate::Cache,
    opts: Options,
    /// What the graded steps need from Envoy: nothing else is run.
    needs: crate::spec::needs::EnvoyNeeds,
    /// The steps whose checks read a running Envoy (a probe waits for one started).
    live_steps: Vec<u32>,
}

impl<'s> Sources<'s> {
    pub fn new(spec: &'s Spec, params: Params, opts: Options) -> Sources<'s> {
        let needs = crate::spec::needs::envoy_needs(spec, opts.steps.as_ref());
        let envoy = if opts.no_envoy {
            Err("not used (--no-envoy)".into())
        } else if !needs.any() {
            Err("not needed by the steps graded (--step)".into())
        } else {
            crate::envoy::binary::locate(opts.envoy.as_deref())
        };
        let cache = validate::Cache::default();
        let live_steps = spec.steps.keys().copied().filter(|n| crate::spec::needs::envoy_needs(spec, Some(&BTreeSet::from([*n]))).live).collect();
        Sources { spec, params, lab: OnceLock::new(), envoy, cache, opts, needs, live_steps }
    }

    /// Lab files that could not be read (a set-up problem, not the student's).
    pub fn lab_problems(&self) -> Vec<String> {
        let mut problems: Vec<String> = self
            .lab()
            .values()
            .filter_map(|slot| match slot {
                Err(u) if u.blame == Blame::Grader => Some(u.message.clone()),
                _ => None,
            })
            .collect();
        // The same order every run (the map has none), so CI logs compare.
        problems.sort();
        problems
    }

    /// The value of the spec's param `i`, as its jq variable holds it.
    pub fn param(&self, i: usize) -> Slot {
        self.params.slot(self.spec, i)
    }

    /// One submission's sources: its files, then what Envoy makes of them. `meanwhile`
    /// is done with the files while Envoy validates them (else before the live view),
    /// and what it gives is returned beside them. The files Envoy validates are read
    /// first, and the others while it runs.
    pub fn read<T>(&self, dir: &Path, meanwhile: impl FnOnce(&HashMap<String, Artifact>) -> T) -> (Read, T) {
        let mut artifacts = HashMap::new();
        artifacts::load(self.spec, dir, &mut artifacts, |f| self.needs.validate.contains(f));
        let envoy_start = Instant::now();
        let mut done = None;
        let validations = validation::prepare(self, &artifacts).run(|| {
            artifacts::load(self.spec, dir, &mut artifacts, |_| true);
            done = Some(meanwhile(&artifacts));
        });
        let done = done.expect("Prepared::run does meanwhile once");
        let live = if self.needs.live { live::acquire(self, &artifacts, &validations, dir) } else { None };
        let envoy_time = if validations.is_empty() && live.is_none() { Duration::ZERO } else { envoy_start.elapsed() };
        (Read { artifacts, validations, live, envoy_time }, done)
    }

    /// The lab sources, read the first time they are asked for.
    fn lab(&self) -> &HashMap<String, Result<jaq_json::Val, Unavailable>> {
        self.lab.get_or_init(|| lab::read_all(self.spec, &self.params))
    }

    /// A lab source's value (read once a run), in jaq's form.
    pub fn lab_value(&self, source: &Source) -> Result<jaq_json::Val, Unavailable> {
        self.lab()[&source.name].clone()
    }

    /// The value of the jq variable a source of the submission's own files names, in
    /// jaq's form; `None` for the other sources.
    pub fn file_value(artifacts: &HashMap<String, Artifact>, source: &Source) -> Option<Result<jaq_json::Val, Unavailable>> {
        let SourceKind::Submission { file, .. } = &source.kind else { return None };
        let a = &artifacts[file];
        Some(a.jaq_data().map_err(|e| a.copied(Unavailable::student(e).of_file(file))))
    }

    /// The value of the jq variable a source of Envoy's names, for the submission
    /// `read`, in jaq's form; `None` for the other sources. What is derived from it is
    /// the student's to answer for.
    pub fn envoy_value(read: &Read, source: &Source) -> Option<Result<jaq_json::Val, Unavailable>> {
        let jaq = |slot: Slot| slot.map(|v| crate::jq::convert::to_jaq(&v));
        match &source.kind {
            SourceKind::EnvoyValidate { file } => {
                let of_file = |u: Unavailable| if u.blame == Blame::Student { u.of_file(file) } else { u };
                Some(jaq(read.validations[file].clone().map_err(of_file)))
            }
            SourceKind::EnvoyAdmin { .. } => {
                let not_this_step = || Err(Unavailable::skip(crate::lang::t!(crate::lang::run::Run::NotThisStep)));
                Some(jaq(read.live.as_ref().map(|l| l.slot.clone()).unwrap_or_else(not_this_step)))
            }
            SourceKind::Submission { .. } | SourceKind::Lab { .. } => None,
        }
    }

    /// The submission file a source reads, if it reads one.
    pub fn file_of(source: &Source) -> Option<&str> {
        match &source.kind {
            SourceKind::Submission { file, .. } | SourceKind::EnvoyValidate { file } => Some(file),
            // What the Envoy running the bootstrap does not report (a statistic of ADS, with
            // no ADS in the file) is the bootstrap's to answer for.
            SourceKind::EnvoyAdmin { bootstrap, .. } => Some(bootstrap),
            SourceKind::Lab { .. } => None,
        }
    }

    // The two below are shared by validation.rs and live/ (to launch Envoy): both hand a
    // submission's bootstrap to Envoy, and both skip or refuse it for the same reasons.

    /// Envoy, or why it is not run.
    fn envoy_path(&self) -> Result<&Path, Unavailable> {
        if self.opts.no_envoy {
            return Err(Unavailable::skip(crate::lang::t!(crate::lang::run::Run::EnvoyNotRun)));
        }
        self.envoy.as_deref().map_err(|e| Unavailable::grader(e.clone()))
    }

    /// A bootstrap fit to hand to Envoy: readable, parsed, and past the screen.
    fn envoy_input(&self, artifact: &Artifact) -> Result<Value, Unavailable> {
        if self.opts.no_envoy {
            return Err(Unavailable::skip(crate::lang::t!(crate::lang::run::Run::EnvoyNotRun)));
        }
        let data = artifact.data().map_err(|e| artifact.copied(Unavailable::student(e)))?;
        screened::screened(self.spec, &artifact.name, data)?;
        Ok(data.clone())
    }
}
