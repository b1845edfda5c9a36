//! Call-like instructions (`call`, `invoke`, `callbr`): LLParser's `parseCall` /
//! `parseInvoke` / `parseCallBr`, with the callee's function type pre-scanned from the
//! arguments when only the return type is written, operand bundles, and the debug-variable
//! data of `llvm.dbg.*` calls.
//!
//! Invariant: as for every instruction reader (see [`super::instructions`]), operands are read
//! in the order [`llvm_ir::ir::InstData::values`] documents: callee, arguments, then the
//! metadata-only operands of debug intrinsics.

use super::attrs::{eat_cconv, parse_fn_attrs, parse_param_attrs};
use super::constants::ConstKind;
use super::cursor::PResult;
use super::function::FuncReader;
use super::instructions::{is_fmf, InstOut};
use super::metadata::parse_metadata_arg;
use super::types::{parse_opt_addrspace, parse_type, parse_type_or_void};
use crate::lexer::Tok;
use llvm_ir::ir::dfg::{Bundle, ValueDef};
use llvm_ir::ir::instructions::{flags, DbgKind, DbgVar, Opcode, PoolRange, Value};
use llvm_ir::ir::types::{Type, TypeData};
use llvm_ir::ir::Text;

/// Call-like instructions: `call`, `invoke`, `callbr`.
impl<'a> FuncReader<'a, '_> {
    pub(super) fn parse_call_like(&mut self, op: Opcode) -> PResult<InstOut> {
        // Where LLVM's `parseCall` points: the token after `call`, or `call` after `tail`.
        let call_loc = if self.run < self.c.tok.start {
            self.c.tok.start
        } else {
            self.c.peek().start
        };
        self.c.bump();
        let mut out = InstOut::new(op, None);
        if op == Opcode::Call && self.eat_words(is_fmf) {
            out.flags |= flags::MAY_POISON;
        }
        eat_cconv(&mut self.c)?;
        if parse_param_attrs(self)? & llvm_ir::ir::param_flags::NOUNDEF != 0 {
            out.flags |= flags::RET_NOUNDEF;
        }
        let space = parse_opt_addrspace(self)?;
        let ty_at = self.c.at();
        let ret = parse_type_or_void(self)?;
        let explicit = match self.f.types.data(ret) {
            TypeData::Function { .. } => Some(ret),
            _ => None,
        };
        let callee_tok = self.c.tok;
        // The callee's type: `ptr` (opaque), or a pointer to the call's function type, which
        // for the short form needs the argument types first.
        let known_ty = match explicit {
            Some(f) => Some(f),
            None if self.f.types.opaque_mode => None,
            None => Some(self.prescan_fn_type(ret)?),
        };
        let callee_ty = match known_ty {
            Some(f) => self.f.types.pointer_to_spelled(f, space),
            None => self.f.types.pointer_to_spelled(ret, space),
        };
        self.parse_value(callee_ty)?;
        let name = if matches!(callee_tok.kind, Tok::GlobalVar) {
            self.c.tok_text(callee_tok)
        } else {
            b""
        };
        if name.starts_with(b"@llvm.") {
            out.flags |= flags::INTRINSIC;
        }
        let dbg_kind = debug_intrinsic(name);
        // Only these three count as the old debug-info format (LLVM 19's
        // `isOldDbgFormatIntrinsic`), and only in `call`.
        let old_format = matches!(
            name,
            b"@llvm.dbg.value" | b"@llvm.dbg.declare" | b"@llvm.dbg.assign"
        );
        if old_format && op == Opcode::Call {
            self.saw_dbg_call(call_loc);
        }
        let (params, vararg) = match known_ty.map(|f| self.f.types.data(f)) {
            Some(TypeData::Function { params, vararg, .. }) => (Some(params.clone()), *vararg),
            Some(_) => return self.c.err_at(ty_at, "expected function type"),
            None => (None, false),
        };
        let (md_spans, arg_types) = self.parse_call_args(params.as_deref(), vararg)?;
        let fn_ty = match known_ty {
            Some(f) => f,
            None => self.f.types.intern(TypeData::Function {
                ret,
                params: arg_types.into_boxed_slice(),
                vararg: false,
            }),
        };
        out.extra = md_spans.len() as u32;
        parse_fn_attrs(self, false)?;
        self.parse_bundles(&mut out)?;
        if !out.bundles.is_empty() {
            out.flags |= flags::HAS_BUNDLES;
        }
        if op == Opcode::Invoke {
            self.c.expect_kw(b"to", "expected 'to' in invoke")?;
            self.parse_block_ref()?;
            self.c.expect_kw(b"unwind", "expected 'unwind' in invoke")?;
            self.parse_block_ref()?;
        } else if op == Opcode::CallBr {
            self.c.expect_kw(b"to", "expected 'to' in callbr")?;
            self.parse_block_ref()?;
            self.parse_block_list("expected '[' in callbr")?;
        }
        // LLVM's `resolveFunctionType`, once the whole instruction is read.
        if explicit.is_none()
            && matches!(self.f.types.data(ret), TypeData::Label | TypeData::Metadata)
        {
            return self
                .c
                .err_at(ty_at, "Invalid result type for LLVM function");
        }
        out.aux = fn_ty;
        let fn_ret = match self.f.types.data(fn_ty) {
            TypeData::Function { ret, .. } => *ret,
            _ => ret,
        };
        out.ty = Some(fn_ret);
        if let Some(kind) = dbg_kind {
            out.flags |= flags::DEBUG;
            out.dbg = Some(self.dbg_var_of_call(kind, &md_spans));
        }
        Ok(out)
    }

    /// For a short-form call `call RET @f(args)`: the function type `RET (arg types)`, read
    /// ahead without consuming anything (the callee must be checked against it first).
    fn prescan_fn_type(&mut self, ret: Type) -> PResult<Type> {
        let saved = self.c.clone();
        let holes = self.holes;
        self.holes = false;
        let r = self.prescan_inner(ret);
        self.holes = holes;
        self.c = saved;
        r
    }

    fn prescan_inner(&mut self, ret: Type) -> PResult<Type> {
        // Skip the callee: a name, or a keyword-led constant with its parenthesized body.
        match self.c.kind() {
            Tok::GlobalVar | Tok::GlobalId | Tok::LocalVar | Tok::LocalVarId => {
                self.c.bump();
            }
            Tok::Ident if self.c.is_kw(b"asm") => {
                self.c.bump();
                while self.c.kind() == Tok::Ident {
                    self.c.bump();
                }
                self.c.expect(Tok::Str, "expected string constant")?;
                self.c
                    .expect(Tok::Comma, "expected comma in inline asm expression")?;
                self.c.expect(Tok::Str, "expected constraint string")?;
            }
            Tok::Ident => {
                while self.c.kind() == Tok::Ident {
                    self.c.bump();
                }
                if self.c.kind() == Tok::LParen {
                    self.c.skip_balanced()?;
                }
            }
            _ => return self.c.err("expected value token"),
        }
        self.c.expect(Tok::LParen, "expected '(' in call")?;
        let mut params = Vec::new();
        if self.c.kind() != Tok::RParen {
            loop {
                if self.c.kind() == Tok::DotDotDot {
                    break;
                }
                let t = parse_type(self)?;
                params.push(t);
                parse_param_attrs(self)?;
                skip_value(&mut self.c)?;
                if !self.c.eat(Tok::Comma) {
                    break;
                }
            }
        }
        Ok(self.f.types.intern(TypeData::Function {
            ret,
            params: params.into_boxed_slice(),
            vararg: false,
        }))
    }

    /// `(T [attrs] v, ...)`; returns, per argument, the span of a metadata argument
    /// (`Text::NONE` for others). Argument values are pushed in order; metadata-only
    /// arguments get a hidden constant operand, values inside them go to the extras.
    fn parse_call_args(
        &mut self,
        params: Option<&[Type]>,
        vararg: bool,
    ) -> PResult<(Vec<Text>, Vec<Type>)> {
        self.c.expect(Tok::LParen, "expected '(' in call")?;
        let mut spans = Vec::new();
        let mut types = Vec::new();
        let md = self.f.types.common().metadata;
        while self.c.kind() != Tok::RParen {
            if !spans.is_empty() {
                self.expect_comma("expected ',' in argument list")?;
            }
            if self.c.eat(Tok::DotDotDot) {
                if !vararg {
                    return self
                        .c
                        .err("unexpected ellipsis in argument list for non-variadic function");
                }
                break;
            }
            let at = self.c.at();
            let ty = parse_type(self)?;
            parse_param_attrs(self)?;
            let i = spans.len();
            types.push(ty);
            if let Some(params) = params {
                if let Some(&want) = params.get(i) {
                    if want != ty {
                        let msg = format!(
                            "argument is not of expected type '{}'",
                            self.f.types.display(want)
                        );
                        return self.c.err_at(at, msg);
                    }
                } else if !vararg {
                    return self.c.err_at(at, "too many arguments specified");
                }
            }
            if ty == md {
                let mat = self.c.at();
                let direct = !matches!(self.c.kind(), Tok::Exclaim | Tok::MetadataVar);
                if direct {
                    // `metadata T v`: the argument is the value itself.
                    parse_metadata_arg(self)?;
                } else {
                    self.md_extras = true;
                    let r = parse_metadata_arg(self);
                    self.md_extras = false;
                    r?;
                    let text = Text::source(mat, self.c.prev_end as usize);
                    let v = self.f.dfg.make_value(md, ValueDef::Const(text), Text::NONE);
                    self.vals.push(v);
                }
                spans.push(Text::source(mat, self.c.prev_end as usize));
            } else {
                self.parse_value(ty)?;
                spans.push(Text::NONE);
            }
        }
        if spans.len() < params.map_or(0, |p| p.len()) {
            return self.c.err("not enough parameters specified for call");
        }
        self.c.bump();
        Ok((spans, types))
    }

    /// `[ "tag"(T v, ...), ... ]` after a call's attributes.
    fn parse_bundles(&mut self, out: &mut InstOut) -> PResult<()> {
        if self.c.kind() != Tok::LSquare {
            return Ok(());
        }
        // LLVM prints `[ "tag"(...), ... ]`.
        let open = self.c.bump();
        if self.c.src.get(open.end as usize) != Some(&b' ') {
            out.patches.push((open.start, 1, b"[ ".to_vec()));
        }
        loop {
            let tag = self.c.expect(Tok::Str, "expected operand bundle tag")?;
            self.c
                .expect(Tok::LParen, "expected '(' after operand bundle tag")?;
            let start = self.vals.len() as u32;
            while self.c.kind() != Tok::RParen {
                self.parse_typed_value()?;
                if !self.c.eat(Tok::Comma) {
                    break;
                }
            }
            self.c
                .expect(Tok::RParen, "expected ')' in operand bundle")?;
            out.bundles.push(Bundle {
                tag: Text::source(tag.start as usize, tag.end as usize),
                ops: PoolRange {
                    start,
                    len: self.vals.len() as u32 - start,
                },
            });
            if !self.c.eat(Tok::Comma) {
                break;
            }
        }
        let close = self
            .c
            .expect(Tok::RSquare, "expected ']' in operand bundle")?;
        if close.start > 0 && self.c.src[close.start as usize - 1] != b' ' {
            out.patches.push((close.start, 1, b" ]".to_vec()));
        }
        Ok(())
    }

    fn dbg_var_of_call(&self, kind: DbgKind, spans: &[Text]) -> DbgVar {
        let md = |i: usize| -> Text {
            match spans.get(i) {
                Some(t) if !t.is_none() => strip_metadata_kw(self, *t),
                _ => Text::NONE,
            }
        };
        let (var, expr) = if kind == DbgKind::Label {
            (md(0), Text::NONE)
        } else {
            (md(1), md(2))
        };
        // Operand 1 (after the callee) is the location when it was written `metadata T v`.
        let loc_operand = if kind != DbgKind::Label && !spans.is_empty() {
            let first = strip_metadata_kw(self, spans[0]);
            let s = self.f.text(first);
            if s.first() == Some(&b'!') {
                u32::MAX
            } else {
                1
            }
        } else {
            u32::MAX
        };
        DbgVar {
            kind,
            record: false,
            var,
            expr,
            loc: llvm_ir::ir::MdRef::NONE,
            loc_operand,
        }
    }
}

/// The span after a leading `metadata ` keyword, if any (metadata argument spans start after
/// the type already, so this only trims whitespace).
fn strip_metadata_kw(r: &FuncReader<'_, '_>, t: Text) -> Text {
    let s = r.f.text(t);
    let trimmed = s.iter().take_while(|c| c.is_ascii_whitespace()).count();
    Text::source(t.source_offset() + trimmed, t.source_offset() + s.len())
}

/// The debug intrinsic a callee name denotes.
pub fn debug_intrinsic(name: &[u8]) -> Option<DbgKind> {
    Some(match name {
        b"@llvm.dbg.declare" => DbgKind::Declare,
        b"@llvm.dbg.value" => DbgKind::Value,
        b"@llvm.dbg.assign" => DbgKind::Assign,
        b"@llvm.dbg.addr" => DbgKind::Addr,
        b"@llvm.dbg.label" => DbgKind::Label,
        _ => return None,
    })
}

/// LLVM's `isFirstClassType`: anything but `void` and function types (labels, metadata and
/// tokens are first class to the reader; the verifier refuses them where they do not fit).
pub(super) fn first_class(types: &llvm_ir::ir::types::TypeTable, t: Type) -> bool {
    !matches!(types.data(t), TypeData::Void | TypeData::Function { .. })
}

/// Skips one value's tokens (up to a `,` or `)` at depth 0).
fn skip_value(c: &mut super::cursor::Cursor<'_>) -> PResult<()> {
    let mut depth = 0usize;
    loop {
        match c.kind() {
            Tok::LParen | Tok::LSquare | Tok::LBrace | Tok::Less => depth += 1,
            Tok::RParen | Tok::RSquare | Tok::RBrace | Tok::Greater => {
                if depth == 0 {
                    return Ok(());
                }
                depth -= 1;
            }
            Tok::Comma if depth == 0 => return Ok(()),
            Tok::Eof | Tok::Error => return c.err("expected value token"),
            _ => {}
        }
        c.bump();
    }
}

/// Whether `v` came from a literal (used by callers that need constant operands).
#[allow(dead_code)]
fn is_literal(k: ConstKind) -> bool {
    k == ConstKind::Int
}

#[allow(dead_code)]
fn unused(_: Value) {}
