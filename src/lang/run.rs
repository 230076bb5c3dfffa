//! What a run says about itself: the submission folder it cannot grade, Envoy not found
//! or not run, lab files, steps not graded in this run.

use super::catalog;

catalog! {
    pub enum Run {
        GradingFailed {
            en: "could not check: grading this submission failed ({why}); the other submissions were graded",
            ko: "채점기가 확인하지 못했습니다: 이 제출물의 채점이 실패했습니다({why}). 다른 제출물은 채점했습니다",
            zh: "评分程序未能检查：这份提交的评分失败了（{why}）；其他提交已评分",
        }
        NoSuchFolder {
            en: "{dir} does not exist: give the folder that holds your files",
            ko: "{dir} 폴더가 없습니다. 작업한 파일이 들어 있는 제출 폴더를 지정하세요",
            zh: "{dir} 不存在：请指定存放你的文件的提交目录",
        }
        NotAFolder {
            en: "{dir} is not a folder: give the folder that holds your files",
            ko: "{dir} 경로는 폴더가 아닙니다. 작업한 파일이 들어 있는 제출 폴더를 지정하세요",
            zh: "{dir} 不是目录：请指定存放你的文件的提交目录",
        }
        /// A signal ended the run (exit 128 + N).
        Interrupted {
            en: "stopped by {signal} before the report was written; every Envoy it started is stopped",
            ko: "보고서를 쓰기 전에 {signal} 신호를 받아 멈췄습니다. 채점기가 시작한 Envoy는 모두 종료했습니다",
            zh: "在写出报告之前被 {signal} 终止；评分程序启动的 Envoy 都已停止",
        }
        NoFolderGiven { en: "no submission folder given", ko: "제출 폴더를 지정하지 않았습니다", zh: "没有指定提交目录" }
        EnvoyNotAt { en: "Envoy not found at {path} (from --envoy)", ko: "{path}에서 Envoy를 찾을 수 없습니다(--envoy로 지정한 경로)", zh: "在 {path} 找不到 Envoy（--envoy 指定的路径）" }
        EnvoyNotOnPath {
            en: "Envoy not found on PATH: pass --envoy PATH, or run without Envoy with --no-envoy (in a clone of labcheck, `make envoy` installs it)",
            ko: "PATH에서 Envoy를 찾을 수 없습니다. --envoy PATH로 지정하거나, Envoy 없이 --no-envoy로 실행하세요(labcheck 저장소에서는 `make envoy`로 설치할 수 있습니다)",
            zh: "在 PATH 中找不到 Envoy：请用 --envoy PATH 指定，或用 --no-envoy 在不运行 Envoy 的情况下检查（在 labcheck 仓库中可用 `make envoy` 安装）",
        }
        EnvoyNotRun { en: "Envoy is not run (--no-envoy)", ko: "Envoy를 실행하지 않습니다(--no-envoy)", zh: "未运行 Envoy（--no-envoy）" }
        NothingToSave {
            en: "--save-probe records the live probe, which the steps given with --step do not need: there would be nothing to save",
            ko: "--save-probe는 실행 중인 Envoy 조회를 기록하는데, --step으로 고른 단계에는 조회가 필요 없어 저장할 것이 없습니다",
            zh: "--save-probe 记录对运行中 Envoy 的探测，而 --step 选中的步骤不需要探测：没有可保存的内容",
        }
        NotThisStep { en: "not graded in this run (--step)", ko: "이번 실행에서는 채점하지 않습니다(--step)", zh: "本次运行不评分（--step）" }
        NoSuchStep {
            en: "there is no step {step}; the steps are {steps}",
            ko: "{step}단계는 없습니다. 단계는 {steps}입니다",
            zh: "没有第 {step} 步；步骤为 {steps}",
        }
        BadStep {
            en: "--step {given}: give a step number or a range such as 2-4",
            ko: "--step {given}: 단계 번호나 2-4 같은 범위를 지정하세요",
            zh: "--step {given}：请给出步骤编号或 2-4 这样的范围",
        }
        /// A lab file, named as the subject of a file problem ("... is missing").
        LabFileName { en: "the lab file `{param}` ({path})", ko: "`{param}` 실습 환경({path})", zh: "实验环境文件 `{param}`（{path}）" }
        LabFileAbsent {
            en: "the lab file `{param}` ({path}) is not there; checks that need it are skipped (give --param {param}=FILE)",
            ko: "`{param}` 실습 환경 파일({path})이 없어 이 파일이 필요한 검사는 건너뜁니다(--param {param}=FILE로 지정)",
            zh: "实验环境文件 `{param}`（{path}）不存在；需要它的检查将跳过（用 --param {param}=FILE 指定）",
        }
        LabFileParse { en: "the lab file `{param}` ({path}) does not parse: {error}", ko: "`{param}` 실습 환경 파일({path})을 해석할 수 없습니다: {error}", zh: "无法解析实验环境文件 `{param}`（{path}）：{error}" }
        ParamNoValue { en: "param `{param}` has no value (give --param {param}=FILE)", ko: "`{param}` 파라미터에 값이 없습니다(--param {param}=FILE로 지정)", zh: "参数 `{param}` 没有值（用 --param {param}=FILE 指定）" }
        ParamNotGiven { en: "no {param} was given (--param {param}=FILE)", ko: "{param} 값이 주어지지 않았습니다(--param {param}=FILE)", zh: "没有给出 {param}（--param {param}=FILE）" }
    }
}
