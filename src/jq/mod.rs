//! jq expressions: every expression of a spec compiled once, into one jaq program.
//!
//! Compiling jaq's standard library costs far more than any one expression, so all
//! expressions become definitions of a single program and a hidden variable picks the
//! one to run. The spec's variables travel as one array, and each expression binds
//! only those it uses: a run then sets up four variables, not one per spec variable.
//! Errors are mapped back to the expression they came from.

pub mod convert;
mod fast_std;
mod fromyaml;
mod read_as;

use jaq_core::load::{Arena, File, Loader};
use jaq_core::{data, Compiler, Ctx, Vars};
use jaq_json::Val;
use std::collections::BTreeSet;

type Data = data::JustLut<Val>;

/// Index of an expression within its [`Program`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ExprId(usize);

/// An expression as the spec author wrote it, with a label saying where.
#[derive(Debug, Clone)]
pub struct ExprSrc {
    pub code: String,
    /// Who asked for it, e.g. "check `env.ca_addr`, field `expect`".
    pub label: String,
}

/// A compile error, located within the expression's own text.
#[derive(Debug, Clone)]
pub struct ExprError {
    pub expr: usize,
    /// Byte offset within the expression, when jaq says where.
    pub offset: Option<usize>,
    pub message: String,
}

pub struct Program {
    filter: jaq_core::Filter<Data>,
    exprs: Vec<ExprSrc>,
    deps: Vec<BTreeSet<usize>>,
    globals: Vec<String>,
}

/// Reserved variables every expression can use besides the spec's own.
pub const FOUND: &str = "found";
pub const EXPECTED: &str = "expected";
const PICK: &str = "__pick";
/// All spec variables, as one array in the order of `Program::globals`.
const VARS: &str = "__vars";

#[derive(Default)]
pub struct ProgramBuilder {
    exprs: Vec<ExprSrc>,
}

impl ProgramBuilder {
    pub fn add(&mut self, code: &str, label: String) -> ExprId {
        self.exprs.push(ExprSrc { code: code.to_string(), label });
        ExprId(self.exprs.len() - 1)
    }

    /// Compile all expressions at once. `globals` are the spec's variable names (no `$`).
    pub fn build(self, defs: &str, globals: &[String]) -> Result<Program, Vec<ExprError>> {
        let names: Vec<String> = [VARS, FOUND, EXPECTED, PICK].iter().map(|s| s.to_string()).collect();
        let deps: Vec<BTreeSet<usize>> = self.exprs.iter().map(|e| deps_of(&e.code, globals)).collect();
        let prefixes: Vec<String> = deps.iter().map(|d| bindings(d, globals)).collect();
        let (code, starts) = assemble(defs, &self.exprs, &prefixes);
        match compile(&code, &names) {
            Ok(filter) => Ok(Program { filter, exprs: self.exprs, deps, globals: globals.to_vec() }),
            // Only on failure: compile each expression alone, so every error names its own.
            Err(whole) => Err(self.locate_errors(defs, &names, &prefixes, &starts, whole)),
        }
    }

    fn locate_errors(
        &self,
        defs: &str,
        names: &[String],
        prefixes: &[String],
        starts: &[usize],
        whole: Vec<(usize, String)>,
    ) -> Vec<ExprError> {
        // Broken definitions would break every expression alone: said once, as theirs.
        if let Err(errs) = compile(&format!("{defs}\n."), names) {
            return errs.into_iter().map(|(_, message)| ExprError { expr: usize::MAX, offset: None, message }).collect();
        }
        let mut errors = Vec::new();
        for (i, e) in self.exprs.iter().enumerate() {
            let alone = format!("{defs}\n{}{}", prefixes[i], e.code);
            if let Err(errs) = compile(&alone, names) {
                let base = defs.len() + 1 + prefixes[i].len();
                for (off, message) in errs {
                    let offset = off.checked_sub(base).filter(|o| *o <= e.code.len());
                    errors.push(ExprError { expr: i, offset, message });
                }
            }
        }
        if errors.is_empty() {
            // The definitions themselves are broken, or expressions clash when combined.
            for (off, message) in whole {
                let expr = starts.iter().rposition(|s| *s <= off).unwrap_or(usize::MAX);
                errors.push(ExprError { expr, offset: None, message });
            }
        }
        errors
    }
}

/// `$__vars[3] as $proxy | ...`: the spec variables one expression uses.
fn bindings(deps: &BTreeSet<usize>, globals: &[String]) -> String {
    deps.iter().map(|d| format!("${VARS}[{d}] as ${} | ", globals[*d])).collect()
}

/// The combined program: spec defs, one `def` per expression, and a dispatch on `$__pick`.
fn assemble(defs: &str, exprs: &[ExprSrc], prefixes: &[String]) -> (String, Vec<usize>) {
    let mut code = String::from(defs);
    code.push('\n');
    let mut starts = Vec::with_capacity(exprs.len());
    for (i, e) in exprs.iter().enumerate() {
        let _ = std::fmt::Write::write_fmt(&mut code, format_args!("def __e{i}: {}(", prefixes[i]));
        starts.push(code.len());
        code.push_str(&e.code);
        code.push_str("\n);\n");
    }
    dispatch(&mut code, 0, exprs.len());
    (code, starts)
}

/// A binary search on `$__pick`, so picking an expression costs log2(n) comparisons.
/// With no expressions (a spec of `exists` checks only) nothing can be picked, and the
/// program is the identity, never run.
fn dispatch(code: &mut String, lo: usize, hi: usize) {
    use std::fmt::Write;
    if hi == lo {
        code.push('.');
        return;
    }
    if hi - lo == 1 {
        let _ = write!(code, "__e{lo}");
        return;
    }
    let mid = (lo + hi) / 2;
    let _ = write!(code, "if ${PICK} < {mid} then ");
    dispatch(code, lo, mid);
    code.push_str(" else ");
    dispatch(code, mid, hi);
    code.push_str(" end");
}

/// Compile jq code with jaq's standard library; errors as (byte offset in `code`, message).
fn compile(code: &str, globals: &[String]) -> Result<jaq_core::Filter<Data>, Vec<(usize, String)>> {
    let replaced = |d: &jaq_core::load::parse::Def<&str>| d.args.is_empty() && fast_std::REPLACED.contains(&d.name);
    let defs = jaq_core::defs().chain(jaq_std::defs()).filter(|d| !replaced(d));
    let loader = Loader::new(defs.chain(jaq_json::defs()));
    let arena = Arena::default();
    let modules = loader
        .load(&arena, File { code, path: () })
        .map_err(|errs| load_errors(code, errs))?;
    let vars: Vec<String> = globals.iter().map(|g| format!("${g}")).collect();
    Compiler::default()
        .with_funs(jaq_core::funs().chain(jaq_std::funs()).chain(jaq_json::funs()).chain(crate::source::gotemplate::natives()).chain(fromyaml::natives()).chain(read_as::natives()).chain(fast_std::natives()))
        .with_global_vars(vars.iter().map(|s| s.as_str()))
        .compile(modules)
        .map_err(|errs| {
            errs.into_iter()
                .flat_map(|(_, es)| es)
                .map(|(name, undef)| (offset(code, name), format!("undefined {} `{}`", undef.as_str(), name)))
                .collect()
        })
}

fn load_errors(code: &str, errs: jaq_core::load::Errors<&str, ()>) -> Vec<(usize, String)> {
    use jaq_core::load::Error;
    let mut out = Vec::new();
    for (_, e) in errs {
        match e {
            Error::Io(es) => out.extend(es.into_iter().map(|(p, m)| (0, format!("{p}: {m}")))),
            Error::Lex(es) => {
                for (expect, found) in es {
                    let off = offset(code, found);
                    out.push((off, format!("expected {}", expect.as_str())));
                }
            }
            Error::Parse(es) => {
                for (expect, found) in es {
                    let off = offset(code, found);
                    let what = if found.is_empty() { "end of expression".to_string() } else { format!("`{}`", first_token(found)) };
                    out.push((off, format!("expected {}, found {what}", expect.as_str())));
                }
            }
        }
    }
    out
}

/// Where `part`, the slice of text a jaq error holds, starts in `code`; 0 if it is not
/// a slice of `code` (jaq's own library is text of its own). Checked, unlike
/// `jaq_core::load::span`.
fn offset(code: &str, part: &str) -> usize {
    let (start, at) = (code.as_ptr() as usize, part.as_ptr() as usize);
    at.checked_sub(start).filter(|o| o + part.len() <= code.len()).unwrap_or(0)
}

fn first_token(s: &str) -> &str {
    let end = s.find(|c: char| c.is_whitespace()).unwrap_or(s.len()).min(20);
    let mut end = end;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    &s[..end]
}

/// The spec variables an expression mentions. A local `as $x` that shadows a spec
/// variable counts too: that only makes a check wait for one value more.
pub fn deps_of(code: &str, globals: &[String]) -> BTreeSet<usize> {
    let mut deps = BTreeSet::new();
    let bytes = code.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'$' {
            let start = i + 1;
            let mut end = start;
            while end < bytes.len() && (bytes[end].is_ascii_alphanumeric() || bytes[end] == b'_') {
                end += 1;
            }
            if let Some(g) = globals.iter().position(|g| g.as_bytes() == &bytes[start..end]) {
                deps.insert(g);
            }
            i = end;
        } else {
            i += 1;
        }
    }
    deps
}

/// What one run of an expression gave.
#[derive(Debug)]
pub enum Outcome {
    Value(Val),
    /// The expression produced no output.
    Empty,
    Error(String),
}

impl Program {
    pub fn expr(&self, id: ExprId) -> &ExprSrc {
        &self.exprs[id.0]
    }

    /// Indices (into the globals) of the spec variables this expression uses.
    pub fn deps(&self, id: ExprId) -> &BTreeSet<usize> {
        &self.deps[id.0]
    }

    pub fn globals(&self) -> &[String] {
        &self.globals
    }

    /// The array [`Program::run`] takes, from one value per global.
    pub fn vars(values: &[Val]) -> Val {
        values.iter().cloned().collect()
    }

    /// Run an expression and keep its first output. `vars` is an array with one value
    /// per global, in order (see [`Program::vars`]); `found` and `expected` fill the
    /// reserved variables.
    pub fn run(&self, id: ExprId, vars: &Val, input: Val, found: Val, expected: Val) -> Outcome {
        let all = [vars.clone(), found, expected, Val::from(id.0 as isize)];
        let ctx = Ctx::<Data>::new(&self.filter.lut, Vars::new(all));
        let mut outputs = self.filter.id.run((ctx, input));
        match outputs.next() {
            None => Outcome::Empty,
            Some(Ok(v)) => Outcome::Value(v),
            Some(Err(exn)) => match exn.get_err() {
                Ok(e) => Outcome::Error(convert::error_text(e)),
                Err(_) => Outcome::Error("the expression tried to halt the grader".into()),
            },
        }
    }
}

/// Run `code` alone (no spec definitions, no variables) on `input`: a test's one line.
#[cfg(test)]
pub(crate) fn eval(code: &str, input: &serde_json::Value) -> Result<serde_json::Value, String> {
    let mut b = ProgramBuilder::default();
    let id = b.add(code, "test".into());
    let p = b.build("", &[]).map_err(|e| format!("{e:?}"))?;
    match p.run(id, &Program::vars(&[]), convert::to_jaq(input), Val::Null, Val::Null) {
        Outcome::Value(v) => Ok(convert::from_jaq(&v)),
        Outcome::Error(e) => Err(e),
        Outcome::Empty => Err("empty".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn program(exprs: &[&str], globals: &[&str]) -> (Program, Vec<ExprId>) {
        let mut b = ProgramBuilder::default();
        let ids = exprs.iter().map(|e| b.add(e, format!("test {e}"))).collect();
        let globals: Vec<String> = globals.iter().map(|s| s.to_string()).collect();
        (b.build("def twice: . * 2;", &globals).unwrap(), ids)
    }

    fn value(o: Outcome) -> serde_json::Value {
        match o {
            Outcome::Value(v) => convert::from_jaq(&v),
            other => panic!("no value: {other:?}"),
        }
    }

    #[test]
    fn each_expression_runs_on_its_own() {
        let (p, ids) = program(&["$a | twice", "$b + 1", "empty", "error(\"nope\")"], &["a", "b"]);
        let vars = Program::vars(&[Val::from(3isize), Val::from(10isize)]);
        let run = |i: usize| p.run(ids[i], &vars, Val::Null, Val::Null, Val::Null);
        assert_eq!(value(run(0)), json!(6));
        assert_eq!(value(run(1)), json!(11));
        assert!(matches!(run(2), Outcome::Empty));
        assert!(matches!(run(3), Outcome::Error(m) if m == "nope"));
    }

    #[test]
    fn errors_name_their_expression_and_column() {
        let mut b = ProgramBuilder::default();
        b.add(".a", "good".into());
        b.add(".b | $nope", "bad var".into());
        b.add("if . then 1", "bad syntax".into());
        let errs = b.build("", &["a".to_string()]).err().unwrap();
        assert!(errs.iter().any(|e| e.expr == 1 && e.offset == Some(5) && e.message.contains("undefined variable")), "{errs:?}");
        assert!(errs.iter().any(|e| e.expr == 2 && e.message.contains("else or end")), "{errs:?}");
        assert!(!errs.iter().any(|e| e.expr == 0));
    }

    #[test]
    fn deps_are_the_globals_mentioned() {
        let (p, ids) = program(&["$a + $ab", "$b as $x | $x"], &["a", "ab", "b"]);
        assert_eq!(p.deps(ids[0]).iter().copied().collect::<Vec<_>>(), vec![0, 1]);
        assert_eq!(p.deps(ids[1]).iter().copied().collect::<Vec<_>>(), vec![2]);
    }

    /// A spec whose checks need no jq (`exists` only) still has a program: an empty one.
    #[test]
    fn no_expressions_make_an_empty_program() {
        let p = ProgramBuilder::default().build("def twice: . * 2;", &["a".to_string()]);
        assert!(p.is_ok(), "{:?}", p.err());
        let names: Vec<String> = [VARS, FOUND, EXPECTED, PICK].iter().map(|s| s.to_string()).collect();
        assert!(compile(&assemble("", &[], &[]).0, &names).is_ok());
        // The definitions are still checked.
        let errs = ProgramBuilder::default().build("def broken: $nope;", &[]).err().expect("an error in defs");
        assert!(errs.iter().any(|e| e.message.contains("undefined variable")), "{errs:?}");
        // Said once, not once per expression that could not compile with them.
        let mut b = ProgramBuilder::default();
        b.add(".a", "one".into());
        b.add(".b", "two".into());
        let errs = b.build("def broken: $nope;", &[]).err().expect("an error in defs");
        assert_eq!(errs.len(), 1, "{errs:?}");
        assert_eq!(errs[0].expr, usize::MAX);
    }

    #[test]
    fn halt_is_an_error_not_an_exit() {
        let (p, ids) = program(&["halt"], &[]);
        assert!(matches!(p.run(ids[0], &Program::vars(&[]), Val::Null, Val::Null, Val::Null), Outcome::Error(_)));
    }
}
