//! The names a submission goes by in `--out`: its own, to show, and a file-safe one for
//! its report files.

use std::path::{Path, PathBuf};

/// Taken by the class statistics in `--out` (`class.json`, ...).
const CLASS: &str = "class";
/// Also taken: the gradebook.
const SCORES: &str = "scores";

/// A report name's longest, in bytes: with `-NNNN` and the longest extension
/// (`.gradescope.json`) and a temporary file's suffix it stays far below the 255 bytes
/// a file name may have.
pub const MAX_NAME_BYTES: usize = 120;

/// A submission's own name: its folder's name (the last component of the path, or of
/// the path made absolute for `.`), made safe to show but not cut.
pub fn own(dir: &Path) -> String {
    let name = dir.file_name().map(|n| n.to_os_string()).or_else(|| {
        std::path::absolute(dir).ok().and_then(|p| p.canonicalize().ok().unwrap_or(p).file_name().map(|n| n.to_os_string()))
    });
    match name {
        Some(n) => crate::display::os_text(&n),
        None => crate::display::path(dir),
    }
}

/// A file-name-safe, unique name per submission (its folder's name), such that no two
/// submissions' report files, nor the class files, share a file name. Letters and
/// digits of any script are kept (张伟 stays 张伟), and `_`, and `-` but first;
/// anything else becomes `_`. A name
/// holds no dot, so `NAME.EXT` tells the name from the extension: the reports of `x`
/// and of `x.gradescope` would otherwise both write `x.gradescope.json`. A long name is
/// cut to [`MAX_NAME_BYTES`] and made unique again.
pub fn files(dirs: &[PathBuf]) -> Vec<String> {
    let mut out: Vec<String> = Vec::with_capacity(dirs.len());
    let mut taken = std::collections::HashSet::new();
    for d in dirs {
        let base = d.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "submission".into());
        // Nor a leading `-`: a file named `-x.json` reads as an option to most commands.
        let clean: String = base.chars().enumerate().map(|(i, c)| if c.is_alphanumeric() || c == '_' || (c == '-' && i > 0) { c } else { '_' }).collect();
        let clean = cut(if clean.is_empty() { "_" } else { &clean }, MAX_NAME_BYTES).to_string();
        let mut name = clean.clone();
        let mut n = 2;
        while name == CLASS || name == SCORES || taken.contains(&name) {
            name = format!("{clean}-{n}");
            n += 1;
        }
        taken.insert(name.clone());
        out.push(name);
    }
    out
}

/// At most `max` bytes of `s`, cut on a character boundary.
fn cut(s: &str, max: usize) -> &str {
    let mut end = s.len().min(max);
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    &s[..end]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_safe_and_unique() {
        let dirs = vec![PathBuf::from("/a/alice"), PathBuf::from("/b/alice"), PathBuf::from("/c/\u{1b}[31m bob"), PathBuf::from("/d/..x")];
        assert_eq!(files(&dirs), vec!["alice", "alice-2", "__31m_bob", "__x"]);
        assert_eq!(files(&[PathBuf::from("-=cmd(1)"), PathBuf::from("a-b")]), vec!["__cmd_1_", "a-b"]);
    }

    #[test]
    fn letters_of_any_script_are_kept_and_the_own_name_is_the_folders() {
        let dirs = vec![PathBuf::from("/a/张伟"), PathBuf::from("/a/李娜"), PathBuf::from("/a/José María")];
        assert_eq!(files(&dirs), vec!["张伟", "李娜", "José_María"]);
        assert_eq!(own(Path::new("/a/张伟")), "张伟");
        assert_eq!(own(Path::new("/a/x\u{1b}[2J")), "x\\e[2J");
        // Two names that are not UTF-8 do not read the same.
        use std::os::unix::ffi::OsStrExt;
        let (ff, fe) = (own(Path::new(std::ffi::OsStr::from_bytes(b"\xff\xfe"))), own(Path::new(std::ffi::OsStr::from_bytes(b"\xfe\xff"))));
        assert_eq!((ff.as_str(), fe.as_str()), ("\\xff\\xfe", "\\xfe\\xff"));
        assert!(!own(Path::new(".")).is_empty());
    }

    #[test]
    fn long_names_are_cut_and_stay_unique() {
        let long = "é".repeat(200);
        let dirs = vec![PathBuf::from(format!("/a/{long}")), PathBuf::from(format!("/b/{long}")), PathBuf::from(format!("/c/{long}x"))];
        let names = files(&dirs);
        assert!(names.iter().all(|n| n.len() <= MAX_NAME_BYTES + 6), "{names:?}");
        assert_eq!(names[0].len(), MAX_NAME_BYTES);
        assert_eq!(names[1], format!("{}-2", names[0]));
        assert_eq!(names[2], format!("{}-3", names[0]));
    }

    /// Every report file of every submission, and the class files: none twice.
    #[test]
    fn no_two_files_share_a_name() {
        let dirs: Vec<PathBuf> =
            ["x", "x.gradescope", "x.junit", "x_gradescope", "class", "class-2", "a.b.c", "scores"].iter().map(PathBuf::from).collect();
        let names = files(&dirs);
        assert_eq!(names, vec!["x", "x_gradescope", "x_junit", "x_gradescope-2", "class-2", "class-2-2", "a_b_c", "scores-2"]);
        let mut all: Vec<String> = super::super::CLASS_FILES.iter().map(|s| s.to_string()).collect();
        for n in &names {
            all.extend(crate::report::Format::FILES.iter().map(|f| format!("{n}.{}", f.extension())));
        }
        let count = all.len();
        all.sort();
        all.dedup();
        assert_eq!(all.len(), count, "{all:?}");
    }
}
