//! CFG analyses over toy-ir, in toy-ir's block numbers: dominance ([`Dominators`], a thin
//! wrapper over the `ssa` library's [`ssa::Cfg`] and [`ssa::DomTree`]) and irreducibility.
//! (What each edge copies into its target's merges is out-of-SSA's business:
//! [`crate::destruct::plan`].)
//!
//! The wrapper exists for toy-ir's own callers ([`crate::verify_ssa`]'s dominance check, the
//! SSA generator, tests): it converts block numbers and keeps toy-ir's convention that an
//! unreachable block dominates nothing and is dominated by nothing (`ssa::DomTree::dominates`
//! follows LLVM instead: every block dominates an unreachable one). Code that wants the
//! library's own view uses [`Dominators::cfg`] and [`Dominators::tree`], or builds them from
//! the function directly (toy-ir's [`Function`] is an [`ssa::Graph`], see [`crate::graph`]).
//!
//! Invariants: only blocks reachable from the entry take part (unreachable blocks have no
//! dominator and dominate nothing); edges to out-of-range blocks are ignored and queries about
//! blocks out of range answer "unreachable", so every function works on unverified input; all
//! traversals are iterative (the library's are), so deep CFGs cannot overflow the stack;
//! results depend only on the function, never on hashing.

use crate::ir::{Block, Function};

/// The dominator tree of the blocks reachable from the entry (see the module docs).
#[derive(Clone, Debug)]
pub struct Dominators {
    cfg: ssa::Cfg,
    tree: ssa::DomTree,
}

impl Dominators {
    /// Computes the CFG snapshot and the dominator tree of `f`.
    pub fn compute(f: &Function) -> Dominators {
        // The graph skips out-of-range targets, so the only possible error is a function of
        // 2^32 blocks; treat it as empty (every block unreachable) rather than panic.
        let cfg = ssa::Cfg::new(f).unwrap_or_default();
        let tree = ssa::DomTree::compute(&cfg);
        Dominators { cfg, tree }
    }

    /// The library's CFG snapshot (blocks are `ssa::Block(i)` for toy-ir's `Block(i)`).
    pub fn cfg(&self) -> &ssa::Cfg {
        &self.cfg
    }

    /// The library's dominator tree.
    pub fn tree(&self) -> &ssa::DomTree {
        &self.tree
    }

    /// True if `b` is reachable from the entry.
    pub fn is_reachable(&self, b: Block) -> bool {
        self.tree.is_reachable(b.into())
    }

    /// The immediate dominator of `b`; `None` for the entry and for unreachable blocks.
    pub fn idom(&self, b: Block) -> Option<Block> {
        if !self.is_reachable(b) {
            return None;
        }
        self.tree.idom(b.into()).map(Block::from)
    }

    /// True if every path from the entry to `b` goes through `a` (reflexive). False when
    /// either block is unreachable.
    pub fn dominates(&self, a: Block, b: Block) -> bool {
        self.is_reachable(a) && self.is_reachable(b) && self.tree.dominates(a.into(), b.into())
    }

    /// The blocks reachable from the entry, in reverse postorder of a depth-first search that
    /// visits successors in edge order (empty for a function without blocks).
    pub fn reverse_postorder(&self) -> impl Iterator<Item = Block> + '_ {
        self.cfg.reverse_postorder().iter().map(|&b| Block::from(b))
    }
}

/// True if the reachable CFG has an irreducible loop: a cycle entered at two different
/// blocks. Tested as: some edge `u → v` retreating in the depth-first search (`v` is an
/// ancestor of `u`, which is exactly `rpo(v) <= rpo(u)`) whose target does not dominate its
/// source.
pub fn has_irreducible_loop(f: &Function) -> bool {
    let dom = Dominators::compute(f);
    let (cfg, tree) = (dom.cfg(), dom.tree());
    cfg.reverse_postorder().iter().any(|&u| {
        let rpo_u = cfg.rpo_number(u);
        cfg.succs(u)
            .iter()
            .any(|&v| cfg.rpo_number(v) <= rpo_u && !tree.dominates(v, u))
    })
}
