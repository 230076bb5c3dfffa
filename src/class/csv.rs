//! class.csv: one row per check, for a spreadsheet; a null pass rate and a check with
//! no wrong value leave their cells empty.

use super::ClassStats;

pub const HEADER: [&str; 10] =
    ["id", "step", "title", "passed", "failed", "errors", "skipped", "pass_rate", "top_wrong_value", "top_wrong_count"];

pub fn render(stats: &ClassStats) -> std::io::Result<String> {
    let mut w = ::csv::Writer::from_writer(Vec::new());
    w.write_record(HEADER)?;
    for c in &stats.checks {
        let top = c.wrong_values.first();
        w.write_record([
            c.id.clone(),
            c.step.to_string(),
            c.title.clone(),
            c.passed.to_string(),
            c.failed.to_string(),
            c.errors.to_string(),
            c.skipped.to_string(),
            c.pass_rate.map(|r| r.to_string()).unwrap_or_default(),
            top.map(|t| t.value.clone()).unwrap_or_default(),
            top.map(|t| t.count.to_string()).unwrap_or_default(),
        ])?;
    }
    let bytes = w.into_inner().map_err(|e| e.into_error())?;
    String::from_utf8(bytes).map_err(std::io::Error::other)
}

#[cfg(test)]
mod tests {
    use super::super::stats::tests::{batch, check, result};
    use crate::result::Status;

    #[test]
    fn quotes_what_needs_quoting() {
        let s = batch(&[result(vec![check("c", 1, Status::Fail, 0, 1, Some("a,\"b\"\nc"))])]);
        let out = super::render(&s).unwrap();
        assert_eq!(out.lines().nth(1), Some("c,1,Title of c,0,1,0,0,0,\"a,\"\"b\"\""));
        assert!(out.ends_with("c\",1\n"), "{out}");
    }
}
