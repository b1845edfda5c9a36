//! The IR edits mem2reg makes, each keeping the function printable at every step: erasing an
//! instruction (its remaining debug uses see `undef`, as when LLVM deletes a value that
//! metadata still names), replacing a loaded value, retexting a span of a template (an
//! operand bundle's tag), and building `dbg.value` calls or `#dbg_value` records.
//!
//! Invariant: replacements go through the function's alias table (O(1) each; readers resolve
//! operands through it), so a value replaced twice resolves to the last replacement.

use llvm_ir::ir::dfg::ValueDef;
use llvm_ir::ir::{Function, Inst, MdRef, Piece, PoolRange, Text, Type, Value};

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

/// What the debug values made in one function share, made once instead of once per debug
/// value: the leading text per value type, the middle text of the last variable and
/// expression (the stores of one slot come one after another), the intrinsic's constants
/// and type, and the `dbg` and `)` texts.
///
/// Invariant: everything here was made in the one function it is used with (texts live in
/// that function's arena, values in its data-flow graph).
#[derive(Default)]
pub struct DbgValueParts {
    heads: Vec<(Type, bool, Text)>,
    /// The last `mid` text made, its variable's length and its form.
    last_mid: Option<(Text, usize, bool)>,
    /// `@llvm.dbg.value` and a metadata operand `!`, shared by every call's operand list.
    consts: Option<(Value, Value)>,
    dbg_ty: Option<Type>,
    dbg_kind: Option<Text>,
    paren: Option<Text>,
}

impl DbgValueParts {
    fn head(&mut self, func: &mut Function, ty: Type, intrinsic: bool) -> Text {
        if let Some(&(_, _, t)) = self.heads.iter().find(|h| h.0 == ty && h.1 == intrinsic) {
            return t;
        }
        let types = &func.types;
        let t = func.dfg.strings.add_with(|b| {
            b.extend_from_slice(if intrinsic {
                b"call void @llvm.dbg.value(metadata "
            } else {
                b"#dbg_value("
            });
            types.write(b, ty);
            b.push(b' ');
        });
        self.heads.push((ty, intrinsic, t));
        t
    }

    /// `sep var sep expr close` as one text (its spans name the variable and expression).
    fn mid(&mut self, func: &mut Function, var: &[u8], expr: &[u8], intrinsic: bool) -> Text {
        let (sep, close) = separators(intrinsic);
        if let Some((t, var_len, i)) = self.last_mid {
            let b = t.resolve(&[], func.dfg.strings.bytes());
            let (v, e) = (sep.len()..sep.len() + var_len, 2 * sep.len() + var_len..);
            if i == intrinsic && b[v] == *var && b[e].strip_suffix(close) == Some(expr) {
                return t;
            }
        }
        let t = func.dfg.strings.add_with(|b| {
            [sep, var, sep, expr, close]
                .iter()
                .for_each(|p| b.extend_from_slice(p))
        });
        self.last_mid = Some((t, var.len(), intrinsic));
        t
    }

    fn consts(&mut self, func: &mut Function) -> (Value, Value) {
        *self.consts.get_or_insert_with(|| {
            let md_ty = func.types.metadata();
            (
                func.dfg.constant(func.types.ptr(), "@llvm.dbg.value"),
                func.dfg.constant(md_ty, "!"),
            )
        })
    }

    fn dbg_ty(&mut self, func: &mut Function) -> Type {
        *self.dbg_ty.get_or_insert_with(|| {
            let md_ty = func.types.metadata();
            let void = func.types.void();
            func.types.function(void, &[md_ty; 3], false)
        })
    }

    fn text(slot: &mut Option<Text>, func: &mut Function, s: &[u8]) -> Text {
        *slot.get_or_insert_with(|| func.dfg.strings.add(s))
    }
}

/// The separator between the operands and the closing text after the expression.
fn separators(intrinsic: bool) -> (&'static [u8], &'static [u8]) {
    if intrinsic {
        (b", metadata ", b")")
    } else {
        (b", ", b", ")
    }
}

/// Builds (unplaced) a debug value of `v` for variable `var` with expression `expr` at
/// location `loc`, in `form`, with the shared parts of `parts` (made in this function).
pub fn make_dbg_value(
    func: &mut Function,
    parts: &mut DbgValueParts,
    form: DbgForm,
    v: Value,
    var: &[u8],
    expr: &[u8],
    loc: MdRef,
) -> Inst {
    use llvm_ir::ir::instructions::{flags, DbgKind, DbgVar, InstData, Opcode};
    let intrinsic = form == DbgForm::Intrinsic;
    let ty = func.dfg.value_type(v);
    let head = parts.head(func, ty, intrinsic);
    let mid_text = parts.mid(func, var, expr, intrinsic);
    let sep = separators(intrinsic).0;
    let var_start = sep.len();
    let loc_piece = match loc {
        MdRef::New(k) => Piece::NewMd(k),
        MdRef::Text(t) => Piece::Text(t),
    };
    let (values, pieces) = if intrinsic {
        let (callee, md) = parts.consts(func);
        let values = func.dfg.push_values(&[callee, v, md, md]);
        let pieces = [Piece::Text(head), Piece::Value(1), Piece::Text(mid_text)];
        (values, func.dfg.push_pieces(&pieces))
    } else {
        let values = func.dfg.push_values(&[v]);
        let paren = DbgValueParts::text(&mut parts.paren, func, b")");
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
        parts.dbg_ty(func)
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
        let kind = DbgValueParts::text(&mut parts.dbg_kind, func, b"dbg");
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
