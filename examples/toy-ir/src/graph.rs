//! toy-ir's CFG as an [`ssa::Graph`]: the whole adapter between this IR and the SSA library's
//! analyses (dominators, frontiers, construction).
//!
//! This is the demo that an IR keeping `Vec<BlockData>` with successor lists implements the
//! trait in about fifteen lines: block ids are positions in [`Function::blocks`], the entry is
//! block 0, and the successors are [`Function::successors`] (terminator order, duplicate edges
//! kept). Invariants: like `Function::successors`, the graph skips targets that are out of
//! range, so [`ssa::Cfg::new`] accepts every function, verified or not (a block without a
//! terminator is an exit); the two block types convert losslessly into each other.

use crate::ir::{Block, Function};

impl ssa::Graph for Function {
    fn num_blocks(&self) -> usize {
        self.blocks.len()
    }

    fn entry(&self) -> Option<ssa::Block> {
        (!self.blocks.is_empty()).then_some(ssa::Block(0))
    }

    fn successors(&self, b: ssa::Block) -> impl Iterator<Item = ssa::Block> + '_ {
        Function::successors(self, b.into())
            .into_iter()
            .map(ssa::Block::from)
    }
}

impl From<Block> for ssa::Block {
    fn from(b: Block) -> Self {
        ssa::Block(b.0)
    }
}

impl From<ssa::Block> for Block {
    fn from(b: ssa::Block) -> Self {
        Block(b.0)
    }
}
