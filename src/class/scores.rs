//! scores.csv, the gradebook: one row per submission under its own name, its score, its
//! outcome (`graded`, `failed`, `could not be graded`), each step's score, and the
//! name of its report files. UTF-8; no text cell can be read as a formula.

use super::csv::text;
use super::Submission;
use std::collections::BTreeSet;

pub fn render(subs: &[Submission]) -> std::io::Result<String> {
    let steps: BTreeSet<u32> = subs.iter().flat_map(|s| s.result.steps.iter().map(|st| st.step)).collect();
    let mut w = ::csv::Writer::from_writer(Vec::new());
    let mut header: Vec<String> = ["submission", "score", "max_score", "status"].map(String::from).to_vec();
    header.extend(steps.iter().map(|n| format!("step {n}")));
    header.push("report".into());
    w.write_record(&header)?;
    for s in subs {
        let mut row = vec![text(s.name), s.result.score().to_string(), s.result.max_score().to_string(), super::stats::status(s.result).into()];
        for n in &steps {
            row.push(s.result.steps.iter().find(|st| st.step == *n).map(|st| st.score.to_string()).unwrap_or_default());
        }
        row.push(text(s.report));
        w.write_record(&row)?;
    }
    let bytes = w.into_inner().map_err(|e| e.into_error())?;
    String::from_utf8(bytes).map_err(std::io::Error::other)
}

#[cfg(test)]
mod tests {
    use super::super::stats::tests::{check, result};
    use super::super::Submission;
    use crate::result::Status;

    #[test]
    fn a_row_per_submission_under_its_own_name() {
        let a = result(vec![check("c", 1, Status::Pass, 1, 1, None)]);
        let b = result(vec![check("c", 1, Status::Fail, 0, 1, Some("x"))]);
        let subs = [Submission { name: "张伟", report: "张伟", result: &a }, Submission { name: "=1+1", report: "_1_1", result: &b }];
        let out = super::render(&subs).unwrap();
        let mut rows = ::csv::Reader::from_reader(out.as_bytes());
        assert_eq!(rows.headers().unwrap().iter().collect::<Vec<_>>(), ["submission", "score", "max_score", "status", "step 1", "report"]);
        let rows: Vec<Vec<String>> = rows.records().map(|r| r.unwrap().iter().map(String::from).collect()).collect();
        assert_eq!(rows, [["张伟", "1", "1", "all passed", "0", "张伟"], ["'=1+1", "0", "1", "some failed", "0", "_1_1"]]);
    }
}
