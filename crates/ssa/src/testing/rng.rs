//! The source of random choices for property tests: a seeded PRNG (splitmix64), or a byte
//! string to read choices from, so that a property-testing tool that shrinks its input bytes
//! (`arbtest`, as this workspace uses) shrinks the generated program with them.
//!
//! Invariants: the choices are a pure function of the seed or the bytes, on every platform;
//! bytes read past their end read as zeros, and zero is every choice's smallest answer, so
//! fewer or smaller bytes give smaller programs.

/// A source of random choices (see the module docs).
#[derive(Clone, Debug)]
pub struct Rng<'a> {
    src: Source<'a>,
}

#[derive(Clone, Debug)]
enum Source<'a> {
    Seed(u64),
    Bytes(&'a [u8]),
}

impl Rng<'static> {
    /// Choices from the splitmix64 generator (Steele, Lea, Flood 2014) seeded with `seed`.
    pub fn new(seed: u64) -> Self {
        Self {
            src: Source::Seed(seed),
        }
    }
}

impl<'a> Rng<'a> {
    /// Choices read from `bytes` (zeros once they run out).
    pub fn from_bytes(bytes: &'a [u8]) -> Self {
        Self {
            src: Source::Bytes(bytes),
        }
    }

    /// The next 64 bits.
    pub fn next_u64(&mut self) -> u64 {
        match &mut self.src {
            Source::Seed(state) => {
                *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
                let mut z = *state;
                z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
                z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
                z ^ (z >> 31)
            }
            Source::Bytes(_) => self.take(8),
        }
    }

    /// A value in `0..n`. Panics if `n == 0`. From a seed: Lemire's multiply-shift (the bias
    /// is at most `n / 2^64`); from bytes: as few bytes as `n` needs, modulo `n`.
    pub fn below(&mut self, n: u64) -> u64 {
        assert!(n > 0, "Rng::below(0)");
        match self.src {
            Source::Seed(_) => ((self.next_u64() as u128 * n as u128) >> 64) as u64,
            Source::Bytes(_) if n == 1 => 0,
            Source::Bytes(_) => {
                let bits = 64 - (n - 1).leading_zeros();
                self.take(bits.div_ceil(8) as usize) % n
            }
        }
    }

    /// The next `k <= 8` bytes as a big-endian number (zeros past the end).
    fn take(&mut self, k: usize) -> u64 {
        let Source::Bytes(bytes) = &mut self.src else {
            unreachable!("only byte sources take bytes");
        };
        let mut v = 0u64;
        for _ in 0..k {
            let (b, rest) = bytes.split_first().map_or((0, &[][..]), |(b, r)| (*b, r));
            *bytes = rest;
            v = (v << 8) | u64::from(b);
        }
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deterministic_and_in_range() {
        let (mut a, mut b) = (Rng::new(7), Rng::new(7));
        for _ in 0..1000 {
            assert_eq!(a.next_u64(), b.next_u64());
        }
        let mut r = Rng::new(1);
        let mut seen = [false; 5];
        for _ in 0..1000 {
            let x = r.below(5);
            assert!(x < 5);
            seen[x as usize] = true;
        }
        assert!(seen.iter().all(|&s| s));
        assert_ne!(Rng::new(1).next_u64(), Rng::new(2).next_u64());
    }

    #[test]
    fn bytes_give_small_choices_when_they_run_out() {
        let mut r = Rng::from_bytes(&[3, 0x01, 0x02]);
        assert_eq!(r.below(10), 3);
        assert_eq!(r.below(1000), 0x0102 % 1000);
        assert_eq!(r.below(7), 0);
        assert_eq!(r.next_u64(), 0);
    }
}
