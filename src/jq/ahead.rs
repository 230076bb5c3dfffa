//! A filter compiled on the other core while the grader reads its input.
//!
//! Compiling the built-in spec's jq is a quarter of grading one submission and needs
//! nothing the submission holds; reading the lab files and the submission needs nothing
//! jaq compiles. So the two run at once, and the first expression run waits for the
//! filter. Only jq known to compile is sent ahead (the built-in spec's, parsed at build
//! time and compiled by its tests): any other spec is compiled before grading starts, so
//! that its mistakes are told first, with their places.

use super::Data;
use std::sync::{Arc, Mutex, OnceLock};
use std::thread::JoinHandle;

type Filter = jaq_core::Filter<Data>;

/// jaq's filter: compiled, or being compiled on another thread.
pub struct Ahead {
    filter: OnceLock<Option<Filter>>,
    compiling: Mutex<Option<JoinHandle<Option<Filter>>>>,
}

impl Ahead {
    pub fn ready(filter: Filter) -> Ahead {
        Ahead { filter: OnceLock::from(Some(filter)), compiling: Mutex::new(None) }
    }

    /// `compile` on a thread of its own, on another CPU; where there is no other CPU to
    /// use, or no thread to be had, here and now (taking turns with a thread on one CPU
    /// would only add the thread's cost).
    pub fn spawn(compile: impl FnOnce() -> Option<Filter> + Send + 'static) -> Ahead {
        let Some(away) = others() else {
            return Ahead::here(compile);
        };
        // A failed spawn drops what it was given: the job is shared so that it can be
        // taken back and run here.
        let job = Arc::new(Mutex::new(Some(compile)));
        let theirs = Arc::clone(&job);
        // The thread waits until it has been moved: one that has ended could not be, and
        // glibc would then move the caller instead (a gone thread's id reads 0, which
        // the kernel takes for "the calling thread"). Should the word never come, the
        // channel closes and the thread goes on.
        let (moved, wait_moved) = std::sync::mpsc::channel::<()>();
        let spawned = std::thread::Builder::new().name("jq-compile".into()).spawn(move || {
            let _ = wait_moved.recv();
            let compile = theirs.lock().ok()?.take()?;
            compile()
        });
        match spawned {
            Ok(handle) => {
                use std::os::unix::thread::JoinHandleExt;
                move_to(handle.as_pthread_t(), &away);
                let _ = moved.send(());
                Ahead { filter: OnceLock::new(), compiling: Mutex::new(Some(handle)) }
            }
            Err(_) => match job.lock().ok().and_then(|mut j| j.take()) {
                Some(compile) => Ahead::here(compile),
                None => Ahead { filter: OnceLock::from(None), compiling: Mutex::new(None) },
            },
        }
    }

    /// `compile` run here; a panic in it is taken as on a thread, as no filter.
    fn here(compile: impl FnOnce() -> Option<Filter>) -> Ahead {
        let filter = std::panic::catch_unwind(std::panic::AssertUnwindSafe(compile)).ok().flatten();
        Ahead { filter: OnceLock::from(filter), compiling: Mutex::new(None) }
    }

    /// The filter, waiting for its thread if need be; `None` when it did not compile.
    pub fn get(&self) -> Option<&Filter> {
        self.filter
            .get_or_init(|| {
                let handle = self.compiling.lock().ok()?.take()?;
                handle.join().ok().flatten()
            })
            .as_ref()
    }

    /// Whether a thread is compiling the filter and nobody has waited for it yet (for
    /// the tests, which make sure the built-in spec's jq does go ahead).
    #[cfg(test)]
    pub fn threaded(&self) -> bool {
        self.compiling.lock().is_ok_and(|c| c.is_some())
    }
}

// Linux starts a new thread on its parent's CPU, and an idle CPU takes one of the two
// over only when load is next balanced, some milliseconds on: longer than a whole
// grading. Until then the two take turns and nothing runs at once, so the compiling
// thread is sent to another CPU the process may use, if there is one, before it starts.

/// The CPUs this thread may use, but for the one it is on; `None` if none.
fn others() -> Option<libc::cpu_set_t> {
    // SAFETY: plain calls that fill a cpu_set_t of our own.
    unsafe {
        let here = libc::sched_getcpu();
        let mut allowed: libc::cpu_set_t = std::mem::zeroed();
        if here < 0 || libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut allowed) != 0 {
            return None;
        }
        but(allowed, here as usize)
    }
}

/// The CPUs of `allowed` but `here`; `None` if that leaves none, or `here` is beyond
/// what a cpu_set_t holds (more than 1024 CPUs).
fn but(mut allowed: libc::cpu_set_t, here: usize) -> Option<libc::cpu_set_t> {
    if here >= 8 * std::mem::size_of::<libc::cpu_set_t>() {
        return None;
    }
    // SAFETY: `here` is within the set, as checked.
    unsafe { libc::CPU_CLR(here, &mut allowed) };
    // SAFETY: counts the bits of a whole cpu_set_t.
    (unsafe { libc::CPU_COUNT(&allowed) } > 0).then_some(allowed)
}

/// Let `thread` run only on `set`. Failing is harmless: the thread then runs where it
/// is, which is only slower.
fn move_to(thread: libc::pthread_t, set: &libc::cpu_set_t) {
    // SAFETY: `set` is a whole cpu_set_t; `thread` is joinable (its handle is held) and
    // still running (it waits to be told it was moved).
    unsafe { libc::pthread_setaffinity_np(thread, std::mem::size_of::<libc::cpu_set_t>(), set) };
}

#[cfg(test)]
mod tests {
    use super::*;

    fn compiled(code: &'static str) -> impl FnOnce() -> Option<Filter> + Send + 'static {
        move || super::super::compile(code, &[]).ok()
    }

    #[test]
    fn a_filter_compiled_ahead_is_there_when_asked_for_from_any_thread() {
        let ahead = Ahead::spawn(compiled(". + 1"));
        assert_eq!(ahead.threaded(), others().is_some(), "a thread exactly when another CPU can take it");
        // Several threads asking at once (a batch's workers) all get the one filter.
        let got: Vec<bool> = std::thread::scope(|s| {
            let asks: Vec<_> = (0..4).map(|_| s.spawn(|| ahead.get().is_some())).collect();
            asks.into_iter().map(|a| a.join().unwrap()).collect()
        });
        assert_eq!(got, [true; 4]);
    }

    /// The CPUs the calling thread may use.
    fn allowed() -> Vec<usize> {
        // SAFETY: fills a cpu_set_t of our own, then reads it.
        unsafe {
            let mut set: libc::cpu_set_t = std::mem::zeroed();
            libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut set);
            (0..1024).filter(|c| libc::CPU_ISSET(*c, &set)).collect()
        }
    }

    /// A thread that had ended before it was moved once got its parent moved instead
    /// (a review saw it about once in 2000 spawns): every later thread, and the batch's
    /// core count, then had one CPU. The race is rare, so this loop guards the property
    /// rather than surely reproducing the old fault.
    #[test]
    fn the_caller_keeps_its_cpus() {
        let before = allowed();
        for _ in 0..300 {
            let ahead = Ahead::spawn(compiled("."));
            assert_eq!(allowed(), before);
            assert!(ahead.get().is_some());
        }
    }

    #[test]
    fn a_compile_that_fails_or_panics_ahead_gives_no_filter() {
        assert!(Ahead::spawn(compiled("if . then")).get().is_none());
        assert!(Ahead::spawn(|| -> Option<Filter> { panic!("a broken compile") }).get().is_none());
    }

    #[test]
    fn the_other_cpus_leave_out_the_one_this_thread_is_on() {
        let set = |cpus: &[usize]| {
            // SAFETY: a zeroed cpu_set_t is the empty set.
            let mut s: libc::cpu_set_t = unsafe { std::mem::zeroed() };
            // SAFETY: every CPU number here is well within the set.
            cpus.iter().for_each(|c| unsafe { libc::CPU_SET(*c, &mut s) });
            s
        };
        let cpus = |s: Option<libc::cpu_set_t>| s.map(|s| (0..8).filter(|c| unsafe { libc::CPU_ISSET(*c, &s) }).collect::<Vec<_>>());
        assert_eq!(cpus(but(set(&[0, 1]), 0)), Some(vec![1]));
        assert_eq!(cpus(but(set(&[0, 2, 3]), 2)), Some(vec![0, 3]));
        assert_eq!(cpus(but(set(&[1]), 1)), None, "one CPU allowed: nowhere else to go");
    }
}
