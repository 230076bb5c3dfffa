//! `kv_line`: the file has exactly one `key=value` line for `key`, with the value the
//! grader derived (`expect`) or of the form a regex describes (`matches`).

use super::{Kind, KindDef, Want};
use crate::check::{expected_text, need, Cx, Verdict};
use crate::display::value_text;
use crate::spec::fields::Fields;
use serde_json::Value;

pub const KIND: KindDef = KindDef { name: "kv_line", fields: &["key", "expect", "matches"], compile };

struct KvLine {
    key: String,
    want: Want,
}

fn compile(f: &mut Fields) -> Option<Box<dyn Kind>> {
    let key = f.need("key");
    let want = Want::compile(f)?;
    Some(Box::new(KvLine { key: key?, want }))
}

impl Kind for KvLine {
    fn run(&self, cx: &Cx) -> Verdict {
        let key = self.key.as_str();
        let kv = need!(cx.artifact.kv().map_err(Verdict::fail));
        let lines = kv.get(key);
        let entry = match lines.as_slice() {
            [] => return missing(cx, key),
            [one] => *one,
            [first, ..] => {
                let numbers: Vec<usize> = lines.iter().map(|e| e.line).collect();
                return Verdict::fail(format!("`{key}` is set more than once (lines {}); keep one line", listed(&numbers)))
                    .line(first.line)
                    .detail(key);
            }
        };
        let found = Value::String(entry.value.clone());
        let v = match &self.want {
            Want::Equals(id) => {
                let exp = need!(expected_text(cx, *id));
                let want = value_text(&exp);
                let mut v = Verdict::judge(want == entry.value, format!("`{key}` is not the expected value"));
                v.slip = slip(&entry.value, &want).map(str::to_string);
                v.expected(exp)
            }
            Want::Matches(re) => Verdict::judge(re.is_match(&entry.value), format!("`{key}` is not of the form /{re}/"))
                .expected(Value::String(format!("a value matching /{re}/"))),
        };
        v.found(found).line(entry.line).detail(key).wrong_value()
    }

    fn needs(&self) -> Vec<crate::jq::ExprId> {
        self.want.needs()
    }

    fn reads_text(&self) -> bool {
        true
    }
}

/// No `key=` line: point at one that sets the key another way, if there is one.
fn missing(cx: &Cx, key: &str) -> Verdict {
    let near = cx.artifact.text().ok().and_then(|t| crate::input::kv::near_miss(t, key));
    match near {
        Some((line, text)) => {
            let shown: String = text.chars().take(60).collect();
            let cut = if shown.len() < text.len() { "..." } else { "" };
            Verdict::fail(format!("there is no `{key}=` line; line {line} reads `{shown}{cut}`: write `{key}=` and the value at the start of a line"))
                .line(line)
                .detail(key)
        }
        None => Verdict::fail(format!("there is no `{key}=` line")).detail(key),
    }
}

/// `1 and 5`, `1, 5, 6 and 7`.
fn listed(numbers: &[usize]) -> String {
    let all: Vec<String> = numbers.iter().map(usize::to_string).collect();
    match all.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => all.join(""),
    }
}

/// What alone makes `found` differ from `want`, when it is a common slip: naming it
/// tells the student nothing of the value they did not already write.
fn slip(found: &str, want: &str) -> Option<&'static str> {
    let unquoted = [('"', '"'), ('\'', '\''), ('`', '`')]
        .iter()
        .find_map(|(a, b)| found.strip_prefix(*a).and_then(|f| f.strip_suffix(*b)));
    let spaceless = |s: &str| s.split_whitespace().collect::<String>();
    if found == want {
        None
    } else if unquoted == Some(want) {
        Some("the value is in quotes; write it without them")
    } else if found.trim_end_matches('/') == want.trim_end_matches('/') {
        Some("the value differs only in a trailing /; write it as the file it comes from does")
    } else if spaceless(found) == spaceless(want) {
        Some("the value differs only in spaces; write it as the file it comes from does, character for character")
    } else if found.eq_ignore_ascii_case(want) {
        Some("the value differs only in upper and lower case; write it as the file it comes from does")
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::{listed, slip};

    #[test]
    fn lines_are_listed_as_in_a_sentence() {
        assert_eq!(listed(&[1, 5]), "1 and 5");
        assert_eq!(listed(&[1, 5, 6, 7]), "1, 5, 6 and 7");
        assert_eq!(listed(&[3]), "3");
    }

    #[test]
    fn common_slips_are_named() {
        assert!(slip("\"sidecar\"", "sidecar").unwrap().contains("quotes"));
        assert!(slip("/var/run/secrets/tokens/", "/var/run/secrets/tokens").unwrap().contains("trailing /"));
        assert!(slip("fieldRef: metadata.namespace", "fieldRef:metadata.namespace").unwrap().contains("spaces"));
        assert!(slip("Sidecar", "sidecar").unwrap().contains("case"));
        assert_eq!(slip("router", "sidecar"), None);
        assert_eq!(slip("sidecar", "sidecar"), None);
    }
}
