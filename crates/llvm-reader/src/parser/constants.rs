//! Constants: literals, aggregates, global references, `blockaddress`, inline asm and constant
//! expressions, each checked against the type it is read at, as LLParser's
//! `convertValIDToValue` checks them (with its messages).
//!
//! Invariants: a constant is returned as its [`ConstKind`] plus the span the caller cut
//! (`start` before the call, `prev_end` after), so instruction templates keep its exact text;
//! nothing here allocates for the common literals; nesting is bounded by the cursor's depth
//! guard. In a module that spells pointers `ptr`, constant expressions that LLVM 19 no longer
//! reads are rejected with its message; in typed-pointer modules (LLVM <= 14) they are read.

use super::cursor::PResult;
use super::types::{parse_type, parse_type_or_void};
use super::Host;
use crate::lexer::{unescape, Tok};
use llvm_ir::ir::types::{FloatKind, Type, TypeData};
pub use llvm_ir::lexical::int_literal_value;

/// What a constant turned out to be (the rest is its text).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ConstKind {
    /// `undef`
    Undef,
    /// `poison`
    Poison,
    /// A plain integer literal (or `true`/`false`), whose value the caller may read from its text.
    Int,
    /// Anything else.
    Other,
}

/// Reads a constant of type `ty` (already parsed). Errors use LLVM's messages.
pub fn parse_const<'a, H: Host<'a>>(h: &mut H, ty: Type) -> PResult<ConstKind> {
    h.c().enter()?;
    let r = parse_const_inner(h, ty);
    h.c().leave();
    r
}

/// Reads `Type Constant`.
pub fn parse_typed_const<'a, H: Host<'a>>(h: &mut H) -> PResult<(Type, ConstKind)> {
    let ty = parse_type(h)?;
    let k = parse_const(h, ty)?;
    Ok((ty, k))
}

fn mismatch<'a, H: Host<'a>>(h: &mut H, at: usize, got: Type, want: Type) -> PResult<ConstKind> {
    let t = h.types();
    let msg = format!(
        "constant expression type mismatch: got type '{}' but expected '{}'",
        t.display(got),
        t.display(want)
    );
    h.c().err_at(at, msg)
}

fn parse_const_inner<'a, H: Host<'a>>(h: &mut H, ty: Type) -> PResult<ConstKind> {
    let at = h.c().at();
    if !matches!(h.c().kind(), Tok::GlobalVar | Tok::GlobalId) {
        h.type_root(ty);
    }
    match h.c().kind() {
        Tok::Int => {
            if !h.types().is_int(ty) {
                return h.c().err("integer constant must have integer type");
            }
            h.c().bump();
            Ok(ConstKind::Int)
        }
        Tok::Float => parse_float(h, ty),
        Tok::GlobalVar | Tok::GlobalId => {
            let tok = h.c().bump();
            if !h.types().is_pointer(ty) {
                let msg = "global variable reference must have pointer type".to_string();
                return h.c().err_at(at, msg);
            }
            h.global_use(tok, ty)?;
            Ok(ConstKind::Other)
        }
        Tok::LBrace => {
            let got = parse_struct_const(h, ty, false)?;
            check_aggregate(h, at, got, ty)
        }
        Tok::Less => {
            if h.c().peek().kind == Tok::LBrace {
                h.c().bump();
                let got = parse_struct_const(h, ty, true)?;
                h.c()
                    .expect(Tok::Greater, "expected '>' at end of packed struct")?;
                return check_aggregate(h, at, got, ty);
            }
            parse_vector_const(h, ty)
        }
        Tok::LSquare => parse_array_const(h, ty),
        Tok::Ident => parse_keyword_const(h, ty),
        Tok::LocalVar | Tok::LocalVarId => h.c().err("expected constant, found local value"),
        _ => h.c().err("expected value token"),
    }
}

/// For `{...}` / `<{...}>`: compares the element types read (`got` is the literal struct
/// type) against `want` (a literal or named struct).
fn check_aggregate<'a, H: Host<'a>>(
    h: &mut H,
    at: usize,
    got: Type,
    want: Type,
) -> PResult<ConstKind> {
    let want_body = h.types().resolve_named(want);
    if got == want_body {
        return Ok(ConstKind::Other);
    }
    let t = h.types();
    let (gf, wf) = match (t.data(got), t.data(want_body)) {
        (
            TypeData::Struct {
                fields: a,
                packed: pa,
            },
            TypeData::Struct {
                fields: b,
                packed: pb,
            },
        ) => {
            if pa != pb {
                return h.c().err_at(at, "constant expression type mismatch");
            }
            (a.clone(), b.clone())
        }
        _ => return h.c().err_at(at, "constant expression type mismatch"),
    };
    if gf.len() != wf.len() {
        return h
            .c()
            .err_at(at, "initializer with struct type has wrong # elements");
    }
    for (i, (a, b)) in gf.iter().zip(wf.iter()).enumerate() {
        if a != b {
            let msg =
                format!("element {i} of struct initializer doesn't match struct element type");
            return h.c().err_at(at, msg);
        }
    }
    Ok(ConstKind::Other)
}

/// `{ T v, ... }` (current `{`); returns the literal struct type of the elements read.
fn parse_struct_const<'a, H: Host<'a>>(h: &mut H, _ty: Type, packed: bool) -> PResult<Type> {
    h.c().bump();
    let mut fields = Vec::new();
    if !h.c().eat(Tok::RBrace) {
        loop {
            let (t, _) = parse_typed_const(h)?;
            fields.push(t);
            if !h.c().eat(Tok::Comma) {
                break;
            }
        }
        h.c()
            .expect(Tok::RBrace, "expected end of struct constant")?;
    }
    Ok(h.types().intern(TypeData::Struct {
        fields: fields.into_boxed_slice(),
        packed,
    }))
}

/// `< T v, ... >` (current `<`).
fn parse_vector_const<'a, H: Host<'a>>(h: &mut H, ty: Type) -> PResult<ConstKind> {
    let at = h.c().at();
    h.c().bump();
    let mut n = 0u64;
    let mut elem = None;
    loop {
        let e_at = h.c().at();
        let (t, _) = parse_typed_const(h)?;
        match elem {
            None => elem = Some(t),
            Some(e) if e != t => {
                let msg = format!(
                    "vector element #{n} is not of type '{}'",
                    h.types().display(e)
                );
                return h.c().err_at(e_at, msg);
            }
            _ => {}
        }
        n += 1;
        if !h.c().eat(Tok::Comma) {
            break;
        }
    }
    h.c().expect(Tok::Greater, "expected end of constant")?;
    match h.types().data(ty) {
        TypeData::Vector {
            len,
            elem: e,
            scalable: false,
        } if *len == n && Some(*e) == elem => Ok(ConstKind::Other),
        _ => h.c().err_at(at, "constant expression type mismatch"),
    }
}

/// `[ T v, ... ]` (current `[`).
fn parse_array_const<'a, H: Host<'a>>(h: &mut H, ty: Type) -> PResult<ConstKind> {
    let at = h.c().at();
    h.c().bump();
    let (want_len, want_elem) = match h.types().data(ty) {
        TypeData::Array { len, elem } => (*len, *elem),
        _ => return h.c().err_at(at, "array constant must have array type"),
    };
    let mut n = 0u64;
    if !h.c().eat(Tok::RSquare) {
        loop {
            let e_at = h.c().at();
            let (t, _) = parse_typed_const(h)?;
            if t != want_elem {
                let msg = format!(
                    "array element #{n} is not of type '{}'",
                    h.types().display(want_elem)
                );
                return h.c().err_at(e_at, msg);
            }
            n += 1;
            if !h.c().eat(Tok::Comma) {
                break;
            }
        }
        h.c()
            .expect(Tok::RSquare, "expected end of array constant")?;
    }
    if n != want_len {
        let t = h.types();
        let msg = format!(
            "constant expression type mismatch: got type '[{n} x {}]' but expected '{}'",
            t.display(want_elem),
            t.display(ty)
        );
        return h.c().err_at(at, msg);
    }
    Ok(ConstKind::Other)
}

/// The float format a literal is written in.
fn literal_format(text: &[u8]) -> Option<FloatKind> {
    if text.len() > 2 && text[0] == b'0' && text[1] == b'x' {
        return match text[2] {
            b'K' => Some(FloatKind::X86Fp80),
            b'L' => Some(FloatKind::Fp128),
            b'M' => Some(FloatKind::PpcFp128),
            b'H' => Some(FloatKind::Half),
            b'R' => Some(FloatKind::BFloat),
            _ => None,
        };
    }
    None
}

fn parse_float<'a, H: Host<'a>>(h: &mut H, ty: Type) -> PResult<ConstKind> {
    let text = h.c().text();
    let kind = match h.types().data(ty) {
        TypeData::Float(k) => *k,
        _ => return h.c().err("floating point constant invalid for type"),
    };
    match literal_format(text) {
        Some(f) if f == kind => {}
        Some(_) => {
            let msg = format!(
                "floating point constant does not have type '{}'",
                kind.keyword()
            );
            return h.c().err(&msg);
        }
        None => {
            let bits = match double_bits(text) {
                Some(b) => b,
                None => return h.c().err("floating point constant invalid for type"),
            };
            let ok = match kind {
                FloatKind::Double => true,
                FloatKind::Float => fits(bits, 8, 23),
                FloatKind::Half => fits(bits, 5, 10),
                FloatKind::BFloat => fits(bits, 8, 7),
                _ => {
                    let msg = format!(
                        "floating point constant does not have type '{}'",
                        kind.keyword()
                    );
                    return h.c().err(&msg);
                }
            };
            if !ok {
                return h.c().err("floating point constant invalid for type");
            }
        }
    }
    h.c().bump();
    Ok(ConstKind::Other)
}

/// The IEEE double bits of a decimal or plain `0x` literal.
fn double_bits(text: &[u8]) -> Option<u64> {
    if text.len() > 2 && text[0] == b'0' && text[1] == b'x' {
        let hex = &text[2..];
        if hex.len() > 16 {
            return None;
        }
        let mut v = 0u64;
        for &c in hex {
            v = v * 16 + (c as char).to_digit(16)? as u64;
        }
        return Some(v);
    }
    let s = std::str::from_utf8(text).ok()?;
    s.parse::<f64>().ok().map(f64::to_bits)
}

/// Whether the double with bits `bits` converts exactly to a format with `eb` exponent bits
/// and `mb` stored mantissa bits (IEEE semantics, subnormals included; NaN payloads must fit).
fn fits(bits: u64, eb: u32, mb: u32) -> bool {
    let exp = ((bits >> 52) & 0x7ff) as i32;
    let frac = bits & ((1u64 << 52) - 1);
    if exp == 0x7ff {
        // Inf, or NaN whose payload must survive.
        return frac & ((1u64 << (52 - mb)) - 1) == 0;
    }
    if exp == 0 && frac == 0 {
        return true;
    }
    if exp == 0 {
        // Double subnormals are far below every smaller format's range.
        return false;
    }
    let e = exp - 1023;
    let bias = (1i32 << (eb - 1)) - 1;
    let (emin, emax) = (1 - bias, bias);
    if e > emax {
        return false;
    }
    let sig = frac | (1u64 << 52);
    let used = 53 - sig.trailing_zeros() as i32;
    let avail = if e >= emin {
        mb as i32 + 1
    } else {
        mb as i32 + 1 - (emin - e)
    };
    used <= avail
}

/// Keyword-led constants: `true`, `null`, `undef`, `c"..."`, `blockaddress`, casts, ...
fn parse_keyword_const<'a, H: Host<'a>>(h: &mut H, ty: Type) -> PResult<ConstKind> {
    let at = h.c().at();
    let w = h.c().text();
    let common = *h.types().common();
    match w {
        b"true" | b"false" => {
            h.c().bump();
            if ty != common.i1 {
                return mismatch(h, at, common.i1, ty);
            }
            Ok(ConstKind::Int)
        }
        b"null" => {
            h.c().bump();
            if !h.types().is_pointer(ty) {
                return h.c().err_at(at, "null must be a pointer type");
            }
            Ok(ConstKind::Other)
        }
        b"undef" | b"poison" => {
            h.c().bump();
            if matches!(
                h.types().data(ty),
                TypeData::Void | TypeData::Label | TypeData::Function { .. } | TypeData::Metadata
            ) {
                let msg = format!("invalid type for {} constant", String::from_utf8_lossy(w));
                return h.c().err_at(at, msg);
            }
            Ok(if w == b"undef" {
                ConstKind::Undef
            } else {
                ConstKind::Poison
            })
        }
        b"zeroinitializer" => {
            h.c().bump();
            if matches!(
                h.types().data(ty),
                TypeData::Void | TypeData::Label | TypeData::Function { .. } | TypeData::Metadata
            ) {
                return h.c().err_at(at, "invalid type for null constant");
            }
            Ok(ConstKind::Other)
        }
        b"none" => {
            h.c().bump();
            if ty != common.token {
                return h.c().err_at(at, "invalid type for none constant");
            }
            Ok(ConstKind::Other)
        }
        b"c" if h.c().peek().kind == Tok::Str => {
            h.c().bump();
            let s = h.c().bump();
            let body = h.c().tok_text(s);
            let n = unescape(&body[1..body.len() - 1]).len() as u64;
            let got = h.types().intern(TypeData::Array {
                len: n,
                elem: common.i8,
            });
            if got != ty {
                return mismatch(h, at, got, ty);
            }
            Ok(ConstKind::Other)
        }
        b"splat" => {
            h.c().bump();
            h.c()
                .expect(Tok::LParen, "expected '(' after vector splat")?;
            let (t, _) = parse_typed_const(h)?;
            h.c()
                .expect(Tok::RParen, "expected ')' at end of vector splat")?;
            match h.types().data(ty) {
                TypeData::Vector { elem, .. } if *elem == t => Ok(ConstKind::Other),
                _ => h.c().err_at(at, "vector splat type mismatch"),
            }
        }
        b"blockaddress" => {
            let kw = h.c().bump();
            // The scans that find `blockaddress` without parsing (whether a module has one,
            // which functions it names) read the keyword, whitespace, then `(`.
            let open = h.c().at();
            if h.c().kind() == Tok::LParen
                && !h.c().src[kw.end as usize..open].trim_ascii().is_empty()
            {
                return h.c().err_at(
                    open,
                    "a comment between 'blockaddress' and '(' is not supported",
                );
            }
            h.c()
                .expect(Tok::LParen, "expected '(' in block address expression")?;
            let f = h.c().bump();
            if !matches!(f.kind, Tok::GlobalVar | Tok::GlobalId) {
                return h
                    .c()
                    .err_at(f.start as usize, "expected function name in blockaddress");
            }
            h.c()
                .expect(Tok::Comma, "expected comma in block address expression")?;
            let b = h.c().bump();
            if !matches!(b.kind, Tok::LocalVar | Tok::LocalVarId) {
                return h.c().err_at(
                    b.start as usize,
                    "expected basic block name in blockaddress",
                );
            }
            h.c()
                .expect(Tok::RParen, "expected ')' in block address expression")?;
            if !h.types().is_pointer(ty) {
                return h.c().err_at(at, "constant expression type mismatch");
            }
            h.blockaddress_use(f, b)?;
            Ok(ConstKind::Other)
        }
        b"dso_local_equivalent" | b"no_cfi" => {
            h.c().bump();
            let g = h.c().bump();
            if !matches!(g.kind, Tok::GlobalVar | Tok::GlobalId) {
                return h.c().err_at(g.start as usize, "expected global value name");
            }
            if !h.types().is_pointer(ty) {
                return h.c().err_at(at, "constant expression type mismatch");
            }
            h.global_use(g, ty)?;
            Ok(ConstKind::Other)
        }
        b"ptrauth" => {
            h.c().bump();
            h.c()
                .expect(Tok::LParen, "expected '(' in constant ptrauth expression")?;
            loop {
                parse_typed_const(h)?;
                if !h.c().eat(Tok::Comma) {
                    break;
                }
            }
            h.c()
                .expect(Tok::RParen, "expected ')' in constant ptrauth expression")?;
            Ok(ConstKind::Other)
        }
        b"asm" => parse_inline_asm(h, ty),
        _ => {
            let got = super::constexpr::parse_constexpr(h)?;
            if got != ty {
                return mismatch(h, at, got, ty);
            }
            Ok(ConstKind::Other)
        }
    }
}

/// `asm [sideeffect] [alignstack] [inteldialect] [unwind] "text", "constraints"`.
fn parse_inline_asm<'a, H: Host<'a>>(h: &mut H, ty: Type) -> PResult<ConstKind> {
    let at = h.c().at();
    h.c().bump();
    while matches!(
        h.c().text(),
        b"sideeffect" | b"alignstack" | b"inteldialect" | b"unwind"
    ) && h.c().kind() == Tok::Ident
    {
        h.c().bump();
    }
    h.c().expect(Tok::Str, "expected string constant")?;
    h.c()
        .expect(Tok::Comma, "expected comma in inline asm expression")?;
    h.c().expect(Tok::Str, "expected constraint string")?;
    let ok = matches!(
        h.types().data(ty),
        TypeData::Function { .. } | TypeData::Ptr { .. } | TypeData::TypedPtr { .. }
    );
    if !ok {
        return h
            .c()
            .err_at(at, "invalid type for inline asm constraint string");
    }
    Ok(ConstKind::Other)
}

/// Reads `Type Constant` where the type may also be `void` is never allowed; helper for
/// places that read a return-type-like position (kept for symmetry with the instruction reader).
#[allow(dead_code)]
pub fn parse_type_then_const<'a, H: Host<'a>>(h: &mut H) -> PResult<(Type, ConstKind)> {
    let ty = parse_type_or_void(h)?;
    let k = parse_const(h, ty)?;
    Ok((ty, k))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_float_conversion() {
        let b = |x: f64| x.to_bits();
        assert!(fits(b(0.5), 5, 10));
        assert!(!fits(b(0.1), 5, 10));
        assert!(fits(b(0.1f32 as f64), 8, 23));
        assert!(!fits(b(0.1), 8, 23));
        assert!(fits(0x7FF8000020000000, 8, 23));
        assert!(!fits(0x7FF8000000000001, 8, 23));
        assert!(fits(b(f64::INFINITY), 8, 23));
        assert!(!fits(b(1e300), 8, 23));
        assert!(fits(b(65504.0), 5, 10));
        assert!(!fits(b(65536.0), 5, 10));
        assert!(fits(b(2f64.powi(-24)), 5, 10));
        assert!(!fits(b(2f64.powi(-25)), 5, 10));
    }

    #[test]
    fn int_literals() {
        assert_eq!(int_literal_value(b"-12"), Some(-12));
        assert_eq!(int_literal_value(b"u0xFF"), Some(255));
        assert_eq!(int_literal_value(b"true"), Some(1));
        assert_eq!(int_literal_value(b"x"), None);
    }
}
