//! `exists`: the file is there, a regular file inside the submission, not empty, within
//! the size cap, UTF-8, and (for YAML and JSON files) parses. No fields of its own.

use super::{Kind, KindDef};
use crate::check::{Cx, Verdict};

pub const KIND: KindDef = KindDef { name: "exists", fields: &[], compile: |_| Some(Box::new(Exists)) };

struct Exists;

impl Kind for Exists {
    fn run(&self, cx: &Cx) -> Verdict {
        let a = cx.artifact;
        if let Err(m) = a.text() {
            return Verdict::fail(m);
        }
        if a.has_data_format()
            && let Err(m) = a.data()
        {
            return Verdict::fail(m);
        }
        Verdict::pass()
    }
}
