//! `kv_line`: the file has exactly one `key=value` line for `key`, with the value the
//! grader derived (`expect`) or of the form a regex describes (`matches`).

use super::{Kind, KindDef, Want};
use crate::check::{expected_text, need, Cx, Verdict};
use crate::display::value_text;
use crate::lang::{checks::Checks, list, t, tr};
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
                let numbers: Vec<String> = numbers.iter().map(usize::to_string).collect();
                return Verdict::fail(t!(Checks::SetTwice, key = key, lines = list(&numbers)))
                    .line(first.line)
                    .detail(key);
            }
        };
        let found = Value::String(entry.value.clone());
        let v = match &self.want {
            Want::Equals(id) => {
                let exp = need!(expected_text(cx, *id));
                let want = value_text(&exp);
                let mut v = Verdict::judge(want == entry.value, t!(Checks::NotExpected, key = key));
                v.slip = comment(&entry.value).or_else(|| prefixed(&entry.value, &want)).or_else(|| slip(&entry.value, &want).map(|s| tr(s).to_string()));
                v.expected(exp)
            }
            Want::Matches(re) => Verdict::judge(re.is_match(&entry.value), t!(Checks::NotOfForm, key = key, pattern = re))
                .expected(Value::String(format!("a value matching /{re}/"))),
        };
        v.found(found).line(entry.line).detail(key).wrong_value()
    }

    fn needs(&self) -> Vec<crate::jq::ExprId> {
        self.want.needs()
    }

    fn fails_whatever_expected(&self, cx: &Cx) -> bool {
        // A file that cannot be read is its own check's (`exists`) to charge.
        cx.artifact.kv().is_ok_and(|kv| kv.get(&self.key).len() != 1)
    }

    fn reads_text(&self) -> bool {
        true
    }
}

/// No `key=` line: point at one that sets the key another way, or a key spelled nearly
/// so, if there is one.
fn missing(cx: &Cx, key: &str) -> Verdict {
    let near = cx.artifact.text().ok().and_then(|t| crate::input::kv::near_miss(t, key));
    if let Some((line, text)) = near {
        let shown: String = text.chars().take(60).collect();
        let cut = if shown.len() < text.len() { "..." } else { "" };
        let text = format!("{shown}{cut}");
        return Verdict::fail(t!(Checks::OtherForm, key = key, line = line, text = text)).line(line).detail(key);
    }
    let kv = cx.artifact.kv().ok();
    if let Some((line, near)) = kv.and_then(|kv| crate::input::kv::misspelled(kv, key)) {
        return Verdict::fail(t!(Checks::Misspelled, key = key, line = line, near = near)).line(line).detail(key);
    }
    if let Some((line, near)) = kv.and_then(|kv| crate::input::kv::prefixed(kv, key)) {
        return Verdict::fail(t!(Checks::LongerKey, key = key, line = line, near = near)).line(line).detail(key);
    }
    match kv.and_then(|kv| crate::input::kv::shortened(kv, key)) {
        Some((line, near)) => Verdict::fail(t!(Checks::ShorterKey, key = key, line = line, near = near)).line(line).detail(key),
        None => Verdict::fail(t!(Checks::NoLine, key = key)).detail(key),
    }
}

/// A value followed by what reads as a comment (`sidecar   # the 2nd arg`): the
/// comment is part of the value. Said of the student's own text, whatever the value.
fn comment(found: &str) -> Option<String> {
    let at = found.char_indices().find(|(i, c)| *c == '#' && *i > 0 && found[..*i].ends_with(char::is_whitespace)).map(|(i, _)| i)?;
    let comment = crate::display::safe_max(&found[at..], 40);
    Some(t!(Checks::Comment, comment = comment))
}

/// A value that still holds the `name=` it was copied from (`rc=1` for `typo_rc=`,
/// `--proxyLogLevel=warning`): said, as naming it gives nothing the student did not write.
fn prefixed(found: &str, want: &str) -> Option<String> {
    let at = found.rfind('=')?;
    (found[at + 1..].trim() == want && !want.is_empty() && !want.contains('=')).then(|| {
        let prefix = crate::display::safe_max(&found[..=at], 40);
        t!(Checks::Prefixed, prefix = prefix)
    })
}

/// What alone makes `found` differ from `want`, when it is a common slip: naming it
/// tells the student nothing of the value they did not already write.
fn slip(found: &str, want: &str) -> Option<Checks> {
    let unquoted = [('"', '"'), ('\'', '\''), ('`', '`')]
        .iter()
        .find_map(|(a, b)| found.strip_prefix(*a).and_then(|f| f.strip_suffix(*b)));
    let spaceless = |s: &str| s.split_whitespace().collect::<String>();
    if found == want {
        None
    } else if unquoted == Some(want) {
        Some(Checks::Quoted)
    } else if found.trim_end_matches('/') == want.trim_end_matches('/') {
        Some(Checks::TrailingSlash)
    } else if spaceless(found) == spaceless(want) {
        Some(Checks::Spaces)
    } else if found.eq_ignore_ascii_case(want) {
        Some(Checks::Case)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::{comment, slip};
    use crate::lang::checks::Checks;

    #[test]
    fn common_slips_are_named() {
        assert_eq!(slip("\"sidecar\"", "sidecar"), Some(Checks::Quoted));
        assert_eq!(slip("/var/run/secrets/tokens/", "/var/run/secrets/tokens"), Some(Checks::TrailingSlash));
        assert_eq!(slip("fieldRef: metadata.namespace", "fieldRef:metadata.namespace"), Some(Checks::Spaces));
        assert_eq!(slip("Sidecar", "sidecar"), Some(Checks::Case));
        assert_eq!(slip("router", "sidecar"), None);
        assert_eq!(slip("sidecar", "sidecar"), None);
    }

    #[test]
    fn a_copied_key_before_the_value_is_named() {
        assert!(super::prefixed("rc=1", "1").unwrap().contains("`rc=`"));
        assert!(super::prefixed("--proxyLogLevel=warning", "warning").unwrap().contains("`--proxyLogLevel=`"));
        assert_eq!(super::prefixed("rc=1", "2"), None);
        assert_eq!(super::prefixed("a=b", "a=b"), None);
    }

    #[test]
    fn a_comment_after_a_value_is_named() {
        assert!(comment("sidecar   # the 2nd arg").unwrap().contains("`# the 2nd arg`, is part of the value"));
        assert_eq!(comment("a#b"), None, "a # inside a value");
        assert_eq!(comment("sidecar"), None);
    }
}
