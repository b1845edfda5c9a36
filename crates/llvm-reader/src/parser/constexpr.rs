//! Constant expressions: `getelementptr (...)`, casts `op (T v to T2)`, binary operators,
//! comparisons, `select`, vector and aggregate operations — each returning its result type so
//! the caller can check it against the type the constant is read at.
//!
//! Invariant: in a module that spells pointers `ptr` (read by LLVM 19), the expressions
//! LLVM 19 removed are errors with its message (`"shl constexprs are no longer supported"`);
//! typed-pointer modules (LLVM <= 14) may use them all.

use super::constants::{int_literal_value, parse_typed_const, ConstKind};
use super::cursor::PResult;
use super::types::parse_type;
use super::Host;
use crate::lexer::Tok;
use llvm_ir::ir::sema;
use llvm_ir::ir::types::{Type, TypeData};

/// Expressions LLVM 19 no longer reads.
fn removed_in_llvm19(w: &[u8]) -> bool {
    matches!(
        w,
        b"shl"
            | b"lshr"
            | b"ashr"
            | b"and"
            | b"or"
            | b"udiv"
            | b"sdiv"
            | b"urem"
            | b"srem"
            | b"fadd"
            | b"fsub"
            | b"fmul"
            | b"fdiv"
            | b"frem"
            | b"fneg"
            | b"zext"
            | b"sext"
            | b"fptrunc"
            | b"fpext"
            | b"uitofp"
            | b"sitofp"
            | b"fptoui"
            | b"fptosi"
            | b"select"
            | b"icmp"
            | b"fcmp"
            | b"extractvalue"
            | b"insertvalue"
    )
}

fn is_binop(w: &[u8]) -> bool {
    matches!(
        w,
        b"add"
            | b"sub"
            | b"mul"
            | b"shl"
            | b"lshr"
            | b"ashr"
            | b"and"
            | b"or"
            | b"xor"
            | b"udiv"
            | b"sdiv"
            | b"urem"
            | b"srem"
            | b"fadd"
            | b"fsub"
            | b"fmul"
            | b"fdiv"
            | b"frem"
    )
}

/// Reads a constant expression at the current keyword; returns its type.
pub fn parse_constexpr<'a, H: Host<'a>>(h: &mut H) -> PResult<Type> {
    let at = h.c().at();
    if h.c().kind() != Tok::Ident {
        return h.c().err("expected value token");
    }
    let w = h.c().text();
    let known = sema::is_cast_keyword(w)
        || is_binop(w)
        || matches!(
            w,
            b"getelementptr"
                | b"fneg"
                | b"icmp"
                | b"fcmp"
                | b"select"
                | b"extractelement"
                | b"insertelement"
                | b"shufflevector"
                | b"extractvalue"
                | b"insertvalue"
        );
    if !known {
        return h.c().err("expected value token");
    }
    if h.types().opaque_mode && removed_in_llvm19(w) {
        let msg = format!(
            "{} constexprs are no longer supported",
            String::from_utf8_lossy(w)
        );
        return h.c().err_at(at, msg);
    }
    h.c().bump();
    if sema::is_cast_keyword(w) {
        return parse_cast(h, w, at);
    }
    if is_binop(w) {
        return parse_binop(h, w, at);
    }
    match w {
        b"getelementptr" => parse_gep(h, at),
        b"fneg" => {
            h.c()
                .expect(Tok::LParen, "expected '(' in unary constantexpr")?;
            let (t, _) = parse_typed_const(h)?;
            h.c()
                .expect(Tok::RParen, "expected ')' in unary constantexpr")?;
            Ok(t)
        }
        b"icmp" | b"fcmp" => {
            parse_predicate(h, w == b"icmp")?;
            h.c()
                .expect(Tok::LParen, "expected '(' in compare constantexpr")?;
            let (a, _) = parse_typed_const(h)?;
            h.c()
                .expect(Tok::Comma, "expected comma in compare constantexpr")?;
            let (b, _) = parse_typed_const(h)?;
            h.c()
                .expect(Tok::RParen, "expected ')' in compare constantexpr")?;
            if a != b {
                return h.c().err_at(at, "compare operands must have the same type");
            }
            Ok(sema::cmp_result(h.types(), a))
        }
        b"select" => {
            let ops = parse_operand_list(h)?;
            if ops.len() != 3 || ops[1] != ops[2] {
                return h.c().err_at(at, "expected three operands to select");
            }
            Ok(ops[1])
        }
        b"extractelement" => {
            let ops = parse_operand_list(h)?;
            match (ops.len(), ops.first().map(|&t| h.types().data(t).clone())) {
                (2, Some(TypeData::Vector { elem, .. })) => Ok(elem),
                _ => h.c().err_at(at, "invalid extractelement operands"),
            }
        }
        b"insertelement" => {
            let ops = parse_operand_list(h)?;
            if ops.len() != 3 {
                return h.c().err_at(at, "expected three operands to insertelement");
            }
            Ok(ops[0])
        }
        b"shufflevector" => {
            let ops = parse_operand_list(h)?;
            if ops.len() != 3 || ops[0] != ops[1] {
                return h.c().err_at(at, "invalid shufflevector operands");
            }
            let t = h.types();
            let (elem, mask) = match (t.data(ops[0]), t.data(ops[2])) {
                (TypeData::Vector { elem, .. }, TypeData::Vector { len, scalable, .. }) => {
                    (*elem, (*len, *scalable))
                }
                _ => return h.c().err_at(at, "invalid shufflevector operands"),
            };
            Ok(h.types().intern(TypeData::Vector {
                len: mask.0,
                elem,
                scalable: mask.1,
            }))
        }
        b"extractvalue" | b"insertvalue" => {
            h.c()
                .expect(Tok::LParen, "expected '(' in extractvalue constantexpr")?;
            let (agg, _) = parse_typed_const(h)?;
            let mut elt = None;
            if w == b"insertvalue" {
                h.c()
                    .expect(Tok::Comma, "expected comma in insertvalue constantexpr")?;
                elt = Some(parse_typed_const(h)?.0);
            }
            let mut idx = Vec::new();
            while h.c().eat(Tok::Comma) {
                idx.push(h.c().parse_u64("expected index")?);
            }
            h.c()
                .expect(Tok::RParen, "expected ')' in extractvalue constantexpr")?;
            let t = match sema::aggregate_index_type(h.types(), agg, &idx) {
                Ok(t) => t,
                Err(m) => return h.c().err_at(at, m),
            };
            match elt {
                Some(e) if e != t => h
                    .c()
                    .err_at(at, "insertvalue operand and field disagree in type"),
                Some(_) => Ok(agg),
                None => Ok(t),
            }
        }
        _ => h.c().err_at(at, "expected value token"),
    }
}

/// `(T v, T v, ...)` returning the operand types.
fn parse_operand_list<'a, H: Host<'a>>(h: &mut H) -> PResult<Vec<Type>> {
    h.c().expect(Tok::LParen, "expected '(' in constantexpr")?;
    let mut out = Vec::new();
    loop {
        out.push(parse_typed_const(h)?.0);
        if !h.c().eat(Tok::Comma) {
            break;
        }
    }
    h.c().expect(Tok::RParen, "expected ')' in constantexpr")?;
    Ok(out)
}

/// `icmp`/`fcmp` predicate keyword.
pub fn parse_predicate<'a, H: Host<'a>>(h: &mut H, int: bool) -> PResult<()> {
    let w = h.c().text();
    let ok = h.c().kind() == Tok::Ident
        && if int {
            matches!(
                w,
                b"eq"
                    | b"ne"
                    | b"slt"
                    | b"sgt"
                    | b"sle"
                    | b"sge"
                    | b"ult"
                    | b"ugt"
                    | b"ule"
                    | b"uge"
            )
        } else {
            matches!(
                w,
                b"oeq"
                    | b"one"
                    | b"olt"
                    | b"ogt"
                    | b"ole"
                    | b"oge"
                    | b"ord"
                    | b"uno"
                    | b"ueq"
                    | b"une"
                    | b"ult"
                    | b"ugt"
                    | b"ule"
                    | b"uge"
                    | b"true"
                    | b"false"
            )
        };
    if !ok {
        return h.c().err("expected icmp predicate (e.g. 'eq')");
    }
    h.c().bump();
    Ok(())
}

fn parse_cast<'a, H: Host<'a>>(h: &mut H, op: &[u8], at: usize) -> PResult<Type> {
    h.c()
        .expect(Tok::LParen, "expected '(' after constantexpr cast")?;
    let (src, _) = parse_typed_const(h)?;
    h.c()
        .expect_kw(b"to", "expected 'to' in constantexpr cast")?;
    let dst = parse_type(h)?;
    h.c()
        .expect(Tok::RParen, "expected ')' at end of constantexpr cast")?;
    if !sema::cast_valid(h.types(), op, src, dst, 64) {
        let t = h.types();
        let msg = format!(
            "invalid cast opcode for cast from '{}' to '{}'",
            t.display(src),
            t.display(dst)
        );
        return h.c().err_at(at, msg);
    }
    Ok(dst)
}

fn parse_binop<'a, H: Host<'a>>(h: &mut H, op: &[u8], at: usize) -> PResult<Type> {
    while matches!(h.c().text(), b"nuw" | b"nsw" | b"exact") && h.c().kind() == Tok::Ident {
        h.c().bump();
    }
    h.c()
        .expect(Tok::LParen, "expected '(' in binary constantexpr")?;
    let (a, _) = parse_typed_const(h)?;
    h.c()
        .expect(Tok::Comma, "expected comma in binary constantexpr")?;
    let (b, _) = parse_typed_const(h)?;
    h.c()
        .expect(Tok::RParen, "expected ')' in binary constantexpr")?;
    if a != b {
        return h
            .c()
            .err_at(at, "operands of constexpr must have same type");
    }
    let fp = op.first() == Some(&b'f');
    let ok = if fp {
        sema::is_fp_or_fp_vector(h.types(), a)
    } else {
        sema::is_int_or_int_vector(h.types(), a)
    };
    if !ok {
        return h
            .c()
            .err_at(at, "constexpr requires integer or integer vector operands");
    }
    Ok(a)
}

fn parse_gep<'a, H: Host<'a>>(h: &mut H, at: usize) -> PResult<Type> {
    loop {
        match h.c().text() {
            b"inbounds" | b"nusw" | b"nuw" if h.c().kind() == Tok::Ident => {
                h.c().bump();
            }
            b"inrange" if h.c().kind() == Tok::Ident => {
                h.c().bump();
                if h.c().kind() == Tok::LParen {
                    h.c().skip_balanced()?;
                }
            }
            _ => break,
        }
    }
    h.c().expect(Tok::LParen, "expected '(' in constantexpr")?;
    let src_elem = parse_type(h)?;
    h.type_root(src_elem);
    h.c()
        .expect(Tok::Comma, "expected comma after getelementptr's type")?;
    let (base, _) = parse_typed_const(h)?;
    let mut consts = Vec::new();
    let mut vlen = sema::vector_len(h.types(), base);
    while h.c().eat(Tok::Comma) {
        h.c().eat_kw(b"inrange");
        let start = h.c().at();
        let (t, k) = parse_typed_const(h)?;
        if !sema::is_int_or_int_vector(h.types(), t) {
            return h
                .c()
                .err_at(start, "getelementptr index must be an integer");
        }
        if let Some(v) = sema::vector_len(h.types(), t) {
            vlen = Some(v);
        }
        let end = h.c().prev_end as usize;
        consts.push(if k == ConstKind::Int {
            int_literal_value(
                h.c().src[start..end]
                    .rsplit(|&c| c == b' ')
                    .next()
                    .unwrap_or(b""),
            )
        } else {
            None
        });
    }
    h.c().expect(Tok::RParen, "expected ')' in constantexpr")?;
    if consts.is_empty() {
        consts.push(Some(0));
    }
    match sema::gep_result(h.types(), src_elem, base, &consts, vlen) {
        Ok(t) => Ok(t),
        Err(m) => h.c().err_at(at, m),
    }
}
