//! class.csv: one row per check, for a spreadsheet; a null pass rate and a check with
//! no wrong value leave their cells empty; no text cell can be read as a formula.

use super::ClassStats;

pub const HEADER: [&str; 10] =
    ["id", "step", "title", "passed", "failed", "errors", "skipped", "pass_rate", "top_wrong_value", "top_wrong_count"];

pub fn render(stats: &ClassStats) -> std::io::Result<String> {
    let mut w = ::csv::Writer::from_writer(Vec::new());
    w.write_record(HEADER)?;
    for c in &stats.checks {
        let top = c.wrong_values.first();
        w.write_record([
            text(&c.id),
            c.step.to_string(),
            text(&c.title),
            c.passed.to_string(),
            c.failed.to_string(),
            c.errors.to_string(),
            c.skipped.to_string(),
            c.pass_rate.map(|r| r.to_string()).unwrap_or_default(),
            top.map(|t| text(&t.value)).unwrap_or_default(),
            top.map(|t| t.count.to_string()).unwrap_or_default(),
        ])?;
    }
    let bytes = w.into_inner().map_err(|e| e.into_error())?;
    String::from_utf8(bytes).map_err(std::io::Error::other)
}

/// A text cell a spreadsheet shows as text. A cell starting with `=`, `+`, `-`, `@`, a
/// tab or a carriage return is a formula to Excel, LibreOffice and Google Sheets, and a
/// student's wrong value is such a cell at will (`=HYPERLINK(...)`); OWASP's remedy is
/// a leading `'`, which makes the cell text.
pub(super) fn text(s: &str) -> String {
    if s.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        format!("'{s}")
    } else {
        s.to_string()
    }
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

    #[test]
    fn no_text_cell_is_a_formula() {
        let formulas = ["=HYPERLINK(\"http://x\",\"y\")", "+1+1", "-2+3", "@SUM(A1)", "\tx", "\rx"];
        for f in formulas {
            let mut c = check("=cmd|' /C calc'!A0", 1, Status::Fail, 0, 1, Some(f));
            c.title = "-title".into();
            let out = super::render(&batch(&[result(vec![c])])).unwrap();
            let mut rows = ::csv::Reader::from_reader(out.as_bytes());
            let row = rows.records().next().unwrap().unwrap();
            assert_eq!(&row[0], "'=cmd|' /C calc'!A0");
            assert_eq!(&row[2], "'-title");
            assert_eq!(row[8], format!("'{f}"));
        }
        let plain = super::render(&batch(&[result(vec![check("c", 1, Status::Fail, 0, 1, Some("a=1 'q'"))])])).unwrap();
        assert!(plain.contains(",a=1 'q',1\n"), "{plain}");
    }
}
