//! An order-keeping map over a slice on every core: rendering and writing a class's
//! reports is as much work as grading it.

/// The cores this process may use (1 if that cannot be told). Asking reads cgroup
/// files, so callers that need no answer should not ask.
pub fn cores() -> usize {
    std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1)
}

/// `f` of every item, in the items' order, the slice split into one run per core.
pub fn map<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    // One item needs no thread, nor the cgroup files read to count cores.
    let cores = if items.len() < 2 { 1 } else { cores() };
    if cores < 2 {
        return items.iter().map(f).collect();
    }
    let per = items.len().div_ceil(cores);
    std::thread::scope(|s| {
        let runs: Vec<_> = items.chunks(per).map(|chunk| s.spawn(|| chunk.iter().map(&f).collect::<Vec<R>>())).collect();
        // A panic in `f` is a bug; let it surface as one rather than lose results.
        runs.into_iter().flat_map(|r| r.join().unwrap_or_else(|p| std::panic::resume_unwind(p))).collect()
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn keeps_the_order() {
        let items: Vec<u32> = (0..1000).collect();
        assert_eq!(super::map(&items, |x| x * 2), items.iter().map(|x| x * 2).collect::<Vec<_>>());
        assert!(super::map(&[] as &[u32], |x| *x).is_empty());
    }
}
