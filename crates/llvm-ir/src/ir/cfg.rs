//! A function's control-flow graph as the `ssa` crate sees it: blocks in layout order,
//! successors from each block's terminator (in operand order, repeats kept).
//!
//! Invariant: [`FunctionGraph`] is always a valid [`ssa::Graph`]: it lists only blocks in the
//! layout and leaves out edges to blocks that are not in it (the verifier reports those), so
//! [`cfg_of`] cannot fail.

use ssa::{Block, Cfg, Graph};

use super::Function;

/// A function seen as an [`ssa::Graph`] (see the module docs).
#[derive(Clone, Copy)]
pub struct FunctionGraph<'a>(pub &'a Function);

impl Graph for FunctionGraph<'_> {
    fn num_blocks(&self) -> usize {
        self.0.dfg.blocks.len()
    }

    fn entry(&self) -> Option<Block> {
        self.0.layout.entry_block()
    }

    fn successors(&self, b: Block) -> impl Iterator<Item = Block> + '_ {
        let f = self.0;
        let n = f.dfg.blocks.len();
        (f.successors(b).iter().copied())
            .filter(move |&s| s.index() < n && f.layout.is_block_inserted(s))
    }

    fn blocks(&self) -> impl Iterator<Item = Block> + '_ {
        self.0.layout.blocks()
    }
}

/// The CFG of `func`.
pub fn cfg_of(func: &Function) -> Cfg {
    let mut cfg = Cfg::default();
    recompute_cfg(&mut cfg, func);
    cfg
}

/// Makes `cfg` the CFG of `func`, reusing its buffers.
pub fn recompute_cfg(cfg: &mut Cfg, func: &Function) {
    cfg.recompute(&FunctionGraph(func))
        .expect("a function's graph lists only blocks in its layout (see the module docs)");
}
