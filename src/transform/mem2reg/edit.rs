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
    let intrinsic = form == DbgForm::Intrinsic;
    let ty = func.dfg.value_type(v);
    let types = &func.types;
    let head = func.dfg.strings.add_with(|b| {
        b.extend_from_slice(if intrinsic {
            b"call void @llvm.dbg.value(metadata "
        } else {
            b"#dbg_value("
        });
        types.write(b, ty);
        b.push(b' ');
    });
    let (sep, close): (&[u8], &[u8]) = if intrinsic {
        (b", metadata ", b")")
    } else {
        (b", ", b", ")
    };
    let mid_text = func.dfg.strings.add_with(|b| {
        [sep, var, sep, expr, close]
            .iter()
            .for_each(|p| b.extend_from_slice(p))
    });
    let var_start = sep.len();
    let loc_piece = match loc {
        MdRef::New(k) => Piece::NewMd(k),
        MdRef::Text(t) => Piece::Text(t),
    };
    let md_ty = func.types.metadata();
    let (values, pieces) = if intrinsic {
        let callee = func.dfg.constant(func.types.ptr(), "@llvm.dbg.value");
        let var_v = func.dfg.constant(md_ty, "!");
        let expr_v = func.dfg.constant(md_ty, "!");
        let values = func.dfg.push_values(&[callee, v, var_v, expr_v]);
        let pieces = [Piece::Text(head), Piece::Value(1), Piece::Text(mid_text)];
        (values, func.dfg.push_pieces(&pieces))
    } else {
        let values = func.dfg.push_values(&[v]);
        let paren = func.dfg.strings.add(b")");
        let pieces = [
            Piece::Text(head),
            Piece::Value(0),
            Piece::Text(mid_text),
            loc_piece,
            Piece::Text(paren),
        ];
        (values, func.dfg.push_pieces(&pieces))
    };
    let extra = if intrinsic { 3 } else { 0 };
    let dbg_ty = if intrinsic {
        let void = func.types.void();
        func.types.function(void, &[md_ty; 3], false)
    } else {
        Type::NONE
    };
    let data = InstData {
        opcode: if intrinsic {
            Opcode::Call
        } else {
            Opcode::DbgRecord
        },
        flags: flags::DEBUG | if intrinsic { flags::INTRINSIC } else { 0 },
        result: Value::NONE,
        aux_ty: dbg_ty,
        values,
        blocks: PoolRange::default(),
        pieces,
        attachments: PoolRange::default(),
        extra,
    };
    let inst = func.dfg.make_inst(data, None, Text::NONE);
    // Spans of the variable and expression inside the arena text, for readers of `DbgVar`.
    let var_t = sub_text(mid_text, var_start, var.len());
    let expr_t = sub_text(mid_text, var_start + var.len() + sep.len(), expr.len());
    func.dfg.dbg[inst] = Some(DbgVar {
        kind: DbgKind::Value,
        record: !intrinsic,
        var: var_t,
        expr: expr_t,
        loc,
        loc_operand: u32::from(intrinsic),
    });
    if intrinsic {
        let kind = func.dfg.strings.add(b"dbg");
        func.dfg.set_attachments(inst, &[(kind, loc)]);
        const DECL: &str = "declare void @llvm.dbg.value(metadata, metadata, metadata)";
        if !func.needs_decls.contains(&DECL) {
            func.needs_decls.push(DECL);
        }
    }
    inst
}

/// The sub-span `[k, k + len)` of an arena span.
fn sub_text(t: Text, k: usize, len: usize) -> Text {
    t.sub(k, len)
}
