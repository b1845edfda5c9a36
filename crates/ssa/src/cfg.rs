//! The snapshot of a control-flow graph every analysis starts from: successors and predecessors
//! per block, reachability, and the depth-first orders.
//!
//! A [`Cfg`] is computed from any [`Graph`] ([`Cfg::new`], which checks the graph) or from an edge
//! list ([`Cfg::from_edges`], for literal graphs in tests) and never changes; a pass that edits
//! edges computes a new one. Invariants:
//! - per-block data is dense, indexed by `Block` id over the graph's whole id space
//!   ([`Cfg::num_block_ids`]); ids that are not in the graph's block list have no edges, are
//!   unreachable and have no layout position;
//! - edges are stored in flat CSR arrays (one offset array plus one target array per relation; no
//!   allocation per block);
//! - successors keep the graph's order *with multiplicity*: a two-way branch whose arms both go
//!   to `x` gives `x` twice, so a phi in `x` has one entry per occurrence;
//! - predecessors have the same multiplicity, ordered by the predecessor's layout position, then
//!   successor order, so all occurrences of one predecessor are adjacent; the distinct lists
//!   ([`Cfg::distinct_preds`], [`Cfg::distinct_succs`]) keep the first occurrence of each block;
//! - a query about a block id outside the graph answers as for an unreachable block with no
//!   edges (empty lists, `None`, `false`), never panics;
//! - the depth-first search from the entry (iterative, see [`crate::postorder`]) defines
//!   reachability, preorder, postorder and reverse postorder (RPO). Predecessor lists include
//!   unreachable predecessors; the orders contain reachable blocks only.

use super::postorder::{dfs_csr_into, Dfs, DfsWork};
use crate::graph::{Graph, GraphError, Predecessors};
use crate::Block;

/// Sentinel for "no number" in the dense per-block number arrays.
const NO_NUM: u32 = u32::MAX;

/// A CSR adjacency relation: the neighbours of block `i` are `targets[off[i]..off[i + 1]]`.
#[derive(Clone, Debug, Default)]
struct Csr {
    off: Vec<u32>,
    targets: Vec<Block>,
}

impl Csr {
    #[inline]
    fn get(&self, b: Block) -> &[Block] {
        let i = b.index();
        match self.off.get(i + 1) {
            Some(&end) => &self.targets[self.off[i] as usize..end as usize],
            None => &[],
        }
    }

    /// Sets the offset array for per-block target counts `count`; returns the total count.
    fn offsets_from_counts(&mut self, count: &[u32]) -> u32 {
        self.off.clear();
        self.off.reserve(count.len() + 1);
        let mut total = 0u32;
        self.off.push(0);
        for &c in count {
            total += c;
            self.off.push(total);
        }
        total
    }

    /// Makes `out` the reverse relation: for each edge `a -> b` of `self` (sources visited in
    /// `order`), `a` is appended to `b`'s list. `count` is scratch.
    fn reverse_into(&self, n: usize, order: &[Block], out: &mut Csr, count: &mut Vec<u32>) {
        crate::util::refill(count, n, 0);
        for &t in &self.targets {
            count[t.index()] += 1;
        }
        let total = out.offsets_from_counts(count);
        // `count` becomes the next free position of each list.
        count.copy_from_slice(&out.off[..n]);
        crate::util::refill(&mut out.targets, total as usize, Block::NONE);
        for &a in order {
            for &t in self.get(a) {
                out.targets[count[t.index()] as usize] = a;
                count[t.index()] += 1;
            }
        }
    }

    /// Makes `out` this relation with *adjacent* repeats in each list removed (for lists
    /// whose repeats are adjacent, as predecessor lists' are, the distinct relation).
    fn dedup_adjacent_into(&self, out: &mut Csr) {
        let mut last = (Block::NONE, Block::NONE);
        self.filter_into(out, |a, t| std::mem::replace(&mut last, (a, t)) != (a, t));
    }

    /// Makes `out` the same relation with repeated targets of a source removed (first
    /// occurrence kept). `seen` is scratch.
    fn distinct_into(&self, n: usize, out: &mut Csr, seen: &mut Vec<Block>) {
        crate::util::refill(seen, n, Block::NONE);
        self.filter_into(out, |a, t| std::mem::replace(&mut seen[t.index()], a) != a);
    }

    /// Makes `out` this relation with only the edges `a -> t` that `keep(a, t)` accepts (asked
    /// once per edge, sources in id order, targets in list order).
    fn filter_into(&self, out: &mut Csr, mut keep: impl FnMut(Block, Block) -> bool) {
        let n = self.off.len() - 1;
        out.off.clear();
        out.off.reserve(n + 1);
        out.targets.clear();
        out.targets.reserve(self.targets.len());
        out.off.push(0);
        for i in 0..n {
            let a = Block::new(i);
            for &t in self.get(a) {
                if keep(a, t) {
                    out.targets.push(t);
                }
            }
            out.off.push(out.targets.len() as u32);
        }
    }
}

/// Buffers a recomputation reuses (no meaning between computations).
#[derive(Clone, Debug, Default)]
struct Work {
    count: Vec<u32>,
    flat: Vec<Block>,
    seen: Vec<Block>,
    dfs: DfsWork,
}

/// The control-flow graph of one function (see the module docs for its invariants).
#[derive(Clone, Debug)]
pub struct Cfg {
    entry: Block,
    layout: Vec<Block>,
    layout_pos: Vec<u32>,
    succs: Csr,
    preds: Csr,
    dsuccs: Csr,
    dpreds: Csr,
    dfs: Dfs,
    pre_num: Vec<u32>,
    rpo: Vec<Block>,
    rpo_num: Vec<u32>,
    work: Work,
}

impl Default for Cfg {
    /// The CFG of a function without blocks.
    fn default() -> Self {
        Self {
            entry: Block::NONE,
            layout: Vec::new(),
            layout_pos: Vec::new(),
            succs: Csr::default(),
            preds: Csr::default(),
            dsuccs: Csr::default(),
            dpreds: Csr::default(),
            dfs: Dfs::default(),
            pre_num: Vec::new(),
            rpo: Vec::new(),
            rpo_num: Vec::new(),
            work: Work::default(),
        }
    }
}

impl Cfg {
    /// The CFG of `g`, or why `g` is not a valid graph (see [`crate::graph`]).
    pub fn new(g: &impl Graph) -> Result<Self, GraphError> {
        let mut c = Self::default();
        c.recompute(g)?;
        Ok(c)
    }

    /// Makes this the CFG of `g` (as [`Cfg::new`] would), reusing its buffers. On error the
    /// CFG is left empty.
    pub fn recompute(&mut self, g: &impl Graph) -> Result<(), GraphError> {
        let r = self.read_graph(g);
        if r.is_err() {
            *self = Self::default();
        }
        r
    }

    /// [`Cfg::recompute`]'s work: the layout, then each block's successors (one call of
    /// [`Graph::successors`] per block, in layout order, into one flat buffer placed by id).
    fn read_graph(&mut self, g: &impl Graph) -> Result<(), GraphError> {
        let n = g.num_blocks();
        if n >= NO_NUM as usize {
            return Err(GraphError::TooLarge);
        }
        self.layout.clear();
        crate::util::refill(&mut self.layout_pos, n, NO_NUM);
        for b in g.blocks() {
            let pos = self.layout.len() as u32;
            match self.layout_pos.get_mut(b.index()) {
                Some(p) if *p == NO_NUM => *p = pos,
                _ => return Err(GraphError::BadBlock { block: b }),
            }
            self.layout.push(b);
        }
        let entry = g.entry();
        match entry {
            Some(e) if self.layout_pos.get(e.index()).is_some_and(|&p| p != NO_NUM) => {}
            Some(e) => return Err(GraphError::BadEntry { entry: e }),
            None if self.layout.is_empty() => {}
            None => return Err(GraphError::BadEntry { entry: Block::NONE }),
        }
        let w = &mut self.work;
        crate::util::refill(&mut w.count, n, 0);
        w.flat.clear();
        for &b in &self.layout {
            let before = w.flat.len();
            for s in g.successors(b) {
                match self.layout_pos.get(s.index()) {
                    None => {
                        return Err(GraphError::EdgeOutOfRange {
                            from: b,
                            to: s,
                            num_blocks: n,
                        })
                    }
                    Some(&NO_NUM) => return Err(GraphError::EdgeToMissingBlock { from: b, to: s }),
                    Some(_) => w.flat.push(s),
                }
            }
            if w.flat.len() >= NO_NUM as usize {
                return Err(GraphError::TooLarge);
            }
            w.count[b.index()] = (w.flat.len() - before) as u32;
        }
        let total = self.succs.offsets_from_counts(&w.count);
        crate::util::refill(&mut self.succs.targets, total as usize, Block::NONE);
        let mut next = 0;
        for &b in &self.layout {
            let (start, k) = (
                self.succs.off[b.index()] as usize,
                w.count[b.index()] as usize,
            );
            self.succs.targets[start..start + k].copy_from_slice(&w.flat[next..next + k]);
            next += k;
        }
        self.entry = entry.unwrap_or(Block::NONE);
        self.finish();
        Ok(())
    }

    /// A CFG over blocks `0..num_blocks` (all in the layout: the entry first, then the others in
    /// id order) with entry `entry` and the given edges; each block's successors are its edges
    /// in the order listed. For literal graphs in tests and examples: panics if a block is out
    /// of range (use [`Cfg::new`] on an [`AdjacencyGraph`](crate::AdjacencyGraph) for graphs
    /// that may be wrong).
    pub fn from_edges(num_blocks: usize, entry: Block, edges: &[(Block, Block)]) -> Self {
        let mut c = Self::default();
        let mut count = vec![0u32; num_blocks];
        for &(a, b) in edges {
            assert!(
                a.index() < num_blocks && b.index() < num_blocks,
                "edge out of range"
            );
            count[a.index()] += 1;
        }
        let total = c.succs.offsets_from_counts(&count);
        let mut pos: Vec<u32> = c.succs.off[..num_blocks].to_vec();
        c.succs.targets = vec![Block::NONE; total as usize];
        for &(a, b) in edges {
            c.succs.targets[pos[a.index()] as usize] = b;
            pos[a.index()] += 1;
        }
        // The entry goes first in the layout, the others follow in id order.
        if num_blocks > 0 {
            assert!(entry.index() < num_blocks, "entry out of range");
            c.layout.push(entry);
            c.layout
                .extend((0..num_blocks).map(Block::new).filter(|&b| b != entry));
        }
        c.entry = c.layout.first().copied().unwrap_or(Block::NONE);
        crate::util::refill(&mut c.layout_pos, num_blocks, NO_NUM);
        for (i, &b) in c.layout.iter().enumerate() {
            c.layout_pos[b.index()] = i as u32;
        }
        c.finish();
        c
    }

    /// Everything else, from `entry`, `layout`, `layout_pos` and `succs`.
    fn finish(&mut self) {
        let n = self.succs.off.len() - 1;
        let w = &mut self.work;
        self.succs
            .reverse_into(n, &self.layout, &mut self.preds, &mut w.count);
        self.succs.distinct_into(n, &mut self.dsuccs, &mut w.seen);
        // A predecessor's repeats are adjacent (sources are visited in layout order), so
        // dropping adjacent repeats gives what reversing the distinct successors would.
        self.preds.dedup_adjacent_into(&mut self.dpreds);
        dfs_csr_into(
            n,
            self.entry,
            &self.succs.off,
            &self.succs.targets,
            &mut self.dfs,
            &mut w.dfs,
        );
        crate::util::refill(&mut self.pre_num, n, NO_NUM);
        for (i, &b) in self.dfs.preorder.iter().enumerate() {
            self.pre_num[b.index()] = i as u32;
        }
        self.rpo.clear();
        self.rpo.extend(self.dfs.postorder.iter().rev());
        crate::util::refill(&mut self.rpo_num, n, NO_NUM);
        for (i, &b) in self.rpo.iter().enumerate() {
            self.rpo_num[b.index()] = i as u32;
        }
    }

    /// The size of the block id space: every per-block array has this length.
    #[inline]
    pub fn num_block_ids(&self) -> usize {
        self.layout_pos.len()
    }

    /// The entry block (`None` for a function without blocks).
    #[inline]
    pub fn entry(&self) -> Option<Block> {
        self.entry.expand()
    }

    /// The blocks of the layout, in layout order.
    #[inline]
    pub fn blocks(&self) -> &[Block] {
        &self.layout
    }

    /// Whether `b` is in the layout.
    #[inline]
    pub fn in_layout(&self, b: Block) -> bool {
        self.layout_pos.get(b.index()).is_some_and(|&p| p != NO_NUM)
    }

    /// The position of `b` in the layout (`None` if it is not in the layout).
    #[inline]
    pub fn layout_position(&self, b: Block) -> Option<u32> {
        self.layout_pos
            .get(b.index())
            .copied()
            .filter(|&p| p != NO_NUM)
    }

    /// Successors of `b` in terminator order, with multiplicity.
    #[inline]
    pub fn succs(&self, b: Block) -> &[Block] {
        self.succs.get(b)
    }

    /// Predecessors of `b`, one entry per incoming edge (see the module docs for the order).
    #[inline]
    pub fn preds(&self, b: Block) -> &[Block] {
        self.preds.get(b)
    }

    /// Successors of `b` without repeats, in order of first occurrence.
    #[inline]
    pub fn distinct_succs(&self, b: Block) -> &[Block] {
        self.dsuccs.get(b)
    }

    /// Predecessors of `b` without repeats, in layout order of the predecessor.
    #[inline]
    pub fn distinct_preds(&self, b: Block) -> &[Block] {
        self.dpreds.get(b)
    }

    /// Total number of edges, counted with multiplicity.
    #[inline]
    pub fn num_edges(&self) -> usize {
        self.succs.targets.len()
    }

    /// Whether `b` is reachable from the entry.
    #[inline]
    pub fn is_reachable(&self, b: Block) -> bool {
        self.pre_num.get(b.index()).is_some_and(|&p| p != NO_NUM)
    }

    /// Number of reachable blocks.
    #[inline]
    pub fn num_reachable(&self) -> usize {
        self.rpo.len()
    }

    /// Reachable blocks in reverse postorder (the entry first).
    #[inline]
    pub fn reverse_postorder(&self) -> &[Block] {
        &self.rpo
    }

    /// Reachable blocks in postorder (the entry last).
    #[inline]
    pub fn postorder(&self) -> impl DoubleEndedIterator<Item = Block> + ExactSizeIterator + '_ {
        self.rpo.iter().rev().copied()
    }

    /// The index of `b` in [`Cfg::reverse_postorder`] (`None` if unreachable).
    #[inline]
    pub fn rpo_number(&self, b: Block) -> Option<u32> {
        self.rpo_num
            .get(b.index())
            .copied()
            .filter(|&p| p != NO_NUM)
    }

    /// Reachable blocks in depth-first preorder (the entry first).
    #[inline]
    pub fn preorder(&self) -> &[Block] {
        &self.dfs.preorder
    }

    /// The index of `b` in [`Cfg::preorder`] (`None` if unreachable).
    #[inline]
    pub fn preorder_number(&self, b: Block) -> Option<u32> {
        self.pre_num
            .get(b.index())
            .copied()
            .filter(|&p| p != NO_NUM)
    }

    /// The block from which the depth-first search first entered `b` (`None` for the entry and
    /// for unreachable blocks).
    #[inline]
    pub fn dfs_parent(&self, b: Block) -> Option<Block> {
        self.dfs.parent.get(b.index()).and_then(|p| p.expand())
    }
}

impl Graph for Cfg {
    fn num_blocks(&self) -> usize {
        self.num_block_ids()
    }

    fn entry(&self) -> Option<Block> {
        Cfg::entry(self)
    }

    fn successors(&self, b: Block) -> impl Iterator<Item = Block> + '_ {
        self.succs(b).iter().copied()
    }

    fn blocks(&self) -> impl Iterator<Item = Block> + '_ {
        self.layout.iter().copied()
    }
}

impl Predecessors for Cfg {
    fn predecessors(&self, b: Block) -> impl Iterator<Item = Block> + '_ {
        self.preds(b).iter().copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn b(i: u32) -> Block {
        Block(i)
    }

    fn cfg(n: usize, edges: &[(u32, u32)]) -> Cfg {
        let e: Vec<(Block, Block)> = edges.iter().map(|&(x, y)| (b(x), b(y))).collect();
        Cfg::from_edges(n, b(0), &e)
    }

    #[test]
    fn diamond() {
        let g = cfg(4, &[(0, 1), (0, 2), (1, 3), (2, 3)]);
        assert_eq!(g.succs(b(0)), &[b(1), b(2)]);
        assert_eq!(g.preds(b(3)), &[b(1), b(2)]);
        assert_eq!(g.reverse_postorder(), &[b(0), b(2), b(1), b(3)]);
        assert_eq!(
            g.postorder().collect::<Vec<_>>(),
            vec![b(3), b(1), b(2), b(0)]
        );
        assert_eq!(g.preorder(), &[b(0), b(1), b(3), b(2)]);
        assert_eq!(g.rpo_number(b(3)), Some(3));
        assert_eq!(g.dfs_parent(b(3)), Some(b(1)));
        assert_eq!(g.num_edges(), 4);
    }

    #[test]
    fn repeated_edges_keep_multiplicity() {
        // 0: br %c, label %1, label %1 ; 1: switch to 2, 2, 3, 2 ; 2 -> 3.
        let g = cfg(4, &[(0, 1), (0, 1), (1, 2), (1, 2), (1, 3), (1, 2), (2, 3)]);
        assert_eq!(g.succs(b(0)), &[b(1), b(1)]);
        assert_eq!(g.preds(b(1)), &[b(0), b(0)]);
        assert_eq!(g.distinct_preds(b(1)), &[b(0)]);
        assert_eq!(g.succs(b(1)), &[b(2), b(2), b(3), b(2)]);
        assert_eq!(g.distinct_succs(b(1)), &[b(2), b(3)]);
        assert_eq!(g.preds(b(2)), &[b(1), b(1), b(1)]);
        assert_eq!(g.preds(b(3)), &[b(1), b(2)]);
        assert_eq!(g.distinct_preds(b(3)), &[b(1), b(2)]);
        assert_eq!(g.num_reachable(), 4);
    }

    #[test]
    fn unreachable_blocks_and_self_loops() {
        // 0 -> 1 -> 1 (self loop) ; 2 -> 1 and 3 -> 2 are unreachable.
        let g = cfg(4, &[(0, 1), (1, 1), (2, 1), (3, 2)]);
        assert!(g.is_reachable(b(1)) && !g.is_reachable(b(2)) && !g.is_reachable(b(3)));
        assert_eq!(g.preds(b(1)), &[b(0), b(1), b(2)]);
        assert_eq!(g.reverse_postorder(), &[b(0), b(1)]);
        assert_eq!(g.rpo_number(b(2)), None);
        assert_eq!(g.preorder_number(b(3)), None);
        assert_eq!(g.dfs_parent(b(1)), Some(b(0)));
    }

    #[test]
    fn entry_need_not_be_block_zero() {
        let g = Cfg::from_edges(3, b(2), &[(b(2), b(0)), (b(0), b(1))]);
        assert_eq!(g.entry(), Some(b(2)));
        assert_eq!(g.blocks(), &[b(2), b(0), b(1)]);
        assert_eq!(g.layout_position(b(0)), Some(1));
        assert_eq!(g.reverse_postorder(), &[b(2), b(0), b(1)]);
    }

    #[test]
    fn empty_graph() {
        let g = Cfg::from_edges(0, Block::NONE, &[]);
        assert_eq!(g.entry(), None);
        assert!(g.reverse_postorder().is_empty());
    }
}
