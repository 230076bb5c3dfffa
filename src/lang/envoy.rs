//! What the grader says of Envoy that no lab's spec says: an admin API that did not
//! answer, a bootstrap too heavy to hand over, where live values came from when none
//! did. (The lab's own sentences about its Envoy are in its spec's `envoy:` section.)

use super::catalog;

catalog! {
    pub enum EnvoyWords {
        NoAnswer { en: "no answer within {n}s", ko: "{n}초 안에 응답이 없습니다", zh: "{n} 秒内没有应答" }
        Refused { en: "connection refused: nothing listens there", ko: "연결이 거부되었습니다: 그 주소에서 대기 중인 프로세스가 없습니다", zh: "连接被拒绝：那里没有程序在监听" }
        ConnectFailed { en: "connection failed: {error}", ko: "연결하지 못했습니다: {error}", zh: "连接失败：{error}" }
        TooLarge { en: "answer larger than {n} MiB", ko: "응답이 {n} MiB보다 큽니다", zh: "应答大于 {n} MiB" }
        NotHttp { en: "not an HTTP answer ({error})", ko: "HTTP 응답이 아닙니다({error})", zh: "不是 HTTP 应答（{error}）" }
        AskedOn { en: "{path} on {admin}: {error}", ko: "{admin}의 {path}: {error}", zh: "{admin} 上的 {path}：{error}" }
        NotJson { en: "{path} on {admin} is not JSON (is this an Envoy admin port?)", ko: "{admin}의 {path} 응답이 JSON이 아닙니다(Envoy의 관리 포트가 맞나요?)", zh: "{admin} 上的 {path} 不是 JSON（这是 Envoy 的管理端口吗？）" }
        /// What answered a probe is not Envoy (a web server with copied or made-up answers).
        NoEnvoyBuild {
            en: "what answers at {admin} is not Envoy: its /server_info names no Envoy build and command line",
            ko: "{admin}에서 응답하는 것은 Envoy가 아닙니다. /server_info에 Envoy 빌드 정보와 명령줄이 없습니다",
            zh: "在 {admin} 应答的不是 Envoy：它的 /server_info 没有 Envoy 的构建版本和命令行",
        }
        ReadyNotState {
            en: "what answers at {admin} is not Envoy: its /ready answers {code} {body}, where its /server_info says the state is {state}",
            ko: "{admin}에서 응답하는 것은 Envoy가 아닙니다. /server_info가 알려 주는 상태는 {state}인데, /ready의 응답은 {code} {body}입니다",
            zh: "在 {admin} 应答的不是 Envoy：它的 /server_info 说状态是 {state}，/ready 却应答 {code} {body}",
        }
        NoNode { en: "{path} on {admin} has no .configs[0].bootstrap.node", ko: "{admin}의 {path}에 .configs[0].bootstrap.node가 없습니다", zh: "{admin} 上的 {path} 中没有 .configs[0].bootstrap.node" }
        /// A launched Envoy that opened its admin port but did not answer as Envoy does: its file is why.
        LaunchedBusy { en: "the Envoy launched from your {file} was too busy to answer ({problem}; it had used {cpu} s of CPU): the file gives it far more work than the lab asks for", ko: "여러분의 {file} 파일로 시작한 Envoy가 너무 바빠 응답하지 못했습니다({problem}; CPU를 {cpu}초 사용). 이 파일은 실습이 요구하는 것보다 훨씬 많은 일을 Envoy에 시킵니다", zh: "用你的 {file} 启动的 Envoy 忙得无法应答（{problem}；已用 {cpu} 秒 CPU）：这个文件让它做的工作远超实验的要求" }
        LaunchedBroke { en: "the Envoy launched from your {file} opened its admin port, but did not answer there as Envoy does ({problem}): something in the file changes how its admin answers", ko: "여러분의 {file} 파일로 시작한 Envoy가 관리 포트를 열었지만 그곳에서 Envoy답게 응답하지 않았습니다({problem}). 파일의 무언가가 관리 인터페이스의 응답 방식을 바꿉니다", zh: "用你的 {file} 启动的 Envoy 打开了管理端口，却没有像 Envoy 那样在那里应答（{problem}）：文件中的某些内容改变了它管理接口的应答方式" }
        CannotMatch { en: "{problem}, so the live Envoy cannot be matched to it", ko: "{problem}. 그래서 실행 중인 Envoy가 이 파일로 실행된 것인지 확인할 수 없습니다", zh: "{problem}，因此无法确认运行中的 Envoy 是否运行的是它" }
        /// Where live values came from, when none were had.
        Skipped { en: "none (live checks skipped)", ko: "없음(실행 중인 Envoy 검사를 건너뜀)", zh: "无（跳过运行中 Envoy 的检查）" }
        NotReached { en: "no step that reads a running Envoy is started yet", ko: "실행 중인 Envoy를 읽는 단계를 아직 시작하지 않았습니다", zh: "读取运行中 Envoy 的步骤还没有开始" }
        NotProbed { en: "none: no Envoy was probed ({why})", ko: "없음: Envoy를 조회하지 않았습니다({why})", zh: "无：没有探测 Envoy（{why}）" }
        /// A probe that read nothing usable: no values came from it.
        ProbeFailed { en: "none: the probe of {admin} read nothing usable ({why})", ko: "없음: {admin} 조회에서 쓸 수 있는 값을 얻지 못했습니다({why})", zh: "无：对 {admin} 的探测没有读到可用的内容（{why}）" }
        NotLaunched { en: "none: no Envoy was launched ({why})", ko: "없음: Envoy를 시작하지 않았습니다({why})", zh: "无：没有启动 Envoy（{why}）" }
        BadRecording { en: "none: a recording that could not be read", ko: "없음: 녹화 파일을 읽을 수 없습니다", zh: "无：无法读取记录文件" }
        NoEnvoyFlag { en: "Envoy is not run nor probed (--no-envoy)", ko: "Envoy를 실행하지도 조회하지도 않습니다(--no-envoy)", zh: "不运行也不探测 Envoy（--no-envoy）" }
        NoLiveFlag { en: "live checks are off (--no-live)", ko: "실행 중인 Envoy 검사를 끕니다(--no-live)", zh: "运行中 Envoy 的检查已关闭（--no-live）" }
        NothingSaved { en: "nothing was probed, so {path} was not written", ko: "조회한 것이 없어 {path}에 쓰지 않았습니다", zh: "没有探测任何内容，因此没有写入 {path}" }
        /// How much of a bootstrap the grader hands to Envoy.
        Clusters { en: "it has {n} static clusters, more than the {max} the grader gives Envoy", ko: "정적 클러스터가 {n}개로, 채점기가 Envoy에 넘기는 최대 {max}개보다 많습니다", zh: "它有 {n} 个静态集群，超过评分程序交给 Envoy 的上限 {max} 个" }
        Endpoints { en: "its static clusters have {n} endpoints, more than the {max} the grader gives Envoy", ko: "정적 클러스터의 엔드포인트가 {n}개로, 채점기가 Envoy에 넘기는 최대 {max}개보다 많습니다", zh: "它的静态集群共有 {n} 个端点，超过评分程序交给 Envoy 的上限 {max} 个" }
        Values { en: "it holds more than {max} values, more than the grader gives Envoy", ko: "값이 {max}개를 넘어, 채점기가 Envoy에 넘기는 양보다 많습니다", zh: "它包含超过 {max} 个值，超过评分程序交给 Envoy 的上限" }
        Depth { en: "it nests lists and mappings more than {max} deep, more than the grader gives Envoy", ko: "목록과 매핑이 {max}단계보다 깊게 중첩되어, 채점기가 Envoy에 넘기는 한도를 넘습니다", zh: "它的列表和映射嵌套超过 {max} 层，超过评分程序交给 Envoy 的上限" }
    }
}
