//! A template as `read` gives it, rendered for one context (the values, mesh config and
//! target a lab gives): its conditions decided and its values worked out where the
//! context tells them, the rest marked. The spec's jq calls it as `tpl_render($context)`.
//!
//! What comes out is the YAML the template renders, with marks: a value the grader cannot
//! work out is `{"{{unknown}}": true}` (with `"{{either}}": [...]`, the values it may
//! be, when a condition decides between branches), and a key that may or may not be
//! there (a condition on something unknown) is `{"{{maybe}}": value}`; so is a list
//! item, but an object item instead holds `"{{maybe}}": true`. A `range` over a known
//! map or list gives its items, one per element.
//!
//! The context is Go's: `.Values` (a map: keys as written), `.ObjectMeta`,
//! `.DeploymentMeta`, `.Spec`, `.MeshConfig`, `.ProxyConfig`... (structs: a field is read
//! under its JSON name, `TrustDomain` as `trustDomain`). Functions are those of Istio's
//! templates that decide the values the lab reads; any other makes a value unknown.

use super::action::{self, Action, Expr};
use super::tree::{Node, Part, When};
use super::{obj, Cond, Template};
use serde_json::{Map, Value};
use std::borrow::Cow;

/// A template rendered with `ctx` as `.`; null when it renders nothing at all.
pub fn render(template: &Template, ctx: &Value) -> Value {
    let r = Renderer { ctx, template, depth: Default::default() };
    let top = Scope { dot: V::Known(Cow::Borrowed(ctx)), vars: Vec::new() };
    match r.node(&template.tree, &top) {
        Out::Is(v) => v,
        Out::Maybe(v) => maybe(v),
        Out::Absent => Value::Null,
    }
}

/// An expression's value: known (mostly a part of the context, not copied), or not
/// worked out here.
#[derive(Debug, Clone, PartialEq)]
enum V<'a> {
    Known(Cow<'a, Value>),
    Unknown,
}

impl V<'_> {
    fn of(v: Value) -> V<'static> {
        V::Known(Cow::Owned(v))
    }
}

/// What `.` and the template's variables are at a point of the template.
#[derive(Clone)]
struct Scope<'a> {
    dot: V<'a>,
    vars: Vec<(String, V<'a>)>,
}

enum Out {
    Is(Value),
    Maybe(Value),
    Absent,
}

fn unknown() -> Value {
    obj([("{{unknown}}", Value::Bool(true))])
}

fn maybe(v: Value) -> Value {
    obj([("{{maybe}}", v)])
}

/// A list item that may or may not be there: an object says so itself (its keys stay
/// where a reader looks for them), anything else is wrapped.
fn maybe_item(v: Value) -> Value {
    match v {
        Value::Object(mut m) => {
            m.insert("{{maybe}}".into(), Value::Bool(true));
            Value::Object(m)
        }
        other => maybe(other),
    }
}

struct Renderer<'a> {
    ctx: &'a Value,
    template: &'a Template,
    /// How deep variables are being worked out through others (one set in terms of
    /// itself stops here).
    depth: std::cell::Cell<u8>,
}

impl<'a> Renderer<'a> {
    fn node(&self, n: &'a Node, scope: &Scope<'a>) -> Out {
        match n {
            Node::Value(v) => Out::Is(v.clone()),
            Node::Text(parts) => Out::Is(self.text(parts, scope).map_or_else(unknown, Value::String)),
            Node::Choose(alts) => self.choose(alts, scope),
            Node::Outside(item) => self.node(item, scope),
            Node::List(items) => Out::Is(Value::Array(items.iter().flat_map(|i| self.items(i, scope)).collect())),
            Node::Map(entries) => {
                let mut out = Map::new();
                let mut last_list: Option<&String> = None;
                for (k, v) in entries {
                    match self.node(v, scope) {
                        Out::Is(v) => {
                            if v.is_array() {
                                last_list = Some(k);
                            }
                            out.insert(k.clone(), v);
                        }
                        Out::Maybe(v) => {
                            out.insert(k.clone(), maybe(v));
                        }
                        Out::Absent => {
                            // Its items written outside its conditions go on the list before.
                            let outside: Vec<Value> = branches(v)
                                .filter_map(|b| if let Node::List(items) = b { Some(items) } else { None })
                                .flatten()
                                .filter(|i| matches!(i, Node::Outside(_)))
                                .flat_map(|i| self.items(i, scope))
                                .collect();
                            if let Some(Value::Array(list)) = last_list.and_then(|l| out.get_mut(l)) {
                                list.extend(outside);
                            }
                        }
                    }
                }
                Out::Is(Value::Object(out))
            }
        }
    }

    /// A list item: none, one, or (under a `range`) one per element.
    fn items(&self, item: &'a Node, scope: &Scope<'a>) -> Vec<Value> {
        let item = if let Node::Outside(inner) = item { inner } else { item };
        let Node::Choose(alts) = item else {
            return match self.node(item, scope) {
                Out::Is(v) => vec![v],
                Out::Maybe(v) => vec![maybe_item(v)],
                Out::Absent => Vec::new(),
            };
        };
        let mut out = Vec::new();
        for (when, then) in alts {
            for (ok, inner) in self.when(*when, scope) {
                match (ok, self.node(then, &inner)) {
                    (_, Out::Absent) | (Some(false), _) => {}
                    (Some(true), Out::Is(v)) => out.push(v),
                    (_, Out::Is(v) | Out::Maybe(v)) => out.push(maybe_item(v)),
                }
            }
        }
        out
    }

    /// A key's branches: the first that holds. When it is not known whether one holds,
    /// the key may be there (a lone `if`), or its value is not known, one of those that
    /// may hold (`{"{{unknown}}": true, "{{either}}": [...]}`).
    fn choose(&self, alts: &'a [(When, Node)], scope: &Scope<'a>) -> Out {
        for (at, (when, then)) in alts.iter().enumerate() {
            let Some((ok, inner)) = self.when(*when, scope).into_iter().next() else { continue };
            match ok {
                Some(false) => continue,
                Some(true) => return self.node(then, &inner),
                None if alts.len() > 1 => {
                    let mut either = Vec::new();
                    for (when, then) in &alts[at..] {
                        for (ok, inner) in self.when(*when, scope) {
                            if ok != Some(false)
                                && let Out::Is(v) | Out::Maybe(v) = self.node(then, &inner)
                            {
                                either.push(v);
                            }
                        }
                    }
                    return Out::Is(obj([("{{unknown}}", Value::Bool(true)), ("{{either}}", Value::Array(either))]));
                }
                None => {
                    return match self.node(then, &inner) {
                        Out::Is(v) | Out::Maybe(v) => Out::Maybe(v),
                        Out::Absent => Out::Absent,
                    };
                }
            }
        }
        Out::Absent
    }

    /// Whether a node's conditions hold, and the scope inside them: one answer, or one
    /// per element of a `range` over a known map or list.
    fn when(&self, when: When, scope: &Scope<'a>) -> Vec<(Option<bool>, Scope<'a>)> {
        let mut states = vec![(Some(true), scope.clone())];
        for c in &self.template.guards[when.guard][when.from..] {
            let mut next = Vec::new();
            for (ok, s) in states {
                if ok == Some(false) {
                    continue;
                }
                match c {
                    Cond::If(e) => next.push((and(ok, truth(&self.eval(self.template.expr(*e), &s))), s)),
                    Cond::Not(e) => next.push((and(ok, truth(&self.eval(self.template.expr(*e), &s)).map(|b| !b)), s)),
                    Cond::With(e) => {
                        let v = self.eval(self.template.expr(*e), &s);
                        let t = truth(&v);
                        next.push((and(ok, t), Scope { dot: v, vars: s.vars.clone() }));
                    }
                    Cond::Range(r) => {
                        let Action::Range(r) = &self.template.actions[*r] else { continue };
                        next.extend(self.range(r, &s).into_iter().map(|(t, inner)| (and(ok, t), inner)));
                    }
                }
            }
            states = next;
        }
        states
    }

    fn range(&self, r: &'a action::Range, scope: &Scope<'a>) -> Vec<(Option<bool>, Scope<'a>)> {
        let over = self.eval(&r.over, scope);
        let mut elements: Vec<(Value, Value)> = match over.as_deref() {
            Some(Value::Object(m)) => m.iter().map(|(k, v)| (Value::String(k.clone()), v.clone())).collect(),
            Some(Value::Array(a)) => a.iter().enumerate().map(|(i, v)| (Value::from(i), v.clone())).collect(),
            Some(Value::Null) => Vec::new(),
            _ => return vec![(None, scope.clone())],
        };
        // Go ranges over a map in the order of its keys.
        elements.sort_by(|a, b| a.0.as_str().cmp(&b.0.as_str()));
        elements
            .into_iter()
            .map(|(key, element)| {
                let mut inner = Scope { dot: V::of(element.clone()), vars: scope.vars.clone() };
                match r.vars.as_slice() {
                    [v] => inner.vars.push((v.clone(), V::of(element))),
                    [k, v, ..] => {
                        inner.vars.push((k.clone(), V::of(key)));
                        inner.vars.push((v.clone(), V::of(element)));
                    }
                    [] => {}
                }
                (Some(true), inner)
            })
            .collect()
    }

    fn text(&self, parts: &'a [Part], scope: &Scope<'a>) -> Option<String> {
        let mut out = String::new();
        for p in parts {
            match p {
                Part::Text(s) => out.push_str(s),
                Part::Expr(e) => out.push_str(&print(&self.eval(self.template.expr(*e), scope))?),
                Part::If(branches, otherwise) => {
                    let mut taken = otherwise;
                    for (cond, then) in branches {
                        if truth(&self.eval(self.template.expr(*cond), scope))? {
                            taken = then;
                            break;
                        }
                    }
                    out.push_str(&self.text(taken, scope)?);
                }
                Part::With(e, then, otherwise) => {
                    let v = self.eval(self.template.expr(*e), scope);
                    if truth(&v)? {
                        out.push_str(&self.text(then, &Scope { dot: v, vars: scope.vars.clone() })?);
                    } else {
                        out.push_str(&self.text(otherwise, scope)?);
                    }
                }
                Part::Unknown => return None,
            }
        }
        Some(out)
    }

    fn eval(&self, e: &'a Expr, scope: &Scope<'a>) -> V<'a> {
        match e {
            Expr::Lit(v) => V::Known(Cow::Borrowed(v)),
            Expr::Field(path) => fields(scope.dot.clone(), path),
            Expr::Var(name, path) => {
                let start = if name.is_empty() {
                    V::Known(Cow::Borrowed(self.ctx))
                } else if let Some((_, v)) = scope.vars.iter().rev().find(|(n, _)| n == name) {
                    v.clone()
                } else if let Some(stands) = self.template.vars.get(name).map(|i| self.template.expr(*i)).filter(|_| self.depth.get() < 16) {
                    self.depth.set(self.depth.get() + 1);
                    let v = self.eval(stands, &Scope { dot: V::Known(Cow::Borrowed(self.ctx)), vars: Vec::new() });
                    self.depth.set(self.depth.get() - 1);
                    v
                } else {
                    V::Unknown
                };
                fields(start, path)
            }
            Expr::Get(inner, path) => fields(self.eval(inner, scope), path),
            Expr::Call(f, args) => {
                let args: Vec<V<'a>> = args.iter().map(|a| self.eval(a, scope)).collect();
                call(f, &args)
            }
            Expr::Unknown => V::Unknown,
        }
    }
}

/// The nodes a node may be: its branches', or itself.
fn branches(n: &Node) -> Box<dyn Iterator<Item = &Node> + '_> {
    match n {
        Node::Choose(alts) => Box::new(alts.iter().map(|(_, then)| then)),
        other => Box::new(std::iter::once(other)),
    }
}

/// Both conditions; unknown unless one of them is false.
fn and(a: Option<bool>, b: Option<bool>) -> Option<bool> {
    match (a, b) {
        (Some(false), _) | (_, Some(false)) => Some(false),
        (Some(true), Some(true)) => Some(true),
        _ => None,
    }
}

impl V<'_> {
    fn as_deref(&self) -> Option<&Value> {
        match self {
            V::Known(v) => Some(v),
            V::Unknown => None,
        }
    }
}

/// Go's truth: false, 0, nil and empty strings, maps and lists are false.
fn truth(v: &V) -> Option<bool> {
    v.as_deref().map(|v| match v {
        Value::Null => false,
        Value::Bool(b) => *b,
        Value::Number(n) => n.as_f64() != Some(0.0),
        Value::String(s) => !s.is_empty(),
        Value::Array(a) => !a.is_empty(),
        Value::Object(m) => !m.is_empty(),
    })
}

/// `.A.B` of a value: a map's key as written, else a struct field's JSON name.
fn fields<'a>(mut v: V<'a>, path: &[String]) -> V<'a> {
    static NULL: Value = Value::Null;
    for f in path {
        let f = f.as_str();
        let field = |m: &Map<String, Value>| m.get(f).or_else(|| m.get(&json_name(f))).is_some();
        v = match v {
            // What the spec's jq does not know, it passes as this mark.
            V::Known(m) if m.get("{{unknown}}").is_some() => V::Unknown,
            V::Known(Cow::Borrowed(Value::Object(m))) => V::Known(Cow::Borrowed(m.get(f).or_else(|| m.get(&json_name(f))).unwrap_or(&NULL))),
            V::Known(Cow::Owned(Value::Object(m))) if field(&m) => V::of(m.get(f).or_else(|| m.get(&json_name(f))).cloned().unwrap_or(Value::Null)),
            V::Known(m) if matches!(*m, Value::Object(_) | Value::Null) => V::Known(Cow::Borrowed(&NULL)),
            // Go's methods on a wrapped value give the value (`.InterceptionMode.String`,
            // `.HoldApplicationUntilProxyStarts.GetValue`).
            known @ V::Known(_) if f == "String" || f == "GetValue" => known,
            _ => V::Unknown,
        };
    }
    v
}

fn json_name(go: &str) -> String {
    let mut c = go.chars();
    c.next().map(|f| f.to_lowercase().chain(c).collect()).unwrap_or_default()
}

/// A value as a template prints it; nil and collections are not told here.
fn print(v: &V) -> Option<String> {
    match v.as_deref()? {
        Value::String(s) => Some(s.clone()),
        Value::Bool(b) => Some(b.to_string()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// Empty as sprig's `default` and Istio's `valueOrDefault` take it.
fn empty(v: &Value) -> bool {
    truth(&V::Known(Cow::Borrowed(v))) == Some(false)
}

fn call<'a>(f: &str, a: &[V<'a>]) -> V<'a> {
    let all: Option<Vec<&Value>> = a.iter().map(V::as_deref).collect();
    let string = print;
    let result = match (f, a) {
        // Lazy ones first: a known answer needs only some arguments.
        ("and", _) => {
            for v in a {
                match truth(v) {
                    None => return V::Unknown,
                    Some(false) => return v.clone(),
                    Some(true) => {}
                }
            }
            return a.last().cloned().unwrap_or(V::of(Value::Null));
        }
        ("or", _) => {
            for v in a {
                match truth(v) {
                    None => return V::Unknown,
                    Some(true) => return v.clone(),
                    Some(false) => {}
                }
            }
            return a.last().cloned().unwrap_or(V::of(Value::Null));
        }
        ("valueOrDefault", [value, default]) => {
            return match value.as_deref() {
                Some(v) if matches!(v, Value::Null) || v == "" => default.clone(),
                _ => value.clone(),
            };
        }
        ("default", [default, value]) => {
            return match value.as_deref() {
                Some(v) if empty(v) => default.clone(),
                _ => value.clone(),
            };
        }
        // `annotation .ObjectMeta key default`: the annotation if it is set, else the default as text.
        ("annotation", [meta, key, default]) => {
            let (Some(key), Some(meta)) = (string(key), meta.as_deref()) else { return V::Unknown };
            return match meta.get("Annotations").and_then(|m| m.get(&key)) {
                Some(v) => V::of(v.clone()),
                None => print(default).map_or(V::Unknown, |s| V::of(Value::String(s))),
            };
        }
        _ => {
            let Some(all) = all else { return V::Unknown };
            match (f, all.as_slice()) {
                ("eq", [x, rest @ ..]) if !rest.is_empty() => Value::Bool(rest.contains(x)),
                ("ne", [x, y]) => Value::Bool(x != y),
                ("not", [x]) => Value::Bool(empty(x)),
                ("index", [m, keys @ ..]) => {
                    let mut v: &Value = m;
                    for k in keys {
                        static NULL: Value = Value::Null;
                        v = match (v, k) {
                            (Value::Object(o), Value::String(k)) => o.get(k).unwrap_or(&NULL),
                            (Value::Array(a), Value::Number(i)) => i.as_u64().and_then(|i| a.get(i as usize)).unwrap_or(&NULL),
                            (Value::Null, _) => &NULL,
                            _ => return V::Unknown,
                        };
                    }
                    v.clone()
                }
                ("isset", [m, Value::String(k)]) => match *m {
                    Value::Object(o) => Value::Bool(o.contains_key(k)),
                    Value::Null => Value::Bool(false),
                    _ => return V::Unknown,
                },
                // The YAML reader takes a quoted value's quotes off again.
                ("quote" | "squote" | "toString", [.., x]) => return string(&V::Known(Cow::Borrowed(*x))).map_or(V::Unknown, |s| V::of(Value::String(s))),
                ("toLower" | "lower", [Value::String(s)]) => Value::String(s.to_lowercase()),
                ("toUpper" | "upper", [Value::String(s)]) => Value::String(s.to_uppercase()),
                ("trim", [Value::String(s)]) => Value::String(s.trim().to_string()),
                ("trimSuffix", [Value::String(x), Value::String(s)]) => Value::String(s.strip_suffix(x.as_str()).unwrap_or(s).to_string()),
                ("trimPrefix", [Value::String(x), Value::String(s)]) => Value::String(s.strip_prefix(x.as_str()).unwrap_or(s).to_string()),
                ("contains", [Value::String(x), Value::String(s)]) => Value::Bool(s.contains(x.as_str())),
                ("hasPrefix", [Value::String(x), Value::String(s)]) => Value::Bool(s.starts_with(x.as_str())),
                ("hasSuffix", [Value::String(x), Value::String(s)]) => Value::Bool(s.ends_with(x.as_str())),
                ("empty", [x]) => Value::Bool(empty(x)),
                // Istio's: an annotation's JSON (`sidecar.istio.io/userVolume`), read.
                ("fromJSON", [Value::String(s)]) => match serde_json::from_str(s) {
                    Ok(v) => v,
                    Err(_) => return V::Unknown,
                },
                _ => return V::Unknown,
            }
        }
    };
    V::of(result)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn ctx() -> Value {
        json!({
            "Values": {"global": {"caAddress": "", "istioNamespace": "istio-system", "proxy": {"logLevel": "warning"}, "meshID": ""}, "revision": "canary"},
            "ObjectMeta": {"Annotations": {"sidecar.istio.io/logLevel": "debug"}, "Labels": {"app": "web"}},
            "DeploymentMeta": {"Name": "web", "Namespace": "shop"},
            "MeshConfig": {"trustDomain": "example.org"},
            "ProxyConfig": {"proxyMetadata": {"B": "2", "A": "1"}}
        })
    }

    fn rendered(template: &str) -> Value {
        render(&super::super::read(template), &ctx())
    }

    #[test]
    fn values_annotations_and_branches() {
        let t = "env:\n- name: CA_ADDR\n{{- if .Values.global.caAddress }}\n  value: {{ .Values.global.caAddress }}\n{{- else }}\n  value: istiod{{- if not (eq .Values.revision \"\") }}-{{ .Values.revision }}{{- end }}.{{ .Values.global.istioNamespace }}.svc:15012\n{{- end }}\nargs:\n- --proxyLogLevel={{ annotation .ObjectMeta `sidecar.istio.io/logLevel` .Values.global.proxy.logLevel }}\n";
        assert_eq!(rendered(t), json!({"env": [{"name": "CA_ADDR", "value": "istiod-canary.istio-system.svc:15012"}], "args": ["--proxyLogLevel=debug"]}));
    }

    #[test]
    fn with_sets_the_dot_and_else_if_chains() {
        let t = "env:\n{{- if .Values.global.meshID }}\n- name: MESH\n  value: \"{{ .Values.global.meshID }}\"\n{{- else if (valueOrDefault .MeshConfig.TrustDomain .Values.global.trustDomain) }}\n- name: MESH\n  value: \"{{ (valueOrDefault .MeshConfig.TrustDomain .Values.global.trustDomain) }}\"\n{{- end }}\n{{- with (index .ObjectMeta.Labels `service.istio.io/workload-name` | default .DeploymentMeta.Name) }}\n- name: WORKLOAD\n  value: \"{{ . }}\"\n{{ end }}\n";
        assert_eq!(rendered(t), json!({"env": [{"name": "MESH", "value": "example.org"}, {"name": "WORKLOAD", "value": "web"}]}));
    }

    #[test]
    fn a_range_over_a_known_map_gives_an_item_per_key_in_order() {
        let t = "env:\n- name: FIRST\n{{- range $key, $value := .ProxyConfig.ProxyMetadata }}\n- name: {{ $key }}\n  value: \"{{ $value }}\"\n{{- end }}\n";
        assert_eq!(rendered(t), json!({"env": [{"name": "FIRST"}, {"name": "A", "value": "1"}, {"name": "B", "value": "2"}]}));
    }

    /// Istio's template adds the volumes a `sidecar.istio.io/userVolume` annotation holds,
    /// as JSON, by name: each is a volume of the injection output.
    #[test]
    fn a_range_over_an_annotations_json_names_its_items() {
        let mut c = ctx();
        c["ObjectMeta"]["Annotations"]["sidecar.istio.io/userVolume"] = json!(r#"{"certs":{"secret":{"secretName":"certs"}}}"#);
        let t = "volumes:\n{{- if isset .ObjectMeta.Annotations `sidecar.istio.io/userVolume` }}\n{{- range $index, $value := fromJSON (index .ObjectMeta.Annotations `sidecar.istio.io/userVolume`) }}\n- name: \"{{ $index }}\"\n{{- end }}\n{{- end }}\n- name: istio-envoy\n";
        assert_eq!(render(&super::super::read(t), &c), json!({"volumes": [{"name": "certs"}, {"name": "istio-envoy"}]}));
    }

    #[test]
    fn what_is_not_known_is_marked() {
        let t = "a: {{ .ProxyImage | quote }}\nb: {{ env \"X\" }}\nlist:\n{{- if $nativeSidecar }}\n- maybe\n{{- end }}\n{{- if eq .Values.global.proxy.logLevel \"info\" }}\n- never\n{{- end }}\n- always\n";
        assert_eq!(
            rendered(t),
            json!({"a": {"{{unknown}}": true}, "b": {"{{unknown}}": true}, "list": [{"{{maybe}}": "maybe"}, "always"]})
        );
    }

    #[test]
    fn go_truth_and_lazy_logic() {
        assert_eq!(call("and", &[V::of(json!(false)), V::Unknown]), V::of(json!(false)));
        assert_eq!(call("or", &[V::of(json!("x")), V::Unknown]), V::of(json!("x")));
        assert_eq!(call("and", &[V::of(json!(true)), V::Unknown]), V::Unknown);
        assert_eq!(call("valueOrDefault", &[V::of(json!("a")), V::Unknown]), V::of(json!("a")));
        assert_eq!(call("valueOrDefault", &[V::of(json!("")), V::of(json!("b"))]), V::of(json!("b")));
        assert_eq!(call("default", &[V::of(json!("d")), V::of(json!(""))]), V::of(json!("d")));
        assert_eq!(call("not", &[V::of(json!({}))]), V::of(json!(true)));
        assert_eq!(call("eq", &[V::of(json!("a")), V::of(json!("b")), V::of(json!("a"))]), V::of(json!(true)));
        assert_eq!(call("nope", &[]), V::Unknown);
    }
}
