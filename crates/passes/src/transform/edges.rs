//! Edge splitting: putting a new block on a control-flow edge, the way phi elimination and
//! reg2mem make room for code that must run on one edge only.
//!
//! An edge `P -> S` is *critical* when `P` has more than one successor and `S` more than one
//! predecessor (both counted with multiplicity, as LLVM's `isCriticalEdge` does by default: a
//! `br i1 %c, label %x, label %x` into a block with no other predecessor is critical). Code for
//! such an edge can go neither at the end of `P` (it would run on `P`'s other edges too) nor at
//! the head of `S` (it would run on `S`'s other edges), so the edge gets a block of its own:
//! `N: br label %S`, with `P`'s terminator retargeted to `N`. This is LLVM's `SplitCriticalEdge`
//! (BreakCriticalEdges.cpp); the facts carried over:
//! - *all* occurrences of `S` among `P`'s successors move to the one new block (switch cases
//!   sharing a destination), so `S`'s phis keep one entry for `N`, and `N` keeps the repeats;
//! - an edge into an EH pad (landingpad, catchpad, cleanuppad, catchswitch) cannot be split: the
//!   pad must be entered by the unwind edge itself;
//! - `indirectbr` edges cannot be split (the target is an address taken elsewhere), nor the
//!   unwind edge of `invoke`, nor the indirect edges of `callbr`, nor the edges of
//!   `catchswitch`/`cleanupret`/`catchret`; the normal edge of `invoke` and the default edge of
//!   `callbr` can.
//! - the new block goes right after `P` in the layout (after `P`'s earlier new blocks, so they
//!   keep successor order); it is unnamed, so it never collides with a name of the input.
//!
//! Invariants kept: the function stays valid IR with the same meaning; when asked, the phis of
//! `S` are updated (entries from `P` become one entry from `N`). Cost: linear in the requests
//! plus the successor lists of their predecessors plus (with phi updates) the phi entries of
//! their successors; no recursion.

use llvm_ir::entity::SecondaryMap;
use llvm_ir::ir::{Block, FuncBuilder, Function, Inst, Opcode, Text, Value};

/// Whether successor position `k` of a terminator with opcode `op` can be retargeted to a new
/// block (see the module docs).
pub fn splittable_position(op: Opcode, k: usize) -> bool {
    match op {
        Opcode::Br | Opcode::Switch => true,
        Opcode::Invoke | Opcode::CallBr => k == 0,
        _ => false,
    }
}

/// The first instruction of `b` that is neither a phi nor a debug record.
pub fn first_non_phi(func: &Function, b: Block) -> Option<Inst> {
    func.layout
        .block_insts(b)
        .find(|&i| !matches!(func.dfg.opcode(i), Opcode::Phi | Opcode::DbgRecord))
}

/// Whether `b` starts with an EH pad (after its phis).
pub fn starts_with_eh_pad(func: &Function, b: Block) -> bool {
    first_non_phi(func, b).is_some_and(|i| func.dfg.opcode(i).is_eh_pad())
}

/// The instruction before which new code goes to run just before `inst`: `inst` itself, or the
/// first of the debug records right before it (so they stay attached to `inst`).
pub fn anchor_before(func: &Function, inst: Inst) -> Inst {
    let mut at = inst;
    while let Some(p) = func.layout.prev_inst(at) {
        if func.dfg.opcode(p) != Opcode::DbgRecord {
            break;
        }
        at = p;
    }
    at
}

/// The instruction before which code at the end of `b` goes (see [`anchor_before`]).
pub fn end_anchor(func: &Function, b: Block) -> Inst {
    anchor_before(func, func.terminator(b).expect("block has a terminator"))
}

/// Whether every edge from `pred` to `succ` can be split.
pub fn is_splittable(func: &Function, pred: Block, succ: Block) -> bool {
    let Some(term) = func.terminator(pred) else {
        return false;
    };
    let op = func.dfg.opcode(term);
    let all = matches!(op, Opcode::Br | Opcode::Switch)
        || func
            .dfg
            .inst_blocks(term)
            .iter()
            .enumerate()
            .all(|(k, &s)| s != succ || splittable_position(op, k));
    all && !starts_with_eh_pad(func, succ)
}

/// Splits the edges `(P, S)` of `edges` (distinct pairs, each splittable: see
/// [`is_splittable`]); returns the new block of each, in order. With `update_phis`, the phis of
/// each `S` get one entry from the new block in place of their entries from `P`.
pub fn split_edges(func: &mut Function, edges: &[(Block, Block)], update_phis: bool) -> Vec<Block> {
    let mut new_blocks = Vec::with_capacity(edges.len());
    for &(_, s) in edges {
        let n = func.dfg.make_block(Text::NONE);
        let mut fb = FuncBuilder::new(func);
        let j = fb.make_jump(s);
        new_blocks.push((n, j));
    }
    // Group by predecessor (stable, so the order of the requests decides the layout).
    let mut by_pred: Vec<usize> = (0..edges.len()).collect();
    by_pred.sort_by_key(|&i| edges[i].0);
    let mut target: SecondaryMap<Block, Block> = SecondaryMap::with_default(Block::NONE);
    for group in runs(&by_pred, |i| edges[i].0) {
        let p = edges[group[0]].0;
        let mut after = p;
        for &i in group {
            let (n, j) = new_blocks[i];
            func.layout.insert_block_after(n, after);
            func.layout.append_inst(j, n);
            after = n;
            target[edges[i].1] = n;
        }
        retarget(func, p, &target);
        for &i in group {
            target[edges[i].1] = Block::NONE;
        }
    }
    if update_phis {
        fix_phis(func, edges, &new_blocks);
    }
    new_blocks.into_iter().map(|(n, _)| n).collect()
}

/// The maximal runs of `idx` with equal `key` (`slice::chunk_by`, kept for the MSRV).
fn runs(idx: &[usize], key: impl Fn(usize) -> Block) -> Vec<&[usize]> {
    let mut out = Vec::new();
    let mut start = 0;
    for k in 1..=idx.len() {
        if k == idx.len() || key(idx[k]) != key(idx[start]) {
            out.push(&idx[start..k]);
            start = k;
        }
    }
    out
}

/// Rewrites the splittable successor positions of `p`'s terminator through `target`.
fn retarget(func: &mut Function, p: Block, target: &SecondaryMap<Block, Block>) {
    let term = func
        .terminator(p)
        .expect("split edge source has a terminator");
    let op = func.dfg.opcode(term);
    for (k, s) in func.dfg.inst_blocks_mut(term).iter_mut().enumerate() {
        let t = target[*s];
        if !t.is_none() && splittable_position(op, k) {
            *s = t;
        }
    }
}

/// For each split `(P, S) -> N`: the phis of `S` take their entry from `P` as one entry from `N`.
fn fix_phis(func: &mut Function, edges: &[(Block, Block)], new_blocks: &[(Block, Inst)]) {
    let mut by_succ: Vec<usize> = (0..edges.len()).collect();
    by_succ.sort_by_key(|&i| edges[i].1);
    let mut map: SecondaryMap<Block, Block> = SecondaryMap::with_default(Block::NONE);
    for group in runs(&by_succ, |i| edges[i].1) {
        let s = edges[group[0]].1;
        for &i in group {
            map[edges[i].0] = new_blocks[i].0;
        }
        let phis: Vec<Inst> = func
            .layout
            .block_insts(s)
            .take_while(|&i| func.dfg.opcode(i) == Opcode::Phi)
            .collect();
        for phi in phis {
            fix_phi(func, phi, &map);
        }
        for &i in group {
            map[edges[i].0] = Block::NONE;
        }
    }
}

/// Renames the incoming blocks of `phi` through `map`; keeps one entry per renamed block.
fn fix_phi(func: &mut Function, phi: Inst, map: &SecondaryMap<Block, Block>) {
    let blocks = func.dfg.inst_blocks(phi);
    let mut renamed = 0usize;
    for &b in blocks {
        renamed += usize::from(!map[b].is_none());
    }
    if renamed == 0 {
        return;
    }
    let mut seen: Vec<Block> = Vec::new();
    for &b in blocks {
        let n = map[b];
        if let (false, Err(pos)) = (n.is_none(), seen.binary_search(&n)) {
            seen.insert(pos, n);
        }
    }
    let repeat = renamed > seen.len();
    if !repeat {
        for b in func.dfg.inst_blocks_mut(phi) {
            if !map[*b].is_none() {
                *b = map[*b];
            }
        }
        return;
    }
    // Repeated entries from one predecessor: rebuild the phi with the first of each.
    let values: Vec<Value> = func.dfg.inst_values(phi).to_vec();
    let blocks: Vec<Block> = func.dfg.inst_blocks(phi).to_vec();
    let mut incoming = Vec::with_capacity(blocks.len());
    let mut done: Vec<Block> = Vec::new();
    for (v, b) in values.into_iter().zip(blocks) {
        let n = map[b];
        if n.is_none() {
            incoming.push((v, b));
        } else if let Err(pos) = done.binary_search(&n) {
            done.insert(pos, n);
            incoming.push((v, n));
        }
    }
    FuncBuilder::new(func).set_phi_incoming(phi, &incoming);
}

/// Splits every critical edge that can be split (LLVM's `SplitAllCriticalEdges`), plus, when
/// `invoke_normal_with_phis`, the normal edge of every `invoke` (default edge of every `callbr`)
/// whose destination has phis, so that code for that edge has a place after the call. Phis are updated. Returns the number
/// of edges split.
pub fn split_critical_edges(func: &mut Function, invoke_normal_with_phis: bool) -> usize {
    let cfg = llvm_ir::ir::cfg::cfg_of(func);
    let mut reqs: Vec<(Block, Block)> = Vec::new();
    let mut seen: SecondaryMap<Block, Block> = SecondaryMap::with_default(Block::NONE);
    for &p in cfg.blocks() {
        let succs = cfg.succs(p);
        let Some(term) = func.terminator(p) else {
            continue;
        };
        let op = func.dfg.opcode(term);
        for (k, &s) in func.dfg.inst_blocks(term).iter().enumerate() {
            if !cfg.in_layout(s) {
                continue;
            }
            if seen[s] == p {
                continue;
            }
            let critical = succs.len() > 1 && cfg.preds(s).len() > 1;
            let invoke_edge = invoke_normal_with_phis
                && matches!(op, Opcode::Invoke | Opcode::CallBr)
                && k == 0
                && func
                    .layout
                    .first_inst(s)
                    .is_some_and(|i| func.dfg.opcode(i) == Opcode::Phi);
            if (critical || invoke_edge) && is_splittable(func, p, s) {
                seen[s] = p;
                reqs.push((p, s));
            }
        }
    }
    split_edges(func, &reqs, true);
    reqs.len()
}
