//! A submission file saved under a name near the one the lab asks for: another case,
//! another extension or none (`bootstrap.json`, `02-env`), one letter off, or one
//! folder down. Said once, in place of every check of the file failing for its absence.
//!
//! Only names are read, never the files: directory entries are looked at without
//! following links, and a submission with very many entries is not searched through.

use std::fs;
use std::path::Path;

/// Entries looked at in one folder, and folders looked into one level down.
const MAX_ENTRIES: usize = 500;
const MAX_FOLDERS: usize = 20;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Near {
    /// A file in the submission folder, by its name.
    Here(String),
    /// A file one folder down, as `folder/name`.
    FolderDown(String),
}

impl Near {
    /// Where the file is, relative to the submission folder.
    pub fn path(&self) -> &str {
        match self {
            Near::Here(p) | Near::FolderDown(p) => p,
        }
    }
}

/// The file near `name` in `dir`, if there is one; `taken` are the other names the lab
/// asks for, never offered in place of this one.
pub fn find(dir: &Path, name: &str, taken: &[String]) -> Option<Near> {
    let (files, folders) = entries(dir);
    let is_near = |candidate: &str| candidate != name && !taken.iter().any(|t| t == candidate) && near(candidate, name);
    if let Some(f) = files.iter().find(|f| is_near(f)) {
        return Some(Near::Here(f.clone()));
    }
    for folder in folders.iter().take(MAX_FOLDERS) {
        let (inside, _) = entries(&dir.join(folder));
        if let Some(f) = inside.iter().find(|f| f.as_str() == name || near(f, name)) {
            return Some(Near::FolderDown(format!("{folder}/{f}")));
        }
    }
    None
}

/// Regular files and folders of `dir`, by name, sorted; hidden ones and links left out.
fn entries(dir: &Path) -> (Vec<String>, Vec<String>) {
    let (mut files, mut folders) = (Vec::new(), Vec::new());
    let Ok(list) = fs::read_dir(dir) else { return (files, folders) };
    for e in list.take(MAX_ENTRIES).flatten() {
        let (Ok(kind), Ok(name)) = (e.file_type(), e.file_name().into_string()) else { continue };
        if name.starts_with('.') {
            continue;
        }
        if kind.is_file() {
            files.push(name);
        } else if kind.is_dir() {
            folders.push(name);
        }
    }
    files.sort();
    folders.sort();
    (files, folders)
}

/// Whether `candidate` is a slip for `name`: the same but for case, the extension
/// (changed, dropped, or another added), or one letter (added, dropped, changed, or
/// two swapped).
fn near(candidate: &str, name: &str) -> bool {
    let (c, n) = (candidate.to_lowercase(), name.to_lowercase());
    let stem = |s: &str| s.rsplit_once('.').map_or(s.to_string(), |(st, _)| st.to_string());
    c == n || stem(&c) == stem(&n) || c.starts_with(&format!("{n}.")) || (n.chars().count() >= 5 && one_edit(&c, &n))
}

/// At most one letter inserted, deleted, replaced, or two neighbours swapped.
pub fn one_edit(a: &str, b: &str) -> bool {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    let (short, long) = if a.len() <= b.len() { (&a, &b) } else { (&b, &a) };
    if long.len() - short.len() > 1 {
        return false;
    }
    let start = short.iter().zip(long.iter()).take_while(|(x, y)| x == y).count();
    if short.len() == long.len() {
        let rest = |from: usize| short[from..] == long[from..];
        // Replaced, or swapped with the next.
        start == short.len()
            || rest(start + 1)
            || (start + 1 < short.len() && short[start] == long[start + 1] && short[start + 1] == long[start] && rest(start + 2))
    } else {
        short[start..] == long[start + 1..]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slips_are_near() {
        for (c, n) in [
            ("bootstrap.json", "bootstrap.yaml"),
            ("bootstrap.yml", "bootstrap.yaml"),
            ("02-env", "02-env.txt"),
            ("02-ENV.TXT", "02-env.txt"),
            ("03_mesh.txt", "03-mesh.txt"),
            ("bootsrap.yaml", "bootstrap.yaml"),
            ("07-identitiy.txt", "07-identity.txt"),
            ("01-agrs.txt", "01-args.txt"),
            ("04-validate.txt.txt", "04-validate.txt"),
        ] {
            assert!(near(c, n), "{c} for {n}");
        }
        for (c, n) in [("boot-typo.yaml", "bootstrap.yaml"), ("05-typo.txt", "04-validate.txt"), ("notes.md", "08-report.md"), ("06-ready.txt", "06-node.json")] {
            assert!(!near(c, n), "{c} for {n}");
        }
    }

    #[test]
    fn found_here_or_one_folder_down_never_another_lab_file() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("bootstrap.yml"), "x").unwrap();
        std::fs::write(dir.path().join("boot-typo.yaml"), "x").unwrap();
        std::fs::create_dir(dir.path().join("ist2-boot")).unwrap();
        std::fs::write(dir.path().join("ist2-boot/03-mesh.txt"), "x").unwrap();
        std::os::unix::fs::symlink("/etc/passwd", dir.path().join("02-env")).unwrap();
        let taken = ["boot-typo.yaml".to_string(), "bootstrap.yaml".into()];
        assert_eq!(find(dir.path(), "bootstrap.yaml", &taken), Some(Near::Here("bootstrap.yml".into())));
        assert_eq!(find(dir.path(), "03-mesh.txt", &taken), Some(Near::FolderDown("ist2-boot/03-mesh.txt".into())));
        assert_eq!(find(dir.path(), "02-env.txt", &taken), None, "a link is not offered");
        assert_eq!(find(dir.path(), "08-report.md", &taken), None);
    }
}
