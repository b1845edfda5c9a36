//! Metadata syntax: node references `!N`, strings `!"..."`, tuples `!{...}`, specialized nodes
//! `!DILocation(line: 3, scope: !7)`, `!DIExpression(DW_OP_deref)`, `!DIArgList(i32 %x)`,
//! and `Type Value` elements.
//!
//! The reader checks the syntax, that every `!N` it meets is defined somewhere in the module,
//! and that specialized node names are ones LLVM knows; node bodies stay as text (the IR keeps
//! spans, and [`crate::ir::metadata`] reads fields on demand). Values inside metadata go
//! through [`Host::md_value`], so a function body can turn `i32 %x` into an operand hole.

use super::cursor::PResult;
use super::types::parse_type;
use super::Host;
use crate::text::lexer::Tok;

/// Specialized node kinds LLVM 14–19 read.
fn is_known_node(name: &[u8]) -> bool {
    matches!(
        name,
        b"DILocation"
            | b"DIExpression"
            | b"DIGlobalVariableExpression"
            | b"DIArgList"
            | b"DIFile"
            | b"DICompileUnit"
            | b"DISubprogram"
            | b"DILexicalBlock"
            | b"DILexicalBlockFile"
            | b"DINamespace"
            | b"DIModule"
            | b"DICommonBlock"
            | b"DIBasicType"
            | b"DIDerivedType"
            | b"DICompositeType"
            | b"DISubroutineType"
            | b"DIEnumerator"
            | b"DISubrange"
            | b"DIGenericSubrange"
            | b"DIStringType"
            | b"DITemplateTypeParameter"
            | b"DITemplateValueParameter"
            | b"DIGlobalVariable"
            | b"DILocalVariable"
            | b"DILabel"
            | b"DIObjCProperty"
            | b"DIImportedEntity"
            | b"DIMacro"
            | b"DIMacroFile"
            | b"DIAssignID"
            | b"GenericDINode"
            | b"DIFixedPointType"
            | b"DISubrangeType"
    )
}

/// A metadata operand where a node is expected: `!N`, `!{...}`, `!"s"`, `!DIxxx(...)`.
/// The current token is `!` or a `!name` token.
pub fn parse_md_node_ref<'a, H: Host<'a>>(h: &mut H) -> PResult<()> {
    h.c().enter()?;
    let r = parse_md_node_inner(h);
    h.c().leave();
    r
}

fn parse_md_node_inner<'a, H: Host<'a>>(h: &mut H) -> PResult<()> {
    match h.c().kind() {
        Tok::MetadataVar => parse_specialized(h),
        Tok::Exclaim => {
            h.c().bump();
            match h.c().kind() {
                Tok::Int => {
                    let t = h.c().bump();
                    let text = h.c().tok_text(t);
                    match crate::text::lexer::parse_u32(text) {
                        Some(id) => h.metadata_use(id, t.start as usize),
                        None => h.c().err_at(t.start as usize, "expected metadata node id"),
                    }
                }
                Tok::Str => {
                    h.c().bump();
                    Ok(())
                }
                Tok::LBrace => parse_tuple(h),
                _ => h.c().err("expected '{' here"),
            }
        }
        _ => h.c().err("expected metadata operand"),
    }
}

/// `{ elem, ... }` after `!`.
fn parse_tuple<'a, H: Host<'a>>(h: &mut H) -> PResult<()> {
    h.c().bump();
    if h.c().eat(Tok::RBrace) {
        return Ok(());
    }
    loop {
        parse_md_element(h)?;
        if !h.c().eat(Tok::Comma) {
            break;
        }
    }
    h.c().expect(Tok::RBrace, "expected end of metadata node")?;
    Ok(())
}

/// An element of a tuple or a generic metadata operand: `null`, a node, or `Type Value`.
pub fn parse_md_element<'a, H: Host<'a>>(h: &mut H) -> PResult<()> {
    match h.c().kind() {
        Tok::Ident if h.c().is_kw(b"null") => {
            h.c().bump();
            Ok(())
        }
        Tok::Exclaim | Tok::MetadataVar => parse_md_node_ref(h),
        _ => {
            let ty = parse_type(h)?;
            if ty == h.types().common().metadata {
                return h.c().err("invalid metadata-value-metadata roundtrip");
            }
            h.md_value(ty)
        }
    }
}

/// `!DIxxx(field: value, ...)` with the current token `!DIxxx`.
fn parse_specialized<'a, H: Host<'a>>(h: &mut H) -> PResult<()> {
    let name_tok = h.c().bump();
    let name = &h.c().tok_text(name_tok)[1..];
    if !is_known_node(name) {
        return h
            .c()
            .err_at(name_tok.start as usize, "expected metadata type");
    }
    h.c().expect(Tok::LParen, "expected '(' here")?;
    match name {
        b"DIExpression" => parse_expression_args(h),
        b"DIArgList" => parse_arg_list(h),
        _ => parse_fields(h),
    }
}

/// `DW_OP_x, 1, DW_OP_LLVM_fragment, 0, 32)`.
fn parse_expression_args<'a, H: Host<'a>>(h: &mut H) -> PResult<()> {
    if h.c().eat(Tok::RParen) {
        return Ok(());
    }
    loop {
        match h.c().kind() {
            Tok::Ident
                if h.c().text().starts_with(b"DW_OP_") || h.c().text().starts_with(b"DW_ATE_") =>
            {
                if let Some(msg) = super::dwarf_names::check(h.c().text(), true) {
                    return h.c().err(&msg);
                }
                h.c().bump();
            }
            Tok::Int => {
                if h.c().text()[0] == b'-' {
                    return h.c().err("expected unsigned integer");
                }
                h.c().bump();
            }
            Tok::Ident => {
                let msg = format!(
                    "invalid DWARF op '{}'",
                    String::from_utf8_lossy(h.c().text())
                );
                return h.c().err(&msg);
            }
            _ => return h.c().err("expected unsigned integer"),
        }
        if !h.c().eat(Tok::Comma) {
            break;
        }
    }
    h.c().expect(Tok::RParen, "expected ')' here")?;
    Ok(())
}

/// `T v, ...)` of `!DIArgList(`.
fn parse_arg_list<'a, H: Host<'a>>(h: &mut H) -> PResult<()> {
    if h.c().eat(Tok::RParen) {
        return Ok(());
    }
    loop {
        let ty = parse_type(h)?;
        h.md_value(ty)?;
        if !h.c().eat(Tok::Comma) {
            break;
        }
    }
    h.c().expect(Tok::RParen, "expected ')' here")?;
    Ok(())
}

/// `name: value, ...)` of a specialized node.
fn parse_fields<'a, H: Host<'a>>(h: &mut H) -> PResult<()> {
    if h.c().eat(Tok::RParen) {
        return Ok(());
    }
    loop {
        // Field names are keywords (`line`, `scope`, ...). LLVM lexes them with colons
        // ignored; our lexer makes `line:` one label token, which is the same thing.
        match h.c().kind() {
            Tok::LabelStr if h.c().text()[0].is_ascii_alphabetic() => {
                h.c().bump();
            }
            Tok::Ident => {
                h.c().bump();
                h.c().expect(Tok::Colon, "expected ':' here")?;
            }
            _ => return h.c().err("expected field label here"),
        }
        parse_field_value(h)?;
        if !h.c().eat(Tok::Comma) {
            break;
        }
    }
    h.c().expect(Tok::RParen, "expected ')' here")?;
    Ok(())
}

/// A field value: integer, string, `true`/`false`, `null`, keywords and `|`-joined flags,
/// metadata, or a typed constant (`DITemplateValueParameter(value: i32 7)`).
fn parse_field_value<'a, H: Host<'a>>(h: &mut H) -> PResult<()> {
    match h.c().kind() {
        Tok::Int | Tok::Str => {
            h.c().bump();
            Ok(())
        }
        Tok::Exclaim | Tok::MetadataVar => parse_md_node_ref(h),
        Tok::Ident if h.c().is_kw(b"null") || h.c().is_kw(b"true") || h.c().is_kw(b"false") => {
            h.c().bump();
            Ok(())
        }
        Tok::Ident if !super::types::at_type(h) => {
            // DW_TAG_x, DIFlagA | DIFlagB | 4, FullDebug, CSK_MD5, ...
            loop {
                match h.c().kind() {
                    Tok::Ident => {
                        if let Some(msg) = super::dwarf_names::check(h.c().text(), false) {
                            return h.c().err(&msg);
                        }
                        h.c().bump();
                    }
                    Tok::Int => {
                        h.c().bump();
                    }
                    _ => return h.c().err("expected field value"),
                }
                if !h.c().eat(Tok::Bar) {
                    return Ok(());
                }
            }
        }
        _ => {
            let ty = parse_type(h)?;
            h.md_value(ty)
        }
    }
}

/// A metadata argument of a call (after the `metadata` type): a node, `T v`, or `!"s"`.
pub fn parse_metadata_arg<'a, H: Host<'a>>(h: &mut H) -> PResult<()> {
    match h.c().kind() {
        Tok::Exclaim | Tok::MetadataVar => parse_md_node_ref(h),
        _ => {
            let ty = parse_type(h)?;
            h.md_value(ty)
        }
    }
}
