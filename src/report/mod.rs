//! Reports: views of the results, one file per format.

pub mod color;
pub mod github;
pub mod gradescope;
pub mod json;
pub mod junit;
pub mod step_summary;
pub mod tap;
pub mod text;

use crate::lang::{report::Report, t, tr};
use crate::result::{CheckResult, Status, SubmissionResult};

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Text,
    Json,
    Junit,
    Tap,
    Gradescope,
    /// GitHub Actions workflow commands: an annotation per failing check.
    Github,
}

/// Who reads the report. Students never see expected values; instructors do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Audience {
    Student,
    Instructor,
}

impl Format {
    /// The formats of one submission's report files in `--out DIR`. GitHub's workflow
    /// commands mean something only on a CI run's output.
    pub const FILES: [Format; 5] = [Format::Text, Format::Json, Format::Junit, Format::Tap, Format::Gradescope];

    /// Text is read by students in the lab; the other machine formats go to CI, read by
    /// instructors. Gradescope's and GitHub's are always for students (see
    /// `student_facing`).
    pub fn default_audience(self) -> Audience {
        match self {
            Format::Text | Format::Gradescope | Format::Github => Audience::Student,
            Format::Json | Format::Junit | Format::Tap => Audience::Instructor,
        }
    }

    /// Shown to students whatever `--audience` says: Gradescope shows its results to
    /// the student, and a GitHub Classroom repository's annotations and step summary
    /// are the student's to read.
    pub fn student_facing(self) -> bool {
        matches!(self, Format::Gradescope | Format::Github)
    }

    /// File name ending for one submission's report in `--out DIR`.
    pub fn extension(self) -> &'static str {
        match self {
            Format::Text => "txt",
            Format::Json => "json",
            Format::Junit => "junit.xml",
            Format::Tap => "tap",
            Format::Gradescope => "gradescope.json",
            Format::Github => "github.txt",
        }
    }
}

/// What the user asked of every report of a run.
#[derive(Debug, Clone, Copy)]
pub struct Options {
    /// `--audience`, when given; otherwise each format's own default.
    pub audience: Option<Audience>,
    pub color: bool,
    /// `--verbose`: every check of every step, in full.
    pub verbose: bool,
}

/// How one format shows results: the options resolved for it.
#[derive(Debug, Clone, Copy)]
pub struct View {
    pub audience: Audience,
    pub color: bool,
    pub verbose: bool,
}

/// A labelled line about a check that did not pass. Its key is the same in every
/// language (TAP's YAML keys); its label is the run's language.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Detail {
    Where,
    Why,
    Expected,
    Found,
    Hint,
}

impl Detail {
    pub fn key(self) -> &'static str {
        match self {
            Detail::Where => "where",
            Detail::Why => "why",
            Detail::Expected => "expected",
            Detail::Found => "found",
            Detail::Hint => "hint",
        }
    }

    pub fn label(self) -> &'static str {
        tr(match self {
            Detail::Where => Report::Where,
            Detail::Why => Report::Why,
            Detail::Expected => Report::Expected,
            Detail::Found => Report::Found,
            Detail::Hint => Report::Hint,
        })
    }
}

impl View {
    pub fn of(format: Format, opts: &Options) -> View {
        let audience = if format.student_facing() { Audience::Student } else { opts.audience.unwrap_or(format.default_audience()) };
        View { audience, color: opts.color && format == Format::Text, verbose: opts.verbose }
    }

    /// The expected value this view may show for this check.
    pub fn expected<'c>(&self, c: &'c CheckResult) -> Option<&'c str> {
        if self.audience == Audience::Student {
            None
        } else {
            c.expected.as_deref()
        }
    }

    /// Labelled lines about a check that did not pass, in reading order.
    pub fn details(&self, c: &CheckResult) -> Vec<(Detail, String)> {
        let mut out = Vec::new();
        if let Some(p) = &c.place {
            out.push((Detail::Where, p.clone()));
        }
        out.push((Detail::Why, c.message.clone()));
        if c.status == Status::Skip {
            return out;
        }
        // An empty value would print as nothing at all after its label.
        let shown = |v: &str| if v.is_empty() { tr(Report::Empty).to_string() } else { v.to_string() };
        if let Some(e) = self.expected(c) {
            out.push((Detail::Expected, shown(e)));
        }
        if let Some(f) = &c.found {
            out.push((Detail::Found, shown(f)));
        }
        if c.status == Status::Fail
            && let Some(h) = &c.hint {
                out.push((Detail::Hint, h.clone()));
            }
        out
    }

    /// [`View::details`] as `label: value` lines, for reports people read.
    pub fn detail_lines(&self, c: &CheckResult) -> Vec<String> {
        self.details(c).into_iter().map(|(d, v)| crate::lang::labelled(d.label(), &v)).collect()
    }
}

/// One sentence summing up a submission: the failures of steps not started are
/// counted apart, so that a student mid-lab does not read a pile of failures.
pub fn summary(r: &SubmissionResult) -> String {
    let not_started = |step: u32| r.not_started(step).is_some();
    let later = r.checks.iter().filter(|c| c.status == Status::Fail && not_started(c.step)).count();
    let (score, max, pass, fail, error, skip) =
        (r.score(), r.max_score(), r.count(Status::Pass), r.count(Status::Fail), r.count(Status::Error), r.count(Status::Skip));
    if later == 0 {
        t!(Report::Score, score = score, max = max, pass = pass, fail = fail, error = error, skip = skip)
    } else {
        t!(Report::ScoreNotStarted, score = score, max = max, pass = pass, fail = fail, later = later, error = error, skip = skip)
    }
}

/// Write a report; JSON reports of many submissions are streamed one object at a
/// time rather than built whole (a class of 1000 makes tens of megabytes).
pub fn write(format: Format, results: &[SubmissionResult], opts: &Options, out: &mut dyn std::io::Write) -> std::io::Result<()> {
    let view = View::of(format, opts);
    match format {
        Format::Json => write_json(results, |r| serde_json::to_vec_pretty(&json::object(r, &view)), out),
        Format::Gradescope => write_json(results, |r| serde_json::to_vec_pretty(&gradescope::object(r, &view)), out),
        _ => out.write_all(render(format, results, opts).as_bytes()),
    }
}

/// One JSON object for one submission, an array of them for several; `render` makes
/// the JSON of one.
fn write_json(
    results: &[SubmissionResult],
    render: impl Fn(&SubmissionResult) -> serde_json::Result<Vec<u8>> + Sync,
    out: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    if let [one] = results {
        out.write_all(&render(one)?)?;
        return out.write_all(b"\n");
    }
    out.write_all(b"[\n")?;
    // Rendering is most of the cost for a class: it runs on every core, a chunk of
    // submissions at a time so memory stays bounded.
    for (c, chunk) in results.chunks(512).enumerate() {
        let rendered = crate::parallel::map(chunk, &render);
        for (i, json) in rendered.into_iter().enumerate() {
            if c + i > 0 {
                out.write_all(b",\n")?;
            }
            out.write_all(&json?)?;
        }
    }
    out.write_all(b"\n]\n")
}

pub fn render(format: Format, results: &[SubmissionResult], opts: &Options) -> String {
    let view = View::of(format, opts);
    match format {
        Format::Text => results.iter().map(|r| text::render(r, &view)).collect::<Vec<_>>().join("\n"),
        Format::Json | Format::Gradescope => {
            let mut buf = Vec::new();
            // Writing into memory cannot fail.
            let _ = write(format, results, opts, &mut buf);
            String::from_utf8(buf).unwrap_or_default()
        }
        Format::Junit => junit::render(results, &view),
        Format::Tap => tap::render(results, &view),
        Format::Github => github::render(results, &view),
    }
}
