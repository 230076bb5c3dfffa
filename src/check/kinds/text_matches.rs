//! `text_matches`: some part of the artifact's text matches a regex, given (`matches`)
//! or derived (`expect`, say from Envoy's own message), line endings normalised first.

use crate::lang::{checks::Checks, t};
use super::text_contains::{normalised, only_exit_code};
use super::{Kind, KindDef, Want};
use crate::check::{expected_text, need, Cx, Verdict};
use crate::display::value_text;
use crate::spec::fields::Fields;
use crate::spec::Pattern;
use serde_json::Value;

pub const KIND: KindDef = KindDef { name: "text_matches", fields: &["expect", "matches"], compile };

struct TextMatches {
    pattern: Want,
}

fn compile(f: &mut Fields) -> Option<Box<dyn Kind>> {
    Some(Box::new(TextMatches { pattern: Want::compile(f)? }))
}

impl Kind for TextMatches {
    fn run(&self, cx: &Cx) -> Verdict {
        let text = need!(normalised(cx));
        let derived;
        let pattern = match &self.pattern {
            Want::Matches(p) => p,
            Want::Equals(id) => {
                let exp = need!(expected_text(cx, *id));
                derived = match Pattern::new(&value_text(&exp), true) {
                    Ok(p) => p,
                    Err(e) => return Verdict::could_not(t!(Checks::PatternNotRegex, error = e)),
                };
                &derived
            }
        };
        let line = pattern.find(&text).map(|at| text[..at].matches('\n').count() + 1);
        let mut v = Verdict::judge(line.is_some(), t!(Checks::NoPartHasForm))
            .expected(Value::String(format!("text matching /{pattern}/")))
            .wrong_value();
        v.slip = only_exit_code(&text);
        match line {
            Some(l) => v.line(l),
            None => v,
        }
    }

    fn needs(&self) -> Vec<crate::jq::ExprId> {
        self.pattern.needs()
    }

    fn reads_text(&self) -> bool {
        true
    }
}
