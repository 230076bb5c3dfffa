//! Go templates of YAML (Istio's injection templates), read leniently into the YAML
//! they render, and rendered for a lab's values, mesh config and target (`render.rs`),
//! so that the spec's jq can read what kube-inject adds without running Istio.
//!
//! Reading renders nothing. Lines that hold only actions (`{{- if ... }}`, `{{ end }}`,
//! `{{ toYaml ... }}`) are taken out and the rest is read as YAML (`tree.rs`), so both
//! branches of an `if` are kept, each marked with the conditions it is written under:
//! - a mapping key or list item written under conditions the enclosing one is not
//!   becomes `{"{{choose}}": [{"when": [cond, ...], "then": value}, ...]}`, in the
//!   template's order (one entry per branch that sets it); a condition is
//!   `{"if": expr}`, `{"not": expr}`, `{"with": expr}` (which also sets `.`) or
//!   `{"range": {"over": expr, "vars": [..]}}`;
//! - a scalar with actions in it becomes `{"{{}}": [part, ...]}`: text, expression
//!   trees (see `action.rs`), `{"if": [{"cond": expr, "then": parts}, ...], "else":
//!   parts}` and `{"with": expr, "then": parts, "else": parts}` for the actions inside it;
//! - a list item written under other conditions than its key is `{"{{outside}}": item}`;
//! - `define` blocks are left out.

pub mod action;
pub mod render;
mod scan;
mod tree;

use action::{Action, Expr};
use scan::{Piece, Scan};
use serde_json::Value;

/// A template as read: its tree, the conditions its nodes are written under, its
/// actions (which the two refer to by number), and the actions that set its variables.
pub struct Template {
    pub tree: tree::Node,
    pub guards: Vec<Vec<Cond>>,
    pub actions: Vec<Action>,
    pub vars: std::collections::HashMap<String, usize>,
}

impl Template {
    /// The expression of action `i` (its condition, its value, what it sets).
    pub fn expr(&self, i: usize) -> &Expr {
        static UNKNOWN: Expr = Expr::Unknown;
        match &self.actions[i] {
            Action::If(e) | Action::ElseIf(e) | Action::With(e) | Action::ElseWith(e) | Action::Output(e) | Action::Set { value: e, .. } => e,
            Action::Range(r) => &r.over,
            _ => &UNKNOWN,
        }
    }
}

/// One condition a line is written under: that of action number `.0`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Cond {
    If(usize),
    Not(usize),
    /// Holds when its value does, and sets `.` to it.
    With(usize),
    Range(usize),
}

/// The jq functions of this module: on a template's text, `tpl_render($context)` is what
/// it renders for that context (see `render.rs`); on a list, `named` is its objects by
/// their `name`, a later one winning, as Kubernetes merges a pod's named lists (jq's own
/// `reduce` costs a millisecond on an env list, every submission).
pub fn natives<D: for<'a> jaq_core::DataT<V<'a> = jaq_json::Val>>() -> impl Iterator<Item = jaq_core::native::Fun<D>> {
    filters().into_vec().into_iter().map(jaq_core::native::run)
}

fn filters<D: for<'a> jaq_core::DataT<V<'a> = jaq_json::Val>>() -> Box<[jaq_core::native::Filter<jaq_core::RunPtr<D>>]> {
    Box::new([("named", jaq_core::native::v(0), |cv| {
        use jaq_json::Val;
        let mut out = jaq_json::Map::default();
        if let Val::Arr(items) = &cv.1 {
            for item in items.iter() {
                if let Val::Obj(o) = item
                    && let Some(name @ Val::TStr(_)) = o.get(&Val::utf8_str("name"))
                {
                    out.insert(name.clone(), item.clone());
                }
            }
        }
        jaq_core::native::bome(Ok(Val::obj(out)))
    }),
    ("tpl_render", jaq_core::native::v(1), |cv| {
        jaq_core::native::unary(cv, |text, ctx| {
            let jaq_json::Val::TStr(text) = text else { return Err(jaq_core::Error::str("tpl_render takes a template's text")) };
            Ok(rendered_once(&String::from_utf8_lossy(&text), ctx))
        })
    })])
}

/// An object of these keys and values. (`json!` would copy each value by serialising it.)
pub(crate) fn obj<const N: usize>(pairs: [(&str, Value); N]) -> Value {
    Value::Object(pairs.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
}

/// A template rendered for a context, once a process for each pair: every submission
/// of a run renders the lab's templates for the lab's context. A few pairs are kept (a
/// spec could render for each submission's own context, and those are not kept).
fn rendered_once(text: &str, ctx: jaq_json::Val) -> jaq_json::Val {
    type Done = Vec<(String, jaq_json::Val, jaq_json::Val)>;
    static DONE: std::sync::Mutex<Done> = std::sync::Mutex::new(Vec::new());
    let done = || DONE.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((.., out)) = done().iter().find(|(t, c, _)| t == text && *c == ctx) {
        return out.clone();
    }
    let out = crate::jq::convert::to_jaq(&render::render(&read_once(text), &crate::jq::convert::from_jaq(&ctx)));
    let mut done = done();
    if done.len() < 8 {
        done.push((text.to_string(), ctx, out.clone()));
    }
    out
}

/// [`read`], once a process for each template: every submission of a run renders the
/// same one.
fn read_once(text: &str) -> std::sync::Arc<Template> {
    type Read = std::collections::HashMap<String, std::sync::Arc<Template>>;
    static READ: std::sync::OnceLock<std::sync::Mutex<Read>> = std::sync::OnceLock::new();
    let mut done = READ.get_or_init(Default::default).lock().unwrap_or_else(|e| e.into_inner());
    if let Some(t) = done.get(text) {
        return t.clone();
    }
    let t = std::sync::Arc::new(read(text));
    done.insert(text.to_string(), t.clone());
    t
}

/// A Go template of YAML, read leniently (see the module's doc).
pub fn read(text: &str) -> Template {
    let scan = Scan::of(text);
    let mut frames: Vec<Frame> = Vec::new();
    let mut guards = Guards::default();
    let mut vars = Vars::default();
    let mut lines = Vec::new();
    for line in &scan.lines {
        let only_actions = line.iter().all(|p| match p {
            Piece::Text(t) => t.trim().is_empty(),
            Piece::Act(_) => true,
        });
        // One that writes a value (`{{ toYaml ... }}`) is read only within a block scalar
        // (`{{ protoToJSON .ProxyConfig }}`): elsewhere what it writes is not known.
        let writes = only_actions && line.iter().any(|p| matches!(p, Piece::Act(i) if matches!(scan.actions[*i], Action::Output(_))));
        if only_actions && !writes {
            for p in line {
                if let Piece::Act(i) = p {
                    vars.note(&scan.actions[*i], *i, frames.is_empty());
                    step(&mut frames, &scan.actions[*i], *i);
                }
            }
            continue;
        }
        // Blocks opened before the line's text and closed after it (`{{ with X }}key:
        // "{{ . }}"{{ end }}`) hold only this line: it is written under them.
        let is_control = |p: &Piece| matches!(p, Piece::Act(i) if !matches!(scan.actions[*i], Action::Output(_) | Action::Silent | Action::Set { .. }));
        let blank = |p: &Piece| matches!(p, Piece::Text(t) if t.trim().is_empty());
        let lead = line.iter().take_while(|p| blank(p) || is_control(p)).count();
        let tail = line[lead..].iter().rev().take_while(|p| blank(p) || is_control(p)).count();
        let (head, rest) = line.split_at(lead);
        let (middle, trail) = rest.split_at(rest.len() - tail);
        let mut kept: Vec<&Piece> = Vec::new();
        for p in head {
            match p {
                Piece::Act(i) => step(&mut frames, &scan.actions[*i], *i),
                Piece::Text(_) => kept.push(p),
            }
        }
        let in_define = frames.iter().any(|f| f.kind == Kind::Define);
        let guard = guards.of(&frames);
        // Actions inside the text stay in it; one that opens or closes a block beyond
        // the line changes the blocks of the lines after it.
        let mut depth = 0usize;
        let mut opened = Vec::new();
        for p in middle {
            kept.push(p);
            if let Piece::Act(i) = p {
                let a = &scan.actions[*i];
                match a {
                    _ if a.opens() => {
                        depth += 1;
                        opened.push(*i);
                    }
                    Action::End if depth > 0 => {
                        depth -= 1;
                        opened.pop();
                    }
                    Action::End | Action::Else | Action::ElseIf(_) | Action::ElseWith(_) if depth == 0 => step(&mut frames, a, *i),
                    _ => {}
                }
            }
        }
        for i in opened {
            step(&mut frames, &scan.actions[i], i);
        }
        for p in trail {
            if let Piece::Act(i) = p {
                step(&mut frames, &scan.actions[*i], *i);
            }
        }
        if in_define {
            continue;
        }
        let mut text = String::new();
        for p in kept {
            match p {
                Piece::Text(t) => text.push_str(t),
                Piece::Act(i) => {
                    use std::fmt::Write;
                    let _ = write!(text, "{}{i}{}", tree::ACT_OPEN, tree::ACT_CLOSE);
                }
            }
        }
        let indent = text.len() - text.trim_start_matches(' ').len();
        text.truncate(text.trim_end().len());
        text.drain(..indent);
        if !text.is_empty() && !text.starts_with('#') {
            lines.push(tree::Line { indent, text, guard, filler: writes });
        }
    }
    let tree = tree::Reader { lines, guards: &guards.list, actions: &scan.actions, raws: &scan.raws, at: 0 }.document();
    Template { tree, guards: guards.list, actions: scan.actions, vars: vars.set.into_iter().filter_map(|(k, v)| Some((k, v?))).collect() }
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Kind {
    If,
    With,
    Range,
    Define,
}

/// An open block: the conditions of its branches so far, and whether the current
/// branch is the last `else`.
struct Frame {
    /// Which block this is, told apart from the others opened in the template.
    id: usize,
    kind: Kind,
    conds: Vec<Cond>,
    in_else: bool,
}

fn step(frames: &mut Vec<Frame>, a: &Action, at: usize) {
    let open = |kind, conds| Frame { id: at, kind, conds, in_else: false };
    match a {
        Action::If(_) => frames.push(open(Kind::If, vec![Cond::If(at)])),
        Action::With(_) => frames.push(open(Kind::With, vec![Cond::With(at)])),
        Action::Range(_) => frames.push(open(Kind::Range, vec![Cond::Range(at)])),
        Action::Define => frames.push(open(Kind::Define, Vec::new())),
        Action::ElseIf(_) => {
            if let Some(f) = frames.last_mut() {
                f.conds.push(Cond::If(at));
            }
        }
        Action::ElseWith(_) => {
            if let Some(f) = frames.last_mut() {
                f.conds.push(Cond::With(at));
            }
        }
        Action::Else => {
            if let Some(f) = frames.last_mut() {
                f.in_else = true;
            }
        }
        Action::End => {
            frames.pop();
        }
        Action::Output(_) | Action::Silent | Action::Set { .. } => {}
    }
}

/// The conditions the current branch of every open block stands under, outermost first:
/// the earlier branches' conditions did not hold, the current one's does.
fn conditions(frames: &[Frame]) -> Vec<Cond> {
    let mut out = Vec::new();
    for f in frames {
        let (last, earlier) = match f.conds.split_last() {
            Some((l, e)) if !f.in_else => (Some(l), e),
            _ => (None, f.conds.as_slice()),
        };
        for c in earlier {
            out.push(match *c {
                Cond::If(e) | Cond::With(e) => Cond::Not(e),
                // An empty range's `else`: not told here.
                other => other,
            });
        }
        out.extend(last.copied());
    }
    out
}

/// The template's variables set once, outside any block (`{{ $nativeSidecar := ... }}`):
/// what each stands for, worked out where it is read. One set again, or within a block,
/// is not known here.
#[derive(Default)]
struct Vars {
    set: std::collections::HashMap<String, Option<usize>>,
}

impl Vars {
    fn note(&mut self, a: &Action, at: usize, top: bool) {
        if let Action::Set { name, declared, .. } = a {
            let once = top && *declared && !self.set.contains_key(name);
            self.set.insert(name.clone(), once.then_some(at));
        }
    }
}

/// The conditions lines are written under, numbered (0: none); lines under the same
/// open blocks, in the same branches, share a number.
struct Guards {
    list: Vec<Vec<Cond>>,
    /// Each guard's blocks: (block, branch, in its `else`), outermost first.
    blocks: Vec<Vec<(usize, usize, bool)>>,
    /// The guard of the line before: most lines share it.
    last: usize,
}

impl Default for Guards {
    fn default() -> Self {
        Guards { list: vec![Vec::new()], blocks: vec![Vec::new()], last: 0 }
    }
}

impl Guards {
    fn of(&mut self, frames: &[Frame]) -> usize {
        let same = |blocks: &[(usize, usize, bool)]| blocks.len() == frames.len() && blocks.iter().zip(frames).all(|(b, f)| *b == (f.id, f.conds.len(), f.in_else));
        if !same(&self.blocks[self.last]) {
            self.last = match self.blocks.iter().position(|b| same(b)) {
                Some(g) => g,
                None => {
                    self.list.push(conditions(frames));
                    self.blocks.push(frames.iter().map(|f| (f.id, f.conds.len(), f.in_else)).collect());
                    self.list.len() - 1
                }
            };
        }
        self.last
    }
}

#[cfg(test)]
mod tests {
    use super::render::render;
    use super::read;
    use serde_json::{json, Value};

    fn rendered(template: &str, ctx: Value) -> Value {
        render(&read(template), &ctx)
    }

    #[test]
    fn definitions_comments_and_whole_line_actions_are_left_out() {
        let t = "{{- define \"res\" }}\n      requests:\n        cpu: 1\n{{- end }}\n{{/* a comment */}}\nspec:\n  containers:\n  - name: app\n    resources:\n  {{ template \"res\" . }}\n  {{ toYaml .Values.x | indent 4 }}\n    image: x\n";
        assert_eq!(rendered(t, json!({})), json!({"spec": {"containers": [{"name": "app", "resources": null, "image": "x"}]}}));
    }

    #[test]
    fn a_flow_mapping_of_actions_does_not_disturb_what_follows() {
        let t = "metadata:\n  annotations: {\n    a: \"{{ .A }}\",\n    {{ with .B }}b: \"{{.}}\",{{ end }}\n  }\nspec:\n  volumes:\n  - name: v\n";
        assert_eq!(rendered(t, json!({"A": 1})), json!({"metadata": {"annotations": null}, "spec": {"volumes": [{"name": "v"}]}}));
    }

    #[test]
    fn an_item_outside_its_keys_condition_joins_the_list_before() {
        // Istio's native sidecars: without `containers:`, istio-proxy continues initContainers.
        let t = "{{ $native := (eq (index .ObjectMeta.Annotations `native`) `true`) }}\nspec:\n  initContainers:\n  - name: init\n  {{ if not $native }}\n  containers:\n  {{ end }}\n  - name: istio-proxy\n    {{ if $native }}restartPolicy: Always{{ end }}\n";
        let native = rendered(t, json!({"ObjectMeta": {"Annotations": {"native": "true"}}}));
        assert_eq!(native, json!({"spec": {"initContainers": [{"name": "init"}, {"name": "istio-proxy", "restartPolicy": "Always"}]}}));
        let classic = rendered(t, json!({"ObjectMeta": {"Annotations": {}}}));
        assert_eq!(classic, json!({"spec": {"initContainers": [{"name": "init"}], "containers": [{"name": "istio-proxy"}]}}));
    }

    #[test]
    fn quoted_block_and_plain_scalars() {
        let t = "args:\n- \"-p\"\n- '15001'\n- --x={{ .V }} # a comment\nv: |\n  line one\n  {{ .V }}\nn: 3\nb: true\n";
        assert_eq!(rendered(t, json!({"V": "v"})), json!({"args": ["-p", "15001", "--x=v"], "v": "line one\nv", "n": 3, "b": true}));
    }

    #[test]
    fn a_broken_template_reads_as_far_as_it_goes() {
        for t in ["{{ if .A }}\nx: 1\n", "x: {{ .A\n", "- a\nb: 1\n  c: 2\n", "{{ end }}{{ end }}\nx: 1\n", "key: [unclosed\n  more\n", ""] {
            let _ = rendered(t, json!({"A": true}));
        }
        assert_eq!(rendered("{{ if .A }}\nx: 1\n", json!({"A": true})), json!({"x": 1}));
    }
}
