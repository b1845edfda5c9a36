//! Types: LLParser's `parseType` grammar — primitive keywords, `ptr [addrspace(N)]`, `[N x T]`,
//! `<N x T>`, `<vscale x N x T>`, `{ ... }`, `<{ ... }>`, `%name` / `%N`, `target(...)`, and the
//! suffixes `*`, `addrspace(N)*` (typed pointers) and `(args...)` (function types).
//!
//! Invariants: every returned type is interned in the host's table; `void` is only returned
//! where the caller allows it; in a module that spells pointers `ptr` (opaque mode), a typed
//! spelling `T*` reads as `ptr` in the same address space, as LLVM 15+ reads it.

use super::cursor::PResult;
use super::Host;
use crate::lexer::Tok;
use llvm_ir::ir::types::{Type, TypeData};
pub use llvm_ir::lexical::keyword_type;
use llvm_ir::print::names::name_key;

/// Whether the current token starts a type.
pub fn at_type<'a, H: Host<'a>>(h: &mut H) -> bool {
    let c = h.c();
    match c.kind() {
        Tok::IntType | Tok::LBrace | Tok::LSquare | Tok::Less | Tok::LocalVar | Tok::LocalVarId => {
            true
        }
        Tok::Ident => {
            let w = c.text();
            w == b"ptr" || w == b"target" || keyword_type(w).is_some()
        }
        _ => false,
    }
}

/// `Type`, where `void` is not allowed.
pub fn parse_type<'a, H: Host<'a>>(h: &mut H) -> PResult<Type> {
    parse_type_msg(h, "expected type", false)
}

/// `Type`, where `void` is allowed (function results).
pub fn parse_type_or_void<'a, H: Host<'a>>(h: &mut H) -> PResult<Type> {
    parse_type_msg(h, "expected type", true)
}

/// `Type` with a custom message for a missing type.
pub fn parse_type_msg<'a, H: Host<'a>>(h: &mut H, msg: &str, allow_void: bool) -> PResult<Type> {
    let start = h.c().at();
    h.c().enter()?;
    let r = parse_type_inner(h, msg, allow_void, start);
    h.c().leave();
    r
}

fn parse_type_inner<'a, H: Host<'a>>(
    h: &mut H,
    msg: &str,
    allow_void: bool,
    start: usize,
) -> PResult<Type> {
    let mut ty = match h.c().kind() {
        Tok::IntType => {
            // The lexer read the width (and rejected widths out of range).
            let bits = h.c().bump().num;
            h.types().int(bits)
        }
        Tok::Ident => {
            let w = h.c().text();
            if w == b"ptr" {
                h.c().bump();
                let space = parse_opt_addrspace(h)?;
                if h.c().kind() == Tok::Star {
                    return h.c().err("ptr* is invalid - use ptr instead");
                }
                let p = if space == 0 {
                    h.types().common().ptr
                } else {
                    h.types().intern(TypeData::Ptr { addrspace: space })
                };
                if h.c().kind() != Tok::LParen {
                    return Ok(p);
                }
                p
            } else if w == b"target" {
                parse_target_type(h)?
            } else if let Some(d) = keyword_type(w) {
                h.c().bump();
                let common = *h.types().common();
                match d {
                    TypeData::Void => common.void,
                    TypeData::Label => common.label,
                    TypeData::Metadata => common.metadata,
                    d => h.types().intern(d),
                }
            } else {
                return h.c().err(msg);
            }
        }
        Tok::LBrace => parse_struct_body(h, false)?,
        Tok::LSquare => {
            h.c().bump();
            parse_array_vector(h, false)?
        }
        Tok::Less => {
            h.c().bump();
            if h.c().kind() == Tok::LBrace {
                let t = parse_struct_body(h, true)?;
                h.c()
                    .expect(Tok::Greater, "expected '>' at end of packed struct")?;
                t
            } else {
                parse_array_vector(h, true)?
            }
        }
        Tok::LocalVar | Tok::LocalVarId => {
            let tok = h.c().bump();
            let written = h.c().tok_text(tok);
            if let Some(t) = h.cached_type_name(written) {
                t
            } else {
                let key = name_key(written);
                if let Some(t) = h.types().alias(&key) {
                    h.cache_type_name(written, t);
                    t
                } else {
                    h.named_type_use(&key, tok.start as usize)?;
                    let defined = h.types().named_body(&key).is_some();
                    let t = h
                        .types()
                        .intern(TypeData::Named(key.into_owned().into_boxed_slice()));
                    if defined {
                        h.cache_type_name(written, t);
                    }
                    t
                }
            }
        }
        _ => return h.c().err(msg),
    };
    // Suffixes.
    loop {
        match h.c().kind() {
            Tok::Star => {
                check_pointee(h, ty)?;
                h.c().bump();
                ty = pointer_to(h, ty, 0);
            }
            Tok::Ident if h.c().is_kw(b"addrspace") => {
                check_pointee(h, ty)?;
                let space = parse_opt_addrspace(h)?;
                h.c().expect(Tok::Star, "expected '*' in address space")?;
                ty = pointer_to(h, ty, space);
            }
            Tok::LParen => {
                ty = parse_function_type(h, ty)?;
            }
            _ => {
                if !allow_void && ty == h.types().common().void {
                    return h
                        .c()
                        .err_at(start, "void type only allowed for function results");
                }
                return Ok(ty);
            }
        }
    }
}

fn check_pointee<'a, H: Host<'a>>(h: &mut H, ty: Type) -> PResult<()> {
    let common = *h.types().common();
    if ty == common.label {
        return h.c().err("basic block pointers are invalid");
    }
    if ty == common.void {
        return h.c().err("pointers to void are invalid - use i8* instead");
    }
    if matches!(h.types().data(ty), TypeData::Metadata | TypeData::Token) {
        return h.c().err("pointer to this type is invalid");
    }
    Ok(())
}

/// The typed pointer `T addrspace(N)*`, or `ptr addrspace(N)` in opaque mode.
fn pointer_to<'a, H: Host<'a>>(h: &mut H, pointee: Type, addrspace: u32) -> Type {
    let t = h.types();
    if t.opaque_mode {
        if addrspace == 0 {
            t.common().ptr
        } else {
            t.intern(TypeData::Ptr { addrspace })
        }
    } else {
        t.intern(TypeData::TypedPtr { pointee, addrspace })
    }
}

/// `addrspace(N)` if present (0 otherwise).
pub fn parse_opt_addrspace<'a, H: Host<'a>>(h: &mut H) -> PResult<u32> {
    if !h.c().eat_kw(b"addrspace") {
        return Ok(0);
    }
    h.c().expect(Tok::LParen, "expected '(' in address space")?;
    let n = match h.c().kind() {
        // Symbolic address spaces ("A", "G", "P") name the datalayout's spaces.
        Tok::Str => {
            h.c().bump();
            0
        }
        _ => h.c().parse_u32("expected integer")?,
    };
    h.c().expect(Tok::RParen, "expected ')' in address space")?;
    Ok(n)
}

/// `{ T, ... }` (current token `{`).
fn parse_struct_body<'a, H: Host<'a>>(h: &mut H, packed: bool) -> PResult<Type> {
    let fields = parse_struct_fields(h)?;
    Ok(h.types().intern(TypeData::Struct {
        fields: fields.into_boxed_slice(),
        packed,
    }))
}

/// The field list of `{ T, ... }` (current token `{`), consuming the `}`.
pub fn parse_struct_fields<'a, H: Host<'a>>(h: &mut H) -> PResult<Vec<Type>> {
    h.c().expect(Tok::LBrace, "expected '{'")?;
    let mut fields = Vec::new();
    if h.c().eat(Tok::RBrace) {
        return Ok(fields);
    }
    loop {
        let at = h.c().at();
        let t = parse_type(h)?;
        if !valid_element(h, t) {
            return h.c().err_at(at, "invalid element type for struct");
        }
        fields.push(t);
        if !h.c().eat(Tok::Comma) {
            break;
        }
    }
    h.c().expect(Tok::RBrace, "expected '}' at end of struct")?;
    Ok(fields)
}

fn valid_element<'a, H: Host<'a>>(h: &mut H, t: Type) -> bool {
    !matches!(
        h.types().data(t),
        TypeData::Void
            | TypeData::Label
            | TypeData::Metadata
            | TypeData::Function { .. }
            | TypeData::Token
    )
}

/// After `[` or `<`: `N x T ]` or `[vscale x] N x T >`.
fn parse_array_vector<'a, H: Host<'a>>(h: &mut H, vector: bool) -> PResult<Type> {
    let mut scalable = false;
    if vector && h.c().is_kw(b"vscale") {
        h.c().bump();
        if !h.c().eat_kw(b"x") {
            return h.c().err("expected 'x' after vscale");
        }
        scalable = true;
    }
    let size_at = h.c().at();
    if h.c().kind() != Tok::Int || h.c().text()[0] == b'-' {
        return h.c().err("expected number in address space");
    }
    let len = match super::cursor::parse_u64(h.c().text()) {
        Some(n) => n,
        None => return h.c().err("expected number in address space"),
    };
    h.c().bump();
    if !h.c().eat_kw(b"x") {
        return h.c().err("expected 'x' after element count");
    }
    let elem_at = h.c().at();
    let elem = parse_type(h)?;
    let close = if vector { Tok::Greater } else { Tok::RSquare };
    h.c().expect(close, "expected end of sequential type")?;
    if vector {
        if len == 0 {
            return h.c().err_at(size_at, "zero element vector is illegal");
        }
        if len > u32::MAX as u64 {
            return h.c().err_at(size_at, "size too large for vector");
        }
        let ok = matches!(
            h.types().data(elem),
            TypeData::Int(_)
                | TypeData::Float(_)
                | TypeData::Ptr { .. }
                | TypeData::TypedPtr { .. }
        );
        if !ok {
            return h.c().err_at(elem_at, "invalid vector element type");
        }
        Ok(h.types().intern(TypeData::Vector {
            len,
            elem,
            scalable,
        }))
    } else {
        if !valid_element(h, elem) || matches!(h.types().data(elem), TypeData::X86Amx) {
            return h.c().err_at(elem_at, "invalid array element type");
        }
        Ok(h.types().intern(TypeData::Array { len, elem }))
    }
}

/// `RET (T, ..., ...)` with the current token `(`.
fn parse_function_type<'a, H: Host<'a>>(h: &mut H, ret: Type) -> PResult<Type> {
    let at = h.c().at();
    let common = *h.types().common();
    if ret == common.label || ret == common.metadata {
        return h.c().err_at(at, "invalid function return type");
    }
    h.c().bump();
    let mut params = Vec::new();
    let mut vararg = false;
    if !h.c().eat(Tok::RParen) {
        loop {
            if h.c().eat(Tok::DotDotDot) {
                vararg = true;
                break;
            }
            let t_at = h.c().at();
            let t = parse_type(h)?;
            if t == common.label || matches!(h.types().data(t), TypeData::Function { .. }) {
                return h.c().err_at(t_at, "invalid type for function argument");
            }
            if super::attrs::at_param_attr(h.c()) {
                return h.c().err("argument attributes invalid in function type");
            }
            if matches!(h.c().kind(), Tok::LocalVar | Tok::LocalVarId) {
                return h.c().err("argument name invalid in function type");
            }
            params.push(t);
            if !h.c().eat(Tok::Comma) {
                break;
            }
        }
        h.c()
            .expect(Tok::RParen, "expected ')' at end of argument list")?;
    }
    Ok(h.types().intern(TypeData::Function {
        ret,
        params: params.into_boxed_slice(),
        vararg,
    }))
}

/// `target("name", T..., N...)`: kept as its exact text.
fn parse_target_type<'a, H: Host<'a>>(h: &mut H) -> PResult<Type> {
    let start = h.c().at();
    h.c().bump();
    h.c().expect(Tok::LParen, "expected '('")?;
    h.c().expect(Tok::Str, "expected string")?;
    let mut seen_int = false;
    while h.c().eat(Tok::Comma) {
        if h.c().kind() == Tok::Int {
            h.c().bump();
            seen_int = true;
        } else if seen_int {
            return h.c().err("expected uint32 param");
        } else {
            parse_type(h)?;
        }
    }
    h.c()
        .expect(Tok::RParen, "expected ')' in target extension type")?;
    let end = h.c().prev_end as usize;
    let text = String::from_utf8_lossy(&h.c().src[start..end]).into_owned();
    Ok(h.types().intern(TypeData::TargetExt(text.into_boxed_str())))
}
