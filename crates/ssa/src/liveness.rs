//! Variable liveness for pruned phi placement: the blocks a variable is live into.
//!
//! [`LiveInCalculator`] is LLVM `PromoteMemToReg`'s `ComputeLiveInBlocks`. Start from the
//! "use-before-def" blocks (a use of the variable comes before any definition in the block) and
//! walk predecessors backwards, stopping at blocks that define the variable (the value reaching
//! their end is theirs). The caller classifies blocks; this module only propagates. Linear in
//! the blocks and edges visited, with O(1) reset between variables ([`BlockMarks`]).
//! [`live_in_fixpoint`] is the round-robin data-flow oracle the tests check it against.

pub mod values;

use super::cfg::Cfg;
use super::marks::BlockMarks;
use crate::Block;

/// Computes live-in blocks of variables (see the module docs), reusing its scratch
/// space: build one per function and call [`LiveInCalculator::compute`] per variable.
pub struct LiveInCalculator<'a> {
    cfg: &'a Cfg,
    b: LiveInBuffers,
}

/// The scratch space of a [`LiveInCalculator`], kept to build the next one (of another
/// function) without allocating: it carries nothing from one function to the next.
#[derive(Default)]
pub struct LiveInBuffers {
    defs: BlockMarks,
    live: BlockMarks,
    work: Vec<Block>,
}

impl<'a> LiveInCalculator<'a> {
    /// A calculator for the function with CFG `cfg`.
    pub fn new(cfg: &'a Cfg) -> Self {
        Self::with_buffers(cfg, LiveInBuffers::default())
    }

    /// [`LiveInCalculator::new`], in the buffers `b`.
    pub fn with_buffers(cfg: &'a Cfg, mut b: LiveInBuffers) -> Self {
        let n = cfg.num_block_ids();
        b.defs.reset(n);
        b.live.reset(n);
        b.work.clear();
        Self { cfg, b }
    }

    /// The buffers, for the next calculator.
    pub fn into_buffers(self) -> LiveInBuffers {
        self.b
    }

    /// The live-in blocks of a variable defined in `def_blocks` and used before any definition in
    /// `use_before_def_blocks`: `out` (cleared first) receives them in the order found (a
    /// deterministic function of the inputs), and the returned set answers membership (valid
    /// until the next call). Unreachable predecessors are walked too, as LLVM does.
    pub fn compute(
        &mut self,
        def_blocks: &[Block],
        use_before_def_blocks: &[Block],
        out: &mut Vec<Block>,
    ) -> &BlockMarks {
        out.clear();
        self.b.defs.clear();
        self.b.live.clear();
        for &d in def_blocks {
            self.b.defs.insert(d);
        }
        self.b.work.clear();
        self.b.work.extend_from_slice(use_before_def_blocks);
        while let Some(b) = self.b.work.pop() {
            if !self.b.live.insert(b) {
                continue;
            }
            out.push(b);
            for &p in self.cfg.distinct_preds(b) {
                if !self.b.defs.contains(p) && !self.b.live.contains(p) {
                    self.b.work.push(p);
                }
            }
        }
        &self.b.live
    }
}

/// The oracle for (a): the least fixpoint of `LiveIn(b) = UBD(b) ∨ (¬Def(b) ∧ ∃ s ∈ succ(b):
/// LiveIn(s))`, by round-robin iteration. Indexed by block id.
pub fn live_in_fixpoint(cfg: &Cfg, def_blocks: &[Block], use_before_def: &[Block]) -> Vec<bool> {
    let n = cfg.num_block_ids();
    let (mut def, mut live) = (vec![false; n], vec![false; n]);
    for &d in def_blocks {
        def[d.index()] = true;
    }
    for &u in use_before_def {
        live[u.index()] = true;
    }
    let mut changed = true;
    while changed {
        changed = false;
        for &b in cfg.blocks() {
            let i = b.index();
            if !live[i] && !def[i] && cfg.succs(b).iter().any(|s| live[s.index()]) {
                live[i] = true;
                changed = true;
            }
        }
    }
    live
}

#[cfg(test)]
mod tests;
