//! Instructions: one reader per opcode family, following LLParser's `parseInstruction`, with
//! its type rules and messages. Each reader consumes the instruction's tokens (operands become
//! template holes through `FuncReader::parse_value` / `FuncReader::parse_block_ref`) and
//! returns an [`InstOut`]: opcode, flags, result type and the opcode-specific extras.
//!
//! Invariant: operands are read in the order [`llvm_ir::ir::InstData::values`] documents, so the
//! hole numbers are the operand positions (metadata-only call operands go last, see
//! `EXTRA_HOLE`).

use super::calls::first_class;
use super::constants::int_literal_value;
use super::constexpr::parse_predicate;
use super::cursor::PResult;
use super::function::FuncReader;
use super::types::{parse_opt_addrspace, parse_type, parse_type_or_void};
use crate::lexer::Tok;
use llvm_ir::ir::dfg::{Bundle, ValueDef};
use llvm_ir::ir::instructions::{flags, DbgVar, Opcode};
use llvm_ir::ir::sema;
use llvm_ir::ir::types::{Type, TypeData};

/// What an instruction reader found.
pub struct InstOut {
    /// Opcode.
    pub op: Opcode,
    /// [`flags`] bits.
    pub flags: u8,
    /// The opcode-specific type of [`llvm_ir::ir::InstData::aux_ty`].
    pub aux: Type,
    /// Result type (`None` or `void`: no result).
    pub ty: Option<Type>,
    /// Call argument count.
    pub extra: u32,
    /// Debug-variable data of `llvm.dbg.*` calls.
    pub dbg: Option<DbgVar>,
    /// Operand bundles.
    pub bundles: Vec<Bundle>,
    /// Where the template ends, when not at the last consumed token.
    pub template_end: Option<u32>,
    /// Edits of the template text towards LLVM's printed form, `(offset, length, new text)`
    /// in source offsets: an alignment the input left implicit (`, align N`, which LLVM's
    /// reader fills in and its printer writes), operand-bundle spacing.
    pub patches: Vec<(u32, u32, Vec<u8>)>,
}

impl InstOut {
    pub(super) fn new(op: Opcode, ty: Option<Type>) -> Self {
        Self {
            op,
            flags: 0,
            aux: Type::NONE,
            ty,
            extra: 0,
            dbg: None,
            bundles: Vec::new(),
            template_end: None,
            patches: Vec::new(),
        }
    }
}

fn binop(w: &[u8]) -> Option<(Opcode, bool)> {
    use Opcode::*;
    Some(match w {
        b"add" => (Add, false),
        b"sub" => (Sub, false),
        b"mul" => (Mul, false),
        b"udiv" => (UDiv, false),
        b"sdiv" => (SDiv, false),
        b"urem" => (URem, false),
        b"srem" => (SRem, false),
        b"shl" => (Shl, false),
        b"lshr" => (LShr, false),
        b"ashr" => (AShr, false),
        b"and" => (And, false),
        b"or" => (Or, false),
        b"xor" => (Xor, false),
        b"fadd" => (FAdd, true),
        b"fsub" => (FSub, true),
        b"fmul" => (FMul, true),
        b"fdiv" => (FDiv, true),
        b"frem" => (FRem, true),
        _ => return None,
    })
}

#[inline]
fn cast_op(w: &[u8]) -> Option<Opcode> {
    use Opcode::*;
    Some(match w {
        b"trunc" => Trunc,
        b"zext" => ZExt,
        b"sext" => SExt,
        b"fptrunc" => FPTrunc,
        b"fpext" => FPExt,
        b"fptoui" => FPToUI,
        b"fptosi" => FPToSI,
        b"uitofp" => UIToFP,
        b"sitofp" => SIToFP,
        b"ptrtoint" => PtrToInt,
        b"inttoptr" => IntToPtr,
        b"bitcast" => BitCast,
        b"addrspacecast" => AddrSpaceCast,
        _ => return None,
    })
}

pub(super) fn is_fmf(w: &[u8]) -> bool {
    matches!(
        w,
        b"nnan" | b"ninf" | b"nsz" | b"arcp" | b"contract" | b"afn" | b"reassoc" | b"fast"
    )
}

fn is_ordering(w: &[u8]) -> bool {
    matches!(
        w,
        b"unordered" | b"monotonic" | b"acquire" | b"release" | b"acq_rel" | b"seq_cst"
    )
}

impl<'a> FuncReader<'a, '_> {
    /// Consumes keywords accepted by `pred`; returns whether any of them is a
    /// poison-generating flag (see [`flags::MAY_POISON`]).
    pub(super) fn eat_words(&mut self, pred: fn(&[u8]) -> bool) -> bool {
        let mut poison = false;
        while self.c.kind() == Tok::Ident && pred(self.c.text()) {
            poison |= matches!(
                self.c.text(),
                b"nsw"
                    | b"nuw"
                    | b"exact"
                    | b"disjoint"
                    | b"nneg"
                    | b"inbounds"
                    | b"nusw"
                    | b"samesign"
                    | b"nnan"
                    | b"ninf"
                    | b"fast"
            );
            self.c.bump();
        }
        poison
    }

    fn poison_flag(p: bool) -> u8 {
        if p {
            flags::MAY_POISON
        } else {
            0
        }
    }

    /// A bracketed list of block references (`[label %a, label %b]`, maybe empty); `open_msg`
    /// when the `[` is missing.
    pub(super) fn parse_block_list(&mut self, open_msg: &str) -> PResult<()> {
        self.c.expect(Tok::LSquare, open_msg)?;
        if self.c.kind() != Tok::RSquare {
            loop {
                self.parse_block_ref()?;
                if !self.c.eat(Tok::Comma) {
                    break;
                }
            }
        }
        self.c
            .expect(Tok::RSquare, "expected ']' at end of block list")?;
        Ok(())
    }

    pub(super) fn expect_comma(&mut self, msg: &str) -> PResult<()> {
        self.c.expect(Tok::Comma, msg).map(|_| ())
    }

    /// Whether the current token is `,` followed by the keyword `kw`.
    fn at_comma_kw(&self, kw: &[u8]) -> bool {
        if self.c.kind() != Tok::Comma {
            return false;
        }
        let t = self.c.peek();
        t.kind == Tok::Ident && self.c.tok_text(t) == kw
    }

    /// `, align N` if present; returns whether it was.
    fn opt_comma_align(&mut self) -> PResult<bool> {
        if self.at_comma_kw(b"align") {
            self.c.bump();
            self.c.bump();
            if self.c.eat(Tok::LParen) {
                self.c.parse_u64("expected alignment")?;
                self.c.expect(Tok::RParen, "expected ')'")?;
            } else {
                let at = self.c.at();
                let n = self.c.parse_u64("expected integer")?;
                if !n.is_power_of_two() {
                    return self.c.err_at(at, "alignment is not a power of two");
                }
            }
            return Ok(true);
        }
        Ok(false)
    }

    /// The datalayout's ABI alignment of `t` (for loads and stores written without one).
    fn abi_align(&self, t: Type) -> u64 {
        self.m.dl.abi_align(&self.f.types, t).unwrap_or(1)
    }

    /// `syncscope("x")` if present.
    fn opt_syncscope(&mut self) -> PResult<()> {
        if self.c.eat_kw(b"syncscope") {
            self.c.expect(Tok::LParen, "Expected '(' in syncscope")?;
            self.c.expect(Tok::Str, "Expected syncscope name")?;
            self.c.expect(Tok::RParen, "Expected ')' in syncscope")?;
        }
        Ok(())
    }

    fn ordering(&mut self) -> PResult<()> {
        if self.c.kind() == Tok::Ident && is_ordering(self.c.text()) {
            self.c.bump();
            return Ok(());
        }
        self.c.err("Expected ordering on atomic instruction")
    }

    /// Reads one instruction (the opcode is the current token).
    pub fn parse_instruction(&mut self) -> PResult<InstOut> {
        if self.c.kind() == Tok::Eof {
            return self
                .c
                .err("found end of file when expecting more instructions");
        }
        if self.c.kind() != Tok::Ident {
            return self.c.err("expected instruction opcode");
        }
        let w = self.c.text();
        if let Some((op, fp)) = binop(w) {
            return self.parse_binop(op, fp);
        }
        if let Some(op) = cast_op(w) {
            return self.parse_cast(op, w);
        }
        let common = *self.f.types.common();
        match w {
            b"ret" => self.parse_ret(),
            b"br" => self.parse_br(),
            b"switch" => self.parse_switch(),
            b"indirectbr" => self.parse_indirectbr(),
            b"invoke" => self.parse_call_like(Opcode::Invoke),
            b"callbr" => self.parse_call_like(Opcode::CallBr),
            b"call" => self.parse_call_like(Opcode::Call),
            b"tail" | b"musttail" | b"notail" => {
                self.c.bump();
                if !self.c.is_kw(b"call") {
                    return self
                        .c
                        .err("expected 'tail call', 'musttail call', or 'notail call'");
                }
                self.parse_call_like(Opcode::Call)
            }
            b"resume" => {
                self.c.bump();
                self.parse_typed_value()?;
                Ok(InstOut::new(Opcode::Resume, None))
            }
            b"unreachable" => {
                self.c.bump();
                Ok(InstOut::new(Opcode::Unreachable, None))
            }
            b"cleanupret" => self.parse_cleanupret(),
            b"catchret" => {
                self.c.bump();
                self.c
                    .expect_kw(b"from", "expected 'from' after catchret")?;
                self.parse_value(common.token)?;
                self.c.expect_kw(b"to", "expected 'to' in catchret")?;
                self.parse_block_ref()?;
                Ok(InstOut::new(Opcode::CatchRet, None))
            }
            b"catchswitch" => self.parse_catchswitch(),
            b"catchpad" | b"cleanuppad" => self.parse_pad(w == b"catchpad"),
            b"fneg" => {
                self.c.bump();
                self.eat_words(is_fmf);
                let at = self.c.at();
                let (ty, _) = self.parse_typed_value()?;
                if !sema::is_fp_or_fp_vector(&self.f.types, ty) {
                    return self.c.err_at(at, "invalid operand type for instruction");
                }
                Ok(InstOut::new(Opcode::FNeg, Some(ty)))
            }
            b"icmp" | b"fcmp" => self.parse_cmp(w == b"icmp"),
            b"select" => self.parse_select(),
            b"va_arg" => {
                self.c.bump();
                self.parse_typed_value()?;
                self.expect_comma("expected ',' after vaarg operand")?;
                let ty = parse_type(self)?;
                Ok(InstOut::new(Opcode::VAArg, Some(ty)))
            }
            b"extractelement" => self.parse_extractelement(),
            b"insertelement" => self.parse_insertelement(),
            b"shufflevector" => self.parse_shufflevector(),
            b"phi" => self.parse_phi(),
            b"landingpad" => self.parse_landingpad(),
            b"freeze" => {
                self.c.bump();
                let (ty, _) = self.parse_typed_value()?;
                Ok(InstOut::new(Opcode::Freeze, Some(ty)))
            }
            b"alloca" => self.parse_alloca(),
            b"load" => self.parse_load(),
            b"store" => self.parse_store(),
            b"cmpxchg" => self.parse_cmpxchg(),
            b"atomicrmw" => self.parse_atomicrmw(),
            b"fence" => {
                self.c.bump();
                self.opt_syncscope()?;
                self.ordering()?;
                Ok(InstOut::new(Opcode::Fence, None))
            }
            b"getelementptr" => self.parse_gep(),
            b"extractvalue" | b"insertvalue" => self.parse_aggregate(w == b"insertvalue"),
            _ => self.c.err("expected instruction opcode"),
        }
    }

    fn parse_ret(&mut self) -> PResult<InstOut> {
        self.c.bump();
        let at = self.c.at();
        let ty = parse_type_or_void(self)?;
        let want = self.f.ret_ty;
        if ty != self.f.types.common().void {
            self.parse_value(ty)?;
        }
        if ty != want {
            let msg = format!(
                "value doesn't match function result type '{}'",
                self.f.types.display(want)
            );
            return self.c.err_at(at, msg);
        }
        Ok(InstOut::new(Opcode::Ret, None))
    }

    fn parse_br(&mut self) -> PResult<InstOut> {
        self.c.bump();
        if self.c.is_kw(b"label") {
            self.parse_block_ref()?;
            return Ok(InstOut::new(Opcode::Br, None));
        }
        let at = self.c.at();
        let (ty, _) = self.parse_typed_value()?;
        if ty != self.f.types.common().i1 {
            return self.c.err_at(at, "branch condition must have 'i1' type");
        }
        self.expect_comma("expected ',' after branch condition")?;
        self.parse_block_ref()?;
        self.expect_comma("expected ',' after true destination")?;
        self.parse_block_ref()?;
        Ok(InstOut::new(Opcode::Br, None))
    }

    fn parse_switch(&mut self) -> PResult<InstOut> {
        self.c.bump();
        let at = self.c.at();
        let (ty, _) = self.parse_typed_value()?;
        if !self.f.types.is_int(ty) {
            return self.c.err_at(at, "switch condition must have integer type");
        }
        self.expect_comma("expected ',' after switch condition")?;
        self.parse_block_ref()?;
        self.c
            .expect(Tok::LSquare, "expected '[' with switch table")?;
        let mut seen = llvm_ir::util::fxhash::FxHashSet::default();
        while self.c.kind() != Tok::RSquare {
            let case_at = self.c.at();
            let cty = parse_type(self)?;
            let v = self.parse_value(cty)?;
            self.expect_comma("expected ',' after case value")?;
            self.parse_block_ref()?;
            // As LLVM: duplicates (the same constant: type and value) first, then the kind of
            // constant; a case of another type than the condition is the verifier's concern.
            let text = match self.f.dfg.values[v].def {
                ValueDef::Const(t) => self.f.text(t),
                _ => b"",
            };
            let val = match (int_literal_value(text), self.f.types.data(cty)) {
                (Some(n), TypeData::Int(bits)) if *bits < 128 => Some(n & ((1i128 << bits) - 1)),
                (Some(n), TypeData::Int(_)) => Some(n),
                _ => None,
            };
            let Some(val) = val else {
                return self
                    .c
                    .err_at(case_at, "case value is not a constant integer");
            };
            if !seen.insert((cty, val)) {
                return self.c.err_at(case_at, "duplicate case value in switch");
            }
        }
        self.c.bump();
        Ok(InstOut::new(Opcode::Switch, None))
    }

    fn parse_indirectbr(&mut self) -> PResult<InstOut> {
        self.c.bump();
        let at = self.c.at();
        let (ty, _) = self.parse_typed_value()?;
        if !self.f.types.is_pointer(ty) {
            return self
                .c
                .err_at(at, "indirectbr address must have pointer type");
        }
        self.expect_comma("expected ',' after indirectbr address")?;
        self.parse_block_list("expected '[' with indirectbr")?;
        Ok(InstOut::new(Opcode::IndirectBr, None))
    }

    fn parse_cleanupret(&mut self) -> PResult<InstOut> {
        self.c.bump();
        let token = self.f.types.common().token;
        self.c
            .expect_kw(b"from", "expected 'from' after cleanupret")?;
        self.parse_value(token)?;
        self.c
            .expect_kw(b"unwind", "expected 'unwind' in cleanupret")?;
        let mut out = InstOut::new(Opcode::CleanupRet, None);
        if self.c.eat_kw(b"to") {
            self.c
                .expect_kw(b"caller", "expected 'caller' in cleanupret")?;
        } else {
            self.parse_block_ref()?;
            out.flags |= flags::UNWIND_DEST;
        }
        Ok(out)
    }

    fn parse_catchswitch(&mut self) -> PResult<InstOut> {
        self.c.bump();
        let token = self.f.types.common().token;
        self.c
            .expect_kw(b"within", "expected 'within' after catchswitch")?;
        if !self.c.eat_kw(b"none") {
            self.parse_value(token)?;
        }
        self.c
            .expect(Tok::LSquare, "expected '[' with catchswitch labels")?;
        loop {
            self.parse_block_ref()?;
            if !self.c.eat(Tok::Comma) {
                break;
            }
        }
        self.c
            .expect(Tok::RSquare, "expected ']' after catchswitch labels")?;
        self.c
            .expect_kw(b"unwind", "expected 'unwind' after catchswitch scope")?;
        let mut out = InstOut::new(Opcode::CatchSwitch, Some(token));
        if self.c.eat_kw(b"to") {
            self.c
                .expect_kw(b"caller", "expected 'caller' in catchswitch")?;
        } else {
            self.parse_block_ref()?;
            out.flags |= flags::UNWIND_DEST;
        }
        Ok(out)
    }

    fn parse_pad(&mut self, catch: bool) -> PResult<InstOut> {
        self.c.bump();
        let token = self.f.types.common().token;
        self.c.expect_kw(b"within", "expected 'within' after pad")?;
        if catch || !self.c.eat_kw(b"none") {
            self.parse_value(token)?;
        }
        self.c
            .expect(Tok::LSquare, "expected '[' in catchpad/cleanuppad")?;
        while self.c.kind() != Tok::RSquare {
            self.parse_typed_value()?;
            if !self.c.eat(Tok::Comma) {
                break;
            }
        }
        self.c
            .expect(Tok::RSquare, "expected ']' in catchpad/cleanuppad")?;
        let op = if catch {
            Opcode::CatchPad
        } else {
            Opcode::CleanupPad
        };
        Ok(InstOut::new(op, Some(token)))
    }

    fn parse_binop(&mut self, op: Opcode, fp: bool) -> PResult<InstOut> {
        self.c.bump();
        let poison = if fp {
            self.eat_words(is_fmf)
        } else {
            self.eat_words(|w| matches!(w, b"nuw" | b"nsw" | b"exact" | b"disjoint"))
        };
        let at = self.c.at();
        let (ty, _) = self.parse_typed_value()?;
        self.expect_comma("expected ',' in arithmetic operation")?;
        self.parse_value(ty)?;
        let ok = if fp {
            sema::is_fp_or_fp_vector(&self.f.types, ty)
        } else {
            sema::is_int_or_int_vector(&self.f.types, ty)
        };
        if !ok {
            return self.c.err_at(at, "invalid operand type for instruction");
        }
        let mut out = InstOut::new(op, Some(ty));
        out.flags |= Self::poison_flag(poison);
        Ok(out)
    }

    fn parse_cast(&mut self, op: Opcode, w: &[u8]) -> PResult<InstOut> {
        self.c.bump();
        let poison = self.eat_words(|w| matches!(w, b"nuw" | b"nsw" | b"nneg") || is_fmf(w));
        let at = self.c.at();
        let (src, _) = self.parse_typed_value()?;
        self.c.expect_kw(b"to", "expected 'to' after cast value")?;
        let dst = parse_type(self)?;
        if !sema::cast_valid(&self.f.types, w, src, dst, self.m.ptr_bits) {
            let msg = format!(
                "invalid cast opcode for cast from '{}' to '{}'",
                self.f.types.display(src),
                self.f.types.display(dst)
            );
            return self.c.err_at(at, msg);
        }
        let mut out = InstOut::new(op, Some(dst));
        out.flags |= Self::poison_flag(poison);
        Ok(out)
    }

    fn parse_cmp(&mut self, int: bool) -> PResult<InstOut> {
        self.c.bump();
        let poison = if int {
            self.c.eat_kw(b"samesign")
        } else {
            self.eat_words(is_fmf)
        };
        parse_predicate(self, int)?;
        let at = self.c.at();
        let (ty, _) = self.parse_typed_value()?;
        self.expect_comma("expected ',' after compare value")?;
        self.parse_value(ty)?;
        let ok = if int {
            sema::is_int_or_int_vector(&self.f.types, ty)
                || sema::is_ptr_or_ptr_vector(&self.f.types, ty)
        } else {
            sema::is_fp_or_fp_vector(&self.f.types, ty)
        };
        if !ok {
            let msg = if int {
                "icmp requires integer operands"
            } else {
                "fcmp requires floating point operands"
            };
            return self.c.err_at(at, msg);
        }
        let r = sema::cmp_result(&mut self.f.types, ty);
        let mut out = InstOut::new(if int { Opcode::ICmp } else { Opcode::FCmp }, Some(r));
        out.flags |= Self::poison_flag(poison);
        Ok(out)
    }

    fn parse_select(&mut self) -> PResult<InstOut> {
        self.c.bump();
        self.eat_words(is_fmf);
        let at = self.c.at();
        let (c, _) = self.parse_typed_value()?;
        self.expect_comma("expected ',' after select condition")?;
        let (a, _) = self.parse_typed_value()?;
        self.expect_comma("expected ',' after select value")?;
        let (b, _) = self.parse_typed_value()?;
        let i1 = self.f.types.common().i1;
        let cond_ok =
            c == i1 || matches!(self.f.types.data(c), TypeData::Vector { elem, .. } if *elem == i1);
        if !cond_ok || a != b {
            let msg = if !cond_ok {
                "select condition must be i1 or <n x i1>"
            } else {
                "both values to select must have same type"
            };
            return self.c.err_at(at, msg);
        }
        Ok(InstOut::new(Opcode::Select, Some(a)))
    }

    fn parse_extractelement(&mut self) -> PResult<InstOut> {
        self.c.bump();
        let at = self.c.at();
        let (v, _) = self.parse_typed_value()?;
        self.expect_comma("expected ',' after extract value")?;
        let (i, _) = self.parse_typed_value()?;
        match self.f.types.data(v) {
            TypeData::Vector { elem, .. } if self.f.types.is_int(i) => {
                let e = *elem;
                Ok(InstOut::new(Opcode::ExtractElement, Some(e)))
            }
            _ => self.c.err_at(at, "invalid extractelement operands"),
        }
    }

    fn parse_insertelement(&mut self) -> PResult<InstOut> {
        self.c.bump();
        let at = self.c.at();
        let (v, _) = self.parse_typed_value()?;
        self.expect_comma("expected ',' after insertelement value")?;
        let (e, _) = self.parse_typed_value()?;
        self.expect_comma("expected ',' after insertelement value")?;
        let (i, _) = self.parse_typed_value()?;
        match self.f.types.data(v) {
            TypeData::Vector { elem, .. } if *elem == e && self.f.types.is_int(i) => {
                Ok(InstOut::new(Opcode::InsertElement, Some(v)))
            }
            _ => self.c.err_at(at, "invalid insertelement operands"),
        }
    }

    fn parse_shufflevector(&mut self) -> PResult<InstOut> {
        self.c.bump();
        let at = self.c.at();
        let (a, _) = self.parse_typed_value()?;
        self.expect_comma("expected ',' after shuffle mask")?;
        let (b, _) = self.parse_typed_value()?;
        self.expect_comma("expected ',' after shuffle value")?;
        let (m, _) = self.parse_typed_value()?;
        let r = match (self.f.types.data(a), self.f.types.data(m)) {
            (TypeData::Vector { elem, .. }, TypeData::Vector { len, scalable, .. }) if a == b => {
                TypeData::Vector {
                    len: *len,
                    elem: *elem,
                    scalable: *scalable,
                }
            }
            _ => return self.c.err_at(at, "invalid shufflevector operands"),
        };
        let r = self.f.types.intern(r);
        Ok(InstOut::new(Opcode::ShuffleVector, Some(r)))
    }

    fn parse_phi(&mut self) -> PResult<InstOut> {
        self.c.bump();
        self.eat_words(is_fmf);
        let at = self.c.at();
        let ty = parse_type(self)?;
        if !self.f.types.is_first_class(ty) {
            return self.c.err_at(at, "phi node must have first class type");
        }
        self.c
            .expect(Tok::LSquare, "expected '[' in phi value list")?;
        loop {
            self.parse_value(ty)?;
            self.expect_comma("expected ',' after insertelement value")?;
            self.parse_block_name()?;
            self.c
                .expect(Tok::RSquare, "expected ']' in phi value list")?;
            if !(self.c.kind() == Tok::Comma && self.c.peek().kind == Tok::LSquare) {
                break;
            }
            self.c.bump();
            self.c.bump();
        }
        Ok(InstOut::new(Opcode::Phi, Some(ty)))
    }

    fn parse_landingpad(&mut self) -> PResult<InstOut> {
        self.c.bump();
        let ty = parse_type(self)?;
        // No clause and no `cleanup` reads: LLVM's verifier refuses it, not its reader.
        self.c.eat_kw(b"cleanup");
        loop {
            let catch = self.c.is_kw(b"catch");
            if !(catch || self.c.is_kw(b"filter")) {
                break;
            }
            self.c.bump();
            let at = self.c.at();
            let (cty, v) = self.parse_typed_value()?;
            if matches!(
                self.f.dfg.values[v].def,
                ValueDef::Inst(_) | ValueDef::Param(_)
            ) {
                return self.c.err_at(at, "clauses must be constants");
            }
            if !catch && !matches!(self.f.types.data(cty), TypeData::Array { .. }) {
                return self.c.err_at(at, "'filter' clause has an invalid type");
            }
        }
        Ok(InstOut::new(Opcode::LandingPad, Some(ty)))
    }

    fn parse_alloca(&mut self) -> PResult<InstOut> {
        self.c.bump();
        let mut out = InstOut::new(Opcode::Alloca, None);
        loop {
            if self.c.eat_kw(b"inalloca") {
                out.flags |= flags::INALLOCA;
            } else if self.c.eat_kw(b"swifterror") {
                out.flags |= flags::SWIFTERROR;
            } else {
                break;
            }
        }
        let at = self.c.at();
        let ty = parse_type(self)?;
        if !sema::types_sized(&mut self.f.types, ty)
            && !matches!(self.f.types.data(ty), TypeData::TargetExt(_))
        {
            return self.c.err_at(at, "Cannot allocate unsized type");
        }
        let mut space = self.m.alloca_addrspace;
        let mut has_align = false;
        let mut space_at = None;
        // `[, T count] [, align N] [, addrspace(M)]`, in this order, as LLParser reads them.
        if self.c.kind() == Tok::Comma && self.c.peek().kind != Tok::MetadataVar {
            let next = self.c.peek();
            let word = self.c.tok_text(next);
            if !(next.kind == Tok::Ident && (word == b"align" || word == b"addrspace")) {
                self.c.bump();
                let cat = self.c.at();
                let (cty, _) = self.parse_typed_value()?;
                if !self.f.types.is_int(cty) {
                    return self.c.err_at(cat, "element count must have integer type");
                }
            }
        }
        has_align |= self.opt_comma_align()?;
        if self.at_comma_kw(b"addrspace") {
            space_at = Some(self.c.tok.start);
            self.c.bump();
            space = parse_opt_addrspace(self)?;
        }
        if !has_align {
            let a = self.m.dl.pref_align(&self.f.types, ty).unwrap_or(1);
            out.patches.push((
                space_at.unwrap_or(self.c.prev_end),
                0,
                format!(", align {}", a).into_bytes(),
            ));
        }
        out.aux = ty;
        out.ty = Some(self.f.types.pointer_to_spelled(ty, space));
        Ok(out)
    }

    fn parse_load(&mut self) -> PResult<InstOut> {
        self.c.bump();
        let mut out = InstOut::new(Opcode::Load, None);
        let atomic = self.c.eat_kw(b"atomic");
        if self.c.eat_kw(b"volatile") {
            out.flags |= flags::VOLATILE;
        }
        let at = self.c.at();
        let ty = parse_type(self)?;
        self.expect_comma("expected comma after load's type")?;
        let pat = self.c.at();
        let (pty, _) = self.parse_typed_value()?;
        let ordering = self.atomic_ordering(atomic, &mut out)?;
        let aligned = self.opt_comma_align()?;
        // LLVM's checks, in its order (LLVM 14 compares typed pointees before sizes).
        if !self.f.types.is_pointer(pty) || !first_class(&self.f.types, ty) {
            return self
                .c
                .err_at(pat, "load operand must be a pointer to a first class type");
        }
        if atomic && !aligned {
            return self
                .c
                .err_at(pat, "atomic load must have explicit non-zero alignment");
        }
        if matches!(ordering, b"release" | b"acq_rel") {
            return self
                .c
                .err_at(pat, "atomic load cannot use Release ordering");
        }
        if let TypeData::TypedPtr { pointee, .. } = self.f.types.data(pty) {
            if *pointee != ty {
                return self.c.err_at(
                    at,
                    "explicit pointee type doesn't match operand's pointee type",
                );
            }
        }
        if !aligned {
            if !sema::types_sized(&mut self.f.types, ty) {
                return self.c.err_at(at, "loading unsized types is not allowed");
            }
            out.patches.push((
                self.c.prev_end,
                0,
                format!(", align {}", self.abi_align(ty)).into_bytes(),
            ));
        }
        out.ty = Some(ty);
        Ok(out)
    }

    /// `[syncscope("x")] ordering` of an atomic load or store; the ordering's keyword.
    fn atomic_ordering(&mut self, atomic: bool, out: &mut InstOut) -> PResult<&'a [u8]> {
        if !atomic {
            return Ok(b"");
        }
        out.flags |= flags::ATOMIC;
        self.opt_syncscope()?;
        let w = self.c.text();
        self.ordering()?;
        Ok(w)
    }

    fn parse_store(&mut self) -> PResult<InstOut> {
        self.c.bump();
        let mut out = InstOut::new(Opcode::Store, None);
        let atomic = self.c.eat_kw(b"atomic");
        if self.c.eat_kw(b"volatile") {
            out.flags |= flags::VOLATILE;
        }
        let at = self.c.at();
        let (vty, _) = self.parse_typed_value()?;
        self.expect_comma("expected ',' after store operand")?;
        let pat = self.c.at();
        let (pty, _) = self.parse_typed_value()?;
        let ordering = self.atomic_ordering(atomic, &mut out)?;
        let aligned = self.opt_comma_align()?;
        // LLVM's checks, in its order.
        if !self.f.types.is_pointer(pty) {
            return self.c.err_at(pat, "store operand must be a pointer");
        }
        if !first_class(&self.f.types, vty) {
            return self
                .c
                .err_at(at, "store operand must be a first class value");
        }
        if let TypeData::TypedPtr { pointee, .. } = self.f.types.data(pty) {
            if *pointee != vty {
                return self
                    .c
                    .err_at(at, "stored value and pointer type do not match");
            }
        }
        if atomic && !aligned {
            return self
                .c
                .err_at(at, "atomic store must have explicit non-zero alignment");
        }
        if matches!(ordering, b"acquire" | b"acq_rel") {
            return self
                .c
                .err_at(at, "atomic store cannot use Acquire ordering");
        }
        if !aligned {
            if !sema::types_sized(&mut self.f.types, vty) {
                return self.c.err_at(at, "storing unsized types is not allowed");
            }
            out.patches.push((
                self.c.prev_end,
                0,
                format!(", align {}", self.abi_align(vty)).into_bytes(),
            ));
        }
        Ok(out)
    }

    fn parse_cmpxchg(&mut self) -> PResult<InstOut> {
        self.c.bump();
        let mut out = InstOut::new(Opcode::CmpXchg, None);
        self.c.eat_kw(b"weak");
        if self.c.eat_kw(b"volatile") {
            out.flags |= flags::VOLATILE;
        }
        let pat = self.c.at();
        let (pty, _) = self.parse_typed_value()?;
        self.expect_comma("expected ',' after cmpxchg address")?;
        let (cty, _) = self.parse_typed_value()?;
        self.expect_comma("expected ',' after cmpxchg cmp operand")?;
        let nat = self.c.at();
        let (nty, _) = self.parse_typed_value()?;
        self.opt_syncscope()?;
        self.ordering()?;
        self.ordering()?;
        if !self.opt_comma_align()? {
            let size = self.m.dl.store_size(&self.f.types, cty).unwrap_or(1);
            out.patches
                .push((self.c.prev_end, 0, format!(", align {}", size).into_bytes()));
        }
        if !self.f.types.is_pointer(pty) {
            return self.c.err_at(pat, "cmpxchg operand must be a pointer");
        }
        if cty != nty {
            return self
                .c
                .err_at(nat, "compare value and new value type do not match");
        }
        let i1 = self.f.types.common().i1;
        let r = self.f.types.intern(TypeData::Struct {
            fields: vec![cty, i1].into_boxed_slice(),
            packed: false,
        });
        out.ty = Some(r);
        Ok(out)
    }

    fn parse_atomicrmw(&mut self) -> PResult<InstOut> {
        self.c.bump();
        let mut out = InstOut::new(Opcode::AtomicRmw, None);
        if self.c.eat_kw(b"volatile") {
            out.flags |= flags::VOLATILE;
        }
        if self.c.kind() != Tok::Ident {
            return self.c.err("expected binary operation in atomicrmw");
        }
        self.c.bump();
        let pat = self.c.at();
        let (pty, _) = self.parse_typed_value()?;
        self.expect_comma("expected ',' after atomicrmw address")?;
        let (vty, _) = self.parse_typed_value()?;
        self.opt_syncscope()?;
        self.ordering()?;
        if !self.opt_comma_align()? {
            let size = self.m.dl.store_size(&self.f.types, vty).unwrap_or(1);
            out.patches
                .push((self.c.prev_end, 0, format!(", align {}", size).into_bytes()));
        }
        if !self.f.types.is_pointer(pty) {
            return self.c.err_at(pat, "atomicrmw operand must be a pointer");
        }
        out.ty = Some(vty);
        Ok(out)
    }

    fn parse_gep(&mut self) -> PResult<InstOut> {
        self.c.bump();
        let poison = self.eat_words(|w| matches!(w, b"inbounds" | b"nusw" | b"nuw"));
        let at = self.c.at();
        let src_elem = parse_type(self)?;
        self.expect_comma("expected comma after getelementptr's type")?;
        let (base, _) = self.parse_typed_value()?;
        let mut consts = std::mem::take(&mut self.gep_consts);
        consts.clear();
        consts.push(Some(0));
        let mut first = true;
        let mut vlen = sema::vector_len(&self.f.types, base);
        while self.c.kind() == Tok::Comma && self.c.peek().kind != Tok::MetadataVar {
            self.c.bump();
            let iat = self.c.at();
            let (ity, v) = self.parse_typed_value()?;
            if !sema::is_int_or_int_vector(&self.f.types, ity) {
                return self.c.err_at(iat, "getelementptr index must be an integer");
            }
            if let Some(l) = sema::vector_len(&self.f.types, ity) {
                vlen = Some(l);
            }
            let lit = match self.f.dfg.values[v].def {
                ValueDef::Const(t) => int_literal_value(self.f.text(t)),
                _ => None,
            };
            if first {
                first = false;
            } else {
                consts.push(lit);
            }
        }
        let r = sema::gep_result(&mut self.f.types, src_elem, base, &consts, vlen);
        self.gep_consts = consts;
        match r {
            Ok(t) => {
                let mut out = InstOut::new(Opcode::GetElementPtr, Some(t));
                out.aux = src_elem;
                out.flags |= Self::poison_flag(poison);
                Ok(out)
            }
            Err(m) => self.c.err_at(at, m),
        }
    }

    fn parse_aggregate(&mut self, insert: bool) -> PResult<InstOut> {
        self.c.bump();
        let at = self.c.at();
        let (agg, _) = self.parse_typed_value()?;
        let mut elt = None;
        if insert {
            self.expect_comma("expected comma after insertvalue operand")?;
            elt = Some(self.parse_typed_value()?.0);
        }
        let mut idx = Vec::new();
        while self.c.kind() == Tok::Comma && self.c.peek().kind != Tok::MetadataVar {
            self.c.bump();
            idx.push(self.c.parse_u64("expected index")?);
        }
        let t = match sema::aggregate_index_type(&self.f.types, agg, &idx) {
            Ok(t) => t,
            Err(m) => return self.c.err_at(at, m),
        };
        match elt {
            Some(e) if e != t => self
                .c
                .err_at(at, "insertvalue operand and field disagree in type"),
            Some(_) => Ok(InstOut::new(Opcode::InsertValue, Some(agg))),
            None => Ok(InstOut::new(Opcode::ExtractValue, Some(t))),
        }
    }
}
