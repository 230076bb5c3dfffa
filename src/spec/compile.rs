//! From `SpecFile` (as written) to `Spec` (ready to run), with every error located.

use super::fields::Fields;
use super::model::{CheckDef, Format, LetDef, ParamType, SourceDef, SpecFile, COMMON_FIELDS};
use super::position::{advance, locate, Pos};
use super::*;
use crate::check::kinds::{self, KindDef};
use crate::jq::{ExprError, ProgramBuilder, EXPECTED, FOUND};

/// Collects errors so an author sees all of them at once.
pub(super) struct Ctx<'a> {
    text: &'a str,
    name: &'a str,
    errors: Vec<SpecError>,
}

impl Ctx<'_> {
    pub(super) fn err(&mut self, anchor: Option<&str>, needle: &str, message: String) {
        let pos = locate(self.text, anchor, needle);
        self.errors.push(SpecError { file: self.name.to_string(), pos, message });
    }
}

/// The spec's expressions, each with where it came from, to locate its errors.
#[derive(Default)]
pub(super) struct Exprs {
    builder: ProgramBuilder,
    origins: Vec<Origin>,
}

/// Where an expression came from: the text it sits after (`id: <check>`, `<let>:`).
struct Origin {
    anchor: Option<String>,
    code: String,
}

impl Exprs {
    pub(super) fn add(&mut self, anchor: Option<String>, code: &str, label: String) -> ExprId {
        self.origins.push(Origin { anchor, code: code.to_string() });
        self.builder.add(code, label)
    }
}

pub(super) fn compile(text: &str, name: &str) -> Result<Spec, Vec<SpecError>> {
    compile_read(text, name, crate::input::yaml::from_str)
}

const BUILTIN_AS_JSON: &str = include_str!(concat!(env!("OUT_DIR"), "/ist2-boot.json"));

/// The built-in spec, as build.rs read it from `text` into JSON: without the bounds a
/// spec file is read within, which guard against a hostile file (a test checks that
/// it keeps within them), and without a YAML parser, which cost it two milliseconds
/// a run.
pub(super) fn compile_builtin(text: &str, name: &str) -> Result<Spec, Vec<SpecError>> {
    match serde_json::from_str::<SpecFile>(BUILTIN_AS_JSON) {
        Ok(file) => from_model(file, text, name),
        // Not YAML, or not a spec: said, with its place, as a spec file's mistakes are.
        Err(_) => compile_read(text, name, |t| serde_yaml::from_str(t)),
    }
}

fn compile_read(text: &str, name: &str, read: fn(&str) -> Result<SpecFile, serde_yaml::Error>) -> Result<Spec, Vec<SpecError>> {
    let file: SpecFile = read(text).map_err(|e| {
        let pos = e.location().map(|l| Pos { line: l.line(), col: l.column() });
        let message = strip_location(&e.to_string());
        vec![SpecError { file: name.to_string(), pos, message }]
    })?;
    from_model(file, text, name)
}

/// Compile a spec already read; `text` is its YAML, for error positions.
fn from_model(file: SpecFile, text: &str, name: &str) -> Result<Spec, Vec<SpecError>> {
    let mut cx = Ctx { text, name, errors: Vec::new() };
    let globals = names(&mut cx, &file);
    if file.steps.is_empty() {
        cx.err(Some("steps:"), "", "`steps` must name at least one step".into());
    }
    for (code, f) in &file.translations {
        if !matches!(crate::lang::Lang::from_code(code), Some(l) if l != crate::lang::Lang::En) || !is_plain_name(f) {
            cx.err(Some("translations:"), code, format!("`translations`: `{code}: {f}` must name a language (ko or zh) and a file beside the spec"));
        }
    }
    let params = params(&mut cx, &file);
    let sources = sources(&mut cx, &file, &params);
    let envoy = super::envoy::compile(&file, &sources, text, name).unwrap_or_else(|e| {
        cx.errors.extend(e);
        None
    });
    let mut exprs = Exprs::default();
    let lets = lets(&file, &mut exprs);
    let checks = checks(&mut cx, &file, &sources, &mut exprs);
    defs_read_no_variables(&mut cx, &file.defs, &globals);
    let program = program(&mut cx, exprs, &file.defs, &globals);
    if let Some(p) = &program {
        lets_read_only_earlier(&mut cx, p, &lets, params.len() + sources.len(), &globals);
        unknown_as_null_is_read(&mut cx, p, &lets, &globals);
    }
    match program {
        Some(program) if cx.errors.is_empty() => Ok(Spec {
            lab: file.lab,
            title: file.title,
            default_submission: file.submission,
            translations: file.translations,
            steps: file.steps,
            params,
            sources,
            lets,
            checks,
            program,
            envoy,
            proto_files: file.sources.values().filter(|s| s.proto_names).filter_map(|s| s.file.clone()).collect(),
        }),
        _ => Err(cx.errors),
    }
}

fn lets(file: &SpecFile, exprs: &mut Exprs) -> Vec<Let> {
    file.lets
        .iter()
        .map(|(n, d)| {
            let expr = exprs.add(Some(format!("{n}:")), d.expr(), format!("let `{n}`"));
            let (missing, blame, skipped_as_null, unknown_as_null) = match d {
                LetDef::Expr(_) => (None, None, false, Vec::new()),
                LetDef::Full(f) => (f.missing.clone(), f.blame, f.skipped_as_null, f.unknown_as_null.clone()),
            };
            Let { name: n.clone(), expr, missing, blame, skipped_as_null, unknown_as_null }
        })
        .collect()
}

fn checks(cx: &mut Ctx, file: &SpecFile, sources: &[Source], exprs: &mut Exprs) -> Vec<Check> {
    let mut seen_ids: Vec<&str> = Vec::new();
    let mut checks = Vec::new();
    for (i, c) in file.checks.iter().enumerate() {
        let anchor = format!("id: {}", c.id);
        if seen_ids.contains(&c.id.as_str()) {
            cx.err(Some(&anchor), "", format!("check `{}` is used twice", c.id));
        }
        seen_ids.push(&c.id);
        if !file.steps.contains_key(&c.step) {
            cx.err(Some(&anchor), "step:", format!("check `{}`: step {} is not among `steps`", c.id, c.step));
        }
        if !is_plain_name(&c.file) {
            cx.err(Some(&anchor), &c.file, format!("check `{}`: `file` must be a plain file name inside the submission", c.id));
        }
        let Some(kind) = kinds::by_name(&c.kind) else {
            let all: Vec<String> = kinds::KINDS.iter().map(|k| format!("`{}`", k.name)).collect();
            cx.err(Some(&anchor), &c.kind, format!("checks[{i}].kind: unknown variant `{}`, expected one of {}", c.kind, all.join(", ")));
            continue;
        };
        fields_apply(cx, c, kind, &anchor);
        let mut fields = Fields { def: c, kind: kind.name, anchor: anchor.clone(), cx, exprs, sources };
        let compiled = (kind.compile)(&mut fields);
        let explain = c
            .explain
            .iter()
            .map(|e| Explain { when: exprs.add(Some(anchor.clone()), &e.when, format!("check `{}`, field `explain.if`", c.id)), say: e.say.clone(), instead: e.instead })
            .collect();
        let needs = c.needs.as_ref().map(|n| exprs.add(Some(anchor.clone()), n, format!("check `{}`, field `needs`", c.id)));
        if let Some(compiled) = compiled {
            checks.push(Check { also_needs: needs, ..check(file, c, compiled, explain) });
        }
    }
    checks
}

fn check(file: &SpecFile, c: &CheckDef, kind: Box<dyn crate::check::Kind>, explain: Vec<Explain>) -> Check {
    Check {
        id: c.id.clone(),
        step: c.step,
        title: c.title.clone(),
        hint: c.hint.clone(),
        points: c.points.unwrap_or(1),
        hidden: c.hidden,
        location: c.location.clone(),
        why: c.why.clone(),
        found: c.found.clone(),
        file: c.file.clone(),
        format: file_format(file, &c.file),
        kind,
        explain,
        also_needs: None,
    }
}

/// Every field the check sets is one of its kind's (or one every check has).
fn fields_apply(cx: &mut Ctx, c: &CheckDef, kind: &KindDef, anchor: &str) {
    for field in c.fields.keys() {
        if kind.fields.contains(&field.as_str()) {
            continue;
        }
        let message = if kinds::KINDS.iter().any(|k| k.fields.contains(&field.as_str())) {
            format!("check `{}`: `{field}` does not apply to kind {}", c.id, kind.name)
        } else {
            let all: Vec<&str> = COMMON_FIELDS.iter().chain(kind.fields).copied().collect();
            format!("check `{}`: `{field}` is not a field of a check (kind {} has: {})", c.id, kind.name, all.join(", "))
        };
        cx.err(Some(anchor), &format!("{field}:"), message);
    }
}

/// `defs` are compiled without the spec's variables: a use of one is said plainly.
fn defs_read_no_variables(cx: &mut Ctx, defs: &str, globals: &[String]) {
    if !defs.contains('$') {
        return;
    }
    // Whole names, as expressions' own are read: `$envelope` is not `$env`.
    for g in crate::jq::deps_of(defs, globals) {
        let g = &globals[g];
        cx.err(Some("defs:"), &format!("${g}"), format!("`defs` may not use spec variables such as `${g}`"));
    }
}

/// Every expression compiled into one program, now, before any input is read; each
/// error placed where its expression is in the spec.
fn program(cx: &mut Ctx, exprs: Exprs, defs: &str, globals: &[String]) -> Option<Program> {
    let Exprs { builder, origins } = exprs;
    match builder.build(defs, globals) {
        Ok(p) => Some(p),
        Err(errs) => {
            for e in errs {
                jq_error(cx, &origins, e);
            }
            None
        }
    }
}

fn jq_error(cx: &mut Ctx, origins: &[Origin], e: ExprError) {
    let Some(o) = origins.get(e.expr) else {
        cx.err(Some("defs:"), "", format!("defs: jq: {}", e.message));
        return;
    };
    let at = locate(cx.text, o.anchor.as_deref(), &o.code);
    let pos = match (at, e.offset) {
        (Some(p), Some(off)) if cx.text.contains(&o.code) => Some(advance(p, &o.code, off)),
        (p, _) => p,
    };
    let anchor = o.anchor.as_deref().unwrap_or("?");
    let label = match anchor.strip_prefix("id: ") {
        Some(id) => format!("check `{id}`"),
        None => format!("let `{}`", anchor.trim_end_matches(':')),
    };
    cx.errors.push(SpecError { file: cx.name.into(), pos, message: format!("{label}: jq: {}", e.message) });
}

/// A `let` reads only variables defined before it: params, sources, earlier lets.
fn lets_read_only_earlier(cx: &mut Ctx, p: &Program, lets: &[Let], first_let: usize, globals: &[String]) {
    for (i, l) in lets.iter().enumerate() {
        if let Some(later) = p.deps(l.expr).iter().find(|d| **d >= first_let + i) {
            let msg = format!("let `{}` uses `${}`, which is defined at or after it", l.name, globals[*later]);
            cx.err(Some(&format!("{}:", l.name)), "", msg);
        }
    }
}

/// A let's `unknown_as_null` names variables it reads.
fn unknown_as_null_is_read(cx: &mut Ctx, p: &Program, lets: &[Let], globals: &[String]) {
    for l in lets {
        for n in l.unknown_as_null.iter().filter(|n| !p.deps(l.expr).iter().any(|d| globals[*d] == **n)) {
            cx.err(Some(&format!("{}:", l.name)), "", format!("let `{}`: `unknown_as_null` names `{n}`, which it does not read", l.name));
        }
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


#[cfg(test)]
mod tests {
    use super::*;

    /// What build.rs embeds reads as the very spec its YAML is, not through the YAML
    /// fallback (which would cost every run the time the JSON saves).
    #[test]
    fn the_builtin_json_is_the_builtin_yaml() {
        let json: SpecFile = serde_json::from_str(BUILTIN_AS_JSON).expect("the embedded JSON reads as a spec");
        let yaml: SpecFile = serde_yaml::from_str(DEFAULT_SPEC).expect("the spec reads as YAML");
        assert_eq!(format!("{json:?}"), format!("{yaml:?}"));
    }
}
