//! How an Envoy the grader ran gave no answer: a limit the file ran into, a crash, an
//! exit, a timeout, or the grader's own set-up failing (`envoy::failure`). Envoy's own
//! words (`{said}`) and the system's (`{error}`) are filled in as they were printed.

use super::catalog;

catalog! {
    pub enum EnvoyRun {
        OutOfCpu {
            en: "Envoy needed more than {n} s of CPU time for {file}, the most the grader gives an Envoy; a bootstrap for this lab takes a fraction of a second",
            ko: "Envoy는 {file} 처리에 채점기가 Envoy 하나에 허용하는 최대치인 {n}초보다 많은 CPU 시간이 필요했습니다. 이 실습의 부트스트랩이라면 1초도 걸리지 않습니다",
            zh: "Envoy 处理 {file} 需要超过 {n} 秒的 CPU 时间，这是评分程序为单个 Envoy 设定的上限；本实验的 bootstrap 只需不到一秒",
        }
        OutOfMemory {
            en: "Envoy needed more than {n} MiB of memory for {file}, the most the grader gives an Envoy; a bootstrap for this lab needs far less",
            ko: "Envoy는 {file} 처리에 채점기가 Envoy 하나에 허용하는 최대치인 {n} MiB보다 많은 메모리가 필요했습니다. 이 실습의 부트스트랩에는 훨씬 적게 듭니다",
            zh: "Envoy 处理 {file} 需要超过 {n} MiB 内存，这是评分程序为单个 Envoy 设定的上限；本实验的 bootstrap 所需远少于此",
        }
        Crashed {
            en: "Envoy crashed ({signal}) on {file}: {said}",
            ko: "Envoy가 {file} 처리 중 비정상 종료되었습니다({signal}): {said}",
            zh: "Envoy 处理 {file} 时崩溃（{signal}）：{said}",
        }
        CrashedBlank {
            en: "Envoy crashed ({signal}) on {file} after logging only blank lines (the file's log format prints nothing)",
            ko: "Envoy가 {file} 처리 중 빈 줄만 기록한 뒤 비정상 종료되었습니다({signal}). 파일의 로그 형식이 아무것도 출력하지 않습니다",
            zh: "Envoy 处理 {file} 时只记录了空行，随后崩溃（{signal}）；文件中的日志格式什么也不输出",
        }
        CrashedSilently {
            en: "Envoy crashed ({signal}) before it logged anything about {file}; a memory limit too low for Envoy to start ends so (LABCHECK_ENVOY_MEMORY_MIB)",
            ko: "Envoy가 {file}에 대해 아무것도 기록하기 전에 비정상 종료되었습니다({signal}). Envoy가 시작하기에 너무 낮은 메모리 제한(LABCHECK_ENVOY_MEMORY_MIB)이면 이렇게 끝납니다",
            zh: "Envoy 在记录任何关于 {file} 的内容之前就崩溃了（{signal}）；内存上限过低、Envoy 无法启动时就会这样（LABCHECK_ENVOY_MEMORY_MIB）",
        }
        Killed {
            en: "Envoy was killed (SIGKILL) by something other than the grader, perhaps the system running out of memory",
            ko: "채점기가 아닌 다른 무언가가 Envoy를 강제 종료했습니다(SIGKILL). 시스템 메모리가 부족했을 수 있습니다",
            zh: "Envoy 被评分程序以外的进程终止（SIGKILL），可能是系统内存不足",
        }
        /// A validation that ended without rc: the end follows.
        NoVerdict {
            en: "envoy --mode validate gave no verdict: {end}",
            ko: "envoy --mode validate가 판정을 내리지 못했습니다: {end}",
            zh: "envoy --mode validate 没有给出结论：{end}",
        }
        ValidateTimeout {
            en: "envoy --mode validate did not finish within {n}s; the grader stopped it",
            ko: "envoy --mode validate가 {n}초 안에 끝나지 않아 채점기가 중지했습니다",
            zh: "envoy --mode validate 未在 {n} 秒内结束，评分程序已将其停止",
        }
        NoAdminPort {
            en: "Envoy did not open its admin port within {n}s; the grader stopped it",
            ko: "Envoy가 {n}초 안에 관리 포트를 열지 않아 채점기가 중지했습니다",
            zh: "Envoy 未在 {n} 秒内打开管理端口，评分程序已将其停止",
        }
        ExitedBefore {
            en: "Envoy exited with code {code} before its admin port opened: {said}",
            ko: "Envoy가 관리 포트를 열기 전에 종료되었습니다(종료 코드 {code}): {said}",
            zh: "Envoy 在打开管理端口之前退出（退出码 {code}）：{said}",
        }
        ExitedAfter {
            en: "Envoy exited with code {code} after its admin port opened: {said}",
            ko: "Envoy가 관리 포트를 연 뒤 종료되었습니다(종료 코드 {code}): {said}",
            zh: "Envoy 打开管理端口后退出（退出码 {code}）：{said}",
        }
        PrivateDir {
            en: "cannot make a private directory: {error}",
            ko: "채점기 전용 임시 디렉터리를 만들 수 없습니다: {error}",
            zh: "无法创建私有目录：{error}",
        }
        ClosedPort {
            en: "cannot hold a closed local port: {error}",
            ko: "닫힌 로컬 포트를 확보할 수 없습니다: {error}",
            zh: "无法占用一个关闭的本地端口：{error}",
        }
        WriteCopy {
            en: "cannot write the grader's copy of {file}: {error}",
            ko: "채점기가 쓸 {file} 사본을 저장할 수 없습니다: {error}",
            zh: "无法写入评分程序的 {file} 副本：{error}",
        }
        LogFile {
            en: "cannot create a log file: {error}",
            ko: "로그 파일을 만들 수 없습니다: {error}",
            zh: "无法创建日志文件：{error}",
        }
        CannotStart {
            en: "cannot start Envoy ({envoy}): {error}",
            ko: "Envoy를 시작할 수 없습니다({envoy}): {error}",
            zh: "无法启动 Envoy（{envoy}）：{error}",
        }
    }
}
