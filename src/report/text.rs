//! The text report, for a student in the middle of the lab: a line per step that passed
//! or is not started, the checks that did not pass in full (where, why, what was found,
//! the hint, and for instructors what was expected), the checks of a missing file on one
//! line; then the score and the first thing to fix. `--verbose` shows every check.

use super::color::{paint, Paint};
use super::{Detail, View};
use crate::display::{pad, safe, safe_max, width};
use crate::lang::{report::Report, t, tr};
use crate::result::{CheckResult, Status, StepScore, SubmissionResult};
use std::fmt::Write;

pub fn render(r: &SubmissionResult, view: &View) -> String {
    let c = view.color;
    let mut out = String::new();
    let _ = writeln!(out, "{} {}", paint(c, Paint::Bold, &safe(&r.lab)), safe(&r.title));
    let _ = writeln!(out, "{}", t!(Report::Submission, dir = line(&r.submission)));
    if let Some(live) = &r.live_source {
        let _ = writeln!(out, "{}", t!(Report::LiveFrom, source = line(live)));
    }
    let mut checks = Checks::new(r, view);
    let mut spaced = false;
    for step in &r.steps {
        let of_step: Vec<&CheckResult> = r.checks.iter().filter(|ch| ch.step == step.step).collect();
        if of_step.is_empty() {
            continue;
        }
        let state = State::of(step, &of_step);
        let detailed = view.verbose || state == State::Failing;
        // One-line steps stand together; a step told in full stands apart.
        if detailed || !spaced {
            let _ = writeln!(out);
        }
        spaced = !detailed;
        let head = paint(c, Paint::Bold, &t!(Report::StepHead, n = step.step, title = line(&step.title)));
        let score = format!("{}/{}", step.score, step.max_score);
        let skipped = of_step.iter().filter(|ch| ch.status == Status::Skip).count();
        let tail = match state {
            State::NotStarted => format!("  {}", paint(c, Paint::Dim, &step.not_started_said().unwrap_or_default())),
            _ if skipped > 0 => format!("  {}", t!(Report::Skipped, n = skipped)),
            _ => String::new(),
        };
        let p = if state == State::Failing { Paint::Red } else if state == State::Passed { Paint::Green } else { Paint::Dim };
        let _ = writeln!(out, "{head}  {}{tail}", paint(c, p, &score));
        if detailed {
            checks.step(&mut out, &of_step);
        }
    }
    let _ = writeln!(out);
    let p = match r.worst() {
        Status::Pass => Paint::Green,
        Status::Fail => Paint::Red,
        _ => Paint::Yellow,
    };
    let _ = writeln!(out, "{}", paint(c, p, &super::summary(r)));
    if let Some(next) = first_to_fix(r, view) {
        let _ = writeln!(out, "{}", paint(c, Paint::Bold, &next));
    }
    out
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    /// Nothing failed and nothing could not be checked.
    Passed,
    /// Its files are all missing.
    NotStarted,
    Failing,
}

impl State {
    fn of(step: &StepScore, checks: &[&CheckResult]) -> State {
        if !step.not_started.is_empty() {
            State::NotStarted
        } else if checks.iter().all(|ch| matches!(ch.status, Status::Pass | Status::Skip)) {
            State::Passed
        } else {
            State::Failing
        }
    }
}

/// The checks of a step, as lines.
struct Checks<'r> {
    view: &'r View,
    /// Columns of the id and of the status word.
    id_width: usize,
    word_width: usize,
    /// A reason shared by several checks (Envoy not running) is said in full once;
    /// later checks point back to the first.
    said: Vec<(&'r str, &'r str)>,
}

impl<'r> Checks<'r> {
    fn new(r: &'r SubmissionResult, view: &'r View) -> Checks<'r> {
        let id_width = r.checks.iter().map(|ch| width(&line(&ch.id))).max().unwrap_or(0);
        let word_width = [Status::Pass, Status::Fail, Status::Error, Status::Skip].map(|s| width(word(s).0)).into_iter().max().unwrap_or(0);
        Checks { view, id_width, word_width, said: Vec::new() }
    }

    fn step(&mut self, out: &mut String, checks: &[&'r CheckResult]) {
        let mut told_files: Vec<&str> = Vec::new();
        for ch in checks {
            // A choice of the run is counted in the step's line; --verbose says why.
            if matches!(ch.status, Status::Pass | Status::Skip) && !self.view.verbose {
                continue;
            }
            // The checks of a missing or unreadable file, on one line (unless --verbose).
            let same_file: Vec<&&CheckResult> = match &ch.file_problem {
                Some(f) if !self.view.verbose => checks.iter().filter(|o| o.file_problem.as_deref() == Some(f)).collect(),
                _ => Vec::new(),
            };
            if same_file.len() > 1 {
                let f = ch.file_problem.as_deref().unwrap_or_default();
                if !told_files.contains(&f) {
                    told_files.push(f);
                    self.file(out, ch, &same_file);
                }
                continue;
            }
            self.check(out, ch);
        }
    }

    fn status(&self, s: Status) -> String {
        let (w, p) = word(s);
        paint(self.view.color, p, &pad(w, self.word_width))
    }

    fn file(&mut self, out: &mut String, first: &'r CheckResult, all: &[&&CheckResult]) {
        let ids: Vec<String> = all.iter().map(|ch| line(&ch.id)).collect();
        let said = t!(Report::FileChecks, message = line(&first.message), n = all.len(), ids = crate::lang::ids(&ids));
        // Another check that cannot be checked for this file's absence points back here.
        if !self.said.iter().any(|(m, _)| *m == first.message) {
            self.said.push((&first.message, &first.id));
        }
        let _ = writeln!(out, "  {}  {said}", self.status(Status::Fail));
        if let Some(h) = &first.hint {
            self.field(out, Detail::Hint, h);
        }
    }

    fn check(&mut self, out: &mut String, ch: &'r CheckResult) {
        let _ = writeln!(out, "  {}  {}  {}", self.status(ch.status), pad(&line(&ch.id), self.id_width), line(&ch.title));
        if ch.status == Status::Pass {
            return;
        }
        // Said before in full, or as the reason after "cannot check:".
        let message = match self.said.iter().find(|(m, _)| ch.message.ends_with(*m)) {
            Some((m, first)) if m.chars().count() > 60 => match lead(&ch.message[..ch.message.len() - m.len()], m) {
                "" => t!(Report::SameAs, id = first),
                lead => t!(Report::AsFor, lead = lead, id = first),
            },
            _ => {
                self.said.push((&ch.message, &ch.id));
                ch.message.clone()
            }
        };
        if ch.status == Status::Skip {
            let indent = " ".repeat(self.word_width + 4);
            let _ = writeln!(out, "{}", paint(self.view.color, Paint::Dim, &format!("{indent}{}", line(&message))));
            return;
        }
        for (d, value) in self.view.details(ch) {
            self.field(out, d, if d == Detail::Why { &message } else { &value });
        }
    }

    fn field(&self, out: &mut String, d: Detail, value: &str) {
        let indent = " ".repeat(self.word_width + 4);
        let label = pad(&format!("{}{}", d.label(), crate::lang::colon()), 10);
        let _ = writeln!(out, "{indent}{}{}", paint(self.view.color, Paint::Dim, &label), line(value));
    }
}

/// A status as the text report shows it.
fn word(s: Status) -> (&'static str, Paint) {
    match s {
        Status::Pass => (tr(Report::Pass), Paint::Green),
        Status::Fail => (tr(Report::Fail), Paint::Red),
        Status::Error => (tr(Report::Error), Paint::Yellow),
        Status::Skip => (tr(Report::Skip), Paint::Dim),
    }
}

/// The first failing check in step order: what to fix first, or, in a step not started,
/// what to write next; with none failing, the first that could not be checked.
fn first_to_fix(r: &SubmissionResult, view: &View) -> Option<String> {
    if r.worst() == Status::Pass {
        // Not graded for a choice of the run, or for a mistake a step left out of this
        // report (--step) charges: "every check passed" would hide the latter.
        let skipped = r.checks.iter().filter(|ch| ch.status == Status::Skip).count();
        return Some(match skipped {
            0 => t!(Report::AllPassed),
            1 if view.verbose => t!(Report::AllGradedPassedAboveOne),
            1 => t!(Report::AllGradedPassedOne),
            n if view.verbose => t!(Report::AllGradedPassedAbove, n = n),
            n => t!(Report::AllGradedPassed, n = n),
        });
    }
    let first = |status: Status| r.steps.iter().find_map(|s| r.checks.iter().find(|ch| ch.step == s.step && ch.status == status).map(|ch| (s, ch)));
    // Something that could not be checked: its why says what to do (start the Envoy of
    // step 6, install Envoy).
    let first_error = || first(Status::Error).map(|(step, ch)| t!(Report::FirstError, n = step.step, id = line(&ch.id), title = line(&ch.title)));
    let Some((step, ch)) = first(Status::Fail) else { return first_error() };
    if !step.not_started.is_empty() {
        // A step under way that could not be checked comes before the next one.
        if first(Status::Error).is_some_and(|(before, _)| before.step < step.step) {
            return first_error();
        }
        return Some(t!(Report::NextStep, n = step.step, title = line(&step.title)));
    }
    if ch.file_problem.is_some() {
        return Some(t!(Report::FirstFile, n = step.step, message = line(&ch.message)));
    }
    let place = ch.place.as_deref().map(line).unwrap_or_default();
    Some(t!(Report::FirstToFix, n = step.step, id = line(&ch.id), title = line(&ch.title), place = place))
}

/// Text on one line that no terminal obeys. What the grader found is made so when
/// graded; this keeps the report a report whatever reaches it (a spec's title too).
fn line(s: &str) -> String {
    safe_max(s, usize::MAX)
}

/// What to keep of a message whose reason `said` was said in full before: the words
/// before it ("cannot check: "), or, for the same message again, its first words up to
/// a colon when they are few; without the colon.
fn lead<'m>(before: &'m str, said: &'m str) -> &'m str {
    let words = if before.is_empty() { said.split_once([':', '：']).map_or("", |(w, _)| w).trim() } else { before };
    let words = words.trim_end().trim_end_matches([':', '：']);
    if words.chars().count() > 30 { "" } else { words }
}

/// Several submissions: one line each, then the class in one line.
pub fn table(results: &[SubmissionResult], view: &View) -> String {
    let c = view.color;
    // In terminal columns: a CJK name takes two a character. One very long name is
    // shown whole on its own line, without padding every other line to it.
    let name_width = results.iter().map(|r| width(&line(&r.submission))).filter(|w| *w <= 40).max().unwrap_or(0);
    let word_width = [Status::Pass, Status::Fail, Status::Error].map(|s| width(word(s).0)).into_iter().max().unwrap_or(0);
    let mut out = String::new();
    for r in results {
        let (w, p) = match r.worst() {
            Status::Pass => word(Status::Pass),
            Status::Fail => word(Status::Fail),
            _ => word(Status::Error),
        };
        let _ = writeln!(out, "{}  {}  {}", paint(c, p, &pad(w, word_width)), pad(&line(&r.submission), name_width), super::summary(r));
    }
    let passed = results.iter().filter(|r| r.worst() == Status::Pass).count();
    let _ = writeln!(out, "\n{}", t!(Report::Submissions, n = results.len(), passed = passed));
    out
}
