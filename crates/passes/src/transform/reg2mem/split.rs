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
//! - With loop info (the pass's first step), an edge leaving loop `L` whose destination's other
//!   predecessors all have `L` as innermost loop is split, and then those predecessors move to
//!   one new block `<to>split` right before the destination (LLVM's `SplitBlockPredecessors`
//!   keeping loop-simplify form): each phi of the destination takes their entries as one entry
//!   from it — their common value, or a new phi `<phi>.ph` of their values (last entry
//!   first) at the end of `<to>split` — appended last; its `br` carries the `!dbg` of the
//!   destination's first non-phi instruction. No split at all when such a predecessor ends in
//!   `indirectbr` or `callbr`. New blocks join loops by LLVM's rules.
//!
//! Invariant: the function stays valid with the same meaning; `preds` counts, for each block,
//! the incoming edges of the current CFG. Cost: linear in blocks + edges + the phi entries of
//! split destinations.

use crate::transform::mem2reg::names::{name_text, plain, NameTable};
use llvm_ir::entity::SecondaryMap;
use llvm_ir::ir::{Block, FuncBuilder, Function, Inst, Opcode, Value};

use super::loops::Loops;

/// Incoming-edge counts of the blocks, kept up to date by [`Splitter::split_edge`].
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
pub fn split_all_critical_edges(
    func: &mut Function,
    names: &mut NameTable,
    preds: &mut Preds,
    loops: &mut Loops,
) -> usize {
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
                        let mut ctx = Splitter {
                            func: &mut *func,
                            names: &mut *names,
                            preds: &mut *preds,
                        };
                        n += usize::from(ctx.split_edge(term, i, Some(&mut *loops)).is_some());
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

/// The function being split, with its names and predecessor counts.
pub struct Splitter<'a> {
    pub func: &'a mut Function,
    pub names: &'a mut NameTable,
    pub preds: &'a mut Preds,
}

impl Splitter<'_> {
    /// Puts a new block on successor position `i` of `term` (see the module docs); returns
    /// it, or `None` when loop-simplify form forbids the split.
    pub fn split_edge(&mut self, term: Inst, i: usize, loops: Option<&mut Loops>) -> Option<Block> {
        let from = self
            .func
            .layout
            .inst_block(term)
            .expect("placed terminator");
        let dest = self.func.dfg.inst_blocks(term)[i];
        let til = loops.as_ref().and_then(|l| l.loop_for(from));
        let loop_preds = match (&loops, til) {
            (Some(l), Some(til)) => self.loop_preds(l, til, from, dest)?,
            _ => Vec::new(),
        };
        let mut base = block_name(self.func, from);
        base.push(b'.');
        base.extend_from_slice(&block_name(self.func, dest));
        base.extend_from_slice(b"_crit_edge");
        let nb = self.new_block(&base, dest, term);
        self.func.layout.insert_block_after(nb, from);
        self.func.dfg.inst_blocks_mut(term)[i] = nb;
        self.preds.0[nb] = 1;
        retarget_phis(self.func, dest, from, nb);
        let (Some(loops), Some(til)) = (loops, til) else {
            return Some(nb);
        };
        loops.set(nb, new_block_loop(loops, til, dest));
        if !loops.contains(til, dest) && !loop_preds.is_empty() {
            self.split_preds(loops, til, dest, &loop_preds);
        }
        Some(nb)
    }

    /// The other predecessors of `dest` when all have `til` as innermost loop (else none);
    /// `None` when one of them ends in `indirectbr`/`callbr` (no split then).
    fn loop_preds(
        &self,
        loops: &Loops,
        til: Block,
        from: Block,
        dest: Block,
    ) -> Option<Vec<Block>> {
        let mut out = Vec::new();
        for p in self.func.layout.blocks() {
            let n = self
                .func
                .successors(p)
                .iter()
                .filter(|&&s| s == dest)
                .count();
            if n == 0 || p == from {
                continue;
            }
            if loops.loop_for(p) != Some(til) {
                return Some(Vec::new());
            }
            out.push(p);
        }
        let bad = out.iter().any(|&p| {
            let t = self.func.terminator(p).expect("has successors");
            matches!(self.func.dfg.opcode(t), Opcode::IndirectBr | Opcode::CallBr)
        });
        (!bad).then_some(out)
    }

    /// A new, unplaced block named uniquely from `base`, holding `br label %dest` with the
    /// `!dbg` of `dbg_from`.
    fn new_block(&mut self, base: &[u8], dest: Block, dbg_from: Inst) -> Block {
        let name = self.names.create(base);
        let text = name_text(self.func, &name);
        let nb = self.func.dfg.make_block(text);
        let j = FuncBuilder::new(self.func).make_jump(dest);
        let kept: Vec<_> = self
            .func
            .dfg
            .inst_attachments(dbg_from)
            .iter()
            .copied()
            .filter(|&(k, _)| self.func.text(k) == b"dbg")
            .collect();
        self.func.dfg.set_attachments(j, &kept);
        self.func.layout.append_inst(j, nb);
        nb
    }

    /// Moves the edges from `lp` (all in loop `til`) to `dest` onto one new block `<dest>split`
    /// before `dest` (see the module docs).
    fn split_preds(&mut self, loops: &mut Loops, til: Block, dest: Block, lp: &[Block]) {
        let mut base = block_name(self.func, dest);
        base.extend_from_slice(b"split");
        let first = crate::transform::edges::first_non_phi(self.func, dest).expect("terminator");
        let nb = self.new_block(&base, dest, first);
        let prev = self.func.layout.blocks().take_while(|&b| b != dest).last();
        match prev {
            Some(p) => self.func.layout.insert_block_after(nb, p),
            None => unreachable!("the entry block has no predecessors"),
        }
        for &p in lp {
            let t = self.func.terminator(p).expect("has successors");
            for s in self.func.dfg.inst_blocks_mut(t) {
                if *s == dest {
                    *s = nb;
                    self.preds.0[dest] -= 1;
                    self.preds.0[nb] += 1;
                }
            }
        }
        self.preds.0[dest] += 1;
        let mut l = Some(til);
        while let Some(x) = l.filter(|&x| !loops.contains(x, dest)) {
            l = loops.parent(x);
        }
        loops.set(nb, l.filter(|_| loops.loop_for(dest).is_some()));
        self.update_phis(dest, nb, lp);
    }

    /// `UpdatePHINodes`: the entries of `dest`'s phis from `lp` become one entry from `nb`.
    fn update_phis(&mut self, dest: Block, nb: Block, lp: &[Block]) {
        let phis: Vec<Inst> = self
            .func
            .layout
            .block_insts(dest)
            .take_while(|&i| self.func.dfg.opcode(i) == Opcode::Phi)
            .collect();
        let br = self.func.terminator(nb).expect("new block has its branch");
        for pn in phis {
            let vals = self.func.dfg.inst_values(pn).to_vec();
            let blocks = self.func.dfg.inst_blocks(pn).to_vec();
            let ins = |b: &Block| lp.contains(b);
            let moved: Vec<(Value, Block)> = vals
                .iter()
                .copied()
                .zip(blocks.iter().copied())
                .filter(|e| ins(&e.1))
                .collect();
            let mut kept: Vec<(Value, Block)> = vals
                .iter()
                .copied()
                .zip(blocks.iter().copied())
                .filter(|e| !ins(&e.1))
                .collect();
            let same = moved.iter().all(|e| e.0 == moved[0].0);
            let v = if same && !moved.is_empty() {
                moved[0].0
            } else {
                let r = self.func.dfg.insts[pn].result;
                let mut base = self.func.value_name(r).map(plain).unwrap_or_default();
                base.extend_from_slice(b".ph");
                let name = self.names.create(&base);
                let name = name_text(self.func, &name);
                let ty = self.func.dfg.value_type(r);
                let rev: Vec<(Value, Block)> = moved.iter().rev().copied().collect();
                let p = FuncBuilder::new(self.func).make_phi(ty, &rev, name);
                self.func.layout.insert_inst_before(p, br);
                self.func.dfg.insts[p].result
            };
            kept.push((v, nb));
            FuncBuilder::new(self.func).set_phi_incoming(pn, &kept);
        }
    }
}

/// The loop a block splitting an edge from loop `til` to `dest` joins (LLVM's rules).
fn new_block_loop(loops: &Loops, til: Block, dest: Block) -> Option<Block> {
    let dl = loops.loop_for(dest)?;
    if loops.contains_loop(til, dl) {
        Some(til)
    } else if loops.contains_loop(dl, til) {
        Some(dl)
    } else {
        loops.parent(dl)
    }
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
