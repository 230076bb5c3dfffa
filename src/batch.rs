//! Grading many submissions in one run: in parallel across cores, each submission
//! once, results in the order given; a progress bar only where a person watches.

use crate::grade::Grader;
use crate::result::SubmissionResult;
use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// An entry of a batch folder that is not graded, and why: said on stderr and in the
/// class files, so that a submission handed in as a file is not dropped unseen.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct LeftOut {
    pub name: String,
    pub why: &'static str,
}

/// Every subdirectory of `parent`, sorted by name, and the entries left out: hidden ones
/// (`.git`), files, and symbolic links, which are not followed (in an upload area one
/// could lend a student another's submission, or any directory, as their own). Those
/// left out are named on stderr too.
pub fn submissions_in(parent: &Path) -> Result<(Vec<PathBuf>, Vec<LeftOut>), String> {
    let entries = std::fs::read_dir(parent).map_err(|e| format!("cannot list {}: {e}", crate::display::path(parent)))?;
    let mut dirs: Vec<PathBuf> = Vec::new();
    let mut left_out: Vec<LeftOut> = Vec::new();
    for e in entries.flatten() {
        let name = crate::display::path(Path::new(&e.file_name()));
        let hidden_name = e.file_name().to_string_lossy().starts_with('.');
        let why = match e.file_type() {
            Ok(t) if t.is_dir() && hidden_name => HIDDEN,
            Ok(_) if hidden_name => continue,
            Ok(t) if t.is_dir() => {
                dirs.push(e.path());
                continue;
            }
            Ok(t) if t.is_symlink() => {
                eprintln!("labcheck: skipped {}: a symbolic link, not a submission directory of its own", crate::display::path(&e.path()));
                "a symbolic link (not followed)"
            }
            _ => NOT_A_FOLDER,
        };
        left_out.push(LeftOut { name, why });
    }
    left_out.sort_by(|a, b| a.name.cmp(&b.name));
    for (why, said) in [(HIDDEN, "skipped hidden directories (not graded)"), (NOT_A_FOLDER, "skipped what is not a directory (not graded)")] {
        let names: Vec<&str> = left_out.iter().filter(|l| l.why == why).map(|l| l.name.as_str()).collect();
        if !names.is_empty() {
            eprintln!("labcheck: {said}: {}", names.join(", "));
        }
    }
    dirs.sort();
    Ok((dirs, left_out))
}

const HIDDEN: &str = "a hidden folder";
const NOT_A_FOLDER: &str = "not a folder";

/// A progress bar on a terminal, none in CI logs or pipes.
fn progress(n: usize) -> Option<ProgressBar> {
    let watched = std::io::stderr().is_terminal() && !crate::display::in_ci();
    (watched && n > 1).then(|| {
        let bar = ProgressBar::new(n as u64);
        bar.set_style(style());
        bar
    })
}

/// The bar takes what the counts leave of the terminal's width, however narrow.
fn style() -> ProgressStyle {
    ProgressStyle::with_template("{wide_bar} {pos}/{len} graded {elapsed}").unwrap_or_else(|_| ProgressStyle::default_bar())
}

/// Grade every directory, `jobs` at a time. A job runs its validations together (two
/// Envoys in validate mode for this lab), then its launched Envoy alone, so at most
/// `jobs` launched Envoys run at once, and `jobs` times the validations per submission
/// Envoys of any kind.
pub fn grade_all(grader: &Grader, dirs: &[PathBuf], jobs: usize) -> Vec<SubmissionResult> {
    let bar = progress(dirs.len());
    let results = each(dirs, jobs, bar.as_ref(), |d| grade_one(grader, d));
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    results
}

/// One submission, whatever happens while grading it: a panic (a bug, which the panic
/// message on stderr shows) makes its result an error that says so, and the class's
/// other submissions are graded as ever. The Envoys it started are stopped as the panic
/// unwinds (their guards stop them when dropped), and its private directories removed.
fn grade_one(grader: &Grader, dir: &Path) -> SubmissionResult {
    let start = std::time::Instant::now();
    let graded = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        test_panic(dir);
        grader.grade(dir)
    }));
    graded.unwrap_or_else(|panic| {
        let said = panic.downcast_ref::<&str>().map(|s| s.to_string()).or_else(|| panic.downcast_ref::<String>().cloned());
        let why = format!("the grader panicked: {}", said.as_deref().unwrap_or("no message"));
        grader.failed(dir, &why, start.elapsed())
    })
}

/// Test-only, in debug builds only (a release build has no such variable): a panic
/// while grading the submission whose directory is named `LABCHECK_TEST_PANIC_ON`, as
/// a bug would make one. No submission is known to make the grader panic, so this is
/// how the tests show that one panic costs only its own submission.
fn test_panic(dir: &Path) {
    if cfg!(debug_assertions)
        && let Some(name) = std::env::var_os("LABCHECK_TEST_PANIC_ON")
        && dir.file_name() == Some(name.as_os_str())
    {
        panic!("LABCHECK_TEST_PANIC_ON names this submission");
    }
}

/// `f` of every item, `jobs` at a time, in the items' order; `bar` counts each one done.
fn each<T: Sync, R: Send>(items: &[T], jobs: usize, bar: Option<&ProgressBar>, f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let done = |r: R| {
        if let Some(b) = bar {
            b.inc(1);
        }
        r
    };
    let workers = jobs.clamp(1, items.len().max(1));
    if workers == 1 {
        // One at a time needs no thread (and no thread's heap to set up and give back).
        return items.iter().map(|i| done(f(i))).collect();
    }
    let next = AtomicUsize::new(0);
    let slots: Vec<Mutex<Option<R>>> = items.iter().map(|_| Mutex::new(None)).collect();
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(item) = items.get(i) else { break };
                let r = done(f(item));
                *slots[i].lock().unwrap_or_else(|e| e.into_inner()) = Some(r);
            });
        }
    });
    slots.into_iter().filter_map(|m| m.into_inner().unwrap_or_else(|e| e.into_inner())).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bar counts every submission, one job or several.
    #[test]
    fn progress_advances_with_any_number_of_jobs() {
        let items: Vec<u32> = (0..5).collect();
        for jobs in [1, 3] {
            let bar = ProgressBar::hidden();
            bar.set_length(items.len() as u64);
            assert_eq!(each(&items, jobs, Some(&bar), |x| x * 2), vec![0, 2, 4, 6, 8]);
            assert_eq!(bar.position(), 5, "with --jobs {jobs}");
        }
    }
}

#[cfg(test)]
mod narrow {
    use indicatif::{ProgressBar, ProgressDrawTarget, TermLike};
    use std::sync::{Arc, Mutex};

    /// A terminal this many columns wide that keeps what was written.
    #[derive(Debug)]
    struct Term(u16, Arc<Mutex<Vec<String>>>);

    impl TermLike for Term {
        fn width(&self) -> u16 {
            self.0
        }
        fn move_cursor_up(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn move_cursor_down(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn move_cursor_right(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn move_cursor_left(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn write_line(&self, s: &str) -> std::io::Result<()> {
            self.write_str(&format!("{s}\n"))
        }
        fn write_str(&self, s: &str) -> std::io::Result<()> {
            self.1.lock().unwrap().push(s.to_string());
            Ok(())
        }
        fn clear_line(&self) -> std::io::Result<()> {
            Ok(())
        }
        fn flush(&self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn the_bar_fits_the_terminal() {
        for columns in [30u16, 48, 120] {
            let seen = Arc::new(Mutex::new(Vec::new()));
            let bar = ProgressBar::with_draw_target(Some(1000), ProgressDrawTarget::term_like(Box::new(Term(columns, seen.clone()))));
            bar.set_style(super::style());
            bar.set_position(517);
            bar.force_draw();
            let shown = seen.lock().unwrap().clone();
            assert!(shown.iter().any(|s| s.contains("517/1000 graded")), "{shown:?}");
            for line in shown.iter().flat_map(|s| s.lines()) {
                assert!(crate::display::width(line) <= columns as usize, "{columns} columns: {line:?}");
            }
        }
    }
}
