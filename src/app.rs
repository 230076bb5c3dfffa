//! One run of the command line, from arguments to an exit code.

use crate::cli::{Cli, Command, GradeArgs, SpecArgs, SpecSource};
use crate::display::{path as shown, safe_lines};
use crate::{batch, exit};
use crate::lang::{run::Run, t, Lang};
use crate::grade::Grader;
use crate::report;
use crate::result::SubmissionResult;
use crate::source::params::Params;
use crate::source::live::Live;
use crate::source::Options;
use crate::spec::{translate, Spec, DEFAULT_SPEC, DEFAULT_SPEC_NAME};
use crate::timings::Timings;
use std::io::Write;
use std::path::PathBuf;

pub fn run(cli: Cli) -> u8 {
    match cli.command {
        Command::Grade(args) => grade(args),
        Command::Spec(args) => spec(args),
    }
}

/// Every path and name in `message` is made safe where it is put in; this catches the
/// rest (an error quoting a file it could not parse).
fn fail(message: impl std::fmt::Display) -> u8 {
    eprintln!("labcheck: {}", safe_lines(&message.to_string()));
    exit::CANNOT_GRADE
}

/// The spec's text and the name errors use for it.
fn spec_text(source: &SpecSource) -> Result<(String, String), String> {
    match &source.spec {
        None => Ok((DEFAULT_SPEC.to_string(), DEFAULT_SPEC_NAME.to_string())),
        // Read as a lab file is: capped, a regular file only (never a FIFO).
        Some(p) => crate::input::file::read_lab(p)
            .map(|t| (t, shown(p)))
            .map_err(|e| format!("cannot read the spec: {}", e.said(&shown(p)))),
    }
}

/// The folder of the spec's translation files: the spec file's; `None` for the built-in.
fn spec_dir(source: &SpecSource) -> Option<PathBuf> {
    source.spec.as_ref().map(|p| p.parent().map(PathBuf::from).unwrap_or_default())
}

/// The spec, its texts in the run's language. A translation that cannot be read (a
/// spec copied without its translation files) leaves the spec's own texts, said on
/// stderr: the class is graded all the same (`labcheck spec` names the trouble).
fn load_spec_in(source: &SpecSource, lang: Lang) -> Result<Spec, String> {
    let mut spec = load_spec(source)?;
    match translate::read(&spec, lang, spec_dir(source).as_deref()) {
        Ok(Some(t)) => translate::apply(&mut spec, t),
        Ok(None) => {}
        Err(e) => eprintln!("labcheck: warning: {}; the spec's own texts are used", crate::display::safe_lines(&e.to_string())),
    }
    Ok(spec)
}

fn load_spec(source: &SpecSource) -> Result<Spec, String> {
    let loaded = match &source.spec {
        None => Spec::builtin(),
        Some(_) => {
            let (text, name) = spec_text(source)?;
            Spec::load(&text, &name)
        }
    };
    loaded.map_err(|errs| {
        let lines: Vec<String> = errs.iter().map(|e| e.to_string()).collect();
        format!("the spec has {} error(s):\n{}", errs.len(), lines.join("\n"))
    })
}

fn spec(args: SpecArgs) -> u8 {
    if args.print {
        return match spec_text(&args.source) {
            Ok((text, _)) => {
                out(&text);
                exit::PASSED
            }
            Err(e) => fail(e),
        };
    }
    let mut spec = match load_spec(&args.source) {
        Ok(s) => s,
        Err(e) => return fail(e),
    };
    let mut text = format!("{}: {} ({} checks in {} steps)\nparams:\n", spec.lab, spec.title, spec.checks.len(), spec.steps.len());
    for p in &spec.params {
        let d = p.default.as_deref().unwrap_or("(none)");
        text += &format!("  {:<14} default {d}{}  {}\n", p.name, if p.optional { " (optional)" } else { "" }, p.doc);
    }
    text += &format!("submission files: {}\n", spec.files().join(", "));
    let complete = translations(&mut spec, &args.source, &mut text);
    out(&text);
    // The spec grades, the texts missing in English: not the spec's error (2).
    if complete { exit::PASSED } else { exit::FAILED }
}

/// Each translation the spec names, and what it lacks (`translate::gaps`); whether
/// none lacks anything.
fn translations(spec: &mut Spec, source: &SpecSource, text: &mut String) -> bool {
    let mut complete = true;
    if !spec.translations.is_empty() {
        text.push_str("translations:\n");
    }
    for (code, file) in spec.translations.clone() {
        let gaps = match Lang::from_code(&code).map(|l| translate::read(spec, l, spec_dir(source).as_deref())) {
            Some(Ok(Some(t))) => translate::gaps(spec, &t),
            Some(Err(e)) => vec![e.to_string()],
            _ => Vec::new(),
        };
        complete &= gaps.is_empty();
        match gaps.len() {
            0 => *text += &format!("  {code:<14} {file}: every text\n"),
            n => *text += &format!("  {code:<14} {file}: {n} gap(s)\n{}\n", gaps.iter().map(|g| format!("    {}", safe_lines(g))).collect::<Vec<_>>().join("\n")),
        }
    }
    complete
}

/// Text on stdout; a reader that stops early (`| head`) is no error of ours.
fn out(text: &str) {
    use std::io::Write;
    let _ = std::io::stdout().lock().write_all(text.as_bytes());
}

fn grade(args: GradeArgs) -> u8 {
    crate::lang::set(Lang::choose(args.lang));
    graded(&args).unwrap_or_else(fail)
}

/// Grade as `args` say: the exit code, or why nothing could be graded.
fn graded(args: &GradeArgs) -> Result<u8, String> {
    let mut timings = Timings::from_env();
    refuse_save_probe_without_live(args)?;
    let spec = load_spec_in(&args.source, crate::lang::current())?;
    timings.lap("load the spec");
    let steps = crate::cli::steps(&args.steps, &spec.steps)?;
    if args.save_probe.is_some() && steps.is_some() && !crate::spec::needs::envoy_needs(&spec, steps.as_ref()).live {
        return Err(t!(Run::NothingToSave));
    }
    let params = Params::resolve(&spec, args.params_file.as_deref(), &args.params)?;
    let (dirs, left_out) = submissions(args, &spec)?;
    if args.save_probe.is_some() && dirs.len() > 1 {
        return Err("--save-probe records one submission; give one directory".into());
    }
    refuse_writing_into(args, &dirs)?;
    let out = args.out.as_deref().map(|o| crate::out::Out::prepare(o, args.batch.as_deref(), &dirs)).transpose()?;
    let grader = Grader::new(&spec, params, run_options(args, steps));
    let results = batch::grade_all(&grader, &dirs, jobs(args, dirs.len()));
    timings.lap("grade");
    // After grading, which read the lab files while Envoy ran.
    for problem in grader.lab_problems() {
        eprintln!("labcheck: warning: {}", safe_lines(&problem));
    }
    let ropts = report::Options { audience: args.audience, color: args.color.enabled(), verbose: args.verbose };
    print_report(args, &results, &ropts);
    timings.lap("write the report");
    let file_opts = report::Options { color: false, ..ropts };
    write_report_files(args, &results, &file_opts)?;
    let problems = out.map(|o| o.write(&dirs, &results, &left_out, &file_opts)).unwrap_or_default();
    timings.lap("write the report files");
    if !problems.is_empty() {
        return Err(problems.join("\n"));
    }
    Ok(exit::for_results(&results))
}

/// The report files, the probe's recording and GitHub's step summary, each refused
/// before grading if it is inside a submission (`--out` is, by `Out::prepare`).
fn refuse_writing_into(args: &GradeArgs, dirs: &[PathBuf]) -> Result<(), String> {
    use crate::out::refuse_inside_submissions as refuse;
    for (format, path) in args.report_files() {
        let flag = clap::ValueEnum::to_possible_value(&format).map(|v| format!("--report-{}", v.get_name())).unwrap_or_default();
        refuse(&flag, &path, dirs)?;
    }
    if let Some(p) = &args.save_probe {
        refuse("--save-probe", p, dirs)?;
    }
    if args.format == report::Format::Github
        && let Some(p) = report::step_summary::path()
    {
        refuse("GITHUB_STEP_SUMMARY", std::path::Path::new(&p), dirs)?;
    }
    Ok(())
}

/// Otherwise the run would end with no recording, and nothing said.
fn refuse_save_probe_without_live(args: &GradeArgs) -> Result<(), String> {
    if args.save_probe.is_some() && (args.no_live || args.no_envoy) {
        let off = if args.no_live { "--no-live" } else { "--no-envoy" };
        return Err(format!("--save-probe records the live probe, which {off} turns off: there would be nothing to save"));
    }
    Ok(())
}

/// How this run treats Envoy and the live checks.
fn run_options(args: &GradeArgs, steps: Option<std::collections::BTreeSet<u32>>) -> Options {
    let live = if args.launch_envoy {
        Live::Launch
    } else if let Some(r) = &args.replay {
        Live::Replay(r.clone())
    } else if args.no_live {
        Live::Off
    } else {
        Live::Probe
    };
    Options { no_envoy: args.no_envoy, envoy: args.envoy.clone(), live, save_probe: args.save_probe.clone(), steps }
}

/// Submissions graded at once: as asked, else one per core for a batch.
fn jobs(args: &GradeArgs, submissions: usize) -> usize {
    match args.jobs {
        Some(j) => j.get(),
        None if submissions < 2 => 1,
        None => crate::parallel::cores(),
    }
}

/// The report on stdout: a table for several submissions in text, else the format's
/// (and, for `--format github`, the step summary).
fn print_report(args: &GradeArgs, results: &[SubmissionResult], ropts: &report::Options) {
    let mut stdout = std::io::BufWriter::new(std::io::stdout().lock());
    // A closed pipe (`| head`) is not the grader's failure.
    let _ = if results.len() > 1 && args.format == report::Format::Text {
        stdout.write_all(report::text::table(results, &report::View::of(report::Format::Text, ropts)).as_bytes())
    } else {
        report::write(args.format, results, ropts, &mut stdout)
    };
    let _ = stdout.flush();
    drop(stdout);
    if args.format == report::Format::Github
        && let Err(e) = report::step_summary::append(results, &report::View::of(report::Format::Github, ropts))
    {
        eprintln!("labcheck: warning: cannot append to GITHUB_STEP_SUMMARY: {e}");
    }
}

/// The report files asked for (`--report-junit FILE`, ...), each made new as `--out`'s
/// are: a link planted under its name (in a shared /tmp) is replaced, never followed.
/// A pipe, a device, or a name under /dev or /proc (`/dev/stdout`, `>(wc -c)`'s
/// `/dev/fd/63`), which no one else can plant, is written to as it is.
fn write_report_files(args: &GradeArgs, results: &[SubmissionResult], file_opts: &report::Options) -> Result<(), String> {
    for (format, path) in args.report_files() {
        let mut content = Vec::new();
        let written = report::write(format, results, file_opts, &mut content).and_then(|()| {
            if written_as_is(&path) {
                return std::fs::OpenOptions::new().write(true).open(&path).and_then(|mut f| std::io::Write::write_all(&mut f, &content));
            }
            let name = path.file_name().and_then(|n| n.to_str()).ok_or_else(|| std::io::Error::other("not a file name"))?;
            let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(std::path::Path::new("."));
            crate::out::files::write(dir, name, &content)
        });
        written.map_err(|e| format!("cannot write {}: {e}", shown(&path)))?;
    }
    Ok(())
}

/// A report file that is not a file to make: a FIFO, socket or device itself (not a
/// link to one), or any name under /dev or /proc.
fn written_as_is(path: &std::path::Path) -> bool {
    use std::os::unix::fs::FileTypeExt;
    let special = std::fs::symlink_metadata(path).is_ok_and(|m| {
        let t = m.file_type();
        t.is_fifo() || t.is_socket() || t.is_char_device() || t.is_block_device()
    });
    special || path.starts_with("/dev") || path.starts_with("/proc")
}

/// The submissions to grade (the directories given, every one under `--batch`, or the
/// spec's default), and the entries of `--batch`'s folder left out.
fn submissions(args: &GradeArgs, spec: &Spec) -> Result<(Vec<PathBuf>, Vec<batch::LeftOut>), String> {
    let mut dirs = args.dirs.clone();
    let mut left_out = Vec::new();
    if let Some(parent) = &args.batch {
        let (found, left) = batch::submissions_in(parent)?;
        if found.is_empty() {
            return Err(format!("{} has no submission directories", shown(parent)));
        }
        dirs.extend(found);
        left_out = left;
    }
    if dirs.is_empty() {
        match &spec.default_submission {
            Some(d) => dirs.push(PathBuf::from(d)),
            None => return Err(t!(Run::NoFolderGiven)),
        }
    }
    for d in &dirs {
        if !d.exists() {
            return Err(t!(Run::NoSuchFolder, dir = shown(d)));
        }
        if !d.is_dir() {
            return Err(t!(Run::NotAFolder, dir = shown(d)));
        }
    }
    Ok((dirs, left_out))
}
