//! Values the grader derives itself: params, sources and `let`s, as jq variables.
//!
//! A value that cannot be had carries who is to blame (see `slot`), which decides the
//! status of every check that needs it. A value that an expression gives as nothing
//! (no output, `null`, an empty string) is absent: never something to compare with.

mod origin;

use crate::lang::{checks::Checks, t};
use crate::jq::{convert, ExprId, Outcome};
use crate::slot::{Blame, Slot, Unavailable};
use crate::spec::model::BlameDef;
use crate::spec::Spec;

/// A run's own lets (see [`Env::run_lets`]): by let, its value or why it has none, for
/// those that read nothing of a submission; `None` for the others.
pub type RunLets = Vec<Option<Result<Val, Unavailable>>>;
use jaq_json::Val;
use serde_json::Value;

/// Every spec variable's value (or why it has none), in the jq program's order.
/// Values are kept in jaq's form: they are only ever read by expressions.
pub struct Env<'s> {
    spec: &'s Spec,
    /// Why a variable has no value, if it has none.
    missing: Vec<Option<Unavailable>>,
    jaq: Vec<Val>,
    /// `jaq` as the one array expressions read; remade after a change.
    vars: std::cell::OnceCell<Val>,
    /// Whether the value comes (partly) from the submission.
    student: Vec<bool>,
    /// The submission's files the value is read from (through the variables it reads).
    files: Vec<Vec<String>>,
    /// Whether the value (or why there is none) is known yet: a let is derived once
    /// the variables it reads are (see [`Env::derive_ready_lets`]).
    known: Vec<bool>,
}

/// Why an expression gave no value to use.
enum NoValue {
    /// It ran and gave nothing: no output, `null`, or an empty string.
    Absent,
    /// It raised an error.
    Error(String),
}

impl<'s> Env<'s> {
    pub fn new(spec: &'s Spec) -> Env<'s> {
        let n = spec.globals().len();
        Env {
            spec,
            missing: (0..n).map(|_| Some(Unavailable::grader("not computed"))).collect(),
            jaq: vec![Val::Null; n],
            vars: std::cell::OnceCell::new(),
            student: vec![false; n],
            files: vec![Vec::new(); n],
            known: vec![false; n],
        }
    }

    pub fn set(&mut self, name: &str, value: Slot, from_submission: bool) {
        let value = value.map(|v| convert::to_jaq(&v));
        self.set_jaq(name, value, from_submission);
    }

    /// [`Env::set`] with the value in jaq's form (lab files are converted once a run).
    pub fn set_jaq(&mut self, name: &str, value: Result<Val, Unavailable>, from_submission: bool) {
        if let Some(i) = self.spec.globals().iter().position(|g| g == name) {
            self.vars.take();
            match value {
                Ok(v) => {
                    self.jaq[i] = v;
                    self.missing[i] = None;
                }
                Err(u) => {
                    self.jaq[i] = Val::Null;
                    self.missing[i] = Some(u);
                }
            }
            self.student[i] = from_submission;
            self.known[i] = true;
        }
    }

    /// The submission file a source's value is read from.
    pub fn set_file(&mut self, name: &str, file: &str) {
        if let Some(i) = self.spec.globals().iter().position(|g| g == name) {
            self.files[i] = vec![file.to_string()];
        }
    }

    /// The submission files an expression reads, through the variables it reads.
    fn files_of(&self, id: ExprId) -> Vec<String> {
        let mut files: Vec<String> = Vec::new();
        for f in self.spec.program.deps(id).iter().flat_map(|d| &self.files[*d]) {
            if !files.contains(f) {
                files.push(f.clone());
            }
        }
        files
    }

    /// Evaluate every `let` not yet evaluated, in order, but those `of_run` has (a
    /// run's own, see [`Env::run_lets`]). A let may be `null` (a value a later
    /// expression tests); only no output or an error leave it without one.
    pub fn derive_lets(&mut self, of_run: &RunLets) {
        self.derive(of_run, false);
    }

    /// [`Env::derive_lets`], but only the lets whose variables are all known: those
    /// that do not wait for Envoy, while it runs.
    pub fn derive_ready_lets(&mut self, of_run: &RunLets) {
        self.derive(of_run, true);
    }

    fn derive(&mut self, of_run: &RunLets, only_ready: bool) {
        let globals = self.spec.globals();
        for (k, l) in self.spec.lets.iter().enumerate() {
            if globals.iter().position(|g| *g == l.name).is_some_and(|i| self.known[i]) {
                continue;
            }
            match of_run.get(k) {
                Some(Some(v)) => self.set_jaq(&l.name, v.clone(), false),
                _ if only_ready && !self.ready(l.expr) => {}
                _ => self.derive_let(l),
            }
        }
    }

    /// Whether every variable an expression reads is known.
    pub fn ready(&self, id: ExprId) -> bool {
        self.spec.program.deps(id).iter().all(|d| self.known[*d])
    }

    /// The lets that read nothing of a submission (only params, lab files and such lets),
    /// evaluated once for a run, on an `Env` that holds the params and lab sources: the
    /// same for every submission, so no submission evaluates them again.
    pub fn run_lets(mut self) -> RunLets {
        self.derive_ready_lets(&Vec::new());
        let globals = self.spec.globals();
        self.spec
            .lets
            .iter()
            .map(|l| {
                let i = globals.iter().position(|g| *g == l.name).filter(|i| self.known[*i])?;
                Some(match &self.missing[i] {
                    Some(u) => Err(u.clone()),
                    None => Ok(self.jaq[i].clone()),
                })
            })
            .collect()
    }

    /// One let: its value, or why it has none, and the submission files it is read from.
    fn derive_let(&mut self, l: &crate::spec::Let) {
        let student = self.uses_submission(l.expr);
        // A value it reads that is missing keeps its own blame: a let's `blame` is
        // who answers for the let's own missing value.
        let globals = self.spec.globals();
        // A run's choice (no Envoy) is read as null only where the let says so: a value
        // that needs Envoy is otherwise not graded in such a run.
        let as_null = |d: usize, u: &Unavailable| if u.blame == Blame::Skip { l.skipped_as_null } else { l.unknown_as_null.contains(&globals[d]) };
        let outcome = if l.skipped_as_null || !l.unknown_as_null.is_empty() {
            self.run_reading_as_null(l.expr, as_null)
        } else {
            self.run(l.expr, Val::Null, None, None)
        };
        // No value with variables read as null: their absence is why, a submission
        // file's first (had the student written it, there would be a value).
        let read_as_null = || {
            self.spec.program.deps(l.expr).iter().filter_map(|d| self.missing[*d].as_ref().filter(|u| u.blame != Blame::Skip && as_null(*d, u))).min_by_key(|u| u.blame).cloned()
        };
        let (value, own) = match (outcome, read_as_null()) {
            (Err(u), _) => (Err(u), false),
            (Ok(Outcome::Value(v)), _) => (Ok(v), true),
            (Ok(Outcome::Empty | Outcome::Error(_)), Some(u)) => (Err(u), false),
            (Ok(Outcome::Empty), None) => (Err(self.unavailable(l.expr, NoValue::Absent, l.missing.as_deref())), true),
            (Ok(Outcome::Error(e)), None) => (Err(self.unavailable(l.expr, NoValue::Error(e), l.missing.as_deref())), true),
        };
        let value = value.map_err(|mut u| {
            let to = l.blame.map(|b| match b {
                BlameDef::Submission => Blame::Student,
                BlameDef::Grader => Blame::Grader,
                BlameDef::Elsewhere => Blame::Elsewhere,
            });
            // A run's skip and a value not graded stay so.
            if let Some(to) = to
                && own
                && !matches!(u.blame, Blame::Skip | Blame::Elsewhere)
            {
                u.blame = to;
            }
            u
        });
        self.set_jaq(&l.name.clone(), value, student);
        let i = self.spec.globals().iter().position(|g| *g == l.name);
        if let Some(i) = i {
            self.files[i] = self.files_of(l.expr);
        }
    }

    /// [`Env::run`], with the missing variables `as_null` accepts read as null (a let's
    /// `skipped_as_null`, `unknown_as_null`).
    fn run_reading_as_null(&self, id: ExprId, as_null: impl Fn(usize, &Unavailable) -> bool) -> Result<Outcome, Unavailable> {
        let worst = self.spec.program.deps(id).iter().filter_map(|d| self.missing[*d].as_ref().filter(|u| !as_null(*d, u))).max_by_key(|u| u.blame);
        if let Some(u) = worst {
            return Err(u.clone());
        }
        let vars = self.vars.get_or_init(|| crate::jq::Program::vars(&self.jaq));
        Ok(self.spec.program.run(id, vars, Val::Null, Val::Null, Val::Null))
    }

    fn uses_submission(&self, id: ExprId) -> bool {
        self.spec.program.deps(id).iter().any(|d| self.student[*d])
    }

    /// Whether the expression reads any spec variable (else it is a constant the spec
    /// author wrote, and means what it says).
    pub fn derived(&self, id: ExprId) -> bool {
        !self.spec.program.deps(id).is_empty()
    }

    /// Run an expression. If a variable it needs is unavailable, so is its result
    /// (the most telling reason wins: skip, then grader, then not graded, then student).
    pub fn run(&self, id: ExprId, input: Val, found: Option<&Value>, expected: Option<&Value>) -> Result<Outcome, Unavailable> {
        let mut worst: Option<&Unavailable> = None;
        for d in self.spec.program.deps(id) {
            if let Some(u) = &self.missing[*d]
                && worst.is_none_or(|w| u.blame > w.blame)
            {
                worst = Some(u);
            }
        }
        if let Some(u) = worst {
            return Err(u.clone());
        }
        let j = |v: Option<&Value>| v.map(convert::to_jaq).unwrap_or(Val::Null);
        let vars = self.vars.get_or_init(|| crate::jq::Program::vars(&self.jaq));
        Ok(self.spec.program.run(id, vars, input, j(found), j(expected)))
    }

    /// Why an expression is not run at all, if a variable it needs was skipped by a
    /// choice of the run (the same for every submission of a run), or is not graded
    /// because another check charges the submission for it (and the grader had no
    /// trouble of its own there). A `let` is skipped exactly when a variable it reads is.
    pub fn skipped(&self, id: ExprId) -> Option<&Unavailable> {
        let worst = self.spec.program.deps(id).iter().filter_map(|d| self.missing[*d].as_ref()).max_by_key(|u| u.blame)?;
        matches!(worst.blame, Blame::Skip | Blame::Elsewhere).then_some(worst)
    }

    /// Why the grader cannot run an expression, if a variable it needs is missing through
    /// no fault of the submission (a lab file, a value the lab's files do not give).
    pub fn grader_missing(&self, id: ExprId) -> Option<&Unavailable> {
        self.spec.program.deps(id).iter().filter_map(|d| self.missing[*d].as_ref()).find(|u| u.blame == Blame::Grader)
    }

    /// The value an expression derives, to compare a student's with. No output, an
    /// error, `null` or an empty string is no value: unavailable, blamed on the
    /// submission if the expression reads from it, else on the grader, and said in
    /// words that name where the value was to come from.
    pub fn expected(&self, id: ExprId) -> Slot {
        let value = match self.run(id, Val::Null, None, None)? {
            Outcome::Value(v) => convert::from_jaq(&v),
            Outcome::Empty => return Err(self.unavailable(id, NoValue::Absent, None)),
            Outcome::Error(e) => return Err(self.unavailable(id, NoValue::Error(e), None)),
        };
        match &value {
            Value::Null => Err(self.unavailable(id, NoValue::Absent, None)),
            Value::String(s) if s.is_empty() => Err(self.unavailable(id, NoValue::Absent, None)),
            _ => Ok(value),
        }
    }

    /// Nothing to compare with, at a place within the expected value (a `null` inside
    /// a derived object): said as [`Env::expected`] says it of the whole.
    pub fn absent_within(&self, id: ExprId, place: &str) -> Unavailable {
        let mut u = self.unavailable(id, NoValue::Absent, None);
        u.message = format!("{} (at `{place}`)", u.message);
        u
    }

    /// Nothing to compare with, for a kind that cannot use the value derived (a list
    /// where text is compared).
    pub fn unusable(&self, id: ExprId) -> Unavailable {
        self.unavailable(id, NoValue::Absent, None)
    }

    fn unavailable(&self, id: ExprId, why: NoValue, missing: Option<&str>) -> Unavailable {
        let blame = if self.uses_submission(id) { Blame::Student } else { Blame::Grader };
        let from = origin::words(self.spec, self.spec.program.deps(id));
        let message = match (why, missing) {
            (_, Some(m)) => m.to_string(),
            (NoValue::Absent, None) => t!(Checks::NothingFrom, from = from),
            (NoValue::Error(e), None) => t!(Checks::NothingReadable, from = from, error = e),
        };
        let u = Unavailable::new(blame, message);
        if blame == Blame::Student { self.files_of(id).iter().fold(u, |u, f| u.of_file(f)) } else { u }
    }

    /// A predicate: true only if the expression gives `true`.
    pub fn holds(&self, id: ExprId, found: Option<&Value>, expected: Option<&Value>) -> bool {
        matches!(self.run(id, Val::Null, found, expected), Ok(Outcome::Value(Val::Bool(true))))
    }

    pub fn code(&self, id: ExprId) -> String {
        one_line(&self.spec.program.expr(id).code)
    }
}

pub fn one_line(code: &str) -> String {
    let s: String = code.split_whitespace().collect::<Vec<_>>().join(" ");
    if s.chars().count() > 80 { s.chars().take(77).collect::<String>() + "..." } else { s }
}
