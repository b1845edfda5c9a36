//! Property tests on `arbtest`, deterministic: a property runs on a fixed list of arbtest
//! seeds, the same cases on every run (so CI is reproducible and takes the same time), each
//! giving the generator an [`Unstructured`] of random bytes. A failing seed is then shrunk by
//! arbtest's minimizer (shorter byte strings; the generators read zeros past the end through
//! [`ssa::testing::Rng::from_bytes`], and zero is every choice's smallest answer), and the test
//! fails with the minimal case's text and its panic message.
//!
//! `ARBTEST_SEED=0x...` (a seed a failure printed) runs that one case instead of the list.

use std::any::Any;
use std::cell::RefCell;
use std::fmt::Display;
use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};

use arbtest::arbitrary::{Result, Unstructured};

/// How long arbtest's minimizer looks for a smaller failing case.
const MINIMIZE_MS: u64 = 5_000;

/// Checks `prop` on the case `gen` draws from each of `cases` fixed seeds whose byte strings
/// grow from 32 bytes to `max_bytes` (by a quarter from one case to the next: a few small
/// cases first, as arbtest's own search has). On a failure: panics with
/// the smallest failing case found (its `Display`) and its message.
pub(crate) fn check<C: Display>(
    cases: u32,
    max_bytes: u32,
    gen: impl FnMut(&mut Unstructured<'_>) -> Result<C>,
    prop: impl FnMut(&C),
) {
    check_minimizing(cases, max_bytes, MINIMIZE_MS, gen, prop);
}

/// [`check`], minimizing for `minimize_ms` milliseconds.
fn check_minimizing<C: Display>(
    cases: u32,
    max_bytes: u32,
    minimize_ms: u64,
    mut gen: impl FnMut(&mut Unstructured<'_>) -> Result<C>,
    mut prop: impl FnMut(&C),
) {
    let failure = RefCell::new(None::<String>);
    let mut one = |u: &mut Unstructured<'_>| -> Result<()> {
        let case = gen(u)?;
        if let Err(p) = catch_unwind(AssertUnwindSafe(|| prop(&case))) {
            failure.replace(Some(format!("{case}\n{}", message(&*p))));
            resume_unwind(p);
        }
        Ok(())
    };
    for seed in seeds(cases, max_bytes) {
        let run = || arbtest::arbtest(&mut one).seed(seed).run();
        if catch_unwind(AssertUnwindSafe(run)).is_err() {
            let minimize = arbtest::arbtest(&mut one).seed(seed).minimize();
            minimize.budget_ms(minimize_ms).run();
            let minimal = failure.take().unwrap_or_default();
            panic!(
                "property failed on seed {seed:#018x}; the smallest failing case found (its seed \
                 is the last `seed` line above):\n{minimal}"
            );
        }
    }
}

/// The seeds to run: `ARBTEST_SEED`'s, else `cases` fixed ones. An arbtest seed's low 32 bits
/// are the byte count, its high 32 bits the (nonzero) state of the generator of the bytes.
fn seeds(cases: u32, max_bytes: u32) -> Vec<u64> {
    if let Some(seed) = env_seed() {
        return vec![seed];
    }
    let mut size = 32u32.min(max_bytes);
    (0..cases)
        .map(|i| {
            let state = (i + 1).wrapping_mul(0x9e37_79b9);
            let seed = (u64::from(state) << 32) | u64::from(size);
            size = (size.saturating_mul(5) / 4).min(max_bytes);
            seed
        })
        .collect()
}

/// The seed in `ARBTEST_SEED` (hexadecimal, `0x` optional).
fn env_seed() -> Option<u64> {
    let var = std::env::var("ARBTEST_SEED").ok()?;
    u64::from_str_radix(var.trim_start_matches("0x"), 16).ok()
}

/// A panic's message.
fn message(p: &(dyn Any + Send)) -> &str {
    p.downcast_ref::<String>()
        .map(String::as_str)
        .or_else(|| p.downcast_ref::<&str>().copied())
        .unwrap_or("(a panic without a message)")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_are_fixed_and_grow_to_the_cap() {
        let s = seeds(10, 64);
        assert_eq!(s, seeds(10, 64));
        let sizes: Vec<u32> = s.iter().map(|&x| x as u32).collect();
        assert_eq!(sizes, [32, 40, 50, 62, 64, 64, 64, 64, 64, 64]);
        assert!(s.iter().all(|&x| x >> 32 != 0));
    }

    #[test]
    fn a_failure_reports_a_smaller_case() {
        let r = catch_unwind(|| {
            check_minimizing(
                50,
                4096,
                300,
                |u| Ok(u.len()),
                |&n| assert!(n < 100, "too long"),
            );
        });
        let p = r.expect_err("the property fails");
        let text = message(&*p);
        let len: usize = text.lines().nth(1).unwrap().parse().unwrap();
        assert!((100..4096).contains(&len), "{text}");
        assert!(text.contains("too long"), "{text}");
    }
}
