//! Pruned phi placement for the variables of one function: each variable's live-in bound
//! ([`LiveBound`]) and its iterated dominance frontier within that bound
//! ([`IdfCalculator::compute_pruned`]), with one computation shared by all variables that have the
//! same definition blocks and the same upward-exposed use blocks.
//!
//! Why share: the answer depends on those two block lists alone, and the walk behind it can
//! cost up to the size of the function. Variables that are defined and used in the same blocks
//! are common: variables updated together in a loop body (every one needs a phi in every
//! enclosing loop header), or clang's `-O0` code for a long basic-block chain where each
//! block reads and writes the same locals. `V` such variables cost `V` walks over the same blocks;
//! shared, they cost one walk plus `V` hash lookups of their lists.
//!
//! Invariants:
//! - [`PrunedPlacer::place`] returns exactly what `LiveBound::compute` followed by
//!   `compute_pruned` returns for its lists (a kept answer was computed from equal lists);
//! - the key is the pair of lists as given, not sorted: lists that differ only in order are
//!   computed twice, which costs time but never changes an answer, and keeps the key `O(k)`;
//! - an answer is kept only when computing it cost more (the lists read, sorted and queued,
//!   plus the blocks walked) than keeping it stores (the lists plus the answer, plus a
//!   constant): a cheap answer is recomputed rather than stored,
//!   so the table holds the few expensive answers, stays small, and costs each variable one
//!   hash of its lists; memory is linear in the total size of the lists and answers, in
//!   three flat arrays; nothing depends on hash-map iteration order.

use super::cfg::Cfg;
use super::domtree::DomTree;
use super::idf::{IdfBuffers, IdfCalculator};
use super::live_bound::{LiveBound, LiveBoundIn};
use crate::Block;
use rustc_hash::{FxHashMap, FxHasher};
use std::hash::Hasher;
use std::ops::Range;

/// A kept answer: ranges into the `store` of [`PlacerBuffers`].
struct Entry {
    defs: Range<usize>,
    uses: Range<usize>,
    blocks: Range<usize>,
    /// The live-in bound was the whole function.
    all: bool,
    /// The next entry with the same key hash (`u32::MAX`: none).
    next: u32,
}

/// How much more a computation must cost than what keeping it stores for its answer to be
/// kept (in blocks).
const KEEP_MARGIN: usize = 32;

/// Places phis for many variables of one function (see the module docs).
pub struct PrunedPlacer<'a> {
    dt: &'a DomTree,
    idf: IdfCalculator<'a>,
    b: PlacerBuffers,
    /// How many calls were answered from a kept entry.
    shared: u64,
    /// Keep every answer, cheap or not (tests of the sharing itself).
    keep_every: bool,
}

/// The kept answers and scratch of a [`PrunedPlacer`] (the IDF calculator's included), kept
/// to build the next one (of another function) without allocating: nothing carries over,
/// as [`PrunedPlacer::with_buffers`] drops the answers.
#[derive(Default)]
pub struct PlacerBuffers {
    idf: IdfBuffers,
    /// Hash of a key -> the first entry with that hash.
    by_hash: FxHashMap<u64, u32>,
    entries: Vec<Entry>,
    /// Keys and answers of all entries, back to back.
    store: Vec<Block>,
    /// The last variable's bound (kept for its buffers).
    bound: LiveBound,
}

impl<'a> PrunedPlacer<'a> {
    /// A placer for the function with CFG `cfg` and dominator tree `dt`.
    pub fn new(cfg: &'a Cfg, dt: &'a DomTree) -> Self {
        Self::with_buffers(cfg, dt, PlacerBuffers::default())
    }

    /// [`PrunedPlacer::new`], in the buffers `b` (whose kept answers are dropped).
    pub fn with_buffers(cfg: &'a Cfg, dt: &'a DomTree, mut b: PlacerBuffers) -> Self {
        b.by_hash.clear();
        b.entries.clear();
        b.store.clear();
        let idf = IdfCalculator::with_buffers(cfg, dt, std::mem::take(&mut b.idf));
        Self {
            dt,
            idf,
            b,
            shared: 0,
            keep_every: false,
        }
    }

    /// The buffers, for the next placer.
    pub fn into_buffers(mut self) -> PlacerBuffers {
        self.b.idf = self.idf.into_buffers();
        self.b
    }

    /// The blocks that need a phi for a variable defined in `defs` and used before any definition in
    /// `uses` (pruned by [`LiveBound`]), into `out` (cleared first), sorted by layout
    /// position. Returns whether the bound was the whole function.
    pub fn place(&mut self, defs: &[Block], uses: &[Block], out: &mut Vec<Block>) -> bool {
        let h = key_hash(defs, uses);
        let first = self.b.by_hash.get(&h).copied();
        let mut id = first.unwrap_or(u32::MAX);
        while id != u32::MAX {
            let e = &self.b.entries[id as usize];
            if self.b.store[e.defs.clone()] == *defs && self.b.store[e.uses.clone()] == *uses {
                out.clear();
                out.extend_from_slice(&self.b.store[e.blocks.clone()]);
                self.shared += 1;
                return e.all;
            }
            id = e.next;
        }
        self.b.bound.recompute(self.dt, defs, uses);
        let set = LiveBoundIn {
            bound: &self.b.bound,
            dt: self.dt,
        };
        self.idf.compute_pruned(defs, &set, out);
        let all = self.b.bound.is_all();
        let stored = defs.len() + uses.len() + out.len();
        if self.keep_every || defs.len() + uses.len() + self.idf.last_walk() > stored + KEEP_MARGIN
        {
            self.keep(h, first, defs, uses, out, all);
        }
        all
    }

    fn keep(
        &mut self,
        h: u64,
        first: Option<u32>,
        defs: &[Block],
        uses: &[Block],
        out: &[Block],
        all: bool,
    ) {
        let mut put = |xs: &[Block]| {
            let start = self.b.store.len();
            self.b.store.extend_from_slice(xs);
            start..self.b.store.len()
        };
        let (defs, uses, blocks) = (put(defs), put(uses), put(out));
        self.b.by_hash.insert(h, self.b.entries.len() as u32);
        self.b.entries.push(Entry {
            defs,
            uses,
            blocks,
            all,
            next: first.unwrap_or(u32::MAX),
        });
    }

    /// The calculator behind the placer, for the other placements (exact liveness, unpruned).
    pub fn idf(&mut self) -> &mut IdfCalculator<'a> {
        &mut self.idf
    }

    /// How many calls to [`Self::place`] were answered by an earlier computation.
    pub fn shared(&self) -> u64 {
        self.shared
    }
}

fn key_hash(defs: &[Block], uses: &[Block]) -> u64 {
    let mut h = FxHasher::default();
    h.write_usize(defs.len());
    for b in defs {
        h.write_u32(b.0);
    }
    h.write_usize(uses.len());
    for b in uses {
        h.write_u32(b.0);
    }
    h.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::Rng;
    use crate::testing::{below, random_graph};

    fn b(i: u32) -> Block {
        Block(i)
    }

    #[test]
    fn equal_lists_share_one_computation() {
        // 0 -> 1 -> 2 -> 1 ; 2 -> 3: a loop; definitions in 0 and 2, uses in 1 (before a definition).
        let cfg = Cfg::from_edges(
            4,
            b(0),
            &[(b(0), b(1)), (b(1), b(2)), (b(2), b(1)), (b(2), b(3))],
        );
        let dt = DomTree::compute(&cfg);
        let mut p = PrunedPlacer::new(&cfg, &dt);
        p.keep_every = true;
        let mut out = Vec::new();
        for _ in 0..3 {
            assert!(!p.place(&[b(0), b(2)], &[b(1)], &mut out));
            assert_eq!(out, vec![b(1)]);
        }
        assert_eq!(p.shared(), 2);
        // With the real margin, an answer this cheap is recomputed, not kept.
        let mut q = PrunedPlacer::new(&cfg, &dt);
        q.place(&[b(0), b(2)], &[b(1)], &mut out);
        q.place(&[b(0), b(2)], &[b(1)], &mut out);
        assert_eq!((out.clone(), q.shared()), (vec![b(1)], 0));
        // Another order of the same blocks is a different key, with the same answer.
        p.place(&[b(2), b(0)], &[b(1)], &mut out);
        assert_eq!((out.clone(), p.shared()), (vec![b(1)], 2));
        // A use the entry's value reaches: the bound is everything.
        assert!(p.place(&[b(2)], &[b(1)], &mut out));
    }

    #[test]
    fn shared_answers_equal_fresh_ones_on_random_graphs() {
        crate::testing::property(500, |r| {
            let mut rng = r.clone();
            let seed = rng.next_u64();
            let n = 1 + below(&mut rng, 30);
            let g = random_graph(&mut rng, n, seed % 2 == 1).cfg();
            let dt = DomTree::compute(&g);
            let mut shared = PrunedPlacer::new(&g, &dt);
            shared.keep_every = true;
            // A few distinct lists, each asked several times in random order.
            let pick = |rng: &mut Rng, k: usize| -> Vec<Block> {
                (0..k).map(|_| Block::new(below(rng, n))).collect()
            };
            let keys: Vec<(Vec<Block>, Vec<Block>)> = (0..4)
                .map(|_| {
                    let k = 1 + below(&mut rng, 4);
                    let d = pick(&mut rng, k);
                    let k = below(&mut rng, 4);
                    (d, pick(&mut rng, k))
                })
                .collect();
            for _ in 0..12 {
                let (d, u) = &keys[below(&mut rng, keys.len())];
                let mut got = Vec::new();
                let all = shared.place(d, u, &mut got);
                let mut fresh = PrunedPlacer::new(&g, &dt);
                let mut want = Vec::new();
                assert_eq!(all, fresh.place(d, u, &mut want), "seed {seed}");
                assert_eq!(got, want, "seed {seed}");
            }
        });
    }
}
