//! The builder's memo of `(variable, block) -> value` entries beyond each block's one inline
//! entry: a hash map whose hash keeps the entries of one block next to each other.
//!
//! A seal completes all the incomplete phis of one block at once, for many variables, and a
//! walk memoizes entries of neighbouring blocks: with a hash that scatters every key (FxHash of
//! `(variable, block)`), each of those look-ups is a cache miss once the table outgrows the
//! cache (on a nest of 1,000 loops over 100 variables, 300,000 entries). Here the table is a
//! [`PairMap`] keyed block-major, so the entries of one block for neighbouring variables share
//! a few cache lines.
//!
//! Invariants: `clear` forgets everything and keeps the buffers; the result never depends on
//! the table's iteration order (it is never iterated).

use super::Var;
use crate::util::{pair, PairMap};
use crate::Block;

/// The memo (see the module docs).
pub(super) struct Memo<V> {
    map: PairMap<V>,
}

impl<V> Default for Memo<V> {
    fn default() -> Self {
        Memo {
            map: PairMap::default(),
        }
    }
}

/// Block-major: a block's entries sit together.
#[inline]
fn key(var: Var, block: Block) -> u64 {
    pair(block.0, var.0)
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
}
