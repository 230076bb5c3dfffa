//! `json_subset`: the artifact (or the part a jq `path` picks) contains the value the
//! grader derived (`expect`): every key it has, with the same value, whatever the
//! order and whatever else the file has; numbers as proto-JSON writes them (`"15"` for
//! 15) compare equal (see `compare`). Lists compare item by item.

use super::{json_equals, KindDef};

pub const KIND: KindDef = KindDef { name: "json_subset", fields: &["path", "expect", "or"], compile: |f| Some(Box::new(json_equals::compile(f, true)?)) };
