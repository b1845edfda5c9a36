//! Liveness of a function's SSA values: the `ssa` crate's [`ValueLiveness`] over the LLVM
//! function's definitions and uses. Conventions beyond the generic ones
//! ([`ssa::liveness::values`]):
//! - parameters are defined at the head of the entry block; only parameters and results of
//!   placed instructions are tracked (constants, `undef`, `poison` have no liveness);
//! - operands are read through [`llvm_ir::ir::DataFlowGraph::resolve`], so pending
//!   replacements count as uses of the replacement;
//! - operands of debug intrinsics and records (`flags::DEBUG`, `Opcode::DbgRecord`) are not uses:
//!   debug info never keeps a value alive, as in LLVM.

use llvm_ir::ir::{flags, Block, Function, Inst, Opcode, Value, ValueDef};
use ssa::cfg::Cfg;

/// Live-in and live-out blocks of every SSA value of a function.
pub type ValueLiveness = ssa::liveness::values::ValueLiveness<Value>;

/// The liveness of every value of `func`, whose CFG is `cfg` (from
/// [`llvm_ir::ir::cfg::cfg_of`]).
pub fn compute(func: &Function, cfg: &Cfg) -> ValueLiveness {
    let (def_block, def_pos) = definitions(func, cfg);
    let uses = collect_uses(func, cfg, &def_block, &def_pos);
    ValueLiveness::compute(cfg, &def_block, uses)
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

/// The uses of every tracked value, `(value, block, at_end)` in layout order of the user
/// (see [`ssa::liveness::values`] for what is reported).
fn collect_uses(
    func: &Function,
    cfg: &Cfg,
    def_block: &[Block],
    def_pos: &[u32],
) -> Vec<(Value, Block, bool)> {
    let dfg = &func.dfg;
    let mut pairs = Vec::new();
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
                        pairs.push((v, from, true));
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
                pairs.push((v, b, false));
            }
        }
    }
    pairs
}

#[cfg(test)]
mod tests;
