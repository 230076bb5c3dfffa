//! Writing into `--out` without trusting what is already there: every file is created
//! new (renamed into place where its name is taken), so a symbolic link planted under a
//! report's name is replaced, never followed; and a manifest lists what labcheck wrote,
//! so that the next run removes exactly those files and nothing else.

use std::io::Write;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

/// Lists the files a run wrote into its `--out` folder.
pub const MANIFEST: &str = ".labcheck-manifest";
const MANIFEST_HEAD: &str = "# Files labcheck wrote into this folder; the next run into it removes them first.";

/// Write `content` as `dir/name`. Where `name` is free (a new folder: the usual case),
/// it is created exclusively, which never follows a link; where it exists, the content
/// goes into a new file of `dir`, then renamed over `name`, whatever `name` was. The
/// rename is a second change to the folder for each report: a class of 1000 writes
/// 5000 of them (a tenth of a second on ext4).
pub fn write(dir: &Path, name: &str, content: &[u8]) -> std::io::Result<()> {
    use std::os::unix::fs::OpenOptionsExt;
    let path = dir.join(name);
    match std::fs::OpenOptions::new().write(true).create_new(true).mode(0o644).open(&path) {
        // A report cut short (a full disk) is not left behind as if it were whole.
        Ok(mut file) => return file.write_all(content).inspect_err(|_| drop(std::fs::remove_file(&path))),
        Err(e) if e.kind() != std::io::ErrorKind::AlreadyExists => return Err(e),
        Err(_) => {}
    }
    let mut tmp = tempfile::Builder::new().prefix(".labcheck-").permissions(std::fs::Permissions::from_mode(0o644)).tempfile_in(dir)?;
    tmp.write_all(content)?;
    tmp.persist(path).map(|_| ()).map_err(|e| e.error)
}

/// The files an earlier run listed, or None when `dir` has no manifest. Only plain names
/// in `dir` are taken: a manifest is a file anyone could have edited.
pub fn previous(dir: &Path) -> std::io::Result<Option<Vec<String>>> {
    let path = dir.join(MANIFEST);
    match std::fs::symlink_metadata(&path) {
        Ok(m) if m.is_file() => {}
        Ok(_) => return Ok(None),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e),
    }
    let text = std::fs::read_to_string(path)?;
    Ok(Some(text.lines().filter(|l| !l.starts_with('#') && plain(l)).map(String::from).collect()))
}

/// A name of a file directly in the folder, and not the manifest itself.
fn plain(name: &str) -> bool {
    !name.is_empty() && name != "." && name != ".." && name != MANIFEST && !name.contains(['/', '\0'])
}

/// Remove the files of an earlier run that this run did not write again. A name that
/// is gone already, or is now a directory, is left as it is.
pub fn remove_stale(dir: &Path, previous: &[String], written: &[String]) {
    for name in previous.iter().filter(|n| plain(n) && !written.contains(n)) {
        let path = dir.join(name);
        if std::fs::symlink_metadata(&path).is_ok_and(|m| !m.is_dir()) {
            let _ = std::fs::remove_file(path);
        }
    }
}

pub fn write_manifest(dir: &Path, written: &[String]) -> std::io::Result<()> {
    let mut text = format!("{MANIFEST_HEAD}\n");
    for name in written {
        text.push_str(name);
        text.push('\n');
    }
    write(dir, MANIFEST, text.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_planted_link_is_replaced_not_followed() {
        let dir = tempfile::tempdir().unwrap();
        let victim = dir.path().join("victim.txt");
        std::fs::write(&victim, "keep").unwrap();
        let out = dir.path().join("out");
        std::fs::create_dir(&out).unwrap();
        std::os::unix::fs::symlink(&victim, out.join("alice.txt")).unwrap();
        std::os::unix::fs::symlink(dir.path().join("nowhere"), out.join("class.html")).unwrap();
        write(&out, "alice.txt", b"report").unwrap();
        write(&out, "class.html", b"page").unwrap();
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep");
        assert!(!dir.path().join("nowhere").exists());
        assert_eq!(std::fs::read_to_string(out.join("alice.txt")).unwrap(), "report");
        assert!(std::fs::symlink_metadata(out.join("alice.txt")).unwrap().is_file());
    }

    #[test]
    fn a_free_name_is_created_and_an_earlier_report_replaced() {
        let dir = tempfile::tempdir().unwrap();
        write(dir.path(), "a.txt", b"first").unwrap();
        assert_eq!(std::fs::metadata(dir.path().join("a.txt")).unwrap().permissions().mode() & 0o777, 0o644);
        write(dir.path(), "a.txt", b"second, longer").unwrap();
        assert_eq!(std::fs::read_to_string(dir.path().join("a.txt")).unwrap(), "second, longer");
        let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(names, ["a.txt"], "no temporary file is left behind");
    }

    #[test]
    fn the_manifest_names_only_files_of_the_folder() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(previous(dir.path()).unwrap(), None);
        std::fs::write(dir.path().join(MANIFEST), "# head\na.json\n../x\n/etc/passwd\n.\n\nb.txt\n").unwrap();
        assert_eq!(previous(dir.path()).unwrap(), Some(vec!["a.json".to_string(), "b.txt".to_string()]));
        std::fs::write(dir.path().join("a.json"), "").unwrap();
        std::fs::write(dir.path().join("b.txt"), "").unwrap();
        remove_stale(dir.path(), &["a.json".into(), "b.txt".into()], &["b.txt".into()]);
        assert!(!dir.path().join("a.json").exists() && dir.path().join("b.txt").exists());
    }
}
