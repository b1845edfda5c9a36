//! Iterated dominance frontiers without materialising frontier sets: the algorithm of Sreedhar
//! and Gao ("A Linear Time Algorithm for Placing φ-Nodes", 1995) in the form of LLVM's
//! `IDFCalculator` (`GenericIteratedDominanceFrontier.h`), which LLVM's mem2reg uses to place phis.
//!
//! Definition blocks go into a priority queue keyed on `(dominator-tree depth, DFS in-number)`,
//! deepest first (the definitions sorted once, with a stable sort that is linear on the sorted
//! runs of a list gathered in layout order; blocks queued by the walk in a binary heap; popping
//! takes the deeper of the two heads). Popping a root `r`, the walk visits `r`'s dominator subtree (each block once
//! over the whole run) and looks at every CFG edge `x -> y` leaving it: if `y` is no deeper than
//! `r`, the edge is a join edge, so `y ∈ DF⁺`; `y` is then queued too unless it is a definition
//! block (already queued). With a live-in restriction ([`IdfCalculator::compute_pruned`], pruned
//! SSA) a block outside the set is never added nor queued, exactly as LLVM's `LiveInBlocks` does.
//!
//! Invariants and costs:
//! - each block enters the queue at most once and is walked at most once: `O((V + E) log V)` per
//!   call in the worst case, and far less when the definitions are few and local;
//! - a walk does not enter a dominator subtree none of whose edges reaches a level at or above
//!   the root's (a per-function table, computed once): without it a definition deep in a nest
//!   of N loops walks the whole nest below it, so N such variables cost `O(N²)` — the blow-up
//!   LLVM's mem2reg shows on `gen_scale.py nest`;
//! - the scratch sets are generation-stamped arrays owned by the calculator, so a call costs
//!   nothing proportional to the function's size: build one [`IdfCalculator`] per function and
//!   reuse it for every variable;
//! - the result lists each block once, sorted by layout position (callers may rely on it);
//!   unreachable definition blocks are ignored (they have no frontier).
//!
//! [`idf_worklist`], the classic worklist over [`DominanceFrontiers`] sets (Cytron et al., seed
//! 04's phase 2), is the tests' oracle.

use std::collections::BinaryHeap;

use super::cfg::Cfg;
use super::domtree::DomTree;
use super::frontier::DominanceFrontiers;
use super::marks::BlockMarks;
use crate::Block;

/// A set of blocks that can answer membership (the live-in restriction of pruned SSA).
pub trait BlockSet {
    /// Whether `b` is in the set.
    fn contains_block(&self, b: Block) -> bool;
}

impl BlockSet for BlockMarks {
    #[inline]
    fn contains_block(&self, b: Block) -> bool {
        self.contains(b)
    }
}

impl BlockSet for crate::entity::EntitySet<Block> {
    #[inline]
    fn contains_block(&self, b: Block) -> bool {
        self.contains(b)
    }
}

impl BlockSet for [bool] {
    #[inline]
    fn contains_block(&self, b: Block) -> bool {
        self.get(b.index()).copied().unwrap_or(false)
    }
}

impl BlockSet for Vec<bool> {
    #[inline]
    fn contains_block(&self, b: Block) -> bool {
        self[..].contains_block(b)
    }
}

/// Computes iterated dominance frontiers for one function, reusing its scratch space.
pub struct IdfCalculator<'a> {
    cfg: &'a Cfg,
    dt: &'a DomTree,
    b: IdfBuffers,
    /// Blocks walked by the last call (its cost, for callers deciding whether to keep it).
    walked_count: usize,
}

/// The scratch space of an [`IdfCalculator`], kept to build the next one (of another
/// function) without allocating: it carries nothing from one function to the next.
#[derive(Default)]
pub struct IdfBuffers {
    defs: BlockMarks,
    queued: BlockMarks,
    walked: BlockMarks,
    /// Blocks queued during the walk (they are never deeper than the root being walked).
    heap: BinaryHeap<(u32, u32, Block)>,
    /// The definition blocks, sorted by `(level, DFS in-number)`, deepest last: the first
    /// part of the queue, popped from the end; merged with `heap` when popping.
    initial: Vec<(u32, u32, Block)>,
    stack: Vec<Block>,
    /// For each block, the least dominator-tree level of any CFG successor of any block in
    /// its dominator subtree (`u32::MAX` for unreachable blocks): a walk from a root at level
    /// `L` skips a subtree whose value exceeds `L`, since no edge leaving it can be a join edge
    /// for that root or for any later (shallower) one.
    min_join: Vec<u32>,
}

impl<'a> IdfCalculator<'a> {
    /// A calculator for the function with CFG `cfg` and dominator tree `dt`.
    pub fn new(cfg: &'a Cfg, dt: &'a DomTree) -> Self {
        Self::with_buffers(cfg, dt, IdfBuffers::default())
    }

    /// [`IdfCalculator::new`], in the buffers `b`.
    pub fn with_buffers(cfg: &'a Cfg, dt: &'a DomTree, mut b: IdfBuffers) -> Self {
        let n = cfg.num_block_ids();
        b.defs.reset(n);
        b.queued.reset(n);
        b.walked.reset(n);
        b.heap.clear();
        b.initial.clear();
        b.stack.clear();
        min_join_levels(cfg, dt, &mut b.min_join);
        Self {
            cfg,
            dt,
            b,
            walked_count: 0,
        }
    }

    /// The buffers, for the next calculator.
    pub fn into_buffers(self) -> IdfBuffers {
        self.b
    }

    /// `DF⁺(defs)` into `out` (cleared first), sorted by layout position.
    pub fn compute(&mut self, defs: &[Block], out: &mut Vec<Block>) {
        self.run(defs, None::<&[bool]>, out);
    }

    /// `DF⁺(defs)` restricted to `live_in` (pruned SSA: blocks outside the set are neither
    /// returned nor propagated from) into `out` (cleared first), sorted by layout position.
    pub fn compute_pruned<S: BlockSet + ?Sized>(
        &mut self,
        defs: &[Block],
        live_in: &S,
        out: &mut Vec<Block>,
    ) {
        self.run(defs, Some(live_in), out);
    }

    /// The deepest queued block: the greater of the two parts of the queue.
    fn pop(&mut self) -> Option<(u32, u32, Block)> {
        match (self.b.initial.last(), self.b.heap.peek()) {
            (Some(a), Some(b)) if a < b => self.b.heap.pop(),
            (Some(_), _) => self.b.initial.pop(),
            (None, _) => self.b.heap.pop(),
        }
    }

    /// How many blocks the last call walked (a measure of its cost).
    pub fn last_walk(&self) -> usize {
        self.walked_count
    }

    fn run<S: BlockSet + ?Sized>(
        &mut self,
        defs: &[Block],
        live_in: Option<&S>,
        out: &mut Vec<Block>,
    ) {
        out.clear();
        self.b.defs.clear();
        self.b.queued.clear();
        self.b.walked.clear();
        self.b.heap.clear();
        self.walked_count = 0;
        let dt = self.dt;
        self.b.initial.clear();
        for &d in defs {
            if dt.is_reachable(d) && self.b.defs.insert(d) {
                self.b.initial.push((dt.level_raw(d), dt.dfs_in_raw(d), d));
            }
        }
        // A stable sort is linear on a few sorted runs, and definition lists gathered in
        // layout order mostly are (a heap of all of them would cost `k log k` every time).
        self.b.initial.sort();
        while let Some((root_level, _, root)) = self.pop() {
            self.b.stack.push(root);
            self.b.walked.insert(root);
            while let Some(x) = self.b.stack.pop() {
                self.walked_count += 1;
                for &y in self.cfg.succs(x) {
                    let level = dt.level_raw(y);
                    if level > root_level || !self.b.queued.insert(y) {
                        continue;
                    }
                    if live_in.is_some_and(|s| !s.contains_block(y)) {
                        continue;
                    }
                    out.push(y);
                    if !self.b.defs.contains(y) {
                        self.b.heap.push((level, dt.dfs_in_raw(y), y));
                    }
                }
                for &c in dt.children(x) {
                    if self.b.min_join[c.index()] <= root_level && self.b.walked.insert(c) {
                        self.b.stack.push(c);
                    }
                }
            }
        }
        let cfg = self.cfg;
        out.sort_unstable_by_key(|&b| cfg.layout_position(b));
    }
}

/// [`IdfBuffers::min_join`]: bottom-up over the dominator tree, `O(blocks + edges)`.
fn min_join_levels(cfg: &Cfg, dt: &DomTree, m: &mut Vec<u32>) {
    crate::util::refill(m, cfg.num_block_ids(), u32::MAX);
    for &b in dt.preorder().iter().rev() {
        let mut v = u32::MAX;
        for &s in cfg.succs(b) {
            v = v.min(dt.level_raw(s));
        }
        for &c in dt.children(b) {
            v = v.min(m[c.index()]);
        }
        m[b.index()] = v;
    }
}

/// `DF⁺(defs)`, optionally restricted to `live_in`, sorted by layout position: a one-shot
/// [`IdfCalculator`].
pub fn iterated_frontier(
    cfg: &Cfg,
    dt: &DomTree,
    defs: &[Block],
    live_in: Option<&dyn BlockSet>,
) -> Vec<Block> {
    let mut calc = IdfCalculator::new(cfg, dt);
    let mut out = Vec::new();
    calc.run(defs, live_in, &mut out);
    out
}

/// The oracle: the classic worklist over materialised frontiers — `W = defs`; for `x ∈ W`, each
/// `y ∈ DF(x)` not yet added (and in `live_in`, if given) is added and, if not a definition
/// block, joins `W`. Sorted by layout position.
pub fn idf_worklist(
    cfg: &Cfg,
    df: &DominanceFrontiers,
    defs: &[Block],
    live_in: Option<&dyn BlockSet>,
) -> Vec<Block> {
    let n = cfg.num_block_ids();
    let mut is_def = vec![false; n];
    let mut added = vec![false; n];
    let mut work: Vec<Block> = Vec::new();
    for &d in defs {
        if cfg.is_reachable(d) && !is_def[d.index()] {
            is_def[d.index()] = true;
            work.push(d);
        }
    }
    let mut out = Vec::new();
    while let Some(x) = work.pop() {
        for &y in df.frontier(x) {
            if added[y.index()] || live_in.is_some_and(|s| !s.contains_block(y)) {
                continue;
            }
            added[y.index()] = true;
            out.push(y);
            if !is_def[y.index()] {
                work.push(y);
            }
        }
    }
    out.sort_unstable_by_key(|&b| cfg.layout_position(b));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{b, below, cfg, chance, random_graph};

    fn idf(n: usize, edges: &[(u32, u32)], defs: &[u32]) -> Vec<u32> {
        let g = cfg(n, edges);
        let dt = DomTree::compute(&g);
        let defs: Vec<Block> = defs.iter().map(|&d| b(d)).collect();
        let got = iterated_frontier(&g, &dt, &defs, None);
        let df = DominanceFrontiers::compute(&g, &dt);
        assert_eq!(got, idf_worklist(&g, &df, &defs, None));
        got.iter().map(|x| x.0).collect()
    }

    #[test]
    fn diamond_and_loop() {
        let diamond = [(0, 1), (0, 2), (1, 3), (2, 3)];
        assert_eq!(idf(4, &diamond, &[1]), vec![3]);
        assert_eq!(idf(4, &diamond, &[0]), Vec::<u32>::new());
        // A definition in the loop body needs phis at the header and, through it, nowhere else.
        let lp = [(0, 1), (1, 2), (2, 1), (1, 3)];
        assert_eq!(idf(4, &lp, &[0, 2]), vec![1]);
    }

    #[test]
    fn iterates_through_phis() {
        // 0 -> 1, 2 ; 1 -> 3 ; 2 -> 3 ; 3 -> 4, 5 ; 0 -> 5 ... def in 1 gives a phi in 3,
        // whose frontier 5 needs one too.
        let e = [(0, 1), (0, 2), (1, 3), (2, 3), (3, 4), (4, 5), (0, 5)];
        assert_eq!(idf(6, &e, &[1]), vec![3, 5]);
    }

    #[test]
    fn pruned_by_live_in() {
        let e = [(0, 1), (0, 2), (1, 3), (2, 3), (3, 4), (4, 5), (0, 5)];
        let g = cfg(6, &e);
        let dt = DomTree::compute(&g);
        let mut live = vec![false; 6];
        live[5] = true;
        // 3 is not live-in: no phi there, and nothing propagates from it.
        assert_eq!(iterated_frontier(&g, &dt, &[b(1)], Some(&live)), vec![]);
        live[3] = true;
        let mut calc = IdfCalculator::new(&g, &dt);
        let mut out = vec![b(0)];
        calc.compute_pruned(&[b(1)], &live, &mut out);
        assert_eq!(out, vec![b(3), b(5)]);
        calc.compute(&[b(2)], &mut out);
        assert_eq!(out, vec![b(3), b(5)]);
    }

    #[test]
    fn self_loop_def_block_and_unreachable_defs() {
        // 0 -> 1 -> 1, 1 -> 2 ; 3 unreachable -> 2.
        let e = [(0, 1), (1, 1), (1, 2), (3, 2)];
        assert_eq!(idf(4, &e, &[1]), vec![1]);
        assert_eq!(idf(4, &e, &[3]), Vec::<u32>::new());
    }

    #[test]
    fn random_graphs_match_the_worklist() {
        let mut out = Vec::new();
        crate::testing::property(500, |r| {
            let mut rng = r.clone();
            let seed = rng.next_u64();
            let n = 1 + below(&mut rng, 60);
            let rg = random_graph(&mut rng, n, seed % 2 == 1);
            let g = rg.cfg();
            let dt = DomTree::compute(&g);
            let df = DominanceFrontiers::compute(&g, &dt);
            let mut calc = IdfCalculator::new(&g, &dt);
            for _ in 0..4 {
                let k = 1 + below(&mut rng, 4);
                let defs: Vec<Block> = (0..k).map(|_| Block::new(below(&mut rng, n))).collect();
                calc.compute(&defs, &mut out);
                assert_eq!(
                    out,
                    idf_worklist(&g, &df, &defs, None),
                    "seed {seed} {defs:?}"
                );
                let live: Vec<bool> = (0..n).map(|_| chance(&mut rng, 2, 3)).collect();
                calc.compute_pruned(&defs, &live, &mut out);
                let want = idf_worklist(&g, &df, &defs, Some(&live));
                assert_eq!(out, want, "seed {seed} {defs:?} {live:?}");
            }
        });
    }
}
