//! Values the grader derives itself: params, sources and `let`s, as jq variables.
//!
//! A value that cannot be had carries who is to blame, which decides the status of
//! every check that needs it: the submission (fail), the grader or lab set-up
//! (error, "could not check"), or a choice of this run (skip).

use crate::jq::{convert, ExprId, Outcome};
use crate::spec::model::BlameDef;
use crate::spec::Spec;
use jaq_json::Val;
use serde_json::Value;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Blame {
    /// The submission is wrong or incomplete.
    Student,
    /// The grader could not find out (lab file missing, Envoy not found, ...).
    Grader,
    /// Not graded in this run (an optional lab file absent, `--no-envoy`).
    Skip,
}

#[derive(Debug, Clone)]
pub struct Unavailable {
    pub blame: Blame,
    pub message: String,
}

impl Unavailable {
    pub fn student(message: impl Into<String>) -> Self {
        Unavailable { blame: Blame::Student, message: message.into() }
    }
    pub fn grader(message: impl Into<String>) -> Self {
        Unavailable { blame: Blame::Grader, message: message.into() }
    }
    pub fn skip(message: impl Into<String>) -> Self {
        Unavailable { blame: Blame::Skip, message: message.into() }
    }
}

pub type Slot = Result<Value, Unavailable>;

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
        }
    }

    /// Evaluate the spec's `let`s, in order.
    pub fn derive_lets(&mut self) {
        for l in &self.spec.lets {
            let student = self.uses_submission(l.expr);
            // A value it reads that is missing keeps its own blame: a let's `blame` is
            // who answers for the let's own missing value.
            let inherited = self.spec.program.deps(l.expr).iter().any(|d| self.missing[*d].as_ref().is_some_and(|u| !(l.skipped_as_null && u.blame == Blame::Skip)));
            let value = self.eval_let(l).map_err(|mut u| {
                if u.message.starts_with(NO_VALUE)
                    && let Some(m) = &l.missing {
                        u.message = m.clone();
                    }
                if let Some(b) = l.blame
                    && !inherited
                    && u.blame != Blame::Skip {
                        u.blame = match b {
                            BlameDef::Submission => Blame::Student,
                            BlameDef::Grader => Blame::Grader,
                        };
                    }
                u
            });
            self.set_jaq(&l.name.clone(), value, student);
        }
    }

    fn uses_submission(&self, id: ExprId) -> bool {
        self.spec.program.deps(id).iter().any(|d| self.student[*d])
    }

    /// A let's value; one that reads skipped variables as null is run with them so.
    fn eval_let(&self, l: &crate::spec::Let) -> Result<Val, Unavailable> {
        if !l.skipped_as_null {
            return self.eval_jaq(l.expr, Val::Null, None, None);
        }
        let worst = self.spec.program.deps(l.expr).iter().filter_map(|d| self.missing[*d].as_ref()).filter(|u| u.blame != Blame::Skip).max_by_key(|u| u.blame);
        if let Some(u) = worst {
            return Err(u.clone());
        }
        let vars = self.vars.get_or_init(|| crate::jq::Program::vars(&self.jaq));
        self.value_of(l.expr, self.spec.program.run(l.expr, vars, Val::Null, Val::Null, Val::Null))
    }

    /// Run an expression. If a variable it needs is unavailable, so is its result
    /// (the most telling reason wins: skip, then grader, then student).
    pub fn run(&self, id: ExprId, input: Val, found: Option<&Value>, expected: Option<&Value>) -> Result<Outcome, Unavailable> {
        let mut worst: Option<&Unavailable> = None;
        for d in self.spec.program.deps(id) {
            if let Some(u) = &self.missing[*d]
                && worst.is_none_or(|w| u.blame > w.blame) {
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

    /// Why an expression is not run at all in this run, if a variable it needs was
    /// skipped by a choice of the run. A `let` is skipped exactly when a variable it
    /// reads is, so this is the same for every submission of a run.
    pub fn skipped(&self, id: ExprId) -> Option<&Unavailable> {
        self.spec.program.deps(id).iter().filter_map(|d| self.missing[*d].as_ref()).find(|u| u.blame == Blame::Skip)
    }

    /// Run an expression for its value; no output or a jq error make it unavailable,
    /// blamed on the submission if the expression reads from it.
    pub fn eval(&self, id: ExprId, input: Val, found: Option<&Value>, expected: Option<&Value>) -> Slot {
        self.eval_jaq(id, input, found, expected).map(|v| convert::from_jaq(&v))
    }

    /// [`Env::eval`], keeping the value in jaq's form.
    fn eval_jaq(&self, id: ExprId, input: Val, found: Option<&Value>, expected: Option<&Value>) -> Result<Val, Unavailable> {
        let outcome = self.run(id, input, found, expected)?;
        self.value_of(id, outcome)
    }

    /// An expression's outcome as a value; no output or a jq error make it unavailable,
    /// blamed on the submission if the expression reads from it.
    fn value_of(&self, id: ExprId, outcome: Outcome) -> Result<Val, Unavailable> {
        let blame = if self.uses_submission(id) { Blame::Student } else { Blame::Grader };
        match outcome {
            Outcome::Value(v) => Ok(v),
            Outcome::Empty => Err(Unavailable {
                blame,
                message: format!("{NO_VALUE} (`{}`)", one_line(&self.spec.program.expr(id).code)),
            }),
            Outcome::Error(m) => Err(Unavailable { blame, message: m }),
        }
    }

    pub fn code(&self, id: ExprId) -> String {
        one_line(&self.spec.program.expr(id).code)
    }

    /// A predicate: true only if the expression gives `true`.
    pub fn holds(&self, id: ExprId, found: Option<&Value>, expected: Option<&Value>) -> bool {
        matches!(self.eval(id, Val::Null, found, expected), Ok(Value::Bool(true)))
    }
}

/// How a message about an expression without output starts.
pub const NO_VALUE: &str = "nothing to compare with";

pub fn one_line(code: &str) -> String {
    let s: String = code.split_whitespace().collect::<Vec<_>>().join(" ");
    if s.chars().count() > 80 { s.chars().take(77).collect::<String>() + "..." } else { s }
}
