//! [`BlockMarks`]: a set of blocks with O(1) clearing, for analyses that run once per variable
//! (phi placement, live-in blocks) on functions with 100,000+ blocks, where clearing an
//! `O(blocks)` array per variable would make the pass quadratic.
//!
//! Invariant: block `b` is in the set iff `stamp[b] == generation`; `clear` bumps the generation
//! (and really zeroes the array only when the 32-bit counter wraps). Sized once for a function's
//! block id space; membership of an id beyond it is `false`.

use crate::Block;

/// A resettable set over block ids (see the module docs).
#[derive(Clone, Debug, Default)]
pub struct BlockMarks {
    stamp: Vec<u32>,
    generation: u32,
}

impl BlockMarks {
    /// An empty set for block ids below `n`.
    pub fn new(n: usize) -> Self {
        Self {
            stamp: vec![0; n],
            generation: 1,
        }
    }

    /// Makes this an empty set for block ids below `n`, as [`BlockMarks::new`] would, reusing
    /// its buffer.
    pub fn reset(&mut self, n: usize) {
        crate::util::refill(&mut self.stamp, n, 0);
        self.generation = 1;
    }

    /// Empties the set in O(1) (amortised).
    #[inline]
    pub fn clear(&mut self) {
        if self.generation == u32::MAX {
            self.stamp.iter_mut().for_each(|s| *s = 0);
            self.generation = 0;
        }
        self.generation += 1;
    }

    /// Whether `b` is in the set.
    #[inline]
    pub fn contains(&self, b: Block) -> bool {
        self.stamp.get(b.index()) == Some(&self.generation)
    }

    /// Adds `b` (which must be below the size given to [`BlockMarks::new`]); returns whether it
    /// was new.
    #[inline]
    pub fn insert(&mut self, b: Block) -> bool {
        let s = &mut self.stamp[b.index()];
        let new = *s != self.generation;
        *s = self.generation;
        new
    }

    /// Removes `b`; returns whether it was present.
    #[inline]
    pub fn remove(&mut self, b: Block) -> bool {
        let had = self.contains(b);
        if had {
            self.stamp[b.index()] = 0;
        }
        had
    }

    /// The size of the id space.
    pub fn capacity(&self) -> usize {
        self.stamp.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clear_is_a_generation_bump() {
        let mut m = BlockMarks::new(4);
        assert!(m.insert(Block(1)) && !m.insert(Block(1)) && m.contains(Block(1)));
        assert!(!m.contains(Block(9)));
        m.clear();
        assert!(!m.contains(Block(1)) && m.insert(Block(2)));
        assert!(m.remove(Block(2)) && !m.remove(Block(2)));
        m.generation = u32::MAX;
        m.insert(Block(3));
        m.clear();
        assert!(!m.contains(Block(3)) && m.generation == 1);
        assert_eq!(m.capacity(), 4);
    }
}
