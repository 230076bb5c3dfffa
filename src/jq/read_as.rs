//! jq functions that read a text as the grader does elsewhere, so that a spec and the
//! grader's own code never judge the same text two ways: `one_edit($name)`, whether a
//! text is a slip for `$name` (`input::near_name`), `envoy_number`, a number written
//! as a string as Envoy reads one (`compare::number_in_text`), `letters`, how many
//! letters of any script a text has (`input::letters`), and
//! `alnum`, its letters and digits in lower case (`input::alnum`).

use jaq_core::native::{bome, unary, v, Filter, Fun};
use jaq_core::{DataT, RunPtr};
use jaq_json::Val;

pub fn natives<D: for<'a> DataT<V<'a> = Val>>() -> impl Iterator<Item = Fun<D>> {
    filters().into_vec().into_iter().map(jaq_core::native::run)
}

fn filters<D: for<'a> DataT<V<'a> = Val>>() -> Box<[Filter<RunPtr<D>>]> {
    Box::new([
        ("one_edit", v(1), |cv| {
            unary(cv, |text, name| match (&text, &name) {
                (Val::TStr(a), Val::TStr(b)) => {
                    let (a, b) = (String::from_utf8_lossy(a), String::from_utf8_lossy(b));
                    Ok(Val::Bool(a != b && crate::input::near_name::one_edit(&a, &b)))
                }
                _ => Err(jaq_core::Error::str("one_edit takes two texts")),
            })
        }),
        // As line_count's `letters` counts them.
        ("letters", v(0), |cv| {
            let Val::TStr(text) = &cv.1 else { return bome(Err(jaq_core::Error::str("letters takes a text"))) };
            let n = crate::input::letters(&String::from_utf8_lossy(text));
            bome(Ok(super::convert::to_jaq(&serde_json::json!(n))))
        }),
        // As line_count's `distinct` tells two lines apart.
        ("alnum", v(0), |cv| {
            let Val::TStr(text) = &cv.1 else { return bome(Err(jaq_core::Error::str("alnum takes a text"))) };
            let key = crate::input::alnum(&String::from_utf8_lossy(text));
            bome(Ok(super::convert::to_jaq(&serde_json::json!(key))))
        }),
        // Anything but a text is as it is.
        ("envoy_number", v(0), |cv| {
            let Val::TStr(text) = &cv.1 else { return bome(Ok(cv.1)) };
            let n = crate::compare::number_in_text(&String::from_utf8_lossy(text));
            let number = |n: f64| if n.fract() == 0.0 && n.abs() < 9e15 { serde_json::json!(n as i64) } else { serde_json::json!(n) };
            bome(n.map(|n| super::convert::to_jaq(&number(n))).ok_or_else(|| jaq_core::Error::str("not a number Envoy reads")))
        }),
    ])
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    #[test]
    fn a_slip_is_one_edit_and_the_name_itself_is_not() {
        for (text, name, want) in [("clsuter", "cluster", true), ("mеtadata", "metadata", true), ("ids", "id", true), ("di", "id", true), ("id", "id", false), ("ab", "id", false), ("", "id", false)] {
            assert_eq!(crate::jq::eval(&format!("one_edit({})", json!(name)), &json!(text)), Ok(json!(want)), "{text} {name}");
        }
    }

    #[test]
    fn letters_of_any_script_are_counted() {
        for (text, want) in [("- x", 1), ("- 身份", 2), ("- `15012`", 0), ("Проверка 1", 8)] {
            assert_eq!(crate::jq::eval("letters", &json!(text)), Ok(json!(want)), "{text}");
        }
    }

    #[test]
    fn alnum_keeps_letters_and_digits_in_lower_case() {
        assert_eq!(crate::jq::eval("alnum", &json!("- A\u{200B}b 1\u{a0}身份!")), Ok(json!("ab1身份")));
    }

    #[test]
    fn numbers_in_text_as_envoy_reads_them() {
        for (text, want) in [(json!("0x26FE"), json!(9982)), (json!("+0"), json!(0)), (json!("1.5"), json!(1.5)), (json!(7), json!(7)), (json!(null), json!(null))] {
            assert_eq!(crate::jq::eval("envoy_number", &text), Ok(want), "{text}");
        }
        assert!(crate::jq::eval("envoy_number", &json!(" 9982")).is_err());
    }
}
