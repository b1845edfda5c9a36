//! Small helpers the algorithms share.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// Makes `v` hold `n` copies of `x`, reusing its buffer when it is large enough. A buffer
/// that is too small is dropped first rather than grown: growing would copy its old contents
/// (which are about to be overwritten) into the new one.
#[inline]
pub fn refill<T: Clone>(v: &mut Vec<T>, n: usize, x: T) {
    v.clear();
    if v.capacity() < n {
        *v = Vec::with_capacity(n.max(v.capacity() * 2));
    }
    v.resize(n, x);
}

/// A hash map keyed by a pair of ids ([`pair`]) that keeps the entries of one *major* id
/// together: the bucket of `(major, minor)` is `hash(major) ^ minor` in its low bits, so the
/// entries of one block for neighbouring variables (or of one block's edges from neighbouring
/// predecessors) share cache lines, where a hash that scatters every key (FxHash) makes each
/// look-up a cache miss once the table outgrows the cache. For one major id, minor ids below
/// the table's size never collide. The top bits (hashbrown's tag) mix the minor id in.
pub type PairMap<V> = HashMap<u64, V, BuildHasherDefault<PairHasher>>;

/// The key of `(major, minor)` in a [`PairMap`].
#[inline]
pub fn pair(major: u32, minor: u32) -> u64 {
    (u64::from(major) << 32) | u64::from(minor)
}

/// [`PairMap`]'s hasher: only `write_u64` (a [`pair`]) is meant to be used.
#[derive(Default)]
pub struct PairHasher(u64);

impl Hasher for PairHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(5) ^ u64::from(b)).wrapping_mul(0x517c_c1b7_2722_0a95);
        }
    }

    #[inline]
    fn write_u64(&mut self, key: u64) {
        let (major, minor) = (key >> 32, key & 0xffff_ffff);
        let spread = major.wrapping_mul(0x9e37_79b9_7f4a_7c15);
        let tag = minor.wrapping_mul(0xbf58_476d_1ce4_e5b9) & 0xfe00_0000_0000_0000;
        self.0 = spread ^ minor ^ tag;
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn refill_sets_length_and_contents() {
        let mut v = vec![7u32; 3];
        super::refill(&mut v, 5, 1);
        assert_eq!(v, [1; 5]);
        let cap = v.capacity();
        super::refill(&mut v, 2, 9);
        assert_eq!((v.as_slice(), v.capacity()), (&[9, 9][..], cap));
    }

    #[test]
    fn pair_map_keeps_a_major_ids_entries_together() {
        use std::hash::BuildHasher;
        let h = |a: u32, b: u32| {
            std::hash::BuildHasherDefault::<super::PairHasher>::default()
                .hash_one(super::pair(a, b))
        };
        let mut tags = std::collections::BTreeSet::new();
        for minor in 0..64u32 {
            assert_eq!((h(77, minor) ^ h(77, 0)) & 0xffff_ffff, u64::from(minor));
            tags.insert(h(77, minor) >> 57);
        }
        assert!(tags.len() > 32, "{} distinct tags", tags.len());
        let mut m = super::PairMap::default();
        for a in 0..200u32 {
            for b in 0..30u32 {
                m.insert(super::pair(a * 3, b), a * 100 + b);
            }
        }
        for a in 0..200u32 {
            for b in 0..30u32 {
                assert_eq!(m.get(&super::pair(a * 3, b)), Some(&(a * 100 + b)));
                assert_eq!(m.get(&super::pair(a * 3 + 1, b)), None);
            }
        }
    }
}
