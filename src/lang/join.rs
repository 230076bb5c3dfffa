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

/// Identifiers in a row, not a sentence's list: `a, b, c` (`a、b、c` in Chinese).
pub fn ids<S: AsRef<str>>(items: &[S]) -> String {
    let all: Vec<&str> = items.iter().map(AsRef::as_ref).collect();
    all.join(if current() == Lang::Zh { "、" } else { ", " })
}

/// Statements said together: listed in English and Chinese; in Korean, where each
/// ends a sentence (`…보냅니다`), one sentence after another.
pub fn statements<S: AsRef<str>>(items: &[S]) -> String {
    if current() == Lang::Ko { items.iter().map(AsRef::as_ref).collect::<Vec<_>>().join(". ") } else { list(items) }
}

/// One sentence after another: `a. b` (`a。b` in Chinese).
pub fn sentences(first: &str, then: &str) -> String {
    let first = first.trim_end_matches(['.', '。', ';', '；']);
    if current() == Lang::Zh { format!("{first}。{then}") } else { format!("{first}. {then}") }
}

/// A sentence put after a colon or in parentheses: its first word lower-cased when it
/// is a plain word that starts sentences (`Your`, `The`), never a name (`Envoy`).
pub fn clause(s: &str) -> String {
    const PLAIN: &[&str] = &["A", "An", "The", "This", "That", "Your", "It", "Its", "No", "Nothing", "There", "One", "Every", "Each"];
    let first = s.split(|c: char| !c.is_alphabetic()).next().unwrap_or("");
    if PLAIN.contains(&first) { format!("{}{}", first.to_lowercase(), &s[first.len()..]) } else { s.to_string() }
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

#[cfg(test)]
mod tests {
    use super::clause;

    #[test]
    fn a_sentence_made_a_clause_starts_in_lower_case_unless_with_a_name() {
        assert_eq!(clause("Your bootstrap.yaml gives Envoy no admin address"), "your bootstrap.yaml gives Envoy no admin address");
        assert_eq!(clause("The Envoy at http://127.0.0.1:15000 is not running"), "the Envoy at http://127.0.0.1:15000 is not running");
        for same in ["Envoy exited with code 1", "CA_ADDR is missing", "Theory", "bootstrap.yaml is empty", "内容"] {
            assert_eq!(clause(same), same);
        }
    }
}
