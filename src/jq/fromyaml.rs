//! `fromyaml`, jq's `fromjson` for YAML text (a Kubernetes annotation written as YAML),
//! read within the bounds every untrusted YAML text is read within (`input::yaml`).

use jaq_core::native::{bome, v, Filter, Fun};
use jaq_core::{DataT, RunPtr};
use jaq_json::Val;

pub fn natives<D: for<'a> DataT<V<'a> = Val>>() -> impl Iterator<Item = Fun<D>> {
    filters().into_vec().into_iter().map(jaq_core::native::run)
}

fn filters<D: for<'a> DataT<V<'a> = Val>>() -> Box<[Filter<RunPtr<D>>]> {
    Box::new([("fromyaml", v(0), |cv| {
        let Val::TStr(text) = &cv.1 else { return bome(Err(jaq_core::Error::str("fromyaml takes a text"))) };
        let read = crate::input::yaml::parse_doc(&String::from_utf8_lossy(text));
        bome(read.map(|v| super::convert::to_jaq(&v)).map_err(jaq_core::Error::str))
    })])
}

#[cfg(test)]
mod tests {
    use serde_json::{json, Value};

    fn fromyaml(text: &str) -> Result<Value, String> {
        crate::jq::eval("fromyaml", &json!(text))
    }

    #[test]
    fn reads_every_form_of_yaml_a_kubernetes_annotation_takes() {
        let want = json!({"discoveryAddress": "x:15012", "proxyMetadata": {"A": "false"}});
        for text in [
            "discoveryAddress: x:15012\nproxyMetadata:\n  A: \"false\"\n",
            "{discoveryAddress: x:15012, proxyMetadata: {A: \"false\"}}",
            "\"discoveryAddress\": \"x:15012\" # a comment\nproxyMetadata: {A: 'false'}\n",
            "{\"discoveryAddress\": \"x:15012\", \"proxyMetadata\": {\"A\": \"false\"}}",
        ] {
            assert_eq!(fromyaml(text), Ok(want.clone()), "{text}");
        }
    }

    #[test]
    fn refuses_what_is_not_yaml_or_not_text_and_an_alias_bomb() {
        assert!(fromyaml("a: [1, 2").is_err());
        let bomb = "a: &a [x, x, x, x, x, x, x, x, x, x]\n".to_string()
            + &(b'b'..=b'h').map(|c| format!("{}: &{} [*{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}]\n", c as char, c as char, p = (c - 1) as char)).collect::<String>();
        assert!(fromyaml(&bomb).is_err());
    }
}
