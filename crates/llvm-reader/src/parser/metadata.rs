//! Metadata syntax: node references `!N`, strings `!"..."`, tuples `!{...}`, specialized nodes
//! `!DILocation(line: 3, scope: !7)`, `!DIExpression(DW_OP_deref)`, `!DIArgList(i32 %x)`,
//! and `Type Value` elements.
//!
//! The reader checks the syntax, that every `!N` it meets is defined somewhere in the module,
//! and that specialized node names are ones LLVM knows; node bodies stay as text (the IR keeps
//! spans, and [`llvm_ir::ir::metadata`] reads fields on demand). Values inside metadata go
//! through [`Host::md_value`], so a function body can turn `i32 %x` into an operand hole.

use super::cursor::PResult;
use super::types::parse_type;
use super::Host;
use crate::lexer::{parse_u32, Tok};

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

/// Whether [`scan_plain_fields`] may read a `!name(` node: a known specialized node whose
/// operands are `name: value` fields (not `DIExpression`'s ops nor `DIArgList`'s values).
pub fn has_plain_fields(name: &[u8]) -> bool {
    is_known_node(name) && name != b"DIExpression" && name != b"DIArgList"
}

/// The fast path for a module's most common metadata: a specialized node's fields as LLVM
/// prints them (`line: 3, column: 7, scope: !12)` of a `!DILocation`, the fields of a
/// `!DILexicalBlock`, a `!DILocalVariable` or a `!DISubprogram`), where every value is plain —
/// decimal digits with an optional `-`, a node reference `!N`, an empty `!DIExpression()`, a
/// string, `true`, `false`, `null`, or names and digits joined by ` | ` whose first is a name
/// starting with a capital (`DW_TAG_member`, `DIFlagPrototyped | DIFlagAllCallsDescribed`,
/// `FullDebug`; a DWARF-prefixed name must be one LLVM knows) — and the separators are exactly
/// `: ` and `, `. `open` is the offset just after `(`. Returns the offset after the closing
/// `)`, having pushed each `!N` (its number, and the offset of its digits) to `refs`; `None`
/// where anything else appears (typed values, other spacing, comments, a number too large
/// for a node id), and the caller then reads the node token by token.
///
/// Invariant: whatever this accepts, [`parse_md_node_ref`] accepts too, consuming the same
/// bytes and calling [`Host::metadata_use`] with the same ids and offsets in the same order:
/// it is a faster route to the same result (a test checks the two against each other).
pub fn scan_plain_fields(src: &[u8], open: usize, refs: &mut Vec<(u32, u32)>) -> Option<usize> {
    let at = |i: usize| src.get(i).copied().unwrap_or(0);
    let digits_end = |mut i: usize| {
        while at(i).is_ascii_digit() {
            i += 1;
        }
        i
    };
    let mut i = open;
    if at(i) == b')' {
        return Some(i + 1);
    }
    loop {
        // `name: ` (one label token, as the lexer reads `line:`).
        if !at(i).is_ascii_alphabetic() {
            return None;
        }
        i += 1;
        while at(i).is_ascii_alphanumeric() || at(i) == b'_' {
            i += 1;
        }
        if (at(i), at(i + 1)) != (b':', b' ') {
            return None;
        }
        i += 2;
        match at(i) {
            b'0'..=b'9' => i = digits_end(i),
            b'-' if at(i + 1).is_ascii_digit() => i = digits_end(i + 1),
            b'A'..=b'Z' => i = plain_names(src, i)?,
            b'!' if src[i..].starts_with(b"!DIExpression()") => i += b"!DIExpression()".len(),
            b'!' => {
                let end = digits_end(i + 1);
                refs.push((parse_u32(&src[i + 1..end])?, (i + 1) as u32));
                i = end;
            }
            b'"' => i += 2 + llvm_ir::util::bytes::find_byte(&src[i + 1..], b'"')?,
            _ => {
                let rest = &src[i..];
                let word = [&b"true"[..], b"false", b"null"]
                    .into_iter()
                    .find(|w| rest.starts_with(w))?;
                i += word.len();
            }
        }
        match (at(i), at(i + 1)) {
            (b',', b' ') => i += 2,
            (b')', _) => return Some(i + 1),
            _ => return None,
        }
    }
}

/// `Name | Name | 4` at `i` (a capital letter): the offset after it, if every name is one
/// [`parse_field_value`] accepts (see [`super::dwarf_names::check`]).
fn plain_names(src: &[u8], mut i: usize) -> Option<usize> {
    let at = |i: usize| src.get(i).copied().unwrap_or(0);
    loop {
        let start = i;
        match at(i) {
            b'A'..=b'Z' => {
                while at(i).is_ascii_alphanumeric() || at(i) == b'_' {
                    i += 1;
                }
                if super::dwarf_names::check(&src[start..i], false).is_some() {
                    return None;
                }
            }
            b'0'..=b'9' => {
                while at(i).is_ascii_digit() {
                    i += 1;
                }
            }
            _ => return None,
        }
        if !src[i..].starts_with(b" | ") {
            return Some(i);
        }
        i += 3;
    }
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
                    match crate::lexer::parse_u32(text) {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexer::Token;
    use crate::parser::cursor::Cursor;
    use llvm_ir::ir::types::{Type, TypeTable};
    use ssa::testing::Rng;

    /// A host that records node references (the module reader's only effect for these nodes).
    struct Recorder<'a> {
        c: Cursor<'a>,
        types: TypeTable,
        uses: Vec<(u32, u32)>,
    }

    impl<'a> Host<'a> for Recorder<'a> {
        fn c(&mut self) -> &mut Cursor<'a> {
            &mut self.c
        }
        fn types(&mut self) -> &mut TypeTable {
            &mut self.types
        }
        fn named_type_use(&mut self, _: &[u8], _: usize) -> PResult<()> {
            Ok(())
        }
        fn global_use(&mut self, _: Token, _: Type) -> PResult<()> {
            Ok(())
        }
        fn blockaddress_use(&mut self, _: Token, _: Token) -> PResult<()> {
            Ok(())
        }
        fn metadata_use(&mut self, id: u32, off: usize) -> PResult<()> {
            self.uses.push((id, off as u32));
            Ok(())
        }
        fn attr_group_use(&mut self, _: u32, _: usize) -> PResult<u8> {
            Ok(0)
        }
        fn md_value(&mut self, _: Type) -> PResult<()> {
            self.c.err("a value (not read by the fast path)")
        }
    }

    /// The token-by-token reading of the node starting at `src[0]`: its end and references.
    fn general(src: &[u8]) -> PResult<(usize, Vec<(u32, u32)>)> {
        let mut h = Recorder {
            c: Cursor::new(src, 0),
            types: TypeTable::new(),
            uses: Vec::new(),
        };
        parse_md_node_ref(&mut h)?;
        Ok((h.c.prev_end as usize, h.uses))
    }

    fn fast(src: &[u8]) -> Option<(usize, Vec<(u32, u32)>)> {
        let open = src.iter().position(|&c| c == b'(')?;
        let mut refs = Vec::new();
        scan_plain_fields(src, open + 1, &mut refs).map(|end| (end, refs))
    }

    #[test]
    fn plain_fields_as_llvm_prints_them() {
        let s = b"!DILocation(line: 3, column: 7, scope: !12, inlinedAt: !40)\n!1 = !{}";
        assert_eq!(fast(s), Some((59, vec![(12, 40), (40, 56)])));
        let s = b"!DILocalVariable(name: \"a, b: )\", arg: 1, scope: !7, type: !9)";
        assert_eq!(fast(s).map(|(_, r)| r), Some(vec![(7, 50), (9, 60)]));
        assert_eq!(fast(b"!DISubrange()").map(|(e, _)| e), Some(13));
        let s =
            b"!DISubprogram(scope: !1, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !2)";
        assert_eq!(fast(s).map(|(_, r)| r), Some(vec![(1, 22), (2, 81)]));
        let s = b"!DIGlobalVariableExpression(var: !3, expr: !DIExpression())";
        assert_eq!(fast(s).map(|(_, r)| r), Some(vec![(3, 34)]));
        assert_eq!(fast(b"!DISubrange(count: -1)").map(|(e, _)| e), Some(22));
        // Left to the token reader: unknown DWARF names, expressions with operations, typed
        // values, other spacing, big ids.
        for s in [
            &b"!DIDerivedType(tag: DW_TAG_membr, name: \"x\")"[..],
            b"!DIGlobalVariableExpression(var: !3, expr: !DIExpression(DW_OP_deref))",
            b"!DITemplateValueParameter(value: i32 7)",
            b"!DILocalVariable(name: \"x\", flags: DIFlagArtificial|DIFlagObjectPointer)",
            b"!DILocation(line: 3,column: 7, scope: !1)",
            b"!DILocation(line : 3, scope: !1)",
            b"!DILocation(line: 3, scope: !4294967296)",
            b"!DILocation(line: 3, scope: !\"s\")",
            b"!DILocation(line: 3 ; comment\n, scope: !1)",
        ] {
            assert_eq!(fast(s), None, "{}", String::from_utf8_lossy(s));
        }
    }

    /// Random field lists, mostly well-formed: wherever the fast path accepts, the token
    /// reader accepts the same bytes with the same references in the same order.
    #[test]
    fn fast_path_agrees_with_the_token_reader() {
        const LABELS: &[&str] = &["line", "column", "scope", "name", "x_1", "i32", "9a", "a.b"];
        const VALUES: &[&str] = &[
            "0",
            "17",
            "4294967295",
            "4294967296",
            "!0",
            "!12",
            "!4294967296",
            "!",
            "\"s\"",
            "\"\"",
            "\"a,b\"",
            "true",
            "false",
            "null",
            "nullx",
            "DW_TAG_member",
            "DW_TAG_membr",
            "DW_ATE_signed",
            "DIFlagPrototyped",
            "DIFlagNope",
            "DIFlagArtificial | DIFlagObjectPointer",
            "DISPFlagDefinition | DISPFlagLocalToUnit | 8",
            "DIFlagA | ",
            "DIFlagPrototyped |DIFlagArtificial",
            "FullDebug",
            "None",
            "Nonex.y",
            "CSK_MD5",
            "!DIExpression()",
            "!DIExpression(DW_OP_deref)",
            "!DIExpression( )",
            "i32 7",
            "-1",
            "-17",
            "- 1",
            "-",
            "0x1F",
            "!\"s\"",
            "!{}",
            "1.5",
            "7a",
        ];
        const SEPS: &[&str] = &[", ", ", ", ", ", ",", " , ", ",\n  "];
        let mut rng = Rng::new(11);
        let pick = |rng: &mut Rng, xs: &[&'static str]| xs[rng.below(xs.len() as u64) as usize];
        let (mut accepted, mut refused) = (0, 0);
        for _ in 0..20_000 {
            let mut s = String::from("!DILocation(");
            for k in 0..rng.below(5) {
                if k > 0 {
                    s += pick(&mut rng, SEPS);
                }
                s += pick(&mut rng, LABELS);
                s += if rng.below(8) == 0 { ":" } else { ": " };
                s += pick(&mut rng, VALUES);
            }
            s += pick(&mut rng, &[")", ")", ")", " )", "", ")x"]);
            s += "\n!1 = !{}\n";
            match fast(s.as_bytes()) {
                Some(got) => {
                    accepted += 1;
                    assert_eq!(general(s.as_bytes()).ok(), Some(got), "{s}");
                }
                None => refused += 1,
            }
        }
        assert!(
            accepted > 1_000 && refused > 1_000,
            "{accepted} / {refused}"
        );
    }
}
