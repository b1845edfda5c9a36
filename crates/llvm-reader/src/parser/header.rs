//! Function headers, shared by both passes of the reader: the module pass reads every
//! `define`/`declare` header for the function's type and attributes, and the function pass
//! reads a definition's header again to build its arguments.
//!
//! Invariant: [`parse_header`] consumes exactly the header's tokens (up to, not including, a
//! body's `{`) and checks what LLParser checks there (argument names, attribute placement).

use super::attrs::{eat_cconv, parse_fn_attrs, parse_global_prefix, parse_param_attrs};
use super::constants::parse_typed_const;
use super::cursor::{Cursor, PResult};
use super::metadata::parse_md_node_ref;
use super::types::{parse_opt_addrspace, parse_type, parse_type_or_void};
use super::Host;
use crate::lexer::{Tok, Token};
use llvm_ir::ir::types::{Type, TypeData};
use llvm_ir::print::names::name_key;

/// A function header as read.
pub struct Header {
    /// The `@name` token.
    pub name: Token,
    /// Return type.
    pub ret: Type,
    /// The function type.
    pub fn_ty: Type,
    /// Parameters in order.
    pub params: Vec<HeaderParam>,
    /// The [`super::attrs::fn_flags`] seen inline or in attribute groups.
    pub fn_flags: u8,
    /// Program address space (`addrspace(N)` after the parameters).
    pub addrspace: u32,
}

/// One parameter of a header.
pub struct HeaderParam {
    /// Its type.
    pub ty: Type,
    /// Its name token (`%x`, `%0`), if written.
    pub name: Option<Token>,
    /// End of the parameter's last token before the name (where an unnamed one's hole goes).
    pub end: u32,
    /// Where its type starts (where LLVM reports a bad number or a repeated name).
    pub ty_at: u32,
    /// Its [`llvm_ir::ir::param_flags`].
    pub flags: u8,
}

/// Reads a header after `define`/`declare`, up to (not including) a body's `{`.
pub fn parse_header<'a, H: Host<'a>>(h: &mut H, define: bool) -> PResult<Header> {
    let link_at = h.c().at();
    let linkage = parse_global_prefix(h.c())?;
    if define && matches!(linkage, b"extern_weak" | b"appending" | b"common") {
        return h
            .c()
            .err_at(link_at, "invalid linkage for function definition");
    }
    if !define && !matches!(linkage, b"" | b"external" | b"extern_weak") {
        return h
            .c()
            .err_at(link_at, "invalid linkage for function declaration");
    }
    eat_cconv(h.c())?;
    parse_param_attrs(h)?;
    let ret_at = h.c().at();
    let ret = parse_type_or_void(h)?;
    if matches!(
        h.types().data(ret),
        TypeData::Label | TypeData::Metadata | TypeData::Function { .. }
    ) {
        return h.c().err_at(ret_at, "invalid function return type");
    }
    let name = h.c().bump();
    if !matches!(name.kind, Tok::GlobalVar | Tok::GlobalId) {
        return h.c().err_at(name.start as usize, "expected function name");
    }
    h.c()
        .expect(Tok::LParen, "expected '(' in function argument list")?;
    let mut params = Vec::new();
    let mut vararg = false;
    let mut next_id = 0u32;
    if !h.c().eat(Tok::RParen) {
        loop {
            if h.c().eat(Tok::DotDotDot) {
                vararg = true;
                break;
            }
            let ty_at = h.c().at();
            let ty = parse_type(h)?;
            // LLVM's `isValidArgumentType`: first class, so labels, metadata and tokens too.
            if matches!(h.types().data(ty), TypeData::Function { .. }) {
                return h.c().err_at(ty_at, "invalid type for function argument");
            }
            let flags = parse_param_attrs(h)?;
            let end = h.c().prev_end;
            let name = match h.c().kind() {
                Tok::LocalVar | Tok::LocalVarId => Some(h.c().bump()),
                _ => None,
            };
            if let Some(t) = name.filter(|t| t.kind == Tok::LocalVarId) {
                let n = h.c().id_of(t);
                let typed = !h.types().opaque_mode;
                let e = super::module::numbering_error(typed, "argument", "%", next_id, n);
                if let Some(msg) = e {
                    return h.c().err_at(ty_at, msg);
                }
                next_id = n.saturating_add(1);
            } else if name.is_none() {
                next_id = next_id.saturating_add(1);
            }
            params.push(HeaderParam {
                ty,
                name,
                end,
                ty_at: ty_at as u32,
                flags,
            });
            if !h.c().eat(Tok::Comma) {
                break;
            }
        }
        h.c()
            .expect(Tok::RParen, "expected ')' at end of argument list")?;
    }
    parse_global_prefix(h.c())?;
    let addrspace = parse_opt_addrspace(h)?;
    let mut fn_flags = parse_fn_attrs(h, false)?;
    loop {
        let w = h.c().text();
        if h.c().kind() != Tok::Ident {
            break;
        }
        match w {
            b"section" | b"partition" | b"gc" => {
                h.c().bump();
                h.c().expect(Tok::Str, "expected string")?;
            }
            b"comdat" => {
                h.c().bump();
                if h.c().eat(Tok::LParen) {
                    let t = h.c().expect(Tok::ComdatVar, "expected comdat variable")?;
                    h.comdat_use(t)?;
                    h.c().expect(Tok::RParen, "expected ')' after comdat var")?;
                }
            }
            b"align" => {
                h.c().bump();
                h.c().parse_u64("expected alignment")?;
            }
            b"prefix" | b"prologue" | b"personality" => {
                h.c().bump();
                parse_typed_const(h)?;
            }
            _ => {
                fn_flags |= parse_fn_attrs(h, false)?;
                if h.c().kind() == Tok::Ident && h.c().text() == w {
                    break;
                }
            }
        }
    }
    // A definition's attachments come before its `{`; a declaration's right after `declare`.
    while define && h.c().kind() == Tok::MetadataVar {
        h.c().bump();
        parse_md_node_ref(h)?;
    }
    check_argument_names(h.c(), &params)?;
    let fn_ty = h.types().intern(TypeData::Function {
        ret,
        params: params.iter().map(|p| p.ty).collect(),
        vararg,
    });
    Ok(Header {
        name,
        ret,
        fn_ty,
        params,
        fn_flags,
        addrspace,
    })
}

/// Two parameters with one name: LLVM's "redefinition of argument", at the second's type.
fn check_argument_names(c: &mut Cursor<'_>, params: &[HeaderParam]) -> PResult<()> {
    let mut seen = std::collections::BTreeSet::new();
    for p in params {
        let Some(t) = p.name.filter(|t| t.kind == Tok::LocalVar) else {
            continue;
        };
        if !seen.insert(name_key(c.tok_text(t))) {
            let msg = format!(
                "redefinition of argument '{}'",
                String::from_utf8_lossy(c.tok_text(t))
            );
            return c.err_at(p.ty_at as usize, msg);
        }
    }
    Ok(())
}
