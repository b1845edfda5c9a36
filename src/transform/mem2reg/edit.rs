//! The IR edits mem2reg makes, each keeping the function printable at every step: erasing an
//! instruction (its remaining debug uses see `undef`, as when LLVM deletes a value that
//! metadata still names), replacing a loaded value, retexting a span of a template (an
//! operand bundle's tag), and building `dbg.value` calls or `#dbg_value` records.
//!
//! Invariant: replacements go through the function's alias table (O(1) each, resolved once
//! before printing), so a value replaced twice resolves to the last replacement.

use crate::ir::dfg::ValueDef;
use crate::ir::{Function, Inst, MdRef, Piece, PoolRange, Text, Type, Value};

/// Removes `inst` from its block; if it has a result, whatever still names it (debug uses)
/// sees `undef` of its type.
pub fn erase(func: &mut Function, inst: Inst) {
    let r = func.dfg.insts[inst].result;
    if !r.is_none() {
        let ty = func.dfg.value_type(r);
        let u = func.dfg.undef(ty);
        func.dfg.replace_all_uses(r, u);
    }
    if func.layout.is_inst_inserted(inst) {
        func.layout.remove_inst(inst);
    }
}

/// Makes every use of `load`'s result use `v` instead, and removes the load.
pub fn replace_load(func: &mut Function, load: Inst, v: Value) {
    let r = func.dfg.insts[load].result;
    if func.dfg.resolve(v) != r {
        func.dfg.replace_all_uses(r, v);
    }
    func.layout.remove_inst(load);
}

/// A fresh `poison` of type `ty`.
pub fn poison(func: &mut Function, ty: Type) -> Value {
    func.dfg.make_value(ty, ValueDef::Poison, Text::NONE)
}

/// Replaces the source bytes `span` (which lies inside one text piece of `inst`'s template)
/// by `new`.
pub fn retext(func: &mut Function, inst: Inst, span: Text, new: &[u8]) {
    let old: Vec<Piece> = func.dfg.inst_pieces(inst).to_vec();
    let (s, e) = (span.source_offset(), span.source_offset() + span.len());
    let mut pieces = Vec::with_capacity(old.len() + 2);
    let mut done = false;
    for p in old {
        match p {
            Piece::Text(t) if !done && t.in_source() && !t.is_none() => {
                let (ts, te) = (t.source_offset(), t.source_offset() + t.len());
                if ts <= s && e <= te {
                    if s > ts {
                        pieces.push(Piece::Text(Text::source(ts, s)));
                    }
                    pieces.push(Piece::Text(func.dfg.strings.add(new)));
                    if te > e {
                        pieces.push(Piece::Text(Text::source(e, te)));
                    }
                    done = true;
                    continue;
                }
                pieces.push(p);
            }
            _ => pieces.push(p),
        }
    }
    let range: PoolRange = func.dfg.push_pieces(&pieces);
    func.dfg.insts[inst].pieces = range;
}

/// How new debug values are written: the function's existing form.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum DbgForm {
    /// `call void @llvm.dbg.value(metadata T %v, metadata !var, metadata !expr), !dbg !loc`
    Intrinsic,
    /// `#dbg_value(T %v, !var, !expr, !loc)`
    Record,
}

/// Builds (unplaced) a debug value of `v` for variable `var` with expression `expr` at
/// location `loc`, in `form`.
pub fn make_dbg_value(
    func: &mut Function,
    form: DbgForm,
    v: Value,
    var: &[u8],
    expr: &[u8],
    loc: MdRef,
) -> Inst {
    use crate::ir::instructions::{flags, DbgKind, DbgVar, InstData, Opcode};
    let ty = func.dfg.value_type(v);
    let mut ty_text = Vec::new();
    func.types.write(&mut ty_text, ty);
    let mut pieces = Vec::new();
    let head: Vec<u8> = match form {
        DbgForm::Intrinsic => [
            b"call void @llvm.dbg.value(metadata " as &[u8],
            &ty_text,
            b" ",
        ]
        .concat(),
        DbgForm::Record => [b"#dbg_value(" as &[u8], &ty_text, b" "].concat(),
    };
    pieces.push(Piece::Text(func.dfg.strings.add(&head)));
    pieces.push(Piece::Value(if form == DbgForm::Intrinsic { 1 } else { 0 }));
    let mid: Vec<u8> = match form {
        DbgForm::Intrinsic => [b", metadata " as &[u8], var, b", metadata ", expr, b")"].concat(),
        DbgForm::Record => [b", " as &[u8], var, b", ", expr, b", "].concat(),
    };
    let var_start = match form {
        DbgForm::Intrinsic => ", metadata ".len(),
        DbgForm::Record => ", ".len(),
    };
    let mid_text = func.dfg.strings.add(&mid);
    pieces.push(Piece::Text(mid_text));
    let md_ty = func.types.metadata();
    let (values, extra) = match form {
        DbgForm::Intrinsic => {
            let callee = func.dfg.constant(func.types.ptr(), "@llvm.dbg.value");
            let var_v = func.dfg.constant(md_ty, "!");
            let expr_v = func.dfg.constant(md_ty, "!");
            (vec![callee, v, var_v, expr_v], 3)
        }
        DbgForm::Record => (vec![v], 0),
    };
    if form == DbgForm::Record {
        match loc {
            MdRef::New(k) => pieces.push(Piece::NewMd(k)),
            MdRef::Text(t) => pieces.push(Piece::Text(t)),
        }
        pieces.push(Piece::Text(func.dfg.strings.add(b")")));
    }
    let dbg_ty = match form {
        DbgForm::Intrinsic => {
            let void = func.types.void();
            func.types.function(void, &[md_ty; 3], false)
        }
        DbgForm::Record => Type::NONE,
    };
    let dfg = &mut func.dfg;
    let data = InstData {
        opcode: if form == DbgForm::Intrinsic {
            Opcode::Call
        } else {
            Opcode::DbgRecord
        },
        flags: flags::DEBUG
            | if form == DbgForm::Intrinsic {
                flags::INTRINSIC
            } else {
                0
            },
        result: Value::NONE,
        aux_ty: dbg_ty,
        values: dfg.push_values(&values),
        blocks: PoolRange::default(),
        pieces: dfg.push_pieces(&pieces),
        attachments: PoolRange::default(),
        extra,
    };
    let inst = dfg.make_inst(data, None, Text::NONE);
    let s = mid_text;
    // Spans of the variable and expression inside the arena text, for readers of `DbgVar`.
    let off = |k: usize, len: usize| sub_text(s, k, len);
    let var_t = off(var_start, var.len());
    let expr_t = off(
        var_start
            + var.len()
            + if form == DbgForm::Intrinsic {
                ", metadata ".len()
            } else {
                ", ".len()
            },
        expr.len(),
    );
    func.dfg.dbg[inst] = Some(DbgVar {
        kind: DbgKind::Value,
        record: form == DbgForm::Record,
        var: var_t,
        expr: expr_t,
        loc,
        loc_operand: if form == DbgForm::Intrinsic { 1 } else { 0 },
    });
    if form == DbgForm::Intrinsic {
        let kind = func.dfg.strings.add(b"dbg");
        func.dfg.set_attachments(inst, &[(kind, loc)]);
        func.needs_decls
            .push("declare void @llvm.dbg.value(metadata, metadata, metadata)");
    }
    inst
}

/// The sub-span `[k, k + len)` of an arena span.
fn sub_text(t: Text, k: usize, len: usize) -> Text {
    t.sub(k, len)
}
