//! Applying a row's operation: key=value lines, values, whole-file text, 08's explanations.

use super::ops::*;

impl Sub<'_> {
    pub fn text(&self, f: &str) -> R<String> {
        let b = self.files.get(f).ok_or(format!("{f} is not in the submission"))?;
        String::from_utf8(b.clone()).map_err(|_| format!("{f} is not UTF-8"))
    }

    pub fn put(&mut self, f: &str, t: impl Into<Vec<u8>>) {
        self.files.insert(f.to_string(), t.into());
    }

    pub fn apply(&mut self, op: &Op) -> R<()> {
        match *op {
            Op::Nop => Ok(()),
            Op::Kv(f, k, v) => {
                let (mut lines, i) = self.kv_line(f, k)?;
                let old = lines[i][k.len() + 1..].to_string();
                let new = self.value(v, &old, Some(f))?;
                lines[i] = format!("{k}={new}");
                self.put(f, lines.join("\n"));
                Ok(())
            }
            Op::KvDel(f, k) => {
                let (mut lines, i) = self.kv_line(f, k)?;
                lines.remove(i);
                self.put(f, lines.join("\n"));
                Ok(())
            }
            Op::KvDup(f, k) => {
                let (mut lines, i) = self.kv_line(f, k)?;
                lines.insert(i + 1, lines[i].clone());
                self.put(f, lines.join("\n"));
                Ok(())
            }
            Op::KvLine(f, k, form) => {
                let (mut lines, i) = self.kv_line(f, k)?;
                let v = lines[i][k.len() + 1..].to_string();
                lines[i] = form.replace("{k}", k).replace("{K}", &cap(k)).replace("{v}", &v);
                self.put(f, lines.join("\n"));
                Ok(())
            }
            Op::KvSwap(f, a, b) => {
                let (mut lines, i) = self.kv_line(f, a)?;
                let (_, j) = self.kv_line(f, b)?;
                let (va, vb) = (lines[i][a.len() + 1..].to_string(), lines[j][b.len() + 1..].to_string());
                lines[i] = format!("{a}={vb}");
                lines[j] = format!("{b}={va}");
                self.put(f, lines.join("\n"));
                Ok(())
            }
            Op::KvMove(f, a, b) => {
                let (mut lines, i) = self.kv_line(f, a)?;
                let (_, j) = self.kv_line(f, b)?;
                lines.swap(i, j);
                self.put(f, lines.join("\n"));
                Ok(())
            }
            Op::Restore(f) => {
                let t = self.ctx.reference[f].clone();
                self.put(f, t);
                Ok(())
            }
            Op::Text(f, t) => {
                let old = self.files.get(f).cloned().unwrap_or_default();
                let new = self.text_op(f, &old, t)?;
                self.put(f, new);
                Ok(())
            }
            Op::Remove(f) => self.files.remove(f).map(|_| ()).ok_or(format!("{f} is not there")),
            Op::Inj(i, v) => self.inject_value(i, v),
            Op::InjDo(o) => self.inject_op(o),
            Op::Boot(b) => {
                self.yaml_op(BOOT, b)?;
                self.yaml_op(TYPO, b)?;
                self.follow(true, true)
            }
            Op::BootOnly(b) => {
                self.yaml_op(BOOT, b)?;
                self.follow(true, false)
            }
            Op::Typo(b) => {
                self.yaml_op(TYPO, b)?;
                self.follow(false, true)
            }
            Op::Node(n) => self.node_op(n),
            Op::Seq(ops) => ops.iter().try_for_each(|o| self.apply(o)),
        }
    }

    /// The file's lines and the index of the one line `key=...`.
    pub fn kv_line(&self, f: &str, k: &str) -> R<(Vec<String>, usize)> {
        let t = self.text(f)?;
        let lines: Vec<String> = t.split('\n').map(String::from).collect();
        let prefix = format!("{k}=");
        let i = lines.iter().position(|l| l.starts_with(&prefix)).ok_or(format!("{f} has no {k}= line"))?;
        Ok((lines, i))
    }

    pub fn kv(&self, f: &str, k: &str) -> R<String> {
        let (lines, i) = self.kv_line(f, k)?;
        Ok(lines[i][k.len() + 1..].trim_end_matches('\r').to_string())
    }

    pub fn value(&self, v: V, old: &str, file: Option<&str>) -> R<String> {
        let ns = self.ctx.get(C::Ns);
        Ok(match v {
            V::Lit(s) => s.to_string(),
            V::Empty => String::new(),
            V::Quote => format!("\"{old}\""),
            V::SQuote => format!("'{old}'"),
            V::Slash => format!("{old}/"),
            V::Upper => old.to_uppercase(),
            V::Lower => old.to_lowercase(),
            V::Cap => cap(old),
            V::Chop => old[..old.len() - old.chars().last().map_or(0, char::len_utf8)].to_string(),
            V::SwapLast2 => {
                let mut c: Vec<char> = old.chars().collect();
                let n = c.len();
                c.swap(n - 1, n - 2);
                c.into_iter().collect()
            }
            V::Pre(s) => format!("{s}{old}"),
            V::Suf(s) => format!("{old}{s}"),
            V::Repl(a, b) => must(old, a)?.replace(a, b),
            V::LeadSpace => format!(" {old}"),
            V::TrailSpace => format!("{old} "),
            V::Expand => must(old, "$(POD_NAMESPACE)")?.replace("$(POD_NAMESPACE)", ns),
            V::Unexpand => format!("$(POD_NAMESPACE).{}", old.strip_prefix(&format!("{ns}.")).ok_or(format!("{old:?} does not start with the namespace"))?),
            V::BeforeFirst(c) => must(old, &c.to_string())?.split(c).next().unwrap().to_string(),
            V::AfterFirst(c) => must(old, &c.to_string())?.split_once(c).unwrap().1.to_string(),
            V::SwapDot => {
                let (a, b) = old.split_once('.').ok_or(format!("{old:?} has no dot"))?;
                format!("{b}.{a}")
            }
            V::Host => old.rsplit_once(':').ok_or(format!("{old:?} has no port"))?.0.to_string(),
            V::Port(p) => format!("{}:{p}", old.rsplit_once(':').ok_or(format!("{old:?} has no port"))?.0),
            V::Inc => (old.trim().parse::<u64>().map_err(|_| format!("{old:?} is no number"))? + 1).to_string(),
            V::YesNo => self.value(V::YesNoAs("no", "yes"), old, file)?,
            V::YesNoAs(y, n) => match old {
                "yes" => y.to_string(),
                "no" => n.to_string(),
                _ => return Err(format!("{old:?} is not yes or no")),
            },
            V::Key(k) => self.kv(file.ok_or("Key outside a key=value file")?, k)?,
            V::From(f, k) => self.kv(f, k)?,
            V::Same(f1, k1, f2, k2) => (if self.kv(f1, k1)? == self.kv(f2, k2)? { "yes" } else { "no" }).to_string(),
            V::Ctx(c) => self.ctx.get(c).to_string(),
            V::DotCtx(c) => format!("{old}.{}", self.ctx.get(c)),
            V::FromInj(i) => self.inject_read(i)?,
            V::Pipe(vs) => {
                let mut cur = old.to_string();
                for v in vs {
                    cur = self.value(*v, &cur, file)?;
                }
                cur
            }
        })
    }

    pub fn text_op(&self, f: &str, old: &[u8], t: T) -> R<Vec<u8>> {
        let s = String::from_utf8(old.to_vec()).map_err(|_| format!("{f} is not UTF-8"))?;
        let lines = || s.split('\n').map(String::from).collect::<Vec<_>>();
        let rc = |ls: &Vec<String>| ls.iter().rposition(|l| l.starts_with("rc=")).ok_or(format!("{f} has no rc= line"));
        Ok(match t {
            T::Crlf => s.replace('\n', "\r\n").into_bytes(),
            T::Bom => format!("\u{feff}{s}").into_bytes(),
            T::Blank => lines().iter().map(|l| format!("\n{l}")).collect::<Vec<_>>().join("\n").into_bytes(),
            T::Reverse => {
                let mut ls: Vec<String> = lines().into_iter().filter(|l| !l.trim().is_empty()).collect();
                ls.reverse();
                (ls.join("\n") + "\n").into_bytes()
            }
            T::NoFinalNewline => s.trim_end_matches('\n').as_bytes().to_vec(),
            T::Prepend(p) => format!("{p}\n{s}").into_bytes(),
            T::Append(a) => format!("{s}{a}\n").into_bytes(),
            T::Twice => format!("{s}{s}").into_bytes(),
            T::Repl(a, b) => must(&s, a)?.replace(a, b).into_bytes(),
            T::Sub(c, v) => {
                let from = self.ctx.get(c);
                must(&s, from)?.replace(from, &self.value(v, from, None)?).into_bytes()
            }
            T::Empty => Vec::new(),
            T::CopyOf(other) => self.files.get(other).cloned().ok_or(format!("{other} is not there"))?,
            T::RcSet(v) => {
                let mut ls = lines();
                let i = rc(&ls)?;
                ls[i] = format!("rc={v}");
                ls.join("\n").into_bytes()
            }
            T::RcDel => {
                let mut ls = lines();
                ls.remove(rc(&ls)?);
                ls.join("\n").into_bytes()
            }
            T::RcFirst => {
                let mut ls = lines();
                let l = ls.remove(rc(&ls)?);
                ls.insert(0, l);
                ls.join("\n").into_bytes()
            }
            T::OnlyRc => {
                let ls = lines();
                format!("{}\n", ls[rc(&ls)?]).into_bytes()
            }
            T::LastTwo => {
                let ls: Vec<String> = lines().into_iter().filter(|l| !l.is_empty()).collect();
                (ls[ls.len() - 2..].join("\n") + "\n").into_bytes()
            }
            T::TrimDocEnd => s.strip_suffix("---\n").ok_or(format!("{f} does not end with ---"))?.as_bytes().to_vec(),
            T::Expl(e) => explanations(&s, e)?.into_bytes(),
        })
    }

}

pub fn must<'s>(s: &'s str, part: &str) -> R<&'s str> {
    if s.contains(part) { Ok(s) } else { Err(format!("{s:?} has no {part:?}")) }
}

pub fn cap(s: &str) -> String {
    let mut c = s.chars();
    c.next().map(|f| f.to_uppercase().chain(c).collect()).unwrap_or_default()
}

pub fn explanations(s: &str, e: E) -> R<String> {
    let lines: Vec<&str> = s.lines().collect();
    let is_expl = |l: &&str| l.starts_with("- ");
    let expl: Vec<&str> = lines.iter().copied().filter(is_expl).collect();
    if expl.len() < 4 {
        return Err("08-report.md has fewer than four explanations".into());
    }
    let keys: Vec<&str> = lines.iter().copied().filter(|l| !is_expl(l)).collect();
    let text = |l: &str| l[2..].to_string();
    const KO: [&str; 4] = [
        "- CrashLoopBackOff: ads_config의 cluster_name이 정적 클러스터 이름과 다르면 Envoy가 부트스트랩을 거부하고 컨테이너가 계속 재시작된다.",
        "- 확인: envoy --mode validate가 rc=1로 끝나고 로그 한 줄에 잘못된 클러스터 이름이 그대로 찍힌다.",
        "- Ready가 되지 않음: 부트스트랩은 유효하지만 istiod에 연결하지 못해 /ready가 503 PRE_INITIALIZING을 돌려준다.",
        "- 확인: control_plane.connected_state가 0이면 discoveryAddress, DNS, 네트워크 정책을 본다.",
    ];
    const ZH: [&str; 4] = [
        "- CrashLoopBackOff：ads_config 的 cluster_name 与静态集群名不一致时，Envoy 拒绝引导配置，容器反复重启。",
        "- 检查：envoy --mode validate 以 rc=1 退出，日志中的一行直接给出错误的集群名。",
        "- 一直不 Ready：引导配置有效，但连不上 istiod，/ready 返回 503 PRE_INITIALIZING。",
        "- 检查：control_plane.connected_state 为 0 时，查看 discoveryAddress、DNS 和网络策略。",
    ];
    let body: Vec<String> = match e {
        E::Keep(n) => return Ok(lines.iter().copied().filter(|l| !is_expl(l)).chain(expl.iter().copied().take(n)).collect::<Vec<_>>().join("\n") + "\n"),
        E::Marker(m) => expl.iter().map(|l| format!("{m}{}", text(l))).collect(),
        E::Above => return Ok(expl.iter().chain(keys.iter()).copied().collect::<Vec<_>>().join("\n") + "\n"),
        E::Korean => KO.iter().map(|s| s.to_string()).collect(),
        E::Chinese => ZH.iter().map(|s| s.to_string()).collect(),
        E::Indent => expl.iter().map(|l| format!("  {l}")).collect(),
        E::NoSpace => expl.iter().map(|l| format!("-{}", text(l))).collect(),
        E::Table => std::iter::once("| symptom and cause |".to_string())
            .chain(std::iter::once("|---|".to_string()))
            .chain(expl.iter().map(|l| format!("| {} |", text(l))))
            .collect(),
        E::OneLine => vec![expl.join(" ")],
        E::Rule => expl.iter().map(|_| "---".to_string()).collect(),
    };
    Ok(keys.iter().map(|s| s.to_string()).chain(body).collect::<Vec<_>>().join("\n") + "\n")
}
