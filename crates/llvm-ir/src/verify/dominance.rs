//! Definitions dominate uses (phase 2 of the verifier), with LLVM's rules:
//! - a non-phi use in block `u` needs its definition earlier in `u`, or in a block that
//!   dominates `u`; a phi's use of entry `k` sits at the *end* of incoming block `k`, so the
//!   definition may be anywhere in that block or in a block dominating it;
//! - uses in unreachable blocks (for a phi: entries from unreachable blocks) are fine; a
//!   definition in an unreachable block dominates no reachable use;
//! - the result of `invoke` / `callbr` is defined on the edge to its normal (default)
//!   destination: it dominates a use when that edge does (LLVM's `BasicBlockEdge` rule,
//!   including the critical-edge case); an `invoke` whose two destinations are the same block is
//!   skipped, as LLVM skips it;
//! - only phis may use their own result (in reachable blocks: unreachable code may be
//!   self-referential, as LLVM allows);
//! - metadata uses are not checked (debug records, `metadata T %v` call arguments, values
//!   inside `!DIArgList`), as LLVM does not check them; operand-bundle operands are.
//!
//! Each check is O(1): same-block order comes from phase 1's positions, block dominance from
//! the tree's DFS numbers.

use super::{Cx, ErrorKind, Graph, Reporter};
use crate::ir::types::TypeData;
use crate::ir::{Block, Inst, Opcode, Value, ValueDef};

/// Checks every (non-metadata) use in instruction `i` of block `b`.
pub(crate) fn check_inst(cx: &Cx<'_>, rep: &mut Reporter<'_>, b: Block, i: Inst) {
    let dfg = &cx.func.dfg;
    let vals = dfg.inst_values(i);
    match dfg.opcode(i) {
        Opcode::DbgRecord => {}
        Opcode::Phi => {
            for (k, (&v, &pb)) in vals.iter().zip(dfg.inst_blocks(i)).enumerate() {
                if !obviously_dominated(cx, pb, i, v, true) {
                    check_use(cx, rep, b, i, k, v, Some(pb));
                }
            }
        }
        Opcode::Call | Opcode::Invoke | Opcode::CallBr => check_call(cx, rep, b, i),
        _ => {
            for (k, &v) in vals.iter().enumerate() {
                if !obviously_dominated(cx, b, i, v, false) {
                    check_use(cx, rep, b, i, k, v, None);
                }
            }
        }
    }
}

/// The fast path, needing no dominator tree: `v` is not an instruction's result, or is defined
/// earlier in the use's block `ub` (anywhere in it for a phi use, which sits at the block's
/// end), or in the entry block (which dominates every reachable block; uses in unreachable
/// ones are fine) — and not by an `invoke` / `callbr` (defined on an edge).
#[inline(always)]
fn obviously_dominated(cx: &Cx<'_>, ub: Block, i: Inst, v: Value, phi: bool) -> bool {
    let func = cx.func;
    let ValueDef::Inst(d) = func.dfg.values[func.dfg.resolve(v)].def else {
        return true;
    };
    let at = cx.place[d.index()];
    let placed = if at.block == ub {
        phi || (d != i && at.pos < cx.place[i.index()].pos)
    } else {
        Some(at.block) == cx.entry
    };
    placed && !matches!(func.dfg.opcode(d), Opcode::Invoke | Opcode::CallBr)
}

/// The callee, non-metadata arguments and operand-bundle operands of a call.
fn check_call(cx: &Cx<'_>, rep: &mut Reporter<'_>, b: Block, i: Inst) {
    let func = cx.func;
    let d = &func.dfg.insts[i];
    let vals = func.dfg.inst_values(i);
    let md = func.types.metadata();
    let params: &[crate::ir::Type] = match func.types.data(d.aux_ty) {
        TypeData::Function { params, .. } => params,
        _ => &[],
    };
    for (k, &v) in vals.iter().enumerate().take(d.extra as usize + 1) {
        if k > 0 && params.get(k - 1) == Some(&md) {
            continue;
        }
        if !obviously_dominated(cx, b, i, v, false) {
            check_use(cx, rep, b, i, k, v, None);
        }
    }
    for bundle in func.dfg.inst_bundles(i) {
        for k in bundle.ops.span() {
            check_use(cx, rep, b, i, k, vals[k], None);
        }
    }
}

/// Checks use `k` (value `v`) of instruction `i` in block `b`; `incoming` is the phi entry's
/// block for phi uses.
fn check_use(
    cx: &Cx<'_>,
    rep: &mut Reporter<'_>,
    b: Block,
    i: Inst,
    k: usize,
    v: Value,
    incoming: Option<Block>,
) {
    let func = cx.func;
    let v = func.dfg.resolve(v);
    let ValueDef::Inst(d) = func.dfg.values[v].def else {
        return;
    };
    if d == i && incoming.is_none() {
        if cx.graph().dt.is_reachable(b) {
            let msg = "Only PHI nodes may reference their own value!".to_string();
            rep.at_inst(ErrorKind::SelfReference, b, i, msg);
        }
        return;
    }
    let Some(db) = func.layout.inst_block(d) else {
        let name = match func.value_name(v) {
            Some(_) => rep.value(v),
            None => format!("<unnamed {v}>"),
        };
        let msg = format!(
            "operand {k} ({name}) is defined by an instruction that is not in the function \
             (removed, or never placed)"
        );
        return rep.at_inst(ErrorKind::DetachedOperand, b, i, msg);
    };
    if !def_dominates_use(cx, d, db, b, i, incoming) {
        let (name, def, dblk) = (rep.value(v), rep.inst(d), rep.block(db));
        let edge = match incoming {
            Some(p) => format!(", incoming from {}", rep.block(p)),
            None => String::new(),
        };
        let msg = format!(
            "Instruction does not dominate all uses! (operand {name}{edge}; defined by `{def}` \
             in {dblk})"
        );
        rep.at_inst(ErrorKind::UndominatedUse, b, i, msg);
    }
}

/// Whether the definition `d` (in block `db`) dominates its use in instruction `i` of block
/// `b` (at the end of `incoming` for a phi).
fn def_dominates_use(
    cx: &Cx<'_>,
    d: Inst,
    db: Block,
    b: Block,
    i: Inst,
    incoming: Option<Block>,
) -> bool {
    let dfg = &cx.func.dfg;
    let ub = incoming.unwrap_or(b);
    let edge_def = matches!(dfg.opcode(d), Opcode::Invoke | Opcode::CallBr);
    // Fast paths that need no dominator tree: a use later in the defining block, a phi use
    // from the defining block, a use of an entry-block value (the entry dominates every
    // reachable block; uses in unreachable ones are fine).
    if !edge_def {
        if db == ub {
            if incoming.is_some() || cx.place[d.index()].pos < cx.place[i.index()].pos {
                return true;
            }
        } else if Some(db) == cx.entry {
            return true;
        }
    }
    let dt = &cx.graph().dt;
    if !dt.is_reachable(ub) {
        return true;
    }
    if !dt.is_reachable(db) {
        return false;
    }
    match dfg.opcode(d) {
        Opcode::Invoke | Opcode::CallBr => {
            let dests = dfg.inst_blocks(d);
            if dfg.opcode(d) == Opcode::Invoke && dests[0] == dests[1] {
                return true;
            }
            edge_dominates(cx, db, dests[0], ub, incoming.map(|_| b))
        }
        _ if incoming.is_some() || db != b => dt.dominates(db, ub),
        _ => cx.place[d.index()].pos < cx.place[i.index()].pos,
    }
}

/// LLVM's `DominatorTree::dominates(BasicBlockEdge, ...)`: whether the edge `start -> end`
/// dominates block `ub` (for a phi use, `phi_block` is the phi's block: a phi in `end` using the
/// value on the edge itself is dominated).
fn edge_dominates(
    cx: &Cx<'_>,
    start: Block,
    end: Block,
    ub: Block,
    phi_block: Option<Block>,
) -> bool {
    if phi_block == Some(end) && ub == start {
        return true;
    }
    let Graph { cfg, dt } = cx.graph();
    if !dt.dominates(end, ub) {
        return false;
    }
    let preds = cfg.preds(end);
    if preds.len() == 1 {
        return true;
    }
    if cfg.succs(start).iter().filter(|&&s| s == end).count() != 1 {
        return false;
    }
    preds.iter().all(|&p| p == start || dt.dominates(end, p))
}
