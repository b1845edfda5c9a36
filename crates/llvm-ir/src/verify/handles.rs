//! Handle validation: every id and range the function holds is in bounds and consistent, so
//! that the semantic checks (and any code run after a clean verification) can index freely.
//!
//! In two parts, as naga validates handles before anything else, but split by what depends on
//! what, so that each instruction's data is read once, while it is in cache:
//! - [`check_structure`], before anything else: the function's name, header template and
//!   parameters (each parameter value says it is that parameter); the layout (no block or
//!   instruction listed twice, no cycle — walks are bounded by the number of ids —, each
//!   instruction's block is the one listing it); each block's terminator's successors (pool
//!   range, blocks of the layout). That is all the CFG and the dominator tree read, so once it
//!   holds they can be computed. If it fails, its errors are returned alone.
//! - [`check_inst`], per instruction, right before that instruction's semantic checks: its
//!   pool ranges, its result (whose value says it is defined by this instruction), `aux_ty`,
//!   template (texts in range, holes naming operands), attachments, operand bundles, debug
//!   data, block operands, and each value operand (after alias resolution): in range, with a
//!   valid type, and a definition that links back — an instruction whose result it is, a
//!   parameter of this function, or a constant whose text is in range. An instruction that
//!   fails is reported and skipped by the semantic checks.
//!
//! The printer's numbering (for messages) reads every placed instruction's result: before it
//! is computed, [`numbering_safe`] checks those (only when there is an error to report).
//!
//! Ids are dense per function, so a value id of another function is caught when it is out of
//! range or its definition does not link back; an id that happens to be valid here cannot be
//! told from this function's own.
//!
//! Messages name blocks and instructions by id (`block3`, `inst7`): the printer may not be able
//! to print what is broken.

use super::{ErrorKind, Reporter};
use crate::ir::{
    Block, Function, Inst, InstData, MdRef, Piece, PoolRange, Text, Type, Value, ValueDef,
};

/// Bit 31 of a [`Text`]'s start: the span is in the owner's arena (see `ir::text`).
const OWN_BIT: usize = 1 << 31;

/// Whether `t` resolves inside the function's arenas (`NONE` is fine).
#[inline]
pub(crate) fn text_ok(func: &Function, t: Text) -> bool {
    if t.is_none() {
        return true;
    }
    let (start, arena) = if t.in_source() {
        (t.source_offset(), func.source.len())
    } else {
        (t.source_offset() & !OWN_BIT, func.dfg.strings.bytes().len())
    };
    start.checked_add(t.len()).is_some_and(|end| end <= arena)
}

/// Whether metadata reference `r` names input text in range or an existing new node.
fn md_ok(func: &Function, r: MdRef) -> bool {
    match r {
        MdRef::Text(t) => text_ok(func, t),
        MdRef::New(k) => (k as usize) < func.new_md.len(),
    }
}

fn range_ok(r: PoolRange, len: usize) -> bool {
    (r.start as usize)
        .checked_add(r.len as usize)
        .is_some_and(|end| end <= len)
}

fn type_ok(func: &Function, t: Type) -> bool {
    t.index() < func.types.len()
}

fn bad(rep: &mut Reporter<'_>, block: Option<Block>, inst: Option<Inst>, msg: String) {
    rep.raw(
        ErrorKind::BadHandle,
        block.map(|b| b.to_string()),
        inst.map(|i| i.to_string()),
        msg,
    );
}

/// Where a placed instruction is: its block and its position there.
#[derive(Clone, Copy)]
pub(crate) struct Place {
    /// The block (`NONE` when the instruction is not placed).
    pub block: Block,
    /// Its index in the block.
    pub pos: u32,
}

/// The first part: header, layout, successors. Returns where every instruction is (by
/// instruction index), or `None` after reporting.
pub(crate) fn check_structure(func: &Function, rep: &mut Reporter<'_>) -> Option<Vec<Place>> {
    let before = rep.errors.len();
    check_header(func, rep);
    let pos = check_layout(func, rep)?;
    (rep.errors.len() == before).then_some(pos)
}

/// The name, return type, header template and parameters.
fn check_header(func: &Function, rep: &mut Reporter<'_>) {
    if !text_ok(func, func.name) {
        bad(rep, None, None, "function name text out of range".into());
    }
    if !type_ok(func, func.ret_ty) {
        bad(
            rep,
            None,
            None,
            format!("return type {} out of range", func.ret_ty),
        );
    }
    if !range_ok(func.header, func.dfg.pieces.len()) {
        bad(
            rep,
            None,
            None,
            "header template range out of the pool".into(),
        );
    } else {
        for p in func.header_pieces() {
            let ok = match *p {
                Piece::Text(t) => text_ok(func, t),
                Piece::Value(k) => (k as usize) < func.params.len(),
                Piece::NewMd(k) => (k as usize) < func.new_md.len(),
                Piece::Block(_) | Piece::Incoming => false,
            };
            if !ok {
                bad(
                    rep,
                    None,
                    None,
                    format!("header template piece {p:?} is invalid"),
                );
            }
        }
    }
    for (k, &p) in func.params.iter().enumerate() {
        let ok = p.index() < func.dfg.values.len()
            && func.dfg.values[p].def == ValueDef::Param(k as u32)
            && type_ok(func, func.dfg.values[p].ty)
            && text_ok(func, func.dfg.values[p].name);
        if !ok {
            bad(
                rep,
                None,
                None,
                format!("parameter {k} ({p}) is not a valid parameter value"),
            );
        }
    }
}

/// Walks the layout with bounded loops, checking each block's successors; returns instruction
/// positions, or `None` if the layout itself is corrupt (then nothing else can be walked
/// safely).
fn check_layout(func: &Function, rep: &mut Reporter<'_>) -> Option<Vec<Place>> {
    let (nb, ni) = (func.dfg.blocks.len(), func.dfg.insts.len());
    let mut seen = vec![false; nb];
    let unplaced = Place {
        block: Block::NONE,
        pos: u32::MAX,
    };
    let mut pos = vec![unplaced; ni];
    let (mut blocks, mut insts) = (0usize, 0usize);
    for b in func.layout.blocks() {
        blocks += 1;
        if blocks > nb || b.index() >= nb || seen[b.index()] {
            let msg = if b.index() >= nb {
                format!("layout holds {b}, but the function has {nb} blocks")
            } else {
                format!("{b} appears twice in the layout (a cycle?)")
            };
            bad(rep, Some(b), None, msg);
            return None;
        }
        seen[b.index()] = true;
        if !text_ok(func, func.dfg.blocks[b].name) {
            bad(rep, Some(b), None, "block name text out of range".into());
        }
        for (k, i) in func.layout.block_insts(b).enumerate() {
            insts += 1;
            if insts > ni || i.index() >= ni || !pos[i.index()].block.is_none() {
                let msg = if i.index() >= ni {
                    format!("layout holds {i}, but the function has {ni} instructions")
                } else {
                    format!("{i} appears twice in the layout (a cycle?)")
                };
                bad(rep, Some(b), Some(i), msg);
                return None;
            }
            if func.layout.inst_block(i) != Some(b) {
                let msg = format!("the layout places {i} in {:?}", func.layout.inst_block(i));
                bad(rep, Some(b), Some(i), msg);
            }
            pos[i.index()] = Place {
                block: b,
                pos: k as u32,
            };
        }
        check_successors(func, rep, b);
    }
    if blocks != func.layout.num_blocks() {
        let msg = format!(
            "the layout counts {} blocks but lists {blocks}",
            func.layout.num_blocks()
        );
        bad(rep, None, None, msg);
    }
    Some(pos)
}

/// The successors of block `b`'s terminator (if it has one) are blocks of the layout.
fn check_successors(func: &Function, rep: &mut Reporter<'_>, b: Block) {
    let Some(t) = func.layout.last_inst(b) else {
        return;
    };
    let d = &func.dfg.insts[t];
    if !d.opcode.is_terminator() {
        return;
    }
    if range_ok(d.blocks, func.dfg.block_pool.len()) {
        check_block_operands(func, rep, b, t);
    } else {
        let msg = format!("block operand range {:?} out of its pool", d.blocks);
        bad(rep, Some(b), Some(t), msg);
    }
}

/// Pool ranges, result and `aux_ty` of placed instruction `i`; returns whether the pool
/// ranges are sound (the rest can only be looked at if they are).
fn check_inst_structure(func: &Function, rep: &mut Reporter<'_>, b: Block, i: Inst) -> bool {
    let dfg = &func.dfg;
    let d: &InstData = &dfg.insts[i];
    let mut err = |msg: String| bad(rep, Some(b), Some(i), msg);
    let ranges = [
        (d.values, dfg.value_pool.len(), "value operand"),
        (d.blocks, dfg.block_pool.len(), "block operand"),
        (d.pieces, dfg.pieces.len(), "template"),
        (d.attachments, dfg.attachments.len(), "attachment"),
    ];
    let mut ok = true;
    for (r, len, what) in ranges {
        if !range_ok(r, len) {
            err(format!("{what} range {r:?} out of its pool ({len})"));
            ok = false;
        }
    }
    if let Some(r) = d.result.expand() {
        let values = &dfg.values;
        if r.index() >= values.len() || values[r].def != ValueDef::Inst(i) {
            err(format!("result {r} is not defined by {i}"));
        } else if !type_ok(func, values[r].ty) || !text_ok(func, values[r].name) {
            err(format!("result {r} has an invalid type or name"));
        }
    }
    if !d.aux_ty.is_none() && !type_ok(func, d.aux_ty) {
        err(format!("aux type {} out of range", d.aux_ty));
    }
    ok
}

/// Each block operand of `i` is a block of the layout.
fn check_block_operands(func: &Function, rep: &mut Reporter<'_>, b: Block, i: Inst) -> bool {
    let mut ok = true;
    for (k, &t) in func.dfg.inst_blocks(i).iter().enumerate() {
        if t.index() >= func.dfg.blocks.len() || !func.layout.is_block_inserted(t) {
            let msg = format!("block operand {k} ({t}) is not a block of this function's layout");
            bad(rep, Some(b), Some(i), msg);
            ok = false;
        }
    }
    ok
}

/// The second part, for placed instruction `i` of block `b`: pool ranges, result, `aux_ty`,
/// template, attachments, side data, block operands and value operands. Returns whether all
/// is sound (else it was reported, and the semantic checks must skip `i`).
#[inline]
pub(crate) fn check_inst(func: &Function, rep: &mut Reporter<'_>, b: Block, i: Inst) -> bool {
    inst_sound(func, i) || diagnose_inst(func, rep, b, i)
}

/// Whether everything [`check_inst`] checks holds: the fast path, one branch-light pass that
/// reports nothing (the common case); [`diagnose_inst`] says what is wrong otherwise.
fn inst_sound(func: &Function, i: Inst) -> bool {
    let dfg = &func.dfg;
    let d = &dfg.insts[i];
    let pools = range_ok(d.values, dfg.value_pool.len())
        && range_ok(d.blocks, dfg.block_pool.len())
        && range_ok(d.pieces, dfg.pieces.len())
        && range_ok(d.attachments, dfg.attachments.len());
    if !pools {
        return false;
    }
    let result = match d.result.expand() {
        None => true,
        Some(r) => {
            r.index() < dfg.values.len() && {
                let v = &dfg.values[r];
                v.def == ValueDef::Inst(i) && type_ok(func, v.ty) && text_ok(func, v.name)
            }
        }
    };
    let side = dfg.bundles[i].len == 0 && dfg.dbg[i].is_none();
    result
        && (d.aux_ty.is_none() || type_ok(func, d.aux_ty))
        && template_ok(func, d)
        && d.attachments.len == 0
        && (d.blocks.len == 0 || blocks_ok(func, i))
        && dfg.inst_values(i).iter().all(|&v| value_sound(func, v))
        && side
}

/// Whether every block operand of `i` is a block of the layout.
fn blocks_ok(func: &Function, i: Inst) -> bool {
    let n = func.dfg.blocks.len();
    func.dfg
        .inst_blocks(i)
        .iter()
        .all(|&t| t.index() < n && func.layout.is_block_inserted(t))
}

/// Reports what is wrong with instruction `i` (the slow path of [`check_inst`]); returns
/// whether it is sound after all (attachments, bundles and debug data the fast path does not
/// look into).
#[cold]
fn diagnose_inst(func: &Function, rep: &mut Reporter<'_>, b: Block, i: Inst) -> bool {
    let before = rep.errors.len();
    if !check_inst_structure(func, rep, b, i) {
        return false;
    }
    let d = &func.dfg.insts[i];
    check_template(func, rep, b, i, d);
    if d.blocks.len > 0 {
        check_block_operands(func, rep, b, i);
    }
    for (k, &v) in func.dfg.inst_values(i).iter().enumerate() {
        if let Err(msg) = value_ok(func, v) {
            bad(rep, Some(b), Some(i), format!("value operand {k}: {msg}"));
        }
    }
    check_side_data(func, rep, b, i, d);
    rep.errors.len() == before
}

/// Template pieces: texts in range, holes naming existing operands; attachments.
fn check_template(func: &Function, rep: &mut Reporter<'_>, b: Block, i: Inst, d: &InstData) {
    if !template_ok(func, d) {
        bad(rep, Some(b), Some(i), "template piece out of range".into());
    }
    for &(kind, node) in func.dfg.inst_attachments(i) {
        if !text_ok(func, kind) || !md_ok(func, node) {
            bad(rep, Some(b), Some(i), "attachment text out of range".into());
        }
    }
}

fn template_ok(func: &Function, d: &InstData) -> bool {
    let (nv, nb) = (d.values.len, d.blocks.len);
    func.dfg.pieces[d.pieces.span()].iter().all(|p| match *p {
        Piece::Text(t) => text_ok(func, t),
        Piece::Value(k) => k < nv,
        Piece::Block(k) => k < nb,
        Piece::NewMd(k) => (k as usize) < func.new_md.len(),
        Piece::Incoming => nv == nb,
    })
}

/// Operand bundles and debug-variable data.
fn check_side_data(func: &Function, rep: &mut Reporter<'_>, b: Block, i: Inst, d: &InstData) {
    let dfg = &func.dfg;
    let br = dfg.bundles[i];
    if !range_ok(br, dfg.bundle_pool.len()) {
        bad(
            rep,
            Some(b),
            Some(i),
            format!("bundle range {br:?} out of its pool"),
        );
    } else {
        for bundle in dfg.inst_bundles(i) {
            if !range_ok(bundle.ops, d.values.len as usize) || !text_ok(func, bundle.tag) {
                bad(rep, Some(b), Some(i), "operand bundle out of range".into());
            }
        }
    }
    if let Some(dv) = dfg.dbg[i] {
        let texts = text_ok(func, dv.var) && text_ok(func, dv.expr) && md_ok(func, dv.loc);
        if (dv.loc_operand != u32::MAX && dv.loc_operand >= d.values.len) || !texts {
            bad(
                rep,
                Some(b),
                Some(i),
                "debug-variable data out of range".into(),
            );
        }
    }
}

/// Whether operand `v` (resolved through pending replacements) is a sound value of `func`:
/// the fast form of [`value_ok`].
#[inline]
fn value_sound(func: &Function, v: Value) -> bool {
    let dfg = &func.dfg;
    let n = dfg.values.len();
    if v.index() >= n {
        return false;
    }
    let r = if dfg.has_aliases() { dfg.resolve(v) } else { v };
    r.index() < n && {
        let data = &dfg.values[r];
        type_ok(func, data.ty)
            && match data.def {
                ValueDef::Inst(d) => d.index() < dfg.insts.len() && dfg.insts[d].result == r,
                ValueDef::Param(k) => func.params.get(k as usize) == Some(&r),
                ValueDef::Const(t) => text_ok(func, t),
                ValueDef::Undef | ValueDef::Poison => true,
            }
    }
}

/// Whether operand `v` (resolved through pending replacements) is a sound value of `func`;
/// says why not.
fn value_ok(func: &Function, v: Value) -> Result<(), String> {
    let values = &func.dfg.values;
    if v.index() >= values.len() {
        return Err(format!("{v} out of range ({} values)", values.len()));
    }
    let r = if func.dfg.has_aliases() {
        func.dfg.resolve(v)
    } else {
        v
    };
    if r.index() >= values.len() {
        return Err(format!("{v} is replaced by {r}, out of range"));
    }
    let data = &values[r];
    let linked = match data.def {
        ValueDef::Inst(d) => d.index() < func.dfg.insts.len() && func.dfg.insts[d].result == r,
        ValueDef::Param(k) => func.params.get(k as usize) == Some(&r),
        ValueDef::Const(t) => text_ok(func, t),
        ValueDef::Undef | ValueDef::Poison => true,
    };
    if !linked {
        return Err(format!(
            "{r} claims {:?}, which does not define it (a value of another function?)",
            data.def
        ));
    }
    // (Names need no check here: results' and parameters' are checked with their definitions,
    // constants' are never printed.)
    if !type_ok(func, data.ty) {
        return Err(format!("{r} has an invalid type"));
    }
    Ok(())
}

/// Whether the printer's numbering can be computed: every placed instruction's result is a
/// value of the function with a name in range (one pass; only run when an error is reported).
pub(crate) fn numbering_safe(func: &Function) -> bool {
    let values = &func.dfg.values;
    func.layout.blocks().all(|b| {
        func.layout
            .block_insts(b)
            .all(|i| match func.dfg.insts[i].result.expand() {
                None => true,
                Some(r) => r.index() < values.len() && text_ok(func, values[r].name),
            })
    })
}

/// Whether the printer can print instruction `i` (for messages, which may be about an
/// instruction whose operands were not checked yet).
pub(crate) fn printable(func: &Function, i: Inst) -> bool {
    let d = &func.dfg.insts[i];
    template_ok(func, d)
        && func
            .dfg
            .inst_values(i)
            .iter()
            .all(|&v| value_ok(func, v).is_ok())
        && func
            .dfg
            .inst_blocks(i)
            .iter()
            .all(|&t| t.index() < func.dfg.blocks.len() && func.layout.is_block_inserted(t))
        && func
            .dfg
            .inst_attachments(i)
            .iter()
            .all(|&(k, n)| text_ok(func, k) && md_ok(func, n))
}
