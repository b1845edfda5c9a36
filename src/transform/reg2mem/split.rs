//! reg2mem's critical-edge splitting, done the way LLVM's `SplitAllCriticalEdges` does it when
//! RegToMem calls it (llvm/lib/Transforms/Utils/BreakCriticalEdges.cpp; the facts carried
//! over, not the code), so that the new blocks, their names and their places match opt's.
//!
//! - Blocks are visited in layout order (new blocks included: they have one successor); a
//!   terminator with more than one successor, other than `indirectbr` and `callbr`, has each of
//!   its successor positions split in order when the edge is critical *then*: the destination
//!   has two or more incoming edges, counted with multiplicity (a `br i1 %c, label %x, label
//!   %x` makes two), and does not start with an EH pad.
//! - Identical edges are not merged: each position gets its own block.
//! - The new block `N` is named `<from>.<to>_crit_edge` (an unnamed block contributes the empty
//!   string), made unique in the function's namespace, goes right after the source block (so
//!   later splits of the same block come before earlier ones), and holds `br label %to`
//!   carrying the source terminator's `!dbg` and `!llvm.loop` attachments.
//! - In each phi of the destination, one entry from the source becomes an entry from `N`: the
//!   entry at the index used for the previous phi if it still names the source, else the first
//!   one naming it (as LLVM's `BBIdx` reuse does).
//!
//! Not modelled: the loop-simplify repair LLVM makes when it splits a loop exit whose other
//! predecessors all lie in the loop (a `<to>split` block); clang -O0 code has no such exits
//! because a `break` leaves through a block of its own.
//!
//! Invariant: the function stays valid with the same meaning; `preds` counts, for each block,
//! the incoming edges of the current CFG. Cost: linear in blocks + edges + the phi entries of
//! split destinations.

use crate::entity::SecondaryMap;
use crate::ir::{Block, FuncBuilder, Function, Inst, Opcode};
use crate::transform::mem2reg::names::{name_text, plain, NameTable};

/// Incoming-edge counts of the blocks, kept up to date by [`split_edge`].
pub struct Preds(SecondaryMap<Block, u32>);

impl Preds {
    /// Counts the incoming edges (successor positions of terminators) of every block.
    pub fn compute(func: &Function) -> Self {
        let mut n = SecondaryMap::with_default(0u32);
        for b in func.layout.blocks() {
            for &s in func.successors(b) {
                n[s] += 1;
            }
        }
        Self(n)
    }

    /// The number of incoming edges of `b`.
    pub fn count(&self, b: Block) -> u32 {
        self.0[b]
    }
}

/// Splits every critical edge as LLVM's `SplitAllCriticalEdges` does; returns how many.
pub fn split_all_critical_edges(func: &mut Function, names: &mut NameTable, preds: &mut Preds) -> usize {
    let mut n = 0;
    let mut cur = func.layout.entry_block();
    while let Some(b) = cur {
        if let Some(term) = func.terminator(b) {
            let op = func.dfg.opcode(term);
            let k = func.dfg.inst_blocks(term).len();
            if k > 1 && !matches!(op, Opcode::IndirectBr | Opcode::CallBr) {
                for i in 0..k {
                    let dest = func.dfg.inst_blocks(term)[i];
                    if preds.count(dest) > 1 && !starts_with_eh_pad(func, dest) {
                        split_edge(func, names, preds, term, i);
                        n += 1;
                    }
                }
            }
        }
        cur = func.layout.next_block(b);
    }
    n
}

/// Whether `b`'s first non-phi instruction (debug ones skipped) is an EH pad.
fn starts_with_eh_pad(func: &Function, b: Block) -> bool {
    crate::transform::edges::starts_with_eh_pad(func, b)
}

/// The unescaped name of `b` (empty when it is numbered).
pub fn block_name(func: &Function, b: Block) -> Vec<u8> {
    let t = func.dfg.blocks[b].name;
    if t.is_none() {
        Vec::new()
    } else {
        plain(func.text(t))
    }
}

/// Puts a new block on successor position `i` of `term` (see the module docs); returns it.
pub fn split_edge(
    func: &mut Function,
    names: &mut NameTable,
    preds: &mut Preds,
    term: Inst,
    i: usize,
) -> Block {
    let from = func.layout.inst_block(term).expect("placed terminator");
    let dest = func.dfg.inst_blocks(term)[i];
    let mut base = block_name(func, from);
    base.push(b'.');
    base.extend_from_slice(&block_name(func, dest));
    base.extend_from_slice(b"_crit_edge");
    let name = names.create(&base);
    let text = name_text(func, &name);
    let nb = func.dfg.make_block(text);
    let j = FuncBuilder::new(func).make_jump(dest);
    let kept: Vec<_> = func
        .dfg
        .inst_attachments(term)
        .iter()
        .copied()
        .filter(|&(k, _)| matches!(func.text(k), b"dbg" | b"llvm.loop"))
        .collect();
    func.dfg.set_attachments(j, &kept);
    func.layout.insert_block_after(nb, from);
    func.layout.append_inst(j, nb);
    func.dfg.inst_blocks_mut(term)[i] = nb;
    preds.0[nb] = 1;
    retarget_phis(func, dest, from, nb);
    nb
}

/// In each phi of `dest`, one entry from `from` now comes from `nb`.
fn retarget_phis(func: &mut Function, dest: Block, from: Block, nb: Block) {
    let phis: Vec<Inst> = func
        .layout
        .block_insts(dest)
        .take_while(|&i| func.dfg.opcode(i) == Opcode::Phi)
        .collect();
    let mut idx = 0;
    for phi in phis {
        let blocks = func.dfg.inst_blocks_mut(phi);
        if blocks.get(idx) != Some(&from) {
            match blocks.iter().position(|&b| b == from) {
                Some(k) => idx = k,
                None => continue,
            }
        }
        blocks[idx] = nb;
    }
}
