//! How each language joins words and sentences: lists, clauses, labels.

use super::{current, Lang};

/// Names listed as each language lists them: `a, b and c`; `a, b, c`; `a、b、c`.
pub fn list<S: AsRef<str>>(items: &[S]) -> String {
    let all: Vec<&str> = items.iter().map(AsRef::as_ref).collect();
    match (current(), all.split_last()) {
        (Lang::En, Some((last, rest))) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        (Lang::Zh, _) => all.join("、"),
        _ => all.join(", "),
    }
}

/// One sentence after another: `a. b` (`a。b` in Chinese).
pub fn sentences(first: &str, then: &str) -> String {
    let first = first.trim_end_matches(['.', '。', ';', '；']);
    if current() == Lang::Zh { format!("{first}。{then}") } else { format!("{first}. {then}") }
}

/// The first clause of a sentence: up to its first `: `, `, ` or `. ` (or their
/// Chinese forms); a file name's dots do not end it.
pub fn first_clause(s: &str) -> &str {
    let end = [": ", ", ", ". ", "：", "，", "。"].iter().filter_map(|sep| s.find(sep)).min().unwrap_or(s.len());
    s[..end].trim()
}

/// After a label: `where:` in English and Korean, `位置：` in Chinese.
pub fn colon() -> &'static str {
    if current() == Lang::Zh { "：" } else { ":" }
}

/// `label: value`, or `标签：值`.
pub fn labelled(label: &str, value: &str) -> String {
    if current() == Lang::Zh { format!("{label}：{value}") } else { format!("{label}: {value}") }
}

/// Clauses said one after the other, as each language writes them: `a; b.` in English,
/// `a. b.` in Korean, `a；b。` in Chinese.
pub fn clauses(first: &str, then: &str) -> String {
    let end = |s: &str| s.trim_end_matches(['.', '。', '；', ';']).to_string();
    match current() {
        Lang::En => format!("{}; {}.", end(first), end(then)),
        Lang::Ko => format!("{}. {}.", end(first), end(then)),
        Lang::Zh => format!("{}；{}。", end(first), end(then)),
    }
}
