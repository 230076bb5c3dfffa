//! The words of the reports: headings, labels, status words, the summary, what to do next.

use super::catalog;

catalog! {
    pub enum Report {
        Submission { en: "submission: {dir}", ko: "제출 폴더: {dir}", zh: "提交目录：{dir}" }
        LiveFrom { en: "live values from: {source}", ko: "실행 중인 Envoy 값: {source}", zh: "运行中 Envoy 的值：{source}" }
        StepHead { en: "Step {n}: {title}", ko: "{n}단계: {title}", zh: "第 {n} 步：{title}" }
        Pass { en: "PASS", ko: "통과", zh: "通过" }
        Fail { en: "FAIL", ko: "실패", zh: "失败" }
        Error { en: "ERROR", ko: "오류", zh: "错误" }
        Skip { en: "SKIP", ko: "건너뜀", zh: "跳过" }
        Where { en: "where", ko: "위치", zh: "位置" }
        Why { en: "why", ko: "이유", zh: "原因" }
        Expected { en: "expected", ko: "기대값", zh: "期望值" }
        Found { en: "found", ko: "실제 값", zh: "实际值" }
        Hint { en: "hint", ko: "힌트", zh: "提示" }
        Empty { en: "(empty)", ko: "(비어 있음)", zh: "（空）" }
        /// A found value that is not there: JSON's null.
        NotSet { en: "(not set)", ko: "(설정되지 않음)", zh: "（未设置）" }
        /// A reason said in full for an earlier check.
        AsFor { en: "{lead} (as for {id})", ko: "{lead} ({id} 참고)", zh: "{lead}（同 {id}）" }
        SameAs { en: "as for {id}", ko: "{id} 참고", zh: "同 {id}" }
        Skipped { en: "({n} skipped)", ko: "({n}개 건너뜀)", zh: "（{n} 项跳过）" }
        NotStartedOne { en: "not started: {files} is missing", ko: "시작 전: {files} 파일이 없습니다", zh: "尚未开始：缺少 {files}" }
        NotStartedMany { en: "not started: {files} are missing", ko: "시작 전: {files} 파일이 없습니다", zh: "尚未开始：缺少 {files}" }
        /// The checks of a missing file, said on one line.
        FileChecks { en: "{message} ({n} checks: {ids})", ko: "{message} (검사 {n}개: {ids})", zh: "{message}（{n} 项检查：{ids}）" }
        SummaryMore {
            en: "Submissions not shown here: {n} (GitHub shows 1 MiB of summary a step; the reports have them all)",
            ko: "여기에 보이지 않는 제출: {n}개(GitHub는 한 단계에 요약을 1 MiB까지만 보여 줍니다. 보고서에는 모두 있습니다)",
            zh: "此处未显示的提交：{n} 份（GitHub 每个步骤只显示 1 MiB 的摘要；报告中有全部）",
        }
        /// A step not started, said once for its checks.
        StepChecks { en: "{message} ({n} checks)", ko: "{message} (검사 {n}개)", zh: "{message}（{n} 项检查）" }
        /// The annotation in place of those GitHub would not show.
        MoreAnnotations {
            en: "Not shown here: {n} more (GitHub shows ten annotations of a kind a step); the job's summary and the report list them all",
            ko: "여기에 보이지 않는 {n}개가 더 있습니다(GitHub는 한 단계에 종류마다 주석을 10개까지만 보여 줍니다). 작업 요약과 보고서에 모두 나옵니다",
            zh: "还有 {n} 项未在此显示（GitHub 每个步骤每种注释只显示 10 条）：作业摘要和报告中列出了全部",
        }
        /// The same, where no job summary is written (outside GitHub Actions).
        MoreAnnotationsNoSummary {
            en: "Not shown here: {n} more (GitHub shows ten annotations of a kind a step); labcheck --format text lists them all",
            ko: "여기에 보이지 않는 {n}개가 더 있습니다(GitHub는 한 단계에 종류마다 주석을 10개까지만 보여 줍니다). labcheck --format text 로 모두 볼 수 있습니다",
            zh: "还有 {n} 项未在此显示（GitHub 每个步骤每种注释只显示 10 条）：labcheck --format text 会列出全部",
        }
        Score {
            en: "Score {score}/{max} points: of the checks, {pass} passed, {fail} failed, {error} could not be checked, {skip} skipped",
            ko: "점수 {score}/{max}점: 검사 중 {pass}개 통과, {fail}개 실패, {error}개 확인 불가, {skip}개 건너뜀",
            zh: "得分 {score}/{max}：检查项中 {pass} 项通过，{fail} 项失败，{error} 项无法检查，{skip} 项跳过",
        }
        /// [`Report::Score`] where some failing checks are of steps not started.
        ScoreNotStarted {
            en: "Score {score}/{max} points: of the checks, {pass} passed, {fail} failed ({later} of them in steps not started), {error} could not be checked, {skip} skipped",
            ko: "점수 {score}/{max}점: 검사 중 {pass}개 통과, {fail}개 실패(그중 {later}개는 시작 전 단계), {error}개 확인 불가, {skip}개 건너뜀",
            zh: "得分 {score}/{max}：检查项中 {pass} 项通过，{fail} 项失败（其中 {later} 项属于尚未开始的步骤），{error} 项无法检查，{skip} 项跳过",
        }
        FirstToFix {
            en: "First to fix: step {n}, {id} at {place}: {title}",
            ko: "먼저 고칠 것: {n}단계 {id}, 위치 {place}: {title}",
            zh: "首先要修正：第 {n} 步 {id}，位置 {place}：{title}",
        }
        /// No check failed, but one could not be checked: what it said, as what to do.
        FirstError { en: "First to look at: step {n}, {id} could not be checked (why is said above): {title}", ko: "먼저 볼 것: {n}단계 {id} 검사를 확인할 수 없었습니다(이유는 위에 있습니다): {title}", zh: "首先要看：第 {n} 步 {id} 无法检查（原因见上文）：{title}" }
        NextStep { en: "Next: start step {n}, {title}", ko: "다음 할 일: {n}단계 시작, {title}", zh: "下一步：开始第 {n} 步，{title}" }
        FirstFile { en: "First to fix: step {n}, {message}", ko: "먼저 고칠 것: {n}단계, {message}", zh: "首先要修正：第 {n} 步，{message}" }
        AllPassed { en: "Every check passed.", ko: "모든 검사를 통과했습니다.", zh: "全部检查通过。" }
        AllGradedPassedOne {
            en: "Every check graded passed; 1 is not graded (--verbose says why).",
            ko: "채점한 검사는 모두 통과했습니다. 검사 1개는 채점하지 않았습니다(이유는 --verbose로 볼 수 있습니다).",
            zh: "已计分的检查全部通过；另有 1 项未计分（原因可用 --verbose 查看）。",
        }
        AllGradedPassedAboveOne {
            en: "Every check graded passed; 1 is not graded, saying why above.",
            ko: "채점한 검사는 모두 통과했습니다. 검사 1개는 채점하지 않았고, 이유는 위에 있습니다.",
            zh: "已计分的检查全部通过；另有 1 项未计分，原因见上文。",
        }
        AllGradedPassed {
            en: "Every check graded passed; {n} are not graded (--verbose says why).",
            ko: "채점한 검사는 모두 통과했습니다. 검사 {n}개는 채점하지 않았습니다(이유는 --verbose로 볼 수 있습니다).",
            zh: "已计分的检查全部通过；另有 {n} 项未计分（原因可用 --verbose 查看）。",
        }
        AllGradedPassedAbove {
            en: "Every check graded passed; {n} are not graded, each saying why above.",
            ko: "채점한 검사는 모두 통과했습니다. 검사 {n}개는 채점하지 않았고, 이유는 각각 위에 있습니다.",
            zh: "已计分的检查全部通过；另有 {n} 项未计分，原因见上文各项。",
        }
        Submissions { en: "{n} submissions: {passed} with every check passed", ko: "제출 {n}개 중 모든 검사를 통과한 제출 {passed}개", zh: "共 {n} 份提交，其中 {passed} 份通过全部检查" }
        GradescopeScore {
            en: "Score {score}/{max} points: of the checks, {pass} passed, {fail} failed.",
            ko: "점수 {score}/{max}점: 검사 중 {pass}개 통과, {fail}개 실패.",
            zh: "得分 {score}/{max}：检查项中 {pass} 项通过，{fail} 项失败。",
        }
        GradescopeErrors {
            en: "{n} check(s) could not be checked by the grader, through no fault of your files, and are left out of the score: {ids}. Your instructor is told.",
            ko: "검사 {n}개는 제출 파일 탓이 아닌 채점기 쪽 문제로 확인하지 못해 점수에서 뺐습니다: {ids}. 담당 강사에게 전달됩니다.",
            zh: "有 {n} 项检查因评分程序的问题（并非你的文件有误）而无法检查，已从总分中排除：{ids}。老师会收到通知。",
        }
        GradescopeSkipped {
            en: "{n} check(s) are not graded and are left out of the score, each saying why (an option of this run, or a mistake another check already charges): {ids}.",
            ko: "검사 {n}개는 채점하지 않아 점수에서 뺐습니다. 각 검사에 이유가 있습니다(이번 실행의 옵션, 또는 다른 검사에서 이미 감점한 실수): {ids}.",
            zh: "有 {n} 项检查未计分，已从总分中排除，每项都写明了原因（本次运行的选项，或已由另一项检查扣分的错误）：{ids}。",
        }
        SummarySubmission { en: "Submission: {dir}", ko: "제출 폴더: {dir}", zh: "提交目录：{dir}" }
        SummaryStep { en: "Step", ko: "단계", zh: "步骤" }
        SummaryTitle { en: "Title", ko: "제목", zh: "标题" }
        SummaryScore { en: "Score", ko: "점수", zh: "得分" }
        SummaryFailing { en: "Failing checks", ko: "실패한 검사", zh: "未通过的检查" }
        SummaryErrors { en: "Checks the grader could not evaluate", ko: "채점기가 확인하지 못한 검사", zh: "评分程序无法检查的项" }
    }
}
