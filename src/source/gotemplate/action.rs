//! One Go template action (the text between `{{` and `}}`): what it does and, for a
//! pipeline, its expression.

use serde_json::Value;
use std::fmt;

/// A pipeline's expression. A piped value is its function's last argument, as in Go.
#[derive(Debug, Clone, PartialEq)]
pub enum Expr {
    Lit(Value),
    /// `.A.B`, from the current `.` (`.` itself has no fields).
    Field(Vec<String>),
    /// `$x.A.B` (`$` is the name "").
    Var(String, Vec<String>),
    Call(String, Vec<Expr>),
    /// `(pipeline).A.B`
    Get(Box<Expr>, Vec<String>),
    /// Not of the forms read here.
    Unknown,
}

/// What a `range` goes over, and the variables it sets for each element (`$i, $v :=`:
/// index or key, then element; `$v :=`: the element).
#[derive(Debug, Clone, PartialEq)]
pub struct Range {
    pub over: Expr,
    pub vars: Vec<String>,
}

/// What an action does.
#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    If(Expr),
    ElseIf(Expr),
    Else,
    With(Expr),
    ElseWith(Expr),
    Range(Range),
    End,
    Define,
    /// Writes the value of a pipeline (also `template` and `block`, whose output is not
    /// known here).
    Output(Expr),
    /// Sets one variable, writing nothing: `$x := ...` (declared: true) or `$x = ...`.
    Set { name: String, value: Expr, declared: bool },
    /// Writes nothing: a comment, `$i, $v := ...`, `break`, `continue`.
    Silent,
}

impl Action {
    /// Whether this action opens a block that an `end` closes.
    pub fn opens(&self) -> bool {
        matches!(self, Action::If(_) | Action::With(_) | Action::Range(_) | Action::Define)
    }
}

/// The action `inner` (without `{{`, `}}` and their trim markers).
pub fn parse(inner: &str) -> Action {
    let s = inner.trim();
    if s.starts_with("/*") {
        return Action::Silent;
    }
    let (word, rest) = match s.find(|c: char| c.is_whitespace() || c == '(') {
        Some(i) => (&s[..i], s[i..].trim()),
        None => (s, ""),
    };
    match word {
        "if" => Action::If(pipeline(rest)),
        "with" => Action::With(pipeline(rest)),
        "range" => Action::Range(range(rest)),
        "end" => Action::End,
        "define" => Action::Define,
        "block" | "template" => Action::Output(Expr::Unknown),
        "break" | "continue" => Action::Silent,
        "else" => match rest.split_once(char::is_whitespace).map(|(w, r)| (w, r.trim())).unwrap_or((rest, "")) {
            ("", _) => Action::Else,
            ("if", cond) => Action::ElseIf(pipeline(cond)),
            ("with", cond) => Action::ElseWith(pipeline(cond)),
            _ => Action::Else,
        },
        _ => {
            let mut toks = tokens(s);
            // `$x := ...`, `$x = ...`, `$i, $v := ...`: sets variables, writes nothing.
            match toks.iter().position(|t| matches!(t, Tok::Declare(_))) {
                Some(1) => match (&toks[0], &toks[1]) {
                    (Tok::Var(name, path), Tok::Declare(declared)) if path.is_empty() => {
                        let (name, declared) = (name.clone(), *declared);
                        Action::Set { name, value: parsed(toks.split_off(2)), declared }
                    }
                    _ => Action::Silent,
                },
                Some(i) if toks[..i].iter().all(|t| matches!(t, Tok::Var(..) | Tok::Comma)) => Action::Silent,
                _ => Action::Output(parsed(toks)),
            }
        }
    }
}

fn range(rest: &str) -> Range {
    match rest.split_once(":=") {
        Some((decl, over)) => Range { over: pipeline(over), vars: decl.split(',').map(|v| v.trim().trim_start_matches('$').to_string()).collect() },
        None => Range { over: pipeline(rest), vars: Vec::new() },
    }
}

/// A pipeline's expression, or `Unknown` when it is not of the forms read here.
pub fn pipeline(text: &str) -> Expr {
    parsed(tokens(text))
}

fn parsed(toks: Vec<Tok>) -> Expr {
    let mut p = Parser { toks, at: 0 };
    p.pipeline().filter(|_| p.at == p.toks.len()).unwrap_or(Expr::Unknown)
}

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    /// `.A.B` (an empty path is `.` itself).
    Field(Vec<String>),
    /// `$x.A`: the variable's name and the fields after it.
    Var(String, Vec<String>),
    Ident(String),
    /// `.A.B` right after a `)`: fields of the parenthesised value.
    Attached(Vec<String>),
    Lit(Value),
    Open,
    Close,
    Pipe,
    Comma,
    /// `:=` (true) or `=`.
    Declare(bool),
    /// Anything else: makes the pipeline unknown.
    Bad,
}

fn tokens(s: &str) -> Vec<Tok> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let word = |i: &mut usize| {
        let start = *i;
        while *i < b.len() && (b[*i].is_ascii_alphanumeric() || b[*i] == b'_' || b[*i] >= 0x80) {
            *i += 1;
        }
        s[start..*i].to_string()
    };
    let fields = |i: &mut usize| {
        let mut path = Vec::new();
        while *i < b.len() && b[*i] == b'.' {
            *i += 1;
            let w = word(i);
            if w.is_empty() {
                break;
            }
            path.push(w);
        }
        path
    };
    while i < b.len() {
        match b[i] {
            c if c.is_ascii_whitespace() => i += 1,
            b'(' => {
                out.push(Tok::Open);
                i += 1;
            }
            b')' => {
                out.push(Tok::Close);
                i += 1;
                if i < b.len() && b[i] == b'.' {
                    let path = fields(&mut i);
                    out.push(Tok::Attached(path));
                }
            }
            b'|' => {
                out.push(Tok::Pipe);
                i += 1;
            }
            b',' => {
                out.push(Tok::Comma);
                i += 1;
            }
            b':' if b.get(i + 1) == Some(&b'=') => {
                out.push(Tok::Declare(true));
                i += 2;
            }
            b'=' => {
                out.push(Tok::Declare(false));
                i += 1;
            }
            b'.' => out.push(Tok::Field(fields(&mut i))),
            b'$' => {
                i += 1;
                let name = word(&mut i);
                let path = fields(&mut i);
                out.push(Tok::Var(name, path));
            }
            b'"' => {
                let start = i;
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                i = (i + 1).min(b.len());
                out.push(serde_json::from_str::<String>(&s[start..i]).map_or(Tok::Bad, |s| Tok::Lit(Value::String(s))));
            }
            b'`' => {
                let start = i + 1;
                let end = s[start..].find('`').map_or(b.len(), |e| start + e);
                out.push(Tok::Lit(Value::String(s[start..end].to_string())));
                i = (end + 1).min(b.len());
            }
            c if c.is_ascii_digit() || (c == b'-' && b.get(i + 1).is_some_and(u8::is_ascii_digit)) => {
                let start = i;
                i += 1;
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'.') {
                    i += 1;
                }
                let text = &s[start..i];
                out.push(text.parse::<i64>().map(Value::from).or_else(|_| text.parse::<f64>().map(Value::from)).map_or(Tok::Bad, Tok::Lit));
            }
            c if c.is_ascii_alphabetic() || c == b'_' => {
                let w = word(&mut i);
                out.push(match w.as_str() {
                    "true" => Tok::Lit(Value::Bool(true)),
                    "false" => Tok::Lit(Value::Bool(false)),
                    "nil" => Tok::Lit(Value::Null),
                    _ => Tok::Ident(w),
                });
            }
            _ => {
                out.push(Tok::Bad);
                // Past the whole character, not into it.
                i += s[i..].chars().next().map_or(1, char::len_utf8);
            }
        }
    }
    out
}

struct Parser {
    toks: Vec<Tok>,
    at: usize,
}

impl Parser {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.at)
    }

    /// command ('|' command)*: each later command is a function called with the value
    /// so far as its last argument.
    fn pipeline(&mut self) -> Option<Expr> {
        let mut value = self.command()?;
        while self.peek() == Some(&Tok::Pipe) {
            self.at += 1;
            let Expr::Call(f, mut args) = self.command()? else { return None };
            args.push(value);
            value = Expr::Call(f, args);
        }
        Some(value)
    }

    /// A function and its arguments, or a single operand.
    fn command(&mut self) -> Option<Expr> {
        if let Some(Tok::Ident(_)) = self.peek() {
            let Some(Tok::Ident(name)) = self.take() else { return None };
            let mut args = Vec::new();
            while let Some(t) = self.peek() {
                if matches!(t, Tok::Pipe | Tok::Close) {
                    break;
                }
                args.push(self.operand()?);
            }
            return Some(Expr::Call(name, args));
        }
        let v = self.operand()?;
        match self.peek() {
            None | Some(Tok::Pipe | Tok::Close) => Some(v),
            _ => None,
        }
    }

    /// The next token, taken out (the parser reads each once).
    fn take(&mut self) -> Option<Tok> {
        let t = self.toks.get_mut(self.at).map(|t| std::mem::replace(t, Tok::Bad));
        self.at += 1;
        t
    }

    fn operand(&mut self) -> Option<Expr> {
        let t = self.take()?;
        match t {
            Tok::Lit(v) => Some(Expr::Lit(v)),
            Tok::Field(path) => Some(Expr::Field(path)),
            Tok::Var(name, path) => Some(Expr::Var(name, path)),
            // A function named as an argument is called without arguments (`env`, `list`).
            Tok::Ident(name) => Some(Expr::Call(name, Vec::new())),
            Tok::Open => {
                let inner = self.pipeline()?;
                if self.peek() != Some(&Tok::Close) {
                    return None;
                }
                self.at += 1;
                if let Some(Tok::Attached(_)) = self.peek() {
                    let Some(Tok::Attached(path)) = self.take() else { return None };
                    return Some(Expr::Get(Box::new(inner), path));
                }
                Some(inner)
            }
            _ => None,
        }
    }
}

/// Written back in a Go template's syntax (calls in parentheses): for tests and messages.
impl fmt::Display for Expr {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let path = |p: &[String]| p.iter().map(|s| format!(".{s}")).collect::<String>();
        match self {
            Expr::Lit(v) => write!(f, "{v}"),
            Expr::Field(p) if p.is_empty() => write!(f, "."),
            Expr::Field(p) => write!(f, "{}", path(p)),
            Expr::Var(n, p) => write!(f, "${n}{}", path(p)),
            Expr::Call(name, args) => {
                write!(f, "({name}")?;
                for a in args {
                    write!(f, " {a}")?;
                }
                write!(f, ")")
            }
            Expr::Get(e, p) => write!(f, "{e}{}", path(p)),
            Expr::Unknown => write!(f, "?"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(s: &str) -> String {
        pipeline(s).to_string()
    }

    #[test]
    fn control_actions() {
        assert_eq!(parse(" if .Values.global.caAddress "), Action::If(Expr::Field(vec!["Values".into(), "global".into(), "caAddress".into()])));
        assert_eq!(parse("end"), Action::End);
        assert_eq!(parse("else"), Action::Else);
        assert!(matches!(parse("else if eq .A `x`"), Action::ElseIf(_)));
        assert_eq!(parse("define \"resources\""), Action::Define);
        assert_eq!(parse("/* a comment */"), Action::Silent);
        assert_eq!(parse("$containers := list"), Action::Set { name: "containers".into(), value: Expr::Call("list".into(), vec![]), declared: true });
        assert_eq!(parse("$first = false"), Action::Set { name: "first".into(), value: Expr::Lit(Value::Bool(false)), declared: false });
        assert_eq!(parse("$i, $c := .Spec.Containers"), Action::Silent);
        let Action::Range(r) = parse("range $key, $value := .ProxyConfig.ProxyMetadata") else { panic!() };
        assert_eq!((r.over.to_string(), r.vars), (".ProxyConfig.ProxyMetadata".into(), vec!["key".into(), "value".into()]));
        let Action::Range(r) = parse("range .Spec.Containers") else { panic!() };
        assert_eq!((r.over.to_string(), r.vars.len()), (".Spec.Containers".into(), 0));
    }

    #[test]
    fn pipelines_become_calls() {
        assert_eq!(read(".Values.global.proxy.clusterDomain"), ".Values.global.proxy.clusterDomain");
        assert_eq!(
            read("annotation .ObjectMeta `sidecar.istio.io/logLevel` .Values.global.proxy.logLevel"),
            r#"(annotation .ObjectMeta "sidecar.istio.io/logLevel" .Values.global.proxy.logLevel)"#
        );
        assert_eq!(read("index .ObjectMeta.Labels `app` | default .DeploymentMeta.Name | quote"), r#"(quote (default .DeploymentMeta.Name (index .ObjectMeta.Labels "app")))"#);
        assert_eq!(read("not (eq .Values.revision \"\")"), r#"(not (eq .Values.revision ""))"#);
        assert_eq!(read("."), ".");
        assert_eq!(read("$value"), "$value");
        assert_eq!(read("(index .A `b`).C"), r#"(index .A "b").C"#);
        assert_eq!(read("valueOrDefault .X 15001"), "(valueOrDefault .X 15001)");
    }

    #[test]
    fn what_is_not_read_is_unknown() {
        for s in [".A .B", "(eq .A", "\"unterminated", ".A | .B", "eq .A ; .B", "é"] {
            assert_eq!(pipeline(s), Expr::Unknown, "{s}");
        }
        // A field after a space is an argument of its own, not a field of the value before.
        assert_eq!(read("and (eq .A `x`) .B.C"), r#"(and (eq .A "x") .B.C)"#);
    }
}
