//! How work is spread over threads: the thread count ([`Threads`]), and contiguous chunks of
//! similar weight (functions by instruction count), so that joining results in chunk order
//! gives module order whatever the thread count.

use std::fmt;
use std::num::NonZeroUsize;

/// How many worker threads a call that reads, verifies, changes or prints a module may use:
/// at least one ([`Threads::ONE`]: everything on the calling thread). The default is the
/// machine's parallelism, at most 8. The output never depends on it.
///
/// ```
/// use llvm_ir::Threads;
/// assert_eq!(Threads::new(0), Threads::ONE);
/// assert_eq!(Threads::new(3).get(), 3);
/// assert!((1..=8).contains(&Threads::default().get()));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Threads(NonZeroUsize);

impl Threads {
    /// One thread: the calling one.
    pub const ONE: Threads = Threads(NonZeroUsize::MIN);

    /// `n` threads (0 counts as 1).
    pub fn new(n: usize) -> Self {
        Self(NonZeroUsize::new(n).unwrap_or(NonZeroUsize::MIN))
    }

    /// The machine's parallelism, at most 8 (the default).
    pub fn all() -> Self {
        Self::new(
            std::thread::available_parallelism()
                .map_or(1, |n| n.get())
                .min(8),
        )
    }

    /// The count.
    pub fn get(self) -> usize {
        self.0.get()
    }
}

impl Default for Threads {
    /// [`Threads::all`].
    fn default() -> Self {
        Self::all()
    }
}

impl fmt::Display for Threads {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// Splits `items` into at most `n` contiguous chunks of similar total `weight`.
pub fn balanced_chunks<T>(items: &[T], n: usize, weight: impl Fn(&T) -> usize) -> Vec<&[T]> {
    let weights: Vec<usize> = items.iter().map(weight).collect();
    let mut out = Vec::new();
    let mut start = 0;
    for end in chunk_bounds(&weights, n) {
        out.push(&items[start..end]);
        start = end;
    }
    out
}

/// End indices of at most `n` contiguous chunks of similar total weight (the last is `len`).
pub fn chunk_bounds(weights: &[usize], n: usize) -> Vec<usize> {
    let total: usize = weights.iter().sum();
    let per = total.div_ceil(n.max(1)).max(1);
    let mut bounds = Vec::new();
    let mut acc = 0;
    for (i, w) in weights.iter().enumerate() {
        acc += w;
        if acc >= per && bounds.len() + 1 < n {
            bounds.push(i + 1);
            acc = 0;
        }
    }
    if bounds.last() != Some(&weights.len()) {
        bounds.push(weights.len());
    }
    bounds.retain(|&b| b > 0);
    bounds.dedup();
    bounds
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_cover_everything_in_order() {
        let w = [5, 1, 1, 1, 9, 1, 0, 3];
        for n in 1..10 {
            let b = chunk_bounds(&w, n);
            assert!(b.len() <= n.max(1) && *b.last().unwrap() == w.len());
            assert!(b.windows(2).all(|p| p[0] < p[1]));
        }
        assert!(chunk_bounds(&[], 3).is_empty());
    }
}

/// Stack size of the threads that read, change and print modules: deep nesting (types and
/// constants 100,000 levels deep) recurses this far. The memory is reserved, not committed.
pub const BIG_STACK: usize = 1 << 30;

/// Runs `f` on a thread with a [`BIG_STACK`]-sized stack and returns its result.
pub fn with_big_stack<R: Send>(f: impl FnOnce() -> R + Send) -> R {
    std::thread::scope(|s| {
        std::thread::Builder::new()
            .stack_size(BIG_STACK)
            .spawn_scoped(s, f)
            .expect("cannot start the reader thread")
            .join()
            .unwrap_or_else(|p| std::panic::resume_unwind(p))
    })
}

/// Spawns a scoped worker with the big stack.
pub fn s_spawn<'scope, 'env, F>(s: &'scope std::thread::Scope<'scope, 'env>, f: F)
where
    F: FnOnce() + Send + 'scope,
{
    std::thread::Builder::new()
        .stack_size(BIG_STACK)
        .spawn_scoped(s, f)
        .expect("cannot start a worker thread");
}
