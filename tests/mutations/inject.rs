//! Edits of inject.yaml: a place in istio-proxy or its pod, found by structure.

use super::ops::*;
use super::paths::*;
use serde_yaml::Value as Y;

impl Sub<'_> {

    /// inject.yaml's documents, as one list (empty documents left out).
    pub fn inject_docs(&self) -> R<Y> {
        let t = self.text(INJ)?;
        let mut docs = Vec::new();
        for d in serde_yaml::Deserializer::from_str(&t) {
            let v: Y = serde::Deserialize::deserialize(d).map_err(|e| format!("inject.yaml: {e}"))?;
            if !v.is_null() {
                docs.push(v);
            }
        }
        Ok(Y::Sequence(docs))
    }

    /// Written back as kube-inject prints it: every document followed by `---`.
    pub fn put_inject(&mut self, docs: &Y) -> R<()> {
        let mut out = String::new();
        for d in docs.as_sequence().unwrap() {
            out += &serde_yaml::to_string(d).map_err(|e| e.to_string())?;
            out += "---\n";
        }
        self.put(INJ, out);
        Ok(())
    }

    pub fn inject_read(&self, i: I) -> R<String> {
        let mut docs = self.inject_docs()?;
        let (path, prefix) = inject_place(&docs, i)?;
        Ok(scalar(slot(&mut docs, &path, false)?)[prefix.len()..].to_string())
    }

    pub fn inject_value(&mut self, i: I, v: V) -> R<()> {
        let mut docs = self.inject_docs()?;
        let (path, prefix) = inject_place(&docs, i)?;
        let old = self.inject_read(i)?;
        let new = self.value(v, &old, None)?;
        let mount = if let I::TokenVolume = i { Some(inject_place(&docs, I::TokenMount)?.0.replace("/mountPath", "/name")) } else { None };
        *slot(&mut docs, &path, false)? = Y::String(format!("{prefix}{new}"));
        if let Some(m) = mount {
            // The mount follows the rename, or the volume would no longer be mounted.
            *slot(&mut docs, &m, false)? = Y::String(new);
        }
        self.put_inject(&docs)
    }

    pub fn inject_op(&mut self, o: IOp) -> R<()> {
        if let IOp::Uninjected = o {
            let t = std::fs::read(&self.ctx.target).map_err(|e| e.to_string())?;
            self.put(INJ, t);
            return Ok(());
        }
        let mut docs = self.inject_docs()?;
        let (_, proxy) = proxy_paths(&docs)?;
        let list = |docs: &mut Y, key: &str| -> R<Vec<Y>> { Ok(slot(docs, &format!("{proxy}/{key}"), false)?.as_sequence().ok_or(format!("istio-proxy has no {key}"))?.clone()) };
        let (key, new) = match o {
            IOp::Uninjected | IOp::Reserialize => return self.put_inject(&docs),
            IOp::EnvReverse => ("env", list(&mut docs, "env")?.into_iter().rev().collect::<Vec<_>>()),
            IOp::DelEnv(name) => {
                let env = list(&mut docs, "env")?;
                let i = index_of(&Y::Sequence(env.clone()), name, |e| e["name"].as_str() == Some(name))?;
                ("env", env.into_iter().enumerate().filter(|(j, _)| *j != i).map(|(_, e)| e).collect())
            }
            IOp::DelFlag(flag) => {
                let args = list(&mut docs, "args")?;
                let i = index_of(&Y::Sequence(args.clone()), flag, |a| a.as_str() == Some(flag))?;
                ("args", args.into_iter().enumerate().filter(|(j, _)| *j != i && *j != i + 1).map(|(_, a)| a).collect())
            }
            IOp::AddArgs(more) => {
                let args = list(&mut docs, "args")?;
                ("args", args.into_iter().chain(more.iter().map(|a| Y::String(a.to_string()))).collect())
            }
        };
        *slot(&mut docs, &format!("{proxy}/{key}"), false)? = Y::Sequence(new);
        self.put_inject(&docs)
    }

}

/// The path of istio-proxy's pod and of istio-proxy itself in the documents (a list).
pub fn proxy_paths(docs: &Y) -> R<(String, String)> {
    let list = docs.as_sequence().ok_or("no documents")?;
    let d = list.iter().position(|d| d["kind"].as_str() == Some("Deployment")).ok_or("inject.yaml has no Deployment")?;
    let pod = &list[d]["spec"]["template"]["spec"];
    for key in ["containers", "initContainers"] {
        if let Some(c) = pod[key].as_sequence().and_then(|cs| cs.iter().position(|c| c["name"].as_str() == Some("istio-proxy"))) {
            let pod_path = format!("{d}/spec/template/spec");
            return Ok((pod_path.clone(), format!("{pod_path}/{key}/{c}")));
        }
    }
    Err("inject.yaml has no istio-proxy".into())
}

pub fn index_of(list: &Y, what: &str, f: impl Fn(&Y) -> bool) -> R<usize> {
    list.as_sequence().and_then(|l| l.iter().position(f)).ok_or(format!("no {what}"))
}

/// Where a place of inject.yaml is (a path into the list of documents), and the
/// `--name=` prefix its value has within the argument.
pub fn inject_place(docs: &Y, i: I) -> R<(String, String)> {
    let (pod_path, proxy_path) = proxy_paths(docs)?;
    let at = |p: &str| -> R<Y> {
        let mut d = docs.clone();
        slot(&mut d, p, false).cloned()
    };
    let (pod, proxy) = (at(&pod_path)?, at(&proxy_path)?);
    let named = |l: &Y, n: &str| index_of(l, n, |x| x["name"].as_str() == Some(n));
    let token = || -> R<(usize, usize)> {
        let v = index_of(&pod["volumes"], "token volume", |v| v["projected"]["sources"].as_sequence().is_some_and(|s| s.iter().any(|s| s.get("serviceAccountToken").is_some())))?;
        let s = index_of(&pod["volumes"][v]["projected"]["sources"], "token", |s| s.get("serviceAccountToken").is_some())?;
        Ok((v, s))
    };
    let token_name = || -> R<String> { Ok(scalar(&pod["volumes"][token()?.0]["name"])) };
    let plain = |p: String| Ok((p, String::new()));
    match i {
        I::Arg(n) => plain(format!("{proxy_path}/args/{n}")),
        I::Flag(f) => plain(format!("{proxy_path}/args/{}", index_of(&proxy["args"], f, |a| a.as_str() == Some(f))? + 1)),
        I::Opt(o) => {
            let k = index_of(&proxy["args"], o, |a| a.as_str().is_some_and(|a| a.starts_with(&format!("{o}="))))?;
            Ok((format!("{proxy_path}/args/{k}"), format!("{o}=")))
        }
        I::Env(n) => plain(format!("{proxy_path}/env/{}/value", named(&proxy["env"], n)?)),
        I::FieldRef(n) => plain(format!("{proxy_path}/env/{}/valueFrom/fieldRef/fieldPath", named(&proxy["env"], n)?)),
        I::TokenVolume => plain(format!("{pod_path}/volumes/{}/name", token()?.0)),
        I::TokenAudience | I::TokenPath => {
            let (v, s) = token()?;
            let leaf = if let I::TokenAudience = i { "audience" } else { "path" };
            plain(format!("{pod_path}/volumes/{v}/projected/sources/{s}/serviceAccountToken/{leaf}"))
        }
        I::TokenMount => plain(format!("{proxy_path}/volumeMounts/{}/mountPath", named(&proxy["volumeMounts"], &token_name()?)?)),
        I::CaConfigMap => plain(format!("{pod_path}/volumes/{}/configMap/name", named(&pod["volumes"], "istiod-ca-cert")?)),
        I::CaMount => plain(format!("{proxy_path}/volumeMounts/{}/mountPath", named(&proxy["volumeMounts"], "istiod-ca-cert")?)),
        I::ServiceAccount => plain(format!("{pod_path}/serviceAccountName")),
    }
}
