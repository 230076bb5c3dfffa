//! The operations a mutation row is made of: each edits a submission's files by their
//! structure (a `key=` line, a YAML/JSON path, istio-proxy in inject.yaml), never by
//! literal text of one lab environment, so one row applies to every environment.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

pub const INJ: &str = "inject.yaml";
pub const ARGS: &str = "01-args.txt";
pub const ENV: &str = "02-env.txt";
pub const MESH: &str = "03-mesh.txt";
pub const BOOT: &str = "bootstrap.yaml";
pub const VAL: &str = "04-validate.txt";
pub const TYPO: &str = "boot-typo.yaml";
pub const TYPO_TXT: &str = "05-typo.txt";
pub const NODE: &str = "06-node.json";
pub const READY: &str = "06-ready.txt";
pub const ID: &str = "07-identity.txt";
pub const REP: &str = "08-report.md";

/// A transformation of one value (a `key=` value, a YAML scalar, a node.id field).
#[derive(Debug, Clone, Copy)]
pub enum V {
    Lit(&'static str),
    Empty,
    Quote,
    SQuote,
    Slash,
    Upper,
    Lower,
    /// First letter upper case.
    Cap,
    /// The last character dropped.
    Chop,
    /// The last two characters swapped (a typo).
    SwapLast2,
    Pre(&'static str),
    Suf(&'static str),
    /// Replace text within the value, everywhere; the text must be there.
    Repl(&'static str, &'static str),
    LeadSpace,
    TrailSpace,
    /// `$(POD_NAMESPACE)` replaced by the namespace.
    Expand,
    /// A leading `<namespace>.` replaced by `$(POD_NAMESPACE).`.
    Unexpand,
    BeforeFirst(char),
    AfterFirst(char),
    /// `a.b` becomes `b.a` (split at the first dot).
    SwapDot,
    /// `host:port` to `host`.
    Host,
    /// `host:port` to `host:P`.
    Port(&'static str),
    /// A number plus one.
    Inc,
    YesNo,
    /// yes/no written as these two words.
    YesNoAs(&'static str, &'static str),
    /// The value of another key of the same file.
    Key(&'static str),
    /// The value of a key of another file.
    From(&'static str, &'static str),
    /// `yes` when the two `file key` values are equal, else `no` (step 3's rule).
    Same(&'static str, &'static str, &'static str, &'static str),
    Ctx(C),
    /// `<value>.<that value of the lab environment>`.
    DotCtx(C),
    FromInj(I),
    /// One after the other.
    Pipe(&'static [V]),
}

/// A value of the lab environment (its params).
#[derive(Debug, Clone, Copy)]
pub enum C {
    Ns,
    PodName,
    Xds,
    Typo,
}

/// A place in inject.yaml: in istio-proxy, or in the pod it belongs to.
#[derive(Debug, Clone, Copy)]
pub enum I {
    Arg(usize),
    /// The argument after this one.
    Flag(&'static str),
    /// The value of `--name=value`.
    Opt(&'static str),
    /// An env entry's `value`.
    Env(&'static str),
    /// An env entry's `valueFrom.fieldRef.fieldPath`.
    FieldRef(&'static str),
    /// The name of the volume projecting a serviceAccountToken (renames its mount too).
    TokenVolume,
    TokenAudience,
    TokenPath,
    TokenMount,
    CaConfigMap,
    CaMount,
    ServiceAccount,
}

/// A whole-file text change.
#[derive(Debug, Clone, Copy)]
pub enum T {
    Crlf,
    Bom,
    /// A blank line before every line.
    Blank,
    /// The non-blank lines in reverse order.
    Reverse,
    NoFinalNewline,
    Prepend(&'static str),
    Append(&'static str),
    Repl(&'static str, &'static str),
    /// A value of the lab environment within the text, transformed.
    Sub(C, V),
    Empty,
    /// The content of another file of the submission.
    CopyOf(&'static str),
    /// The last `rc=` line's value.
    RcSet(&'static str),
    RcDel,
    /// The `rc=` line moved to the top.
    RcFirst,
    /// Only the `rc=` line kept.
    OnlyRc,
    /// Every line but the last two dropped (Envoy's verdict and rc=).
    LastTwo,
    /// The trailing `---` line removed.
    TrimDocEnd,
    /// The text twice over, as `>>` saves an output a second time.
    Twice,
    Expl(E),
}

/// A change to 08-report.md's explanation lines (those starting with `- `).
#[derive(Debug, Clone, Copy)]
pub enum E {
    Keep(usize),
    Marker(&'static str),
    Above,
    Korean,
    Chinese,
    Indent,
    NoSpace,
    Table,
    OneLine,
    Rule,
}

/// A change to bootstrap.yaml / boot-typo.yaml. Paths are `/`-separated; numbers index
/// lists; `@c`, `@ep`, `@ads`, `@adsc`, `@cds`, `@lds`, `@port`, `@meta` abbreviate.
#[derive(Debug, Clone, Copy)]
pub enum B {
    Set(&'static str, &'static str),
    Del(&'static str),
    Map(&'static str, V),
    /// A number written as a string.
    Str(&'static str),
    Rename(&'static str, &'static str),
    Push(&'static str, &'static str),
    /// The list item at the path, twice.
    Dup(&'static str),
    /// The list at the path, a list of one, written as its one item (no `-`).
    Unlist(&'static str),
    /// The mapping of one key at the path, written as that key's value alone
    /// (`envoy_grpc: xds-grpc` for `envoy_grpc: {cluster_name: xds-grpc}`).
    Inline(&'static str),
    /// Keys added to the mapping at the path ("" is the top).
    Merge(&'static str, &'static str),
    Id(usize, V),
    IdSwap(usize, usize),
    IdDrop(usize),
    H2(H),
    Json,
    JsonCompact,
    /// Every mapping's keys in reverse order.
    Reverse,
    /// Read and written again (comments gone, keys as they were).
    Reserialize,
    Text(T),
}

/// The HTTP/2 options of the static cluster.
#[derive(Debug, Clone, Copy)]
pub enum H {
    None,
    Legacy,
    Typed,
    Both,
    Http1,
}

/// A change to 06-node.json.
#[derive(Debug, Clone, Copy)]
pub enum N {
    Set(&'static str, &'static str),
    Del(&'static str),
    Map(&'static str, V),
    Compact,
    Reverse,
    Yaml,
    Wrap(&'static str),
    /// The other lab environment's 06-node.json.
    Other,
}

/// A change to inject.yaml as a whole.
#[derive(Debug, Clone, Copy)]
pub enum IOp {
    /// The lab's inject target itself, not injected.
    Uninjected,
    Reserialize,
    EnvReverse,
    DelEnv(&'static str),
    /// The flag and the argument after it removed.
    DelFlag(&'static str),
    /// These args added after istio-proxy's last.
    AddArgs(&'static [&'static str]),
}

#[derive(Debug, Clone, Copy)]
pub enum Op {
    Nop,
    Kv(&'static str, &'static str, V),
    KvDel(&'static str, &'static str),
    KvDup(&'static str, &'static str),
    /// The key's line written in another form: `{k}`, `{K}` (upper case) and `{v}`.
    KvLine(&'static str, &'static str, &'static str),
    /// The two keys' values exchanged.
    KvSwap(&'static str, &'static str, &'static str),
    /// The two keys' lines exchanged.
    KvMove(&'static str, &'static str, &'static str),
    /// The file as it is in the reference submission.
    Restore(&'static str),
    Text(&'static str, T),
    Remove(&'static str),
    Inj(I, V),
    InjDo(IOp),
    /// bootstrap.yaml and its copy boot-typo.yaml alike; 04, 05 and 06-node.json then
    /// follow, made as the lab says (04/05 by the real Envoy).
    Boot(B),
    /// bootstrap.yaml only; 04 and 06-node.json follow.
    BootOnly(B),
    /// boot-typo.yaml only; 05 follows.
    Typo(B),
    Node(N),
    Seq(&'static [Op]),
}

impl Op {
    /// Whether applying it runs Envoy (a bootstrap change and its follow-ups).
    pub fn runs_envoy(&self) -> bool {
        match self {
            Op::Boot(_) | Op::BootOnly(_) | Op::Typo(_) => true,
            Op::Seq(ops) => ops.iter().any(Op::runs_envoy),
            _ => false,
        }
    }
}

/// What the mutations read from the lab environment.
pub struct Ctx {
    pub params: BTreeMap<String, String>,
    pub target: PathBuf,
    pub envoy: PathBuf,
    pub reference: BTreeMap<String, Vec<u8>>,
    /// The other environment's reference submission, for "from another bootstrap".
    pub other: BTreeMap<String, Vec<u8>>,
}

impl Ctx {
    pub fn get(&self, c: C) -> &str {
        let k = match c {
            C::Ns => "namespace",
            C::PodName => "pod_name",
            C::Xds => "xds_cluster",
            C::Typo => "typo_cluster",
        };
        &self.params[k]
    }
}

/// A submission being built in its own directory (Envoy's follow-ups run there).
pub struct Sub<'a> {
    pub files: BTreeMap<String, Vec<u8>>,
    pub dir: &'a Path,
    pub ctx: &'a Ctx,
}

pub type R<X> = Result<X, String>;
