//! The builder's memo of `(variable, block) -> value` entries beyond each block's one inline
//! entry: a hash map whose hash keeps the entries of one block next to each other.
//!
//! A seal completes all the incomplete phis of one block at once, for many variables, and a
//! walk memoizes entries of neighbouring blocks: with a hash that scatters every key (FxHash of
//! `(variable, block)`), each of those look-ups is a cache miss once the table outgrows the
//! cache (on a nest of 1,000 loops over 100 variables, 300,000 entries). Here the bucket of
//! `(variable, block)` is `hash(block) ^ variable` in its low bits, so the entries of one block
//! for variables `0..64` share a few cache lines; the top bits (hashbrown's tag) mix the
//! variable in, so the entries of one group keep distinct tags.
//!
//! Invariants: `clear` forgets everything and keeps the buffers; the result never depends on
//! the table's iteration order (it is never iterated).

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use super::Var;
use crate::Block;

/// The hasher of a `(variable, block)` key (see the module docs): only `write_u64` is used.
#[derive(Default)]
struct BlockMajor(u64);

impl Hasher for BlockMajor {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(5) ^ u64::from(b)).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
        }
    }

    #[inline]
    fn write_u64(&mut self, key: u64) {
        let (var, block) = (key >> 32, key & 0xffff_ffff);
        let spread = block.wrapping_mul(0x9e37_79b9_7f4a_7c15);
        let tag = var.wrapping_mul(0xbf58_476d_1ce4_e5b9) & 0xfe00_0000_0000_0000;
        self.0 = (spread ^ var) ^ tag;
    }
}

/// The memo (see the module docs).
pub(super) struct Memo<V> {
    map: HashMap<u64, V, BuildHasherDefault<BlockMajor>>,
}

impl<V> Default for Memo<V> {
    fn default() -> Self {
        Memo {
            map: HashMap::default(),
        }
    }
}

#[inline]
fn key(var: Var, block: Block) -> u64 {
    (u64::from(var.0) << 32) | u64::from(block.0)
}

impl<V: Copy> Memo<V> {
    /// Forgets every entry, keeping the buffers.
    pub(super) fn clear(&mut self) {
        self.map.clear();
    }

    /// The entry of `(var, block)`, if set.
    #[inline]
    pub(super) fn get(&self, var: Var, block: Block) -> Option<V> {
        self.map.get(&key(var, block)).copied()
    }

    /// Sets the entry of `(var, block)`.
    #[inline]
    pub(super) fn set(&mut self, var: Var, block: Block, v: V) {
        self.map.insert(key(var, block), v);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::hash::BuildHasher;

    #[test]
    fn entries_read_back_and_overwrite() {
        let mut m = Memo::<u32>::default();
        for b in 0..300u32 {
            for v in 0..40u32 {
                m.set(Var(v), Block(b * 7), b * 1000 + v);
            }
        }
        m.set(Var(3), Block(14), 9);
        for b in 0..300u32 {
            for v in 0..40u32 {
                let want = if (v, b) == (3, 2) { 9 } else { b * 1000 + v };
                assert_eq!(m.get(Var(v), Block(b * 7)), Some(want));
                assert_eq!(m.get(Var(v), Block(b * 7 + 1)), None);
            }
        }
        assert_eq!(m.get(Var(40), Block(0)), None);
        m.clear();
        assert_eq!(m.get(Var(0), Block(0)), None);
    }

    #[test]
    fn one_blocks_variables_sit_together_with_distinct_tags() {
        let h = |v: u32, b: u32| {
            BuildHasherDefault::<BlockMajor>::default().hash_one(key(Var(v), Block(b)))
        };
        let base = h(0, 77);
        let mut tags = std::collections::BTreeSet::new();
        for v in 0..64u32 {
            // The low bits (the bucket) differ from the variable 0's by the variable alone.
            assert_eq!((h(v, 77) ^ base) & 0xffff_ffff, u64::from(v));
            tags.insert(h(v, 77) >> 57);
        }
        assert!(tags.len() > 32, "{} distinct tags", tags.len());
    }
}
