//! The README shows the output labcheck gives today: its examples are run as it says,
//! and what they print is compared with what it shows.

use crate::common::*;
use std::path::Path;

/// The README's output block whose first line starts with `first`, line by line.
fn shown(first: &str) -> Vec<String> {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let lines: Vec<&str> = readme.lines().collect();
    let start = lines.iter().position(|l| l.starts_with(first)).unwrap_or_else(|| panic!("no block starting {first:?} in README.md"));
    assert!(lines[start - 1].starts_with("```"), "{first:?} does not open a block");
    lines[start..].iter().take_while(|l| !l.starts_with("```")).map(|l| l.to_string()).collect()
}

/// `got` is what `shown` shows, where a line "..." stands for any lines.
fn same(shown: &[String], got: &str) -> bool {
    let got: Vec<&str> = got.trim_end().lines().collect();
    fn from(shown: &[String], got: &[&str]) -> bool {
        match shown.split_first() {
            None => got.is_empty(),
            Some((s, rest)) if s == "..." => (0..=got.len()).any(|skip| from(rest, &got[skip..])),
            Some((s, rest)) => got.first().is_some_and(|g| g == s) && from(rest, &got[1..]),
        }
    }
    from(shown, &got)
}

/// The half-done submission of "Grading as a student", made as its commands make it.
fn mid(dir: &Path) {
    std::fs::create_dir(dir).unwrap();
    for f in ["inject.yaml", "01-args.txt", "02-env.txt", "03-mesh.txt"] {
        std::fs::copy(sample().join(f), dir.join(f)).unwrap();
    }
    let args = std::fs::read_to_string(dir.join("01-args.txt")).unwrap();
    let edited: Vec<String> = args.lines().map(|l| if l.starts_with("domain=") { "domain=default.svc.cluster.local".to_string() } else { l.to_string() }).collect();
    std::fs::write(dir.join("01-args.txt"), edited.join("\n") + "\n").unwrap();
}

#[test]
fn the_mid_lab_example_is_todays_output() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("mid");
    mid(&dir);
    let g = Grade::new(&dir).text().run();
    let got = g.stdout.replace(dir.to_str().unwrap(), "/tmp/mid");
    let block = shown("ist2-boot Build a bootstrap");
    assert!(same(&block, &got), "README.md shows:\n{}\n\nlabcheck prints:\n{got}", block.join("\n"));
    assert_eq!(g.code, Some(1));
}

#[test]
fn the_class_example_is_todays_output() {
    let tmp = tempfile::tempdir().unwrap();
    let subs = tmp.path().join("submissions");
    std::fs::create_dir(&subs).unwrap();
    for name in ["alice", "carol"] {
        std::fs::create_dir(subs.join(name)).unwrap();
        for e in std::fs::read_dir(sample()).unwrap() {
            let e = e.unwrap();
            std::fs::copy(e.path(), subs.join(name).join(e.file_name())).unwrap();
        }
    }
    mid(&subs.join("bob"));
    let report = subs.join("carol/08-report.md");
    let text = std::fs::read_to_string(&report).unwrap();
    assert!(text.contains("typo_rc=1"));
    std::fs::write(&report, text.replace("typo_rc=1", "typo_rc=0")).unwrap();
    let g = Grade::batch("submissions").current_dir(tmp.path()).launch().text().args(&["--jobs", "2"]).run();
    let block = shown("PASS   submissions/alice");
    assert!(same(&block, &g.stdout), "README.md shows:\n{}\n\nlabcheck prints:\n{}", block.join("\n"), g.stdout);
    assert_eq!(g.code, Some(1));
}
