//! Expressions that only read a spec variable, or a field or element of it
//! (`$env.CA_ADDR`, `$args[1]`): a third of a spec's expressions, run without jaq.
//!
//! Why: jaq sets up and tears down an interpreter context for every run, about 2 µs even
//! for `$x`, and a batch runs these thousands of times. The lookup here indexes with
//! jaq's own [`ValT::index`], as jaq's path `.key` does, so results and error messages
//! are the same (a test runs both ways).

use jaq_core::ValT;
use jaq_json::Val;

/// `$name` followed by `.key` and `[n]` steps, already resolved to a spec variable.
#[derive(Debug, Clone)]
pub struct Lookup {
    /// Index of the variable among the spec's globals.
    pub(super) global: usize,
    steps: Vec<Val>,
}

impl Lookup {
    /// The lookup `code` is, if it is one and names one of `globals`.
    pub fn parse(code: &str, globals: &[String]) -> Option<Lookup> {
        let code = code.trim().strip_prefix('$')?;
        let (name, mut rest) = split_ident(code)?;
        let global = globals.iter().position(|g| g == name)?;
        let mut steps = Vec::new();
        while !rest.is_empty() {
            if let Some(after) = rest.strip_prefix('.') {
                let (key, r) = split_ident(after)?;
                steps.push(Val::from(key.to_string()));
                rest = r;
            } else {
                let after = rest.strip_prefix('[')?;
                let end = after.find(']')?;
                let digits = &after[..end];
                // Plain decimal indices only: no sign, no leading zero, small enough.
                if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) || (digits.len() > 1 && digits.starts_with('0')) || digits.len() > 9 {
                    return None;
                }
                steps.push(Val::from(digits.parse::<isize>().ok()?));
                rest = &after[end + 1..];
            }
        }
        Some(Lookup { global, steps })
    }

    /// The value, given the variable's; an error as jaq would raise it.
    pub fn run(&self, var: Val) -> Result<Val, jaq_core::Error<Val>> {
        self.steps.iter().try_fold(var, |v, step| v.index(step))
    }
}

/// A jq identifier at the start of `s`, and what follows it.
fn split_ident(s: &str) -> Option<(&str, &str)> {
    let end = s.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(s.len());
    let ident = &s[..end];
    (!ident.is_empty() && !ident.starts_with(|c: char| c.is_ascii_digit())).then(|| (ident, &s[end..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn globals() -> Vec<String> {
        ["env", "args", "node_id"].iter().map(|s| s.to_string()).collect()
    }

    fn parses(code: &str) -> bool {
        Lookup::parse(code, &globals()).is_some()
    }

    #[test]
    fn takes_variables_fields_and_elements() {
        assert_eq!(Lookup::parse(" $node_id ", &globals()).unwrap().global, 2);
        assert!(parses("$env.CA_ADDR"));
        assert!(parses("$args[1]"));
        assert!(parses("$env.a_1.b[0][12].c"));
    }

    #[test]
    fn leaves_everything_else_to_jaq() {
        for code in [
            "$nope", "$found", "$env.", "$env..a", "$env[]", "$env[-1]", "$env[01]", "$env[1", "$env.a?", "$env | .a",
            "$env.\"a b\"", "$env[\"a\"]", "$env.1a", "$env + 1", "$args[1:2]", "$env.a // 1", "env", "", "$",
            "$args[9999999999]",
        ] {
            assert!(!parses(code), "{code}");
        }
    }
}
