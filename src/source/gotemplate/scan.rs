//! A template cut into lines of text and actions (`{{ ... }}`), each action parsed.

use super::action::{self, Action};

pub(super) enum Piece<'t> {
    Text(&'t str),
    Act(usize),
}

/// A template cut into lines of text and actions; an action that spans lines belongs
/// to the line it starts in.
pub(super) struct Scan<'t> {
    pub lines: Vec<Vec<Piece<'t>>>,
    pub actions: Vec<Action>,
    /// Each action as written, for a key that holds one.
    pub raws: Vec<&'t str>,
}

impl<'t> Scan<'t> {
    pub fn of(text: &'t str) -> Scan<'t> {
        let mut scan = Scan { lines: vec![Vec::new()], actions: Vec::new(), raws: Vec::new() };
        let mut rest = text;
        while !rest.is_empty() {
            let Some(open) = find_open(rest) else {
                scan.text(rest);
                break;
            };
            scan.text(&rest[..open]);
            let Some(len) = action_len(&rest[open..]) else {
                scan.text(&rest[open..]);
                break;
            };
            let raw = &rest[open..open + len];
            scan.actions.push(action::parse(inner(raw)));
            scan.raws.push(raw);
            let i = scan.actions.len() - 1;
            scan.lines.last_mut().expect("a line").push(Piece::Act(i));
            rest = &rest[open + len..];
        }
        scan
    }

    fn text(&mut self, t: &'t str) {
        let mut parts = t.split('\n');
        if let Some(first) = parts.next()
            && !first.is_empty()
        {
            self.lines.last_mut().expect("a line").push(Piece::Text(first.strip_suffix('\r').unwrap_or(first)));
        }
        for p in parts {
            self.lines.push(Vec::new());
            if !p.is_empty() {
                self.lines.last_mut().expect("a line").push(Piece::Text(p.strip_suffix('\r').unwrap_or(p)));
            }
        }
    }
}

/// The length of the action at the start of `s` (`{{` ... `}}`), quotes inside it
/// skipped; none if it is not closed.
fn action_len(s: &str) -> Option<usize> {
    let b = s.as_bytes();
    let mut i = 2;
    let body = s[2..].trim_start_matches('-').trim_start();
    if body.starts_with("/*") {
        return s.find("*/").and_then(|c| s[c..].find("}}").map(|e| c + e + 2));
    }
    let mut quote: Option<u8> = None;
    while i < b.len() {
        match (quote, b[i]) {
            (Some(b'"'), b'\\') => i += 1,
            (Some(q), c) if c == q => quote = None,
            (None, b'"' | b'`' | b'\'') => quote = Some(b[i]),
            (None, b'}') if b.get(i + 1) == Some(&b'}') => return Some(i + 2),
            _ => {}
        }
        i += 1;
    }
    None
}

/// An action's text without its braces and trim markers.
fn inner(raw: &str) -> &str {
    let s = &raw[2..raw.len() - 2];
    let s = s.strip_prefix('-').filter(|r| r.starts_with(char::is_whitespace)).unwrap_or(s);
    s.strip_suffix('-').filter(|r| r.ends_with(char::is_whitespace)).unwrap_or(s)
}

/// Where the first `{{` is (a byte scan: `str::find` sets up a searcher on every call).
fn find_open(s: &str) -> Option<usize> {
    let b = s.as_bytes();
    let mut i = 0;
    while let Some(at) = b[i..].iter().position(|&c| c == b'{') {
        if b.get(i + at + 1) == Some(&b'{') {
            return Some(i + at);
        }
        i += at + 1;
    }
    None
}
