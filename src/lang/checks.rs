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
        SetTwice { en: "`{key}` is set more than once (lines {lines}); keep one line", ko: "`{key}` 키가 여러 번 설정되어 있습니다({lines}번째 줄). 한 줄만 남기세요", zh: "`{key}` 设置了不止一次（第 {lines} 行）；只保留一行" }
        NotExpected { en: "`{key}` is not the expected value", ko: "`{key}` 값이 기대한 값이 아닙니다", zh: "`{key}` 不是期望的值" }
        NotOfForm { en: "`{key}` is not of the form /{pattern}/", ko: "`{key}` 값이 /{pattern}/ 형식이 아닙니다", zh: "`{key}` 不符合 /{pattern}/ 的形式" }
        Quoted { en: "the value is in quotes; write it without them", ko: "값이 따옴표로 둘러싸여 있습니다. 따옴표 없이 쓰세요", zh: "值带有引号；请去掉引号" }
        TrailingSlash {
            en: "the value differs only in a trailing /; write it as the file it comes from does",
            ko: "값이 끝의 / 하나만 다릅니다. 값을 가져온 파일에 적힌 그대로 쓰세요",
            zh: "值只差末尾的 /；请按来源文件中的写法照写",
        }
        Spaces {
            en: "the value differs only in spaces; write it as the file it comes from does, character for character",
            ko: "값이 공백만 다릅니다. 값을 가져온 파일에 적힌 그대로 한 글자씩 쓰세요",
            zh: "值只差空格；请按来源文件中的写法逐字照写",
        }
        Case {
            en: "the value differs only in upper and lower case, and case matters here",
            ko: "값이 대소문자만 다릅니다. 여기서는 대소문자를 구분합니다",
            zh: "值只差大小写，而这里区分大小写",
        }
        /// `role=sidecar   # the 2nd arg`: a key=value file has no comments.
        Comment {
            en: "the text after the value, `{comment}`, is part of the value: a key=value line has no comments, so put notes on lines of their own",
            ko: "값 뒤의 `{comment}`도 값의 일부로 읽힙니다. key=value 줄에는 주석을 달 수 없으니 메모는 따로 한 줄에 쓰세요",
            zh: "值后面的 `{comment}` 也算作值的一部分：key=value 行不支持注释，备注请单独写一行",
        }
    }
}
