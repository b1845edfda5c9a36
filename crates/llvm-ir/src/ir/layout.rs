//! Block and instruction order: doubly-linked lists over dense ids (after Cranelift's `Layout`).
//!
//! Invariants:
//! - a block is in the layout or not ([`Layout::is_block_inserted`]); the first block in the
//!   layout is the entry block;
//! - an instruction is in at most one block; [`Layout::inst_block`] is `NONE` for removed or
//!   never-placed instructions, which every walk skips;
//! - insertion and removal anywhere are O(1) and never invalidate other ids.

use super::instructions::{Block, Inst};
use crate::entity::SecondaryMap;

#[derive(Clone, Copy, Debug)]
struct BlockNode {
    prev: Block,
    next: Block,
    first: Inst,
    last: Inst,
    inserted: bool,
}

impl Default for BlockNode {
    fn default() -> Self {
        Self {
            prev: Block::NONE,
            next: Block::NONE,
            first: Inst::NONE,
            last: Inst::NONE,
            inserted: false,
        }
    }
}

#[derive(Clone, Copy, Debug)]
struct InstNode {
    block: Block,
    prev: Inst,
    next: Inst,
}

impl Default for InstNode {
    fn default() -> Self {
        Self {
            block: Block::NONE,
            prev: Inst::NONE,
            next: Inst::NONE,
        }
    }
}

/// The order of blocks in a function and of instructions in blocks.
#[derive(Clone, Debug, Default)]
pub struct Layout {
    blocks: SecondaryMap<Block, BlockNode>,
    insts: SecondaryMap<Inst, InstNode>,
    first_block: Option<Block>,
    last_block: Option<Block>,
    num_blocks: usize,
}

impl Layout {
    /// An empty layout.
    pub fn new() -> Self {
        Self::default()
    }

    /// The entry block.
    pub fn entry_block(&self) -> Option<Block> {
        self.first_block
    }

    /// Number of blocks in the layout.
    pub fn num_blocks(&self) -> usize {
        self.num_blocks
    }

    /// Whether `b` is in the layout.
    #[inline]
    pub fn is_block_inserted(&self, b: Block) -> bool {
        self.blocks[b].inserted
    }

    /// Appends `b` as the last block.
    pub fn append_block(&mut self, b: Block) {
        debug_assert!(!self.is_block_inserted(b));
        let last = self.last_block;
        {
            let n = &mut self.blocks[b];
            n.inserted = true;
            n.prev = last.unwrap_or(Block::NONE);
            n.next = Block::NONE;
        }
        match last {
            Some(l) => self.blocks[l].next = b,
            None => self.first_block = Some(b),
        }
        self.last_block = Some(b);
        self.num_blocks += 1;
    }

    /// Inserts `b` right after `after`.
    pub fn insert_block_after(&mut self, b: Block, after: Block) {
        debug_assert!(!self.is_block_inserted(b) && self.is_block_inserted(after));
        let next = self.blocks[after].next;
        {
            let n = &mut self.blocks[b];
            n.inserted = true;
            n.prev = after;
            n.next = next;
        }
        self.blocks[after].next = b;
        match next.expand() {
            Some(nx) => self.blocks[nx].prev = b,
            None => self.last_block = Some(b),
        }
        self.num_blocks += 1;
    }

    /// Removes `b` (which must hold no instructions) from the layout.
    pub fn remove_block(&mut self, b: Block) {
        debug_assert!(self.is_block_inserted(b) && self.blocks[b].first.is_none());
        let BlockNode { prev, next, .. } = self.blocks[b];
        match prev.expand() {
            Some(p) => self.blocks[p].next = next,
            None => self.first_block = next.expand(),
        }
        match next.expand() {
            Some(n) => self.blocks[n].prev = prev,
            None => self.last_block = prev.expand(),
        }
        self.blocks[b] = BlockNode::default();
        self.num_blocks -= 1;
    }

    /// Blocks in layout order.
    pub fn blocks(&self) -> Blocks<'_> {
        Blocks {
            layout: self,
            next: self.first_block.unwrap_or(Block::NONE),
        }
    }

    /// The block after `b`.
    pub fn next_block(&self, b: Block) -> Option<Block> {
        self.blocks[b].next.expand()
    }

    /// The block holding `i`, or `None` if `i` is not placed.
    #[inline]
    pub fn inst_block(&self, i: Inst) -> Option<Block> {
        self.insts[i].block.expand()
    }

    /// First instruction of `b`.
    #[inline]
    pub fn first_inst(&self, b: Block) -> Option<Inst> {
        self.blocks[b].first.expand()
    }

    /// Last instruction of `b` (its terminator, in a well-formed function).
    #[inline]
    pub fn last_inst(&self, b: Block) -> Option<Inst> {
        self.blocks[b].last.expand()
    }

    /// The instruction after `i` in its block.
    #[inline]
    pub fn next_inst(&self, i: Inst) -> Option<Inst> {
        self.insts[i].next.expand()
    }

    /// The instruction before `i` in its block.
    #[inline]
    pub fn prev_inst(&self, i: Inst) -> Option<Inst> {
        self.insts[i].prev.expand()
    }

    /// Instructions of `b`, in order.
    pub fn block_insts(&self, b: Block) -> Insts<'_> {
        Insts {
            layout: self,
            next: self.blocks[b].first,
        }
    }

    /// Appends `i` at the end of `b`.
    pub fn append_inst(&mut self, i: Inst, b: Block) {
        debug_assert!(self.is_block_inserted(b) && self.insts[i].block.is_none());
        let last = self.blocks[b].last;
        self.insts[i] = InstNode {
            block: b,
            prev: last,
            next: Inst::NONE,
        };
        match last.expand() {
            Some(l) => self.insts[l].next = i,
            None => self.blocks[b].first = i,
        }
        self.blocks[b].last = i;
    }

    /// Inserts `i` at the head of `b`.
    pub fn prepend_inst(&mut self, i: Inst, b: Block) {
        match self.first_inst(b) {
            Some(f) => self.insert_inst_before(i, f),
            None => self.append_inst(i, b),
        }
    }

    /// Inserts `i` right before `before`.
    pub fn insert_inst_before(&mut self, i: Inst, before: Inst) {
        let b = self.insts[before].block;
        debug_assert!(!b.is_none() && self.insts[i].block.is_none());
        let prev = self.insts[before].prev;
        self.insts[i] = InstNode {
            block: b,
            prev,
            next: before,
        };
        self.insts[before].prev = i;
        match prev.expand() {
            Some(p) => self.insts[p].next = i,
            None => self.blocks[b].first = i,
        }
    }

    /// Inserts `i` right after `after`.
    pub fn insert_inst_after(&mut self, i: Inst, after: Inst) {
        match self.next_inst(after) {
            Some(n) => self.insert_inst_before(i, n),
            None => {
                let b = self.insts[after].block;
                self.append_inst(i, b);
            }
        }
    }

    /// Takes `i` out of its block (the instruction's data stays in the dfg).
    pub fn remove_inst(&mut self, i: Inst) {
        let InstNode { block, prev, next } = self.insts[i];
        debug_assert!(
            !block.is_none(),
            "removing an instruction that is not placed"
        );
        match prev.expand() {
            Some(p) => self.insts[p].next = next,
            None => self.blocks[block].first = next,
        }
        match next.expand() {
            Some(n) => self.insts[n].prev = prev,
            None => self.blocks[block].last = prev,
        }
        self.insts[i] = InstNode::default();
    }

    /// Whether `i` is placed in some block.
    #[inline]
    pub fn is_inst_inserted(&self, i: Inst) -> bool {
        !self.insts[i].block.is_none()
    }

    /// Makes room for instruction ids below `insts` and block ids below `blocks` (avoids
    /// regrowth while parsing or adding many instructions); placed entities are untouched.
    pub fn reserve(&mut self, insts: usize, blocks: usize) {
        self.insts.materialize(insts);
        self.blocks.materialize(blocks);
    }
}

/// Iterator over blocks in layout order.
pub struct Blocks<'a> {
    layout: &'a Layout,
    next: Block,
}

impl Iterator for Blocks<'_> {
    type Item = Block;
    #[inline]
    fn next(&mut self) -> Option<Block> {
        let b = self.next.expand()?;
        self.next = self.layout.blocks[b].next;
        Some(b)
    }
}

/// Iterator over the instructions of a block.
pub struct Insts<'a> {
    layout: &'a Layout,
    next: Inst,
}

impl Iterator for Insts<'_> {
    type Item = Inst;
    #[inline]
    fn next(&mut self) -> Option<Inst> {
        let i = self.next.expand()?;
        self.next = self.layout.insts[i].next;
        Some(i)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn insert_and_remove_keep_order() {
        let mut l = Layout::new();
        let (b0, b1, b2) = (Block(0), Block(1), Block(2));
        l.append_block(b0);
        l.append_block(b2);
        l.insert_block_after(b1, b0);
        assert_eq!(l.blocks().collect::<Vec<_>>(), vec![b0, b1, b2]);
        l.append_inst(Inst(0), b1);
        l.append_inst(Inst(1), b1);
        l.prepend_inst(Inst(2), b1);
        l.insert_inst_after(Inst(3), Inst(0));
        assert_eq!(
            l.block_insts(b1).collect::<Vec<_>>(),
            vec![Inst(2), Inst(0), Inst(3), Inst(1)]
        );
        l.remove_inst(Inst(0));
        l.remove_inst(Inst(1));
        assert_eq!(
            l.block_insts(b1).collect::<Vec<_>>(),
            vec![Inst(2), Inst(3)]
        );
        assert_eq!(
            (l.last_inst(b1), l.inst_block(Inst(0))),
            (Some(Inst(3)), None)
        );
        l.remove_block(b0);
        assert_eq!((l.entry_block(), l.num_blocks()), (Some(b1), 2));
    }
}
