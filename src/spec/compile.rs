//! From `SpecFile` (as written) to `Spec` (ready to run), with every error located.

use super::model::{CheckDef, Format, Kind, LetDef, ParamType, SourceDef, SpecFile};
use super::position::{advance, locate, Pos};
use super::*;
use crate::jq::{ProgramBuilder, EXPECTED, FOUND};

/// Collects errors so an author sees all of them at once.
struct Ctx<'a> {
    text: &'a str,
    name: &'a str,
    load: Load,
    errors: Vec<SpecError>,
}

impl Ctx<'_> {
    fn err(&mut self, anchor: Option<&str>, needle: &str, message: String) {
        let pos = locate(self.text, anchor, needle);
        self.errors.push(SpecError { file: self.name.to_string(), pos, message });
    }
}

/// Where an expression came from, to locate its errors.
struct Origin {
    anchor: Option<String>,
    code: String,
}

pub(super) fn compile(text: &str, name: &str, load: Load) -> Result<Spec, Vec<SpecError>> {
    let file: SpecFile = serde_yaml::from_str(text).map_err(|e| {
        let pos = e.location().map(|l| Pos { line: l.line(), col: l.column() });
        let message = strip_location(&e.to_string());
        vec![SpecError { file: name.to_string(), pos, message }]
    })?;
    from_model(file, text, name, load)
}

/// Compile a spec already read; `text` is its YAML, for error positions.
pub(super) fn from_model(file: SpecFile, text: &str, name: &str, load: Load) -> Result<Spec, Vec<SpecError>> {
    let mut cx = Ctx { text, name, load, errors: Vec::new() };

    let globals = names(&mut cx, &file);
    if file.steps.is_empty() {
        cx.err(Some("steps:"), "", "`steps` must name at least one step".into());
    }
    let params = params(&mut cx, &file);
    let sources = sources(&mut cx, &file, &params);

    let mut builder = ProgramBuilder::default();
    let mut origins: Vec<Origin> = Vec::new();
    let mut add = |builder: &mut ProgramBuilder, anchor: Option<String>, code: &str, label: String| {
        origins.push(Origin { anchor, code: code.to_string() });
        builder.add(code, label)
    };

    let lets: Vec<Let> = file
        .lets
        .iter()
        .map(|(n, d)| {
            let expr = add(&mut builder, Some(format!("{n}:")), d.expr(), format!("let `{n}`"));
            let (missing, blame, skipped_as_null) = match d {
                LetDef::Expr(_) => (None, None, false),
                LetDef::Full(f) => (f.missing.clone(), f.blame, f.skipped_as_null),
            };
            Let { name: n.clone(), expr, missing, blame, skipped_as_null }
        })
        .collect();

    let mut checks = Vec::new();
    let mut seen_ids: Vec<&str> = Vec::new();
    for c in &file.checks {
        let anchor = format!("id: {}", c.id);
        if seen_ids.contains(&c.id.as_str()) {
            cx.err(Some(&anchor), "", format!("check id `{}` is used twice", c.id));
        }
        seen_ids.push(&c.id);
        if !file.steps.contains_key(&c.step) {
            cx.err(Some(&anchor), "step:", format!("check `{}`: step {} is not among `steps`", c.id, c.step));
        }
        if !is_plain_name(&c.file) {
            cx.err(Some(&anchor), &c.file, format!("check `{}`: `file` must be a plain file name inside the submission", c.id));
        }
        let mut expr = |field: &str, code: &str| {
            add(&mut builder, Some(anchor.clone()), code, format!("check `{}`, field `{field}`", c.id))
        };
        let kind = check_kind(&mut cx, c, &anchor, &mut expr);
        let explain = c
            .explain
            .iter()
            .map(|e| Explain { when: expr("explain.if", &e.when), say: e.say.clone() })
            .collect();
        if let Some(kind) = kind {
            checks.push(Check {
                id: c.id.clone(),
                step: c.step,
                title: c.title.clone(),
                hint: c.hint.clone(),
                points: c.points.unwrap_or(1),
                hidden: c.hidden,
                location: c.location.clone(),
                why: c.why.clone(),
                file: c.file.clone(),
                format: file_format(&file, &c.file),
                kind,
                explain,
            });
        }
    }

    if file.defs.contains('$') {
        // Whole names, as expressions' own are read: `$envelope` is not `$env`.
        for g in crate::jq::deps_of(&file.defs, &globals) {
            let g = &globals[g];
            cx.err(Some("defs:"), &format!("${g}"), format!("`defs` may not use spec variables such as `${g}`"));
        }
    }

    let built = match cx.load {
        // Only the built-in spec's jq is known to compile (its tests compile it): any
        // other spec's mistakes must be found now, to be told with their places.
        Load::Grading if text == DEFAULT_SPEC => builder.build_ahead(&file.defs, &globals),
        Load::Grading | Load::Full => builder.build(&file.defs, &globals),
    };
    let program = match built {
        Ok(p) => Some(p),
        Err(errs) => {
            for e in errs {
                match origins.get(e.expr) {
                    Some(o) => {
                        let at = locate(text, o.anchor.as_deref(), &o.code);
                        let pos = match (at, e.offset) {
                            (Some(p), Some(off)) if text.contains(&o.code) => Some(advance(p, &o.code, off)),
                            (p, _) => p,
                        };
                        let label = if o.anchor.as_deref().is_some_and(|a| a.starts_with("id: ")) {
                            format!("check `{}`", &o.anchor.as_deref().unwrap()[4..])
                        } else {
                            format!("let `{}`", o.anchor.as_deref().unwrap_or("?").trim_end_matches(':'))
                        };
                        cx.errors.push(SpecError { file: name.into(), pos, message: format!("{label}: jq: {}", e.message) });
                    }
                    None => cx.err(Some("defs:"), "", format!("defs: jq: {}", e.message)),
                }
            }
            None
        }
    };

    if let Some(p) = &program {
        let first_let = params.len() + sources.len();
        for (i, l) in lets.iter().enumerate() {
            if let Some(later) = p.deps(l.expr).iter().find(|d| **d >= first_let + i) {
                let msg = format!("let `{}` uses `${}`, which is defined at or after it", l.name, globals[*later]);
                cx.err(Some(&format!("{}:", l.name)), "", msg);
            }
        }
    }

    match program {
        Some(program) if cx.errors.is_empty() => Ok(Spec {
            lab: file.lab,
            title: file.title,
            default_submission: file.submission,
            steps: file.steps,
            params,
            sources,
            lets,
            checks,
            program,
        }),
        _ => Err(cx.errors),
    }
}

fn strip_location(s: &str) -> String {
    match s.rfind(" at line ") {
        Some(i) => s[..i].to_string(),
        None => s.to_string(),
    }
}

fn is_plain_name(f: &str) -> bool {
    !f.is_empty() && f != "." && f != ".." && !f.contains('/') && !f.contains('\0')
}

/// All variable names, checked for clashes; the order is the jq program's.
fn names(cx: &mut Ctx, file: &SpecFile) -> Vec<String> {
    let all: Vec<&String> = file.params.keys().chain(file.sources.keys()).chain(file.lets.keys()).collect();
    let mut out: Vec<String> = Vec::new();
    for n in all {
        let valid = n.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        if !valid {
            cx.err(Some(&format!("{n}:")), "", format!("`{n}` cannot be a jq variable name (letters, digits and _ only)"));
        } else if n == FOUND || n == EXPECTED || n.starts_with("__") {
            cx.err(Some(&format!("{n}:")), "", format!("`{n}` is reserved"));
        } else if out.contains(n) {
            cx.err(Some(&format!("{n}:")), "", format!("`{n}` is declared twice (params, sources and let share one namespace)"));
        }
        out.push(n.clone());
    }
    out
}

fn params(cx: &mut Ctx, file: &SpecFile) -> Vec<Param> {
    let params: Vec<Param> = file
        .params
        .iter()
        .map(|(n, p)| Param {
            name: n.clone(),
            default: p.default.clone(),
            ty: p.ty,
            optional: p.optional,
            doc: p.doc.clone(),
        })
        .collect();
    for p in &params {
        for r in super::references(p.default.as_deref().unwrap_or("")) {
            let other = params.iter().find(|q| q.name == r);
            if other.is_none_or(|q| q.default.as_deref().is_some_and(|d| !super::references(d).is_empty())) {
                cx.err(Some(&format!("{}:", p.name)), &format!("{{{r}}}"), format!(
                    "param `{}`: its default names `{{{r}}}`, which is not a param whose default names no other",
                    p.name
                ));
            }
        }
    }
    params
}

fn sources(cx: &mut Ctx, file: &SpecFile, params: &[Param]) -> Vec<Source> {
    let mut out = Vec::new();
    for (name, s) in &file.sources {
        let anchor = format!("{name}:");
        let set = [s.file.is_some(), s.param.is_some(), s.envoy_validate.is_some(), s.envoy_admin.is_some()];
        if set.iter().filter(|b| **b).count() != 1 {
            cx.err(Some(&anchor), "", format!("source `{name}` needs exactly one of `file`, `param`, `envoy_validate`, `envoy_admin`"));
            continue;
        }
        let kind = source_kind(cx, name, &anchor, s, params);
        // A submission file is read once, in one format: a second source reading it
        // otherwise would silently get the first one's data.
        if let Some(SourceKind::Submission { file, format }) = &kind {
            let other = out.iter().find_map(|o: &Source| match &o.kind {
                SourceKind::Submission { file: f, format: g } if f == file && g != format => Some(o.name.clone()),
                _ => None,
            });
            if let Some(other) = other {
                cx.err(Some(&anchor), "", format!("source `{name}` reads {file} in another format than source `{other}`; a submission file has one format"));
            }
        }
        if let Some(kind) = kind {
            out.push(Source { name: name.clone(), kind });
        }
    }
    out
}

fn source_kind(cx: &mut Ctx, name: &str, anchor: &str, s: &SourceDef, params: &[Param]) -> Option<SourceKind> {
    let plain = |cx: &mut Ctx, f: &str| {
        if !is_plain_name(f) {
            cx.err(Some(anchor), f, format!("source `{name}`: `{f}` must be a plain file name inside the submission"));
        }
    };
    if let Some(f) = &s.file {
        plain(cx, f);
        return Some(SourceKind::Submission { file: f.clone(), format: s.format.unwrap_or_else(|| by_extension(f)) });
    }
    if let Some(p) = &s.param {
        let Some(i) = params.iter().position(|x| &x.name == p) else {
            cx.err(Some(anchor), p, format!("source `{name}`: no param `{p}`"));
            return None;
        };
        if params[i].ty != ParamType::Path {
            cx.err(Some(anchor), p, format!("source `{name}`: param `{p}` must have `type: path`"));
        }
        let Some(format) = s.format else {
            cx.err(Some(anchor), "", format!("source `{name}`: a lab file needs a `format`"));
            return None;
        };
        return Some(SourceKind::Lab { param: i, format });
    }
    if s.format.is_some() {
        cx.err(Some(anchor), "format", format!("source `{name}`: `format` applies only to files"));
    }
    if s.admin.is_some() && s.envoy_admin.is_none() {
        cx.err(Some(anchor), "admin", format!("source `{name}`: `admin` goes with `envoy_admin`"));
    }
    if let Some(f) = &s.envoy_validate {
        plain(cx, f);
        return Some(SourceKind::EnvoyValidate { file: f.clone() });
    }
    let f = s.envoy_admin.as_ref()?;
    plain(cx, f);
    let Some(admin) = s.admin.as_ref().and_then(|a| params.iter().position(|p| &p.name == a)) else {
        cx.err(Some(anchor), "", format!("source `{name}`: `envoy_admin` needs `admin`, the name of the param holding the admin URL"));
        return None;
    };
    Some(SourceKind::EnvoyAdmin { bootstrap: f.clone(), admin })
}

fn by_extension(f: &str) -> Format {
    if f.ends_with(".json") {
        Format::Json
    } else if f.ends_with(".yaml") || f.ends_with(".yml") {
        Format::Yaml
    } else {
        Format::Text
    }
}

/// A file's format: as its submission source declares it, else by its extension.
fn file_format(file: &SpecFile, name: &str) -> Format {
    file.sources
        .values()
        .find(|s| s.file.as_deref() == Some(name))
        .and_then(|s| s.format)
        .unwrap_or_else(|| by_extension(name))
}

fn check_kind(
    cx: &mut Ctx,
    c: &CheckDef,
    anchor: &str,
    expr: &mut impl FnMut(&str, &str) -> ExprId,
) -> Option<CheckKind> {
    // Which optional fields each kind takes; anything else set is a mistake.
    let allowed: &[&str] = match c.kind {
        Kind::Exists => &[],
        Kind::KvLine => &["key", "expect", "matches"],
        Kind::RcLine | Kind::EnvoyValidate => &["expect", "nonzero"],
        Kind::JsonEquals | Kind::JsonSubset => &["path", "expect"],
        Kind::JqValue => &["path", "expect", "matches"],
        Kind::TextContains => &["expect"],
        Kind::TextMatches => &["expect", "matches"],
        Kind::LineCount => &["matches", "min", "max"],
    };
    let given = [
        ("key", c.key.is_some()),
        ("expect", c.expect.is_some()),
        ("matches", c.matches.is_some()),
        ("path", c.path.is_some()),
        ("nonzero", c.nonzero),
        ("min", c.min.is_some()),
        ("max", c.max.is_some()),
    ];
    let kind_name = format!("{:?}", c.kind);
    for (field, set) in given {
        if set && !allowed.contains(&field) {
            cx.err(Some(anchor), &format!("{field}:"), format!("check `{}`: `{field}` does not apply to kind {}", c.id, snake(&kind_name)));
        }
    }
    let need = |cx: &mut Ctx, field: &str, v: &Option<String>| -> Option<String> {
        if v.is_none() {
            cx.err(Some(anchor), "", format!("check `{}`: kind {} needs `{field}`", c.id, snake(&kind_name)));
        }
        v.clone()
    };
    let regex = |cx: &mut Ctx, r: &str| match Pattern::new(r, false) {
        Ok(re) => match cx.load {
            Load::Full => match re.compile_fully() {
                Ok(()) => Some(re),
                Err(e) => {
                    cx.err(Some(anchor), r, format!("check `{}`: `matches` does not compile: {e}", c.id));
                    None
                }
            },
            Load::Grading => Some(re),
        },
        Err(e) => {
            cx.err(Some(anchor), r, format!("check `{}`: `matches` is not a valid regex: {e}", c.id));
            None
        }
    };
    let want = |cx: &mut Ctx, expr: &mut dyn FnMut(&str, &str) -> ExprId| -> Option<Want> {
        match (&c.expect, &c.matches) {
            (Some(e), None) => Some(Want::Equals(expr("expect", e))),
            (None, Some(m)) => regex(cx, m).map(Want::Matches),
            _ => {
                cx.err(Some(anchor), "", format!("check `{}`: give exactly one of `expect` and `matches`", c.id));
                None
            }
        }
    };
    let rc_want = |cx: &mut Ctx, expr: &mut dyn FnMut(&str, &str) -> ExprId| -> Option<RcWant> {
        match (&c.expect, c.nonzero) {
            (Some(e), false) => Some(RcWant::Equals(expr("expect", e))),
            (None, true) => Some(RcWant::NonZero),
            _ => {
                cx.err(Some(anchor), "", format!("check `{}`: give exactly one of `expect` and `nonzero: true`", c.id));
                None
            }
        }
    };
    Some(match c.kind {
        Kind::Exists => CheckKind::Exists,
        Kind::KvLine => {
            let key = need(cx, "key", &c.key)?;
            CheckKind::KvLine { key, want: want(cx, expr)? }
        }
        Kind::RcLine => CheckKind::RcLine { want: rc_want(cx, expr)? },
        Kind::EnvoyValidate => CheckKind::EnvoyValidate { want: rc_want(cx, expr)? },
        Kind::JsonEquals | Kind::JsonSubset => {
            let e = need(cx, "expect", &c.expect)?;
            CheckKind::Json {
                path: c.path.as_ref().map(|p| expr("path", p)),
                expect: expr("expect", &e),
                subset: c.kind == Kind::JsonSubset,
            }
        }
        Kind::JqValue => {
            let p = need(cx, "path", &c.path)?;
            let path = expr("path", &p);
            CheckKind::JqValue { path, want: want(cx, expr)? }
        }
        Kind::TextContains => {
            let e = need(cx, "expect", &c.expect)?;
            CheckKind::TextContains { expect: expr("expect", &e) }
        }
        Kind::TextMatches => CheckKind::TextMatches { pattern: want(cx, expr)? },
        Kind::LineCount => {
            let m = need(cx, "matches", &c.matches)?;
            if c.min.is_none() && c.max.is_none() {
                cx.err(Some(anchor), "", format!("check `{}`: line_count needs `min`, `max` or both", c.id));
            }
            CheckKind::LineCount { pattern: regex(cx, &m)?, min: c.min, max: c.max }
        }
    })
}

fn snake(debug_name: &str) -> String {
    let mut out = String::new();
    for (i, ch) in debug_name.chars().enumerate() {
        if ch.is_ascii_uppercase() {
            if i > 0 {
                out.push('_');
            }
            out.push(ch.to_ascii_lowercase());
        } else {
            out.push(ch);
        }
    }
    out
}
