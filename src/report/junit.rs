//! JUnit XML, as GitLab, Jenkins and GitHub test reporters read it: a `<testsuite>`
//! per submission, a `<testcase>` per check; a student's failure is `<failure>`, a
//! check the grader could not evaluate is `<error>`.

use super::View;
use crate::result::{Status, SubmissionResult};
use quick_junit::{NonSuccessKind, Report, TestCase, TestCaseStatus, TestSuite};

pub fn render(results: &[SubmissionResult], view: &View) -> String {
    let mut report = Report::new("labcheck");
    for r in results {
        let mut suite = TestSuite::new(r.submission.clone());
        suite.set_time(r.elapsed);
        for c in &r.checks {
            let mut status = match c.status {
                Status::Pass => TestCaseStatus::success(),
                Status::Fail => TestCaseStatus::non_success(NonSuccessKind::Failure),
                Status::Error => TestCaseStatus::non_success(NonSuccessKind::Error),
                Status::Skip => TestCaseStatus::skipped(),
            };
            if c.status != Status::Pass {
                status.set_message(c.message.clone());
                let lines: Vec<String> = view.details(c).into_iter().map(|(k, v)| format!("{k}: {v}")).collect();
                status.set_description(lines.join("\n"));
            }
            let mut case = TestCase::new(format!("{}: {}", c.id, c.title), status);
            case.set_classname(format!("{}.step{}", r.lab, c.step));
            suite.add_test_case(case);
        }
        report.add_test_suite(suite);
    }
    // Every string was made safe for output before it got here; serialising cannot fail.
    report.to_string().unwrap_or_default()
}
