//! What the kinds of check say of a file: a line missing or set twice, a value not the
//! one wanted, and the slips that alone make it so.

use super::catalog;

catalog! {
    pub enum Checks {
        NoLine { en: "there is no `{key}=` line", ko: "`{key}=` 줄이 없습니다", zh: "没有 `{key}=` 这一行" }
        OtherForm {
            en: "there is no `{key}=` line; line {line} reads `{text}`: write `{key}=` and the value at the start of a line",
            ko: "`{key}=` 줄이 없습니다. {line}번째 줄은 `{text}`입니다. 줄 맨 앞에 `{key}=`와 값을 쓰세요",
            zh: "没有 `{key}=` 这一行；第 {line} 行是 `{text}`：请在行首写 `{key}=` 和值",
        }
        Misspelled {
            en: "there is no `{key}=` line; line {line} sets `{near}=`, which looks like a misspelling of it: spell the key `{key}`",
            ko: "`{key}=` 줄이 없습니다. {line}번째 줄에 있는 `{near}=` 키는 철자가 틀린 것 같습니다. 키 이름을 `{key}`(으)로 고치세요",
            zh: "没有 `{key}=` 这一行；第 {line} 行的 `{near}=` 看起来是拼写错误：键名应写作 `{key}`",
        }
        CopiedMistake {
            en: "{file} is a copy of {by} and keeps its mistake: {said}",
            ko: "{file} 파일은 {by}의 사본이라 그 실수를 그대로 갖고 있습니다: {said}",
            zh: "{file} 是 {by} 的副本，保留了它的错误：{said}",
        }
        LongerKey {
            en: "there is no `{key}=` line; line {line} sets `{near}=`, a longer name: write the key as `{key}` alone",
            ko: "`{key}=` 줄이 없습니다. {line}번째 줄은 더 긴 이름인 `{near}=` 키를 씁니다. 키는 `{key}`만 쓰세요",
            zh: "没有 `{key}=` 这一行；第 {line} 行设置的是更长的名字 `{near}=`：键名只写 `{key}`",
        }
        ShorterKey {
            en: "there is no `{key}=` line; line {line} sets `{near}=`, the name without its beginning: write the key as `{key}` in full",
            ko: "`{key}=` 줄이 없습니다. {line}번째 줄은 앞부분이 빠진 이름인 `{near}=` 키를 씁니다. 키는 `{key}` 전체를 쓰세요",
            zh: "没有 `{key}=` 这一行；第 {line} 行设置的 `{near}=` 缺了名字的前一部分：键名要完整写成 `{key}`",
        }
        SetTwice { en: "`{key}` is set more than once (lines {lines}); keep one line", ko: "`{key}` 키가 여러 번 설정되어 있습니다({lines}번째 줄). 한 줄만 남기세요", zh: "`{key}` 设置了不止一次（第 {lines} 行）；只保留一行" }
        NotExpected { en: "`{key}` is not the expected value", ko: "`{key}` 값이 기대한 값이 아닙니다", zh: "`{key}` 不是期望的值" }
        NotOfForm { en: "`{key}` is not of the form /{pattern}/", ko: "`{key}` 값이 /{pattern}/ 형식이 아닙니다", zh: "`{key}` 不符合 /{pattern}/ 的形式" }
        Prefixed {
            en: "the value still begins with `{prefix}`, copied with it: keep only what follows that =",
            ko: "값이 함께 복사된 `{prefix}`(으)로 시작합니다. 그 = 뒤의 부분만 남기세요",
            zh: "值仍以一并复制过来的 `{prefix}` 开头：只保留那个 = 之后的部分",
        }
        Quoted { en: "the value is in quotes; write it without them", ko: "값이 따옴표로 둘러싸여 있습니다. 따옴표 없이 쓰세요", zh: "值带有引号；请去掉引号" }
        TrailingSlash {
            en: "the value differs only in a trailing /; write it as the file it comes from does",
            ko: "값이 끝의 / 하나만 다릅니다. 값을 가져온 파일에 적힌 그대로 쓰세요",
            zh: "值只差末尾的 /；请按来源文件中的写法照写",
        }
        Spaces {
            en: "the value differs only in spaces; write it in the form the lab gives, character for character",
            ko: "값이 공백만 다릅니다. 실습이 알려 준 형식대로 한 글자씩 쓰세요",
            zh: "值只差空格；请按实验给出的格式逐字书写",
        }
        Case {
            en: "the value differs only in upper and lower case, and case matters here",
            ko: "값이 대소문자만 다릅니다. 여기서는 대소문자를 구분합니다",
            zh: "值只差大小写，而这里区分大小写",
        }
        /// A verdict that could not be reached: the student's file is why, the grader is,
        /// or this run's choice; or not asked, as another check charges the mistake.
        CannotCheck { en: "cannot check: {message}", ko: "확인할 수 없습니다: {message}", zh: "无法检查：{message}" }
        NotGraded { en: "not graded: {message}", ko: "채점하지 않음: {message}", zh: "不计分：{message}" }
        NotGradedSee {
            en: "not graded: {message}; {id} (step {step}) charges it",
            ko: "채점하지 않음: {message}. 이 실수는 {id}({step}단계)에서 감점합니다",
            zh: "不计分：{message}；此错误已在 {id}（第 {step} 步）扣分",
        }
        CouldNotCheck { en: "could not check: {message}", ko: "채점기가 확인하지 못했습니다: {message}", zh: "评分程序未能检查：{message}" }
        Skipped { en: "skipped: {message}", ko: "건너뜀: {message}", zh: "已跳过：{message}" }
        NothingToCompare { en: "nothing to compare with ({code})", ko: "비교할 값이 없습니다({code})", zh: "没有可比较的值（{code}）" }
        NothingFrom { en: "nothing to compare with: {from} gives no value for it", ko: "비교할 값이 없습니다: {from}에서 이 검사에 쓸 값이 나오지 않습니다", zh: "没有可比较的值：{from} 没有给出它的值" }
        NothingReadable { en: "nothing to compare with: the value from {from} cannot be read ({error})", ko: "비교할 값이 없습니다: {from}에서 온 값을 읽을 수 없습니다({error})", zh: "没有可比较的值：无法读取来自 {from} 的值（{error}）" }
        FromSpec { en: "the spec", ko: "스펙", zh: "检查规范" }
        FromParam { en: "the param `{name}`", ko: "`{name}` 파라미터", zh: "参数 `{name}`" }
        FromLabFile { en: "the lab file `{name}`", ko: "`{name}` 실습 환경 파일", zh: "实验环境文件 `{name}`" }
        FromValidation { en: "Envoy's validation of your {file}", ko: "여러분의 {file}에 대한 Envoy의 검증", zh: "Envoy 对你的 {file} 的校验" }
        FromLive { en: "the Envoy running your {file}", ko: "여러분의 {file}로 실행 중인 Envoy", zh: "运行你的 {file} 的 Envoy" }
        NoSuchValue { en: "there is no such value in the file", ko: "파일에 그런 값이 없습니다", zh: "文件中没有这个值" }
        NothingAt { en: "there is nothing at `{path}`", ko: "`{path}`에 아무것도 없습니다", zh: "`{path}` 处没有内容" }
        CannotRead { en: "the value cannot be read there: {error}", ko: "그 위치의 값을 읽을 수 없습니다: {error}", zh: "无法读取该处的值：{error}" }
        NotSet { en: "the value is not set", ko: "값이 설정되어 있지 않습니다", zh: "没有设置这个值" }
        NotTheOne { en: "the value is not the expected one", ko: "값이 기대한 값이 아닙니다", zh: "值不是期望的值" }
        ValueNotOfForm { en: "the value is not of the form /{pattern}/", ko: "값이 /{pattern}/ 형식이 아닙니다", zh: "值不符合 /{pattern}/ 的形式" }
        PatternNotRegex { en: "the derived pattern is not a regex: {error}", ko: "만들어진 패턴이 정규식이 아닙니다: {error}", zh: "推导出的模式不是正则表达式：{error}" }
        NoPartHasForm { en: "no part of the file has the expected form", ko: "파일에 기대한 형식의 부분이 없습니다", zh: "文件中没有符合期望形式的部分" }
        TextAbsent { en: "the expected text is not in the file", ko: "파일에 기대한 텍스트가 없습니다", zh: "文件中没有期望的文本" }
        OnlyExitCode {
            en: "the file holds only the exit code, not what the command printed (its errors go to stderr: 2>&1 keeps them)",
            ko: "파일에 종료 코드만 있고 명령이 출력한 내용이 없습니다(오류는 stderr로 나가므로 2>&1로 함께 남기세요)",
            zh: "文件中只有退出码，没有命令打印的内容（错误输出到 stderr：用 2>&1 保留下来）",
        }
        NoLines { en: "the file has no lines", ko: "파일에 줄이 없습니다", zh: "文件中没有任何行" }
        LastLineNotRc { en: "the last line is not `rc=` followed by the exit code", ko: "마지막 줄이 `rc=` 뒤에 종료 코드를 붙인 형태가 아닙니다", zh: "最后一行不是 `rc=` 加退出码" }
        RcNotCode { en: "rc={rc} is not the exit code the command gives", ko: "rc={rc} 값은 그 명령이 내는 종료 코드가 아닙니다", zh: "rc={rc} 不是该命令给出的退出码" }
        RcZero { en: "the exit code is 0, but this command is meant to fail", ko: "종료 코드가 0이지만, 이 명령은 실패해야 합니다", zh: "退出码是 0，但这条命令本应失败" }
        RcNotInteger { en: "the expected exit code is not an integer: {value}", ko: "기대하는 종료 코드가 정수가 아닙니다: {value}", zh: "期望的退出码不是整数：{value}" }
        NoValidation { en: "no validation was run for this file", ko: "이 파일에 대해 실행한 검증이 없습니다", zh: "没有对这个文件运行校验" }
        NoExitCode { en: "the validation gave no exit code", ko: "검증 결과에 종료 코드가 없습니다", zh: "校验没有给出退出码" }
        EnvoyAccepts { en: "Envoy accepts this file", ko: "Envoy가 이 파일을 받아들입니다", zh: "Envoy 接受这个文件" }
        EnvoyRejects { en: "Envoy rejects this file: {message}", ko: "Envoy가 이 파일을 거부합니다: {message}", zh: "Envoy 拒绝这个文件：{message}" }
        EnvoyMustReject { en: "Envoy accepts this file, but the lab needs it rejected", ko: "Envoy가 이 파일을 받아들이지만, 실습에서는 거부되어야 합니다", zh: "Envoy 接受了这个文件，但实验要求它被拒绝" }
        /// line_count: how many lines match, against what is needed.
        LinesAtLeast { en: "lines matching /{pattern}/: {n}; at least {min} are needed", ko: "/{pattern}/에 맞는 줄이 {n}개입니다. {min}개 이상 필요합니다", zh: "匹配 /{pattern}/ 的行有 {n} 行；至少需要 {min} 行" }
        LinesAtMost { en: "lines matching /{pattern}/: {n}; at most {max} are allowed", ko: "/{pattern}/에 맞는 줄이 {n}개입니다. {max}개까지만 허용됩니다", zh: "匹配 /{pattern}/ 的行有 {n} 行；最多允许 {max} 行" }
        LinesBetween { en: "lines matching /{pattern}/: {n}; between {min} and {max} are needed", ko: "/{pattern}/에 맞는 줄이 {n}개입니다. {min}개에서 {max}개 사이여야 합니다", zh: "匹配 /{pattern}/ 的行有 {n} 行；需要 {min} 到 {max} 行" }
        FromYour { en: "your {file}", ko: "여러분의 {file}", zh: "你的 {file}" }
        /// compare: where a JSON value parts from the expected one (never the value).
        DiffMissing { en: "`{path}` is missing", ko: "`{path}` 항목이 없습니다", zh: "缺少 `{path}`" }
        DiffExtra { en: "`{path}` is there but should not be", ko: "`{path}` 항목은 없어야 합니다", zh: "`{path}` 不应存在" }
        DiffValue { en: "`{path}` has another value", ko: "`{path}` 값이 다릅니다", zh: "`{path}` 的值不同" }
        DiffKind { en: "`{path}` is {found} where {wanted} is expected", ko: "`{path}` 자리에 {wanted}이(가) 와야 하는데 {found}입니다", zh: "`{path}` 处应为{wanted}，却是{found}" }
        KindMap { en: "a map", ko: "맵", zh: "映射" }
        KindList { en: "a list", ko: "목록", zh: "列表" }
        DiffLength { en: "`{path}` has another number of items ({n})", ko: "`{path}` 항목 수가 {n}개로, 기대한 개수가 아닙니다", zh: "`{path}` 有 {n} 项，数量不对" }
        /// Look-alike characters (an input method's full-width forms, letters of other
        /// scripts, invisible ones).
        LookAlikeLine {
            en: "line {lines} has {what}; typed as plain ASCII, it would pass",
            ko: "{lines}번째 줄에 {what}. 일반 ASCII로 입력하면 통과합니다",
            zh: "第 {lines} 行有 {what}；改用普通 ASCII 输入即可通过",
        }
        LookAlikeLines {
            en: "lines {lines} have {what}; typed as plain ASCII, they would pass",
            ko: "{lines}번째 줄에 {what}. 일반 ASCII로 입력하면 통과합니다",
            zh: "第 {lines} 行有 {what}；改用普通 ASCII 输入即可通过",
        }
        LookAlikeFile {
            en: "the file has {what}; typed as plain ASCII, it would pass",
            ko: "파일에 {what}. 일반 ASCII로 입력하면 통과합니다",
            zh: "文件中有 {what}；改用普通 ASCII 输入即可通过",
        }
        FullWidthSpace {
            en: "a full-width space ({code}) where a plain space is meant (an input method in full-width mode types it)",
            ko: "일반 공백 대신 전각 공백({code})이 있습니다(입력기의 전각 모드)",
            zh: "本应是普通空格的地方用了全角空格（{code}）（输入法处于全角模式）",
        }
        FullWidth {
            en: "`{char}` ({code}), a full-width `{plain}` (an input method in full-width mode types it)",
            ko: "전각 `{plain}`인 `{char}`({code})가 있습니다(입력기의 전각 모드)",
            zh: "`{char}`（{code}），即全角的 `{plain}`（输入法处于全角模式）",
        }
        LooksLatin {
            en: "`{char}` ({code}), a {script} letter that looks like `{plain}`",
            ko: "`{plain}`처럼 보이는 {script} 문자 `{char}`({code})가 있습니다",
            zh: "`{char}`（{code}），一个看起来像 `{plain}` 的{script}字母",
        }
        Cyrillic { en: "Cyrillic", ko: "키릴", zh: "西里尔" }
        Greek { en: "Greek", ko: "그리스", zh: "希腊" }
        Invisible { en: "an invisible character ({code})", ko: "보이지 않는 문자({code})가 있습니다", zh: "一个看不见的字符（{code}）" }
        Dash { en: "`{char}` ({code}), a dash that looks like `-` but is not one", ko: "`-`처럼 보이지만 다른 문자인 대시 `{char}`({code})가 있습니다", zh: "`{char}`（{code}），看起来像 `-` 但并不是" }
        /// `role=sidecar   # the 2nd arg`: a key=value file has no comments.
        Comment {
            en: "the text after the value, `{comment}`, is part of the value: a key=value line has no comments, so put notes on lines of their own",
            ko: "값 뒤의 `{comment}`도 값의 일부로 읽힙니다. key=value 줄에는 주석을 달 수 없으니 메모는 따로 한 줄에 쓰세요",
            zh: "值后面的 `{comment}` 也算作值的一部分：key=value 行不支持注释，备注请单独写一行",
        }
    }
}
