//! The YAML of a template's lines, each under the conditions it is written under, read
//! into the tree the module's doc describes.
//!
//! The YAML here is that of injection templates: block mappings and lists (a list item's
//! first key on its `- ` line), plain and quoted scalars, block scalars (`|`), and flow
//! collections, which only the empty ones (`{}`, `[]`) are read of. A line it cannot
//! place is passed over: a template is read leniently, not checked.

use super::action::Action;
use super::Cond;
use serde_json::{Map, Number, Value};

/// A template's YAML as read.
#[derive(Debug)]
pub enum Node {
    /// A scalar without actions, or an empty flow collection.
    Value(Value),
    /// A scalar with actions in it.
    Text(Vec<Part>),
    Map(Vec<(String, Node)>),
    List(Vec<Node>),
    /// A key or list item under conditions the enclosing node is not: one entry per
    /// branch that sets it, in the template's order.
    Choose(Vec<(When, Node)>),
    /// A list item not written under its key's conditions (`{{ if not $native }}
    /// containers:{{ end }}` then `- name: istio-proxy`): when the key is not rendered,
    /// YAML reads it as the list before's.
    Outside(Box<Node>),
}

/// Conditions: those of guard `guard` from the `from`th on (the enclosing node's are
/// the ones before).
#[derive(Debug, Clone, Copy)]
pub struct When {
    pub guard: usize,
    pub from: usize,
}

/// A piece of a scalar: its text, the value of an action (by number), and the actions
/// that choose between pieces.
#[derive(Debug)]
pub enum Part {
    Text(String),
    Expr(usize),
    If(Vec<(usize, Vec<Part>)>, Vec<Part>),
    With(usize, Vec<Part>, Vec<Part>),
    /// Not read here (a `range` within a value, an unbalanced block).
    Unknown,
}

/// Where an action stood in a line's text.
pub(super) const ACT_OPEN: char = '\u{E000}';
pub(super) const ACT_CLOSE: char = '\u{E001}';

/// A line of YAML: its indentation, its text after it (actions as placeholders), and the
/// conditions it is written under (an index into the guards).
pub(super) struct Line {
    pub indent: usize,
    pub text: String,
    pub guard: usize,
    /// Only actions that write a value: read within a block scalar, passed over elsewhere.
    pub filler: bool,
}

pub(super) struct Reader<'a> {
    pub lines: Vec<Line>,
    pub guards: &'a [Vec<Cond>],
    pub actions: &'a [Action],
    pub raws: &'a [&'a str],
    pub at: usize,
}

impl<'a> Reader<'a> {
    /// The whole template: a mapping (or a list) from its first line on.
    pub fn document(&mut self) -> Node {
        self.at = self.lines.iter().position(|l| !l.filler).unwrap_or(self.lines.len());
        match self.lines.get(self.at) {
            Some(first) => {
                let indent = first.indent;
                self.block(indent, 0)
            }
            None => Node::Value(Value::Null),
        }
    }

    /// A mapping or list at `indent`, within a node written under guard `outer`.
    fn block(&mut self, indent: usize, outer: usize) -> Node {
        if is_item(&self.lines[self.at].text) { self.list(indent, outer) } else { self.mapping(indent, outer) }
    }

    fn mapping(&mut self, indent: usize, outer: usize) -> Node {
        let mut by_key: Vec<(String, Vec<(When, Node)>)> = Vec::new();
        while let Some(line) = self.lines.get(self.at) {
            if line.filler {
                self.at += 1;
                continue;
            }
            if line.indent < indent || (line.indent == indent && is_item(&line.text)) {
                break;
            }
            self.at += 1;
            if line.indent > indent {
                continue; // Not a key of this mapping: passed over.
            }
            let guard = line.guard;
            let Some((key, rest)) = split_key(&line.text).map(|(k, r)| (k.to_string(), r.to_string())) else { continue };
            let key = self.key(&key);
            let value = self.value_after(&rest, indent, guard);
            let entry = (self.relative(guard, outer), value);
            match by_key.iter_mut().find(|(k, _)| *k == key) {
                Some((_, entries)) => entries.push(entry),
                None => by_key.push((key, vec![entry])),
            }
        }
        Node::Map(by_key.into_iter().map(|(k, entries)| (k, self.wrap(entries))).collect())
    }

    fn list(&mut self, indent: usize, outer: usize) -> Node {
        let mut items = Vec::new();
        while let Some(line) = self.lines.get(self.at) {
            if line.filler {
                self.at += 1;
                continue;
            }
            if line.indent < indent || (line.indent == indent && !is_item(&line.text)) {
                break;
            }
            if line.indent > indent {
                self.at += 1;
                continue;
            }
            let (guard, width) = (line.guard, line.text.len());
            let content = line.text[1..].trim_start().to_string();
            let item = if content.is_empty() {
                self.at += 1;
                self.nested(indent, guard)
            } else if split_key(&content).is_some() {
                // `- key: value`: a mapping whose first key is on this line, at the column
                // of the key.
                let column = indent + width - content.len();
                self.lines[self.at] = Line { indent: column, text: content, guard, filler: false };
                self.mapping(column, guard)
            } else {
                let value = self.scalar(&content);
                self.at += 1;
                value
            };
            let when = self.relative(guard, outer);
            let item = self.wrap(vec![(when, item)]);
            items.push(if when.from == 0 && !self.guards[outer].is_empty() { Node::Outside(Box::new(item)) } else { item });
        }
        Node::List(items)
    }

    /// The value of a key or item whose line ends at it: the block below, if any.
    fn nested(&mut self, indent: usize, guard: usize) -> Node {
        while self.lines.get(self.at).is_some_and(|l| l.filler) {
            self.at += 1;
        }
        match self.lines.get(self.at) {
            Some(next) if next.indent > indent || (next.indent == indent && is_item(&next.text)) => {
                let at = next.indent;
                self.block(at, guard)
            }
            _ => Node::Value(Value::Null),
        }
    }

    /// Guard `inner`'s conditions that `outer`'s do not already hold.
    fn relative(&self, inner: usize, outer: usize) -> When {
        let (i, o) = (&self.guards[inner], &self.guards[outer]);
        When { guard: inner, from: if i.starts_with(o) { o.len() } else { 0 } }
    }

    fn value_after(&mut self, rest: &str, indent: usize, guard: usize) -> Node {
        let rest = rest.trim();
        if rest.is_empty() || rest.starts_with('#') {
            return self.nested(indent, guard);
        }
        if rest.starts_with('|') || rest.starts_with('>') {
            let mut text = Vec::new();
            while let Some(l) = self.lines.get(self.at).filter(|l| l.indent > indent) {
                text.push(l.text.clone());
                self.at += 1;
            }
            return self.scalar_text(&text.join("\n"));
        }
        if rest.starts_with('{') || rest.starts_with('[') {
            // A flow collection: read only when empty; one over several lines is passed over.
            let mut depth = flow_depth(rest);
            while depth > 0 {
                let Some(l) = self.lines.get(self.at) else { break };
                depth += flow_depth(&l.text);
                self.at += 1;
            }
            return Node::Value(match rest {
                "{}" => Value::Object(Map::new()),
                "[]" => Value::Array(Vec::new()),
                _ => Value::Null,
            });
        }
        self.scalar(rest)
    }

    /// A scalar as written on a line: quoted, or plain (a comment after it left out).
    fn scalar(&self, written: &str) -> Node {
        let written = written.trim();
        if let Some(inner) = written.strip_prefix('"').and_then(|w| w.rfind('"').map(|end| &w[..end])) {
            let text = serde_json::from_str::<String>(&format!("\"{inner}\"")).unwrap_or_else(|_| inner.to_string());
            return self.scalar_text(&text);
        }
        if let Some(inner) = written.strip_prefix('\'').and_then(|w| w.rfind('\'').map(|end| &w[..end])) {
            return self.scalar_text(&inner.replace("''", "'"));
        }
        let plain = written.find(" #").map_or(written, |c| written[..c].trim_end());
        if plain.contains(ACT_OPEN) {
            return self.scalar_text(plain);
        }
        Node::Value(match plain {
            "" | "~" | "null" => Value::Null,
            "true" => Value::Bool(true),
            "false" => Value::Bool(false),
            _ => plain.parse::<i64>().map(|n| Value::Number(Number::from(n))).unwrap_or_else(|_| Value::String(plain.to_string())),
        })
    }

    /// Text, and the actions in it.
    fn scalar_text(&self, text: &str) -> Node {
        if !text.contains(ACT_OPEN) {
            return Node::Value(Value::String(text.to_string()));
        }
        let mut folded = self.fold(&pieces(text), &mut 0);
        match folded.as_mut_slice() {
            [Part::Text(one)] => Node::Value(Value::String(std::mem::take(one))),
            [] => Node::Value(Value::String(String::new())),
            _ => Node::Text(folded),
        }
    }

    /// A key as the template writes it (an action in it shown as written).
    fn key(&self, k: &str) -> String {
        let k = k.trim();
        let k = k.strip_prefix('"').and_then(|k| k.strip_suffix('"')).or_else(|| k.strip_prefix('\'').and_then(|k| k.strip_suffix('\''))).unwrap_or(k);
        let mut out = String::new();
        for part in pieces(k) {
            match part {
                Piece::Text(t) => out.push_str(&t),
                Piece::Act(i) => out.push_str(self.raws[i]),
            }
        }
        out
    }

    /// Text and actions up to an `else` or `end` that closes an enclosing action.
    fn fold(&self, parts: &[Piece], at: &mut usize) -> Vec<Part> {
        let mut out: Vec<Part> = Vec::new();
        while *at < parts.len() {
            match &parts[*at] {
                Piece::Text(t) => {
                    out.push(Part::Text(t.clone()));
                    *at += 1;
                }
                Piece::Act(i) => match &self.actions[*i] {
                    Action::Output(_) => {
                        out.push(Part::Expr(*i));
                        *at += 1;
                    }
                    Action::Silent | Action::Set { .. } => *at += 1,
                    Action::End | Action::Else | Action::ElseIf(_) | Action::ElseWith(_) => return out,
                    Action::If(_) | Action::With(_) => {
                        let is_with = matches!(self.actions[*i], Action::With(_));
                        *at += 1;
                        let mut branches = vec![(*i, self.fold(parts, at))];
                        let mut otherwise = Vec::new();
                        loop {
                            let next = parts.get(*at).and_then(|p| if let Piece::Act(j) = p { Some(*j) } else { None });
                            match next.map(|j| (j, &self.actions[j])) {
                                Some((j, Action::ElseIf(_) | Action::ElseWith(_))) => {
                                    *at += 1;
                                    branches.push((j, self.fold(parts, at)));
                                }
                                Some((_, Action::Else)) => {
                                    *at += 1;
                                    otherwise = self.fold(parts, at);
                                }
                                Some((_, Action::End)) => {
                                    *at += 1;
                                    break;
                                }
                                _ => return vec![Part::Unknown],
                            }
                        }
                        out.push(if is_with && branches.len() == 1 {
                            let (c, then) = branches.swap_remove(0);
                            Part::With(c, then, otherwise)
                        } else {
                            Part::If(branches, otherwise)
                        });
                    }
                    Action::Range(_) | Action::Define => return vec![Part::Unknown],
                },
            }
        }
        out
    }
}

fn is_item(text: &str) -> bool {
    text == "-" || text.starts_with("- ")
}

/// `key: rest` (or `key:` at the end of the line), the colon outside quotes.
fn split_key(text: &str) -> Option<(&str, &str)> {
    let mut quote = None;
    for (i, c) in text.char_indices() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') if i == 0 => quote = Some(c),
            (None, '{' | '[' | '#') if i == 0 => return None,
            (None, ':') => {
                let rest = &text[i + 1..];
                if rest.is_empty() || rest.starts_with(' ') {
                    return Some((&text[..i], rest));
                }
            }
            _ => {}
        }
    }
    None
}

/// How many flow collections a line opens and does not close.
fn flow_depth(text: &str) -> i64 {
    text.chars().map(|c| match c {
        '{' | '[' => 1,
        '}' | ']' => -1,
        _ => 0,
    }).sum()
}

impl Reader<'_> {
    /// Entries of one key (or one list item) under their conditions: a lone one written
    /// under no more than the enclosing node's is the value itself.
    fn wrap(&self, mut entries: Vec<(When, Node)>) -> Node {
        if entries.len() == 1 && self.guards[entries[0].0.guard].len() == entries[0].0.from {
            return entries.swap_remove(0).1;
        }
        Node::Choose(entries)
    }
}

/// A scalar's text and its actions (by number), as written.
enum Piece {
    Text(String),
    Act(usize),
}

/// A scalar's text and the actions in it, in order.
fn pieces(s: &str) -> Vec<Piece> {
    let mut out = Vec::new();
    let mut rest = s;
    while let Some(open) = rest.find(ACT_OPEN) {
        if open > 0 {
            out.push(Piece::Text(rest[..open].to_string()));
        }
        let after = &rest[open + ACT_OPEN.len_utf8()..];
        let Some(close) = after.find(ACT_CLOSE) else { break };
        if let Ok(i) = after[..close].parse() {
            out.push(Piece::Act(i));
        }
        rest = &after[close + ACT_CLOSE.len_utf8()..];
    }
    if !rest.is_empty() {
        out.push(Piece::Text(rest.to_string()));
    }
    out
}
