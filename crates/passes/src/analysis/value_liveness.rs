//! Liveness of SSA values.
//!
//! [`ValueLiveness`]: live-in and live-out block sets of every SSA value of a [`Function`],
//! for phi elimination's interference checks, by path exploration from each use up to the
//! definition (Brandner, Boissinot, Darte, Dupont de Dinechin, Rastello, "Computing Liveness Sets
//! for SSA-Form Programs", 2011, the per-variable variant). Conventions:
//! - a phi's operand `i` is used at the *end* of its incoming block `i` (live-out there, and
//!   live-in there unless defined there); phi results are defined at the *head* of their block,
//!   so a phi result is never live-in to its own block by its definition;
//! - parameters are defined at the head of the entry block; only parameters and results of
//!   placed instructions are tracked (constants, `undef`, `poison` have no liveness);
//! - operands are read through [`llvm_ir::ir::DataFlowGraph::resolve`], so pending
//!   replacements count as uses of the replacement;
//! - operands of debug intrinsics and records (`flags::DEBUG`, `Opcode::DbgRecord`) are not uses:
//!   debug info never keeps a value alive, as in LLVM;
//! - a non-phi use that precedes the definition in the definition's own block (possible only in
//!   unreachable code) makes the value live-in there, as the value must come around a cycle.
//!
//! Cost: one walk per value from its uses up to its definition, marking each `(value, block)`
//! pair once: `O(uses + Σ_v Σ_{b ∈ LiveIn(v)} |preds(b)|)` — linear in the size of the answer.
//! No recursion. The result is stored as CSR arrays twice: per value (blocks sorted by id) and
//! per block (values sorted by id).

use llvm_ir::entity::EntityRef;
use llvm_ir::ir::{flags, Block, Function, Inst, Opcode, Value, ValueDef};
use ssa::cfg::Cfg;

/// A use of a value: the block where it is live (in), or at whose end it is used (phi operand).
#[derive(Clone, Copy)]
struct Use {
    block: Block,
    at_end: bool,
}

/// Live-in and live-out blocks of every SSA value of a function (form (b) of the module docs).
#[derive(Clone, Debug)]
pub struct ValueLiveness {
    in_by_value: Csr<Block>,
    out_by_value: Csr<Block>,
    in_by_block: Csr<Value>,
    out_by_block: Csr<Value>,
}

/// Rows of `T` in one flat array.
#[derive(Clone, Debug)]
struct Csr<T> {
    off: Vec<u32>,
    items: Vec<T>,
}

impl<T: Copy> Csr<T> {
    #[inline]
    fn row(&self, i: usize) -> &[T] {
        match self.off.get(i + 1) {
            Some(&end) => &self.items[self.off[i] as usize..end as usize],
            None => &[],
        }
    }
}

/// The transpose of `rows` (row `r` holds `cols`): row `c` lists every `r` with `c` in row
/// `r`, in increasing `r`.
fn transpose<R: EntityRef, C: EntityRef + Copy>(rows: &Csr<C>, num_cols: usize) -> Csr<R> {
    let mut off = vec![0u32; num_cols + 1];
    for &c in &rows.items {
        off[c.index() + 1] += 1;
    }
    for i in 0..num_cols {
        off[i + 1] += off[i];
    }
    let mut pos: Vec<u32> = off[..num_cols].to_vec();
    let mut items = vec![R::new(0); rows.items.len()];
    for r in 0..rows.off.len().saturating_sub(1) {
        for &c in rows.row(r) {
            items[pos[c.index()] as usize] = R::new(r);
            pos[c.index()] += 1;
        }
    }
    Csr { off, items }
}

impl ValueLiveness {
    /// The liveness of every value of `func`, whose CFG is `cfg` (from [`llvm_ir::ir::cfg::cfg_of`]).
    pub fn compute(func: &Function, cfg: &Cfg) -> Self {
        let nb = cfg.num_block_ids();
        let (def_block, def_pos) = definitions(func, cfg);
        let uses = collect_uses(func, cfg, &def_block, &def_pos);
        let mut in_stamp = vec![u32::MAX; nb];
        let mut out_stamp = vec![u32::MAX; nb];
        let mut work: Vec<Block> = Vec::new();
        let mut ins = Csr {
            off: vec![0u32],
            items: Vec::new(),
        };
        let mut outs = Csr {
            off: vec![0u32],
            items: Vec::new(),
        };
        for (v, &d) in def_block.iter().enumerate() {
            let stamp = v as u32;
            let (in_start, out_start) = (ins.items.len(), outs.items.len());
            if !d.is_none() {
                let mut live_in = |b: Block, work: &mut Vec<Block>, ins: &mut Vec<Block>| {
                    if in_stamp[b.index()] != stamp {
                        in_stamp[b.index()] = stamp;
                        ins.push(b);
                        work.push(b);
                    }
                };
                for u in uses.row(v) {
                    if u.at_end {
                        if out_stamp[u.block.index()] != stamp {
                            out_stamp[u.block.index()] = stamp;
                            outs.items.push(u.block);
                        }
                        if u.block != d {
                            live_in(u.block, &mut work, &mut ins.items);
                        }
                    } else {
                        live_in(u.block, &mut work, &mut ins.items);
                    }
                    while let Some(b) = work.pop() {
                        for &p in cfg.distinct_preds(b) {
                            if out_stamp[p.index()] != stamp {
                                out_stamp[p.index()] = stamp;
                                outs.items.push(p);
                            }
                            if p != d {
                                live_in(p, &mut work, &mut ins.items);
                            }
                        }
                    }
                }
            }
            ins.items[in_start..].sort_unstable();
            outs.items[out_start..].sort_unstable();
            ins.off.push(ins.items.len() as u32);
            outs.off.push(outs.items.len() as u32);
        }
        Self {
            in_by_block: transpose(&ins, nb),
            out_by_block: transpose(&outs, nb),
            in_by_value: ins,
            out_by_value: outs,
        }
    }

    /// Blocks `v` is live into, sorted by block id.
    #[inline]
    pub fn live_in_blocks(&self, v: Value) -> &[Block] {
        self.in_by_value.row(v.index())
    }

    /// Blocks `v` is live out of, sorted by block id.
    #[inline]
    pub fn live_out_blocks(&self, v: Value) -> &[Block] {
        self.out_by_value.row(v.index())
    }

    /// Values live into `b`, sorted by value id.
    #[inline]
    pub fn live_in_values(&self, b: Block) -> &[Value] {
        self.in_by_block.row(b.index())
    }

    /// Values live out of `b`, sorted by value id.
    #[inline]
    pub fn live_out_values(&self, b: Block) -> &[Value] {
        self.out_by_block.row(b.index())
    }

    /// Whether `v` is live into `b` (binary search).
    #[inline]
    pub fn is_live_in(&self, v: Value, b: Block) -> bool {
        self.live_in_blocks(v).binary_search(&b).is_ok()
    }

    /// Whether `v` is live out of `b` (binary search).
    #[inline]
    pub fn is_live_out(&self, v: Value, b: Block) -> bool {
        self.live_out_blocks(v).binary_search(&b).is_ok()
    }
}

/// Position of a parameter: before every instruction of the entry block.
const PARAM_POS: u32 = 0;

/// The defining block of every tracked value (`NONE` otherwise) and its position in that block
/// (parameters 0, instructions from 1 in layout order).
fn definitions(func: &Function, cfg: &Cfg) -> (Vec<Block>, Vec<u32>) {
    let nv = func.dfg.values.len();
    let mut def_block = vec![Block::NONE; nv];
    let mut def_pos = vec![PARAM_POS; nv];
    if let Some(entry) = cfg.entry() {
        for &p in &func.params {
            if matches!(func.dfg.values[p].def, ValueDef::Param(_)) {
                def_block[p.index()] = entry;
            }
        }
    }
    for &b in cfg.blocks() {
        for (pos, inst) in func.layout.block_insts(b).enumerate() {
            if let Some(r) = func.dfg.inst_result(inst) {
                def_block[r.index()] = b;
                def_pos[r.index()] = pos as u32 + 1;
            }
        }
    }
    (def_block, def_pos)
}

/// Whether `inst`'s operands are uses (debug intrinsics and records are not).
fn counts_as_use(func: &Function, inst: Inst) -> bool {
    let d = &func.dfg.insts[inst];
    d.opcode != Opcode::DbgRecord && d.flags & flags::DEBUG == 0
}

/// The uses of every tracked value, grouped by value (CSR, in layout order of the user).
fn collect_uses(func: &Function, cfg: &Cfg, def_block: &[Block], def_pos: &[u32]) -> Csr<Use> {
    let dfg = &func.dfg;
    let nv = dfg.values.len();
    let mut pairs: Vec<(Value, Use)> = Vec::new();
    for &b in cfg.blocks() {
        for (pos, inst) in func.layout.block_insts(b).enumerate() {
            if !counts_as_use(func, inst) {
                continue;
            }
            let vals = dfg.inst_values(inst);
            if dfg.opcode(inst) == Opcode::Phi {
                for (&v, &from) in vals.iter().zip(dfg.inst_blocks(inst)) {
                    let v = dfg.resolve(v);
                    if !def_block[v.index()].is_none() && cfg.in_layout(from) {
                        pairs.push((
                            v,
                            Use {
                                block: from,
                                at_end: true,
                            },
                        ));
                    }
                }
                continue;
            }
            for &v in vals {
                let v = dfg.resolve(v);
                let d = def_block[v.index()];
                // A use after the definition in its own block is not live-in anywhere.
                if d.is_none() || (d == b && def_pos[v.index()] <= pos as u32) {
                    continue;
                }
                pairs.push((
                    v,
                    Use {
                        block: b,
                        at_end: false,
                    },
                ));
            }
        }
    }
    let mut off = vec![0u32; nv + 1];
    for &(v, _) in &pairs {
        off[v.index() + 1] += 1;
    }
    for i in 0..nv {
        off[i + 1] += off[i];
    }
    let mut pos: Vec<u32> = off[..nv].to_vec();
    let placeholder = Use {
        block: Block::NONE,
        at_end: false,
    };
    let mut items = vec![placeholder; pairs.len()];
    for &(v, u) in &pairs {
        items[pos[v.index()] as usize] = u;
        pos[v.index()] += 1;
    }
    Csr { off, items }
}

#[cfg(test)]
mod tests;
