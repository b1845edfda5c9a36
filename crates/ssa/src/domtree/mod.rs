//! The dominator tree.
//!
//! [`DomTree::compute`] finds immediate dominators by Semi-NCA ([`semi_nca`], as LLVM does);
//! [`chk`] (Cooper–Harvey–Kennedy) and [`naive`] (dominator-set data flow, the oracle) are
//! independent implementations the tests check it against. [`DomTree::from_idoms`] builds the
//! tree from any of them.
//!
//! Invariants:
//! - only blocks reachable from the entry are in the tree; unreachable blocks have no idom, no
//!   children, no depth and no DFS numbers;
//! - `children(b)` lists `b`'s children in CFG depth-first preorder ([`Cfg::preorder`], which tries
//!   successors in terminator order) — the order LLVM's Semi-NCA attaches them, so `print<domtree>`
//!   lists children as `opt` does;
//! - `depth` is LLVM's level: 0 for the root, `depth(idom(b)) + 1` otherwise;
//! - `dfs_in`/`dfs_out` number a walk of the tree in child order with one shared counter, as
//!   LLVM's `updateDFSNumbers` does (root in = 0, root out = 2·size − 1), so `a` dominates `b` iff
//!   `in(a) <= in(b) && out(b) <= out(a)` — an O(1) [`DomTree::dominates`];
//! - a block id outside the graph answers as an unreachable block (no idom, no children, no
//!   depth), never panics;
//! - following LLVM, `dominates(a, b)` is true when `b` is unreachable (no path from the entry
//!   reaches `b`, so every block is vacuously on all of them) and false when `a` is unreachable
//!   and `b` is not; every block dominates itself.
//!
//! All walks are iterative (explicit stacks): trees 100,000 levels deep are fine.

pub mod chk;
pub mod naive;
pub mod semi_nca;

use super::cfg::Cfg;
use crate::Block;

const NO_NUM: u32 = u32::MAX;

/// The dominator tree of a CFG (see the module docs for its invariants).
#[derive(Clone, Debug)]
pub struct DomTree {
    root: Block,
    idom: Vec<Block>,
    level: Vec<u32>,
    dfs_in: Vec<u32>,
    dfs_out: Vec<u32>,
    child_off: Vec<u32>,
    children: Vec<Block>,
    preorder: Vec<Block>,
    work: Work,
}

/// Buffers a recomputation reuses (no meaning between computations).
#[derive(Clone, Debug, Default)]
struct Work {
    semi_nca: semi_nca::Work,
    pos: Vec<u32>,
    /// Frame of the numbering walk: the node and the position of its next child.
    stack: Vec<(Block, u32)>,
}

impl Default for DomTree {
    /// The tree of a CFG without blocks.
    fn default() -> Self {
        Self {
            root: Block::NONE,
            idom: Vec::new(),
            level: Vec::new(),
            dfs_in: Vec::new(),
            dfs_out: Vec::new(),
            child_off: Vec::new(),
            children: Vec::new(),
            preorder: Vec::new(),
            work: Work::default(),
        }
    }
}

impl DomTree {
    /// The dominator tree of `cfg`, by Semi-NCA.
    pub fn compute(cfg: &Cfg) -> Self {
        let mut t = Self::default();
        t.recompute(cfg);
        t
    }

    /// Makes this the dominator tree of `cfg` (as [`DomTree::compute`] would), reusing its
    /// buffers.
    pub fn recompute(&mut self, cfg: &Cfg) {
        let mut idom = std::mem::take(&mut self.idom);
        semi_nca::idoms_into(cfg, &mut idom, &mut self.work.semi_nca);
        self.idom = idom;
        self.build(cfg);
    }

    /// The tree with immediate dominators `idoms` (per block index, `NONE` for the entry and for
    /// unreachable blocks), as returned by [`semi_nca::idoms`], [`chk::idoms`] or
    /// [`naive::idoms`].
    pub fn from_idoms(cfg: &Cfg, idoms: &[Block]) -> Self {
        let mut t = Self {
            idom: idoms.to_vec(),
            ..Self::default()
        };
        t.build(cfg);
        t
    }

    /// Children, depths and DFS numbers from `self.idom`.
    fn build(&mut self, cfg: &Cfg) {
        let n = cfg.num_block_ids();
        assert_eq!(self.idom.len(), n, "one idom per block id");
        self.root = cfg.entry().unwrap_or(Block::NONE);
        // Count children into `pos`, turn the counts into offsets, then place the children.
        let pos = &mut self.work.pos;
        crate::util::refill(pos, n, 0);
        for &b in cfg.preorder().iter().skip(1) {
            let d = self.idom[b.index()];
            assert!(
                cfg.is_reachable(d),
                "idom of reachable {b} is not reachable"
            );
            pos[d.index()] += 1;
        }
        self.child_off.clear();
        self.child_off.reserve(n + 1);
        self.child_off.push(0u32);
        let mut total = 0u32;
        for c in pos.iter_mut() {
            let start = total;
            total += *c;
            self.child_off.push(total);
            *c = start;
        }
        crate::util::refill(&mut self.children, total as usize, Block::NONE);
        for &b in cfg.preorder().iter().skip(1) {
            let d = self.idom[b.index()].index();
            self.children[pos[d] as usize] = b;
            pos[d] += 1;
        }
        for v in [&mut self.level, &mut self.dfs_in, &mut self.dfs_out] {
            crate::util::refill(v, n, NO_NUM);
        }
        self.preorder.clear();
        self.preorder.reserve(cfg.num_reachable());
        self.number();
        assert_eq!(
            self.preorder.len(),
            cfg.num_reachable(),
            "idoms do not form a tree"
        );
    }

    /// Fills `level`, `dfs_in`, `dfs_out` and `preorder` by an iterative walk from the root.
    fn number(&mut self) {
        if self.root.is_none() {
            return;
        }
        let mut counter = 0u32;
        let mut stack = std::mem::take(&mut self.work.stack);
        stack.clear();
        let r = self.root.index();
        self.level[r] = 0;
        self.dfs_in[r] = counter;
        counter += 1;
        self.preorder.push(self.root);
        stack.push((self.root, self.child_off[r]));
        while let Some(top) = stack.last_mut() {
            let (b, ref mut next) = *top;
            if *next == self.child_off[b.index() + 1] {
                self.dfs_out[b.index()] = counter;
                counter += 1;
                stack.pop();
                continue;
            }
            let c = self.children[*next as usize];
            *next += 1;
            let ci = c.index();
            self.level[ci] = self.level[b.index()] + 1;
            self.dfs_in[ci] = counter;
            counter += 1;
            self.preorder.push(c);
            stack.push((c, self.child_off[ci]));
        }
        self.work.stack = stack;
    }

    /// The root (the entry block), if the function has blocks.
    #[inline]
    pub fn root(&self) -> Option<Block> {
        self.root.expand()
    }

    /// The size of the block id space.
    #[inline]
    pub fn num_block_ids(&self) -> usize {
        self.idom.len()
    }

    /// Whether `b` is in the tree (reachable from the entry).
    #[inline]
    pub fn is_reachable(&self, b: Block) -> bool {
        self.level.get(b.index()).is_some_and(|&l| l != NO_NUM)
    }

    /// The immediate dominator of `b` (`None` for the root and for unreachable blocks).
    #[inline]
    pub fn idom(&self, b: Block) -> Option<Block> {
        self.idom.get(b.index()).and_then(|i| i.expand())
    }

    /// The children of `b` in the tree, in CFG depth-first preorder (empty if unreachable).
    #[inline]
    pub fn children(&self, b: Block) -> &[Block] {
        let i = b.index();
        match self.child_off.get(i + 1) {
            Some(&end) => &self.children[self.child_off[i] as usize..end as usize],
            None => &[],
        }
    }

    /// The depth (LLVM's level) of `b`: 0 for the root; `None` if unreachable.
    #[inline]
    pub fn depth(&self, b: Block) -> Option<u32> {
        self.level.get(b.index()).copied().filter(|&l| l != NO_NUM)
    }

    /// The DFS entry number of `b` in the tree walk (`None` if unreachable).
    #[inline]
    pub fn dfs_in(&self, b: Block) -> Option<u32> {
        self.dfs_in.get(b.index()).copied().filter(|&l| l != NO_NUM)
    }

    /// The DFS exit number of `b` in the tree walk (`None` if unreachable).
    #[inline]
    pub fn dfs_out(&self, b: Block) -> Option<u32> {
        self.dfs_out
            .get(b.index())
            .copied()
            .filter(|&l| l != NO_NUM)
    }

    /// Reachable blocks in tree preorder (the root first, children in [`DomTree::children`]
    /// order): an order in which every block comes after its dominators.
    #[inline]
    pub fn preorder(&self) -> &[Block] {
        &self.preorder
    }

    /// Whether `a` dominates `b` (every block dominates itself; see the module docs for
    /// unreachable blocks). O(1).
    #[inline]
    pub fn dominates(&self, a: Block, b: Block) -> bool {
        if a == b || !self.is_reachable(b) {
            return true;
        }
        let (ai, bi) = (a.index(), b.index());
        self.is_reachable(a)
            && self.dfs_in[ai] <= self.dfs_in[bi]
            && self.dfs_out[bi] <= self.dfs_out[ai]
    }

    /// Whether `a` dominates `b` and `a != b`.
    #[inline]
    pub fn strictly_dominates(&self, a: Block, b: Block) -> bool {
        a != b && self.dominates(a, b)
    }

    /// The deepest block dominating both `a` and `b` (`None` if either is unreachable).
    pub fn nearest_common_dominator(&self, mut a: Block, mut b: Block) -> Option<Block> {
        let (mut la, mut lb) = (self.depth(a)?, self.depth(b)?);
        while la > lb {
            a = self.idom[a.index()];
            la -= 1;
        }
        while lb > la {
            b = self.idom[b.index()];
            lb -= 1;
        }
        while a != b {
            a = self.idom[a.index()];
            b = self.idom[b.index()];
        }
        Some(a)
    }

    /// The raw level of `b` (`u32::MAX` if unreachable), for hot loops in this crate.
    #[inline]
    pub(crate) fn level_raw(&self, b: Block) -> u32 {
        self.level[b.index()]
    }

    /// The raw DFS entry number of `b` (`u32::MAX` if unreachable).
    #[inline]
    pub(crate) fn dfs_in_raw(&self, b: Block) -> u32 {
        self.dfs_in[b.index()]
    }
}

#[cfg(test)]
mod tests;
