//! What is wrong with a file of the submission as a file: missing (or there under a
//! near name), not a regular file, too large, not UTF-8, not the format it should be.

use super::catalog;

catalog! {
    pub enum Files {
        Missing { en: "{file} is missing", ko: "{file} 파일이 없습니다", zh: "{file} 不存在" }
        NearName {
            en: "{file} is missing, but there is {near}: rename it to {file}",
            ko: "{file} 파일이 없습니다. 이름이 비슷한 {near} 파일이 있으니 {file} 파일로 이름을 바꾸세요",
            zh: "{file} 不存在，但有 {near}：请将它重命名为 {file}",
        }
        FolderDown {
            en: "{file} is missing, but there is {near}, one folder down: move it into the submission folder as {file}",
            ko: "{file} 파일이 없습니다. 한 단계 아래 폴더에 {near} 파일이 있으니 제출 폴더로 옮겨 {file} 파일로 두세요",
            zh: "{file} 不存在，但下一级目录中有 {near}：请把它移到提交目录中，命名为 {file}",
        }
        Symlink {
            en: "{file} is a symbolic link; the grader reads only regular files inside the submission",
            ko: "{file} 파일이 심볼릭 링크입니다. 채점기는 제출 폴더 안의 일반 파일만 읽습니다",
            zh: "{file} 是符号链接；评分程序只读取提交目录中的普通文件",
        }
        Directory { en: "{file} is a directory, not a regular file", ko: "{file} 항목이 일반 파일이 아니라 디렉터리입니다", zh: "{file} 是目录，不是普通文件" }
        NamedPipe { en: "{file} is a named pipe, not a regular file", ko: "{file} 항목이 일반 파일이 아니라 named pipe(FIFO)입니다", zh: "{file} 是命名管道，不是普通文件" }
        Socket { en: "{file} is a socket, not a regular file", ko: "{file} 항목이 일반 파일이 아니라 소켓입니다", zh: "{file} 是套接字，不是普通文件" }
        Device { en: "{file} is a device, not a regular file", ko: "{file} 항목이 일반 파일이 아니라 장치 파일입니다", zh: "{file} 是设备文件，不是普通文件" }
        TooLarge {
            en: "{file} is too large ({size} bytes; the limit is {cap})",
            ko: "{file} 파일이 너무 큽니다({size}바이트, 한도는 {cap})",
            zh: "{file} 太大（{size} 字节，上限为 {cap}）",
        }
        Empty { en: "{file} is empty", ko: "{file} 파일이 비어 있습니다", zh: "{file} 是空文件" }
        Nul {
            en: "{file} holds a NUL byte (offset {offset}), which text never holds: write the file again as plain text",
            ko: "{file} 파일에 텍스트에는 없는 NUL 바이트가 있습니다(오프셋 {offset}). 일반 텍스트로 다시 저장하세요",
            zh: "{file} 含有文本中不会出现的 NUL 字节（偏移 {offset}）；请重新保存为纯文本",
        }
        NotUtf8 {
            en: "{file} is not UTF-8 text (bad byte at offset {offset}); save it as UTF-8 (an editor's encoding setting, or iconv -t UTF-8)",
            ko: "{file} 파일이 UTF-8 텍스트가 아닙니다(오프셋 {offset}의 바이트). UTF-8로 저장하세요(편집기의 인코딩 설정, 또는 iconv -f EUC-KR -t UTF-8)",
            zh: "{file} 不是 UTF-8 文本（偏移 {offset} 处的字节无效）；请另存为 UTF-8（编辑器的编码设置，或 iconv -f GBK -t UTF-8）",
        }
        Wide {
            en: "{file} is {encoding} text; save it as UTF-8 (an editor's encoding setting, or iconv -f {encoding} -t UTF-8)",
            ko: "{file} 파일이 {encoding} 텍스트입니다. UTF-8로 저장하세요(편집기의 인코딩 설정, 또는 iconv -f {encoding} -t UTF-8)",
            zh: "{file} 是 {encoding} 文本；请另存为 UTF-8（编辑器的编码设置，或 iconv -f {encoding} -t UTF-8）",
        }
        Unreadable { en: "{file} cannot be read: {error}", ko: "{file} 파일을 읽을 수 없습니다: {error}", zh: "无法读取 {file}：{error}" }
        Replaced { en: "it was replaced while being read", ko: "읽는 도중 파일이 바뀌었습니다", zh: "读取过程中文件被替换" }
        NotValid { en: "{file} is not valid {format}: {error}", ko: "{file} 파일이 올바른 {format} 형식이 아닙니다: {error}", zh: "{file} 不是有效的 {format}：{error}" }
        /// A JSON file that is YAML (yq's output, say).
        YamlNotJson {
            en: "{file} holds YAML, not JSON; save it as JSON (jq prints JSON; yq -o=json turns YAML into JSON)",
            ko: "{file} 파일 내용이 JSON이 아니라 YAML입니다. JSON으로 저장하세요(jq는 JSON을 출력하고, yq -o=json은 YAML을 JSON으로 바꿉니다)",
            zh: "{file} 的内容是 YAML，不是 JSON；请保存为 JSON（jq 输出的就是 JSON；yq -o=json 可把 YAML 转成 JSON）",
        }
        SingleValue {
            en: "{file} reads as {format} but holds a single value ({what}), not fields or a list",
            ko: "{file} 파일을 {format}(으)로 읽었지만 필드나 목록이 아니라 값 하나({what})만 있습니다",
            zh: "{file} 按 {format} 读取，但只有单个值（{what}），而不是字段或列表",
        }
        ListNotFields {
            en: "{file} holds a list, where Envoy reads one config of fields (node:, admin:, static_resources: and so on, each at the left margin, with no leading '- ')",
            ko: "{file} 파일에 목록이 있습니다. Envoy는 필드로 된 설정 하나를 읽습니다(node:, admin:, static_resources: 등을 앞에 '- ' 없이 맨 왼쪽부터 씁니다)",
            zh: "{file} 是一个列表，而 Envoy 读取的是由字段组成的一份配置（node:、admin:、static_resources: 等，写在最左侧，前面没有 '- '）",
        }
        CommentsOnly { en: "null, as a file of only comments does", ko: "null, 주석만 있는 파일이 이렇습니다", zh: "null，只有注释的文件就是这样" }
        ABoolean { en: "a boolean", ko: "불리언", zh: "布尔值" }
        ANumber { en: "a number", ko: "숫자", zh: "数字" }
        AString { en: "a string", ko: "문자열", zh: "字符串" }
        NotKv { en: "{file} is {format}, not key=value text", ko: "{file} 파일은 key=value 텍스트가 아니라 {format}입니다", zh: "{file} 是 {format}，不是 key=value 文本" }
        CouldNotRead { en: "{file} could not be read", ko: "{file} 파일을 읽지 못했습니다", zh: "未能读取 {file}" }
        /// What a YAML or JSON reader says of a text it refuses, after "is not valid YAML: ".
        Tab { en: "a line is indented with a tab, where YAML needs spaces ({said})", ko: "탭으로 들여 쓴 줄이 있습니다. YAML은 스페이스로 들여 써야 합니다({said})", zh: "有一行用 Tab 缩进，而 YAML 需要用空格缩进（{said}）" }
        InDocument { en: "document {n}: {said}", ko: "{n}번째 문서: {said}", zh: "第 {n} 个文档：{said}" }
        EmptyFirst {
            en: "an empty YAML document comes before its content (the first document is the one read)",
            ko: "내용 앞에 빈 YAML 문서가 있습니다(첫 번째 문서만 읽습니다)",
            zh: "内容之前有一个空的 YAML 文档（只读取第一个文档）",
        }
        Documents { en: "it holds {n} YAML documents with content, where one is expected", ko: "내용이 있는 YAML 문서가 {n}개입니다. 하나여야 합니다", zh: "其中有 {n} 个带内容的 YAML 文档，而应只有一个" }
        AliasBomb {
            en: "it expands to more than {n} values, counting each value an alias repeats (a YAML alias bomb?); the grader reads at most that many",
            ko: "펼치면 값이 {n}개를 넘습니다(앨리어스가 되풀이하는 값까지 셈, YAML 앨리어스 폭탄?). 채점기는 그 이상 읽지 않습니다",
            zh: "展开后超过 {n} 个值（别名重复的值也计入；YAML 别名炸弹？）；评分程序最多只读这么多",
        }
        AliasTextBomb {
            en: "it expands to more than {n} bytes of text, counting each text an alias repeats (a YAML alias bomb?); the grader reads at most that much",
            ko: "펼치면 텍스트가 {n}바이트를 넘습니다(앨리어스가 되풀이하는 텍스트까지 셈, YAML 앨리어스 폭탄?). 채점기는 그 이상 읽지 않습니다",
            zh: "展开后文本超过 {n} 字节（别名重复的文本也计入；YAML 别名炸弹？）；评分程序最多只读这么多",
        }
        AliasRepeats { en: "too many alias expansions (a YAML alias bomb?)", ko: "앨리어스 펼침이 너무 많습니다(YAML 앨리어스 폭탄?)", zh: "别名展开次数过多（YAML 别名炸弹？）" }
        TooDeep { en: "nested too deeply", ko: "너무 깊게 중첩되어 있습니다", zh: "嵌套过深" }
        TooDeepAt { en: "nested too deeply (line {line} column {column})", ko: "너무 깊게 중첩되어 있습니다({line}번째 줄 {column}번째 열)", zh: "嵌套过深（第 {line} 行第 {column} 列）" }
        Brackets { en: "line {line}: brackets nested more than {max} deep", ko: "{line}번째 줄: 괄호가 {max}단계보다 깊게 중첩되어 있습니다", zh: "第 {line} 行：括号嵌套超过 {max} 层" }
        /// A field of an Envoy config set under its proto name and in camel case.
        TwoSpellings {
            en: "{file} sets one field twice, as `{one}` and as `{other}` (Envoy reads the two spellings as one field, and which of the two it takes is chance); keep one",
            ko: "{file} 파일이 한 필드를 `{one}`, `{other}` 두 표기로 두 번 설정합니다(Envoy는 두 표기를 같은 필드로 읽고, 둘 중 어느 값을 쓸지는 우연에 달려 있습니다). 하나만 남기세요",
            zh: "{file} 把同一个字段设置了两次：`{one}` 和 `{other}`（Envoy 把这两种写法读作同一个字段，取哪一个全凭偶然）；只保留一个",
        }
        DuplicateKey { en: "duplicate key `{key}`", ko: "키 `{key}`가 두 번 나옵니다", zh: "键 `{key}` 重复出现" }
        Yaml { en: "YAML", ko: "YAML", zh: "YAML" }
        YamlStream { en: "multi-document YAML", ko: "여러 문서로 된 YAML", zh: "多文档 YAML" }
        Json { en: "JSON", ko: "JSON", zh: "JSON" }
        Kv { en: "key=value text", ko: "key=value 텍스트", zh: "key=value 文本" }
        Text { en: "text", ko: "텍스트", zh: "文本" }
    }
}
