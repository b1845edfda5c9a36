//! Finding the numbered references in printed IR text: metadata nodes (`!12`) and attribute
//! groups (`#3`), which the module writer renumbers ([`crate::print::module_writer`]).
//!
//! A reference is `!` or `#` followed by decimal digits, outside string literals (`"..."`:
//! LLVM escapes a quote inside a string as `\22`, so the next `"` always ends one). Names
//! such as `!dbg` or `#dbg_value` have a letter after the sign and are not references.
//!
//! [`node_children`] gives the nodes a metadata node refers to in the order of its operands
//! in memory, which is the order LLVM's slot tracker numbers them in: for most kinds the order
//! they are printed in, but a few kinds print their `scope:` before their `file:` (and
//! `DISubprogram` prints several fields out of operand order), so their references are sorted
//! by operand position. Invariant: every reference [`for_each_ref`] finds in a node's text
//! is among its children, each once per occurrence.

use crate::util::bytes::{find_any, find_byte};

/// What a reference names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RefKind {
    /// `!N`: metadata node `N`.
    Md,
    /// `#N`: attribute group `N`.
    Attr,
}

/// A reference found in text: its kind, number, and byte range (sign included).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Found {
    /// Metadata node or attribute group.
    pub kind: RefKind,
    /// The number after the sign.
    pub id: u32,
    /// Offset of the sign.
    pub start: usize,
    /// Offset just after the last digit.
    pub end: usize,
}

/// Calls `f` for every reference in `text`, in order.
#[inline]
pub fn for_each_ref(text: &[u8], mut f: impl FnMut(Found)) {
    let mut i = 0;
    while let Some(p) = find_any(&text[i..], [b'!', b'#', b'"']) {
        let at = i + p;
        if text[at] == b'"' {
            i = match find_byte(&text[at + 1..], b'"') {
                Some(q) => at + q + 2,
                None => return,
            };
            continue;
        }
        let digits = text[at + 1..]
            .iter()
            .take(10)
            .take_while(|c| c.is_ascii_digit())
            .count();
        let end = at + 1 + digits;
        if (1..=9).contains(&digits) {
            let id = text[at + 1..end]
                .iter()
                .fold(0u32, |n, &c| n * 10 + u32::from(c - b'0'));
            let kind = if text[at] == b'!' {
                RefKind::Md
            } else {
                RefKind::Attr
            };
            f(Found {
                kind,
                id,
                start: at,
                end,
            });
        }
        i = end;
    }
}

/// Whether `text` holds any reference at all (quick test before copying it piecewise).
#[inline]
pub fn has_ref(text: &[u8]) -> bool {
    let mut any = false;
    if find_any(text, [b'!', b'#']).is_some() {
        for_each_ref(text, |_| any = true);
    }
    any
}

/// A `!DILocation` as LLVM prints it: `!DILocation(line: L[, column: C], scope: !S[,
/// inlinedAt: !I][, isImplicitCode: true])`: the byte range and number of each reference.
/// Most of a `-g` module's nodes are such, and the writer reads each twice.
pub struct PrintedLocation {
    /// `(start of its '!', number, end)` of the scope.
    pub scope: (usize, u32, usize),
    /// The same for the inlined-at location, if any.
    pub inlined_at: Option<(usize, u32, usize)>,
}

/// [`PrintedLocation`] of `text`, if it is one. (Byte by byte: it runs twice for most
/// nodes of a `-g` module.)
pub fn printed_location(t: &[u8]) -> Option<PrintedLocation> {
    const HEAD: &[u8; 16] = b"!DILocation(line";
    let head: &[u8; 16] = t.get(..16)?.try_into().ok()?;
    if head != HEAD || t.get(16..18)? != b": " {
        return None;
    }
    let mut i = skip_digits(t, 18);
    if t.get(i..i + 10) == Some(b", column: ") {
        i = skip_digits(t, i + 10);
    }
    let scope = location_ref(t, i, b", scope: !")?;
    let inlined_at = location_ref(t, scope.2, b", inlinedAt: !");
    let end = inlined_at.map_or(scope.2, |r| r.2);
    let tail = &t[end..];
    (tail == b")" || tail == b", isImplicitCode: true)")
        .then_some(PrintedLocation { scope, inlined_at })
}

/// The offset after the digits from `i` on.
#[inline]
fn skip_digits(t: &[u8], mut i: usize) -> usize {
    while i < t.len() && t[i].is_ascii_digit() {
        i += 1;
    }
    i
}

/// `(start of '!', number, end)` of `key` (ending in `!`) and the number after it, at `i`.
#[inline]
fn location_ref(t: &[u8], i: usize, key: &[u8]) -> Option<(usize, u32, usize)> {
    if t.get(i..i + key.len())? != key {
        return None;
    }
    let at = i + key.len() - 1;
    let end = skip_digits(t, at + 1);
    if end == at + 1 || end - at > 10 {
        return None;
    }
    let id = t[at + 1..end]
        .iter()
        .fold(0u32, |n, &c| n * 10 + u32::from(c - b'0'));
    Some((at, id, end))
}

/// The operand order of the fields of a node of kind `kind`, for the kinds whose fields
/// are printed out of operand order (LLVM's `DebugInfoMetadata.cpp` lists the operands:
/// `DIDerivedType` and `DICompositeType` start `File, Scope, Name, BaseType, ...`,
/// `DILexicalBlock[File]` and `DIModule` `File, Scope, ...`, `DISubprogram` `File, Scope, Name,
/// LinkageName, Type, Unit, Declaration, RetainedNodes, ContainingType, TemplateParams,
/// ThrownTypes, Annotations, TargetFuncName`). `None` for kinds printed in operand order.
fn operand_table(kind: &[u8]) -> Option<&'static [&'static [u8]]> {
    Some(match kind {
        b"DIDerivedType" => &[
            b"file",
            b"scope",
            b"name",
            b"baseType",
            b"extraData",
            b"annotations",
        ],
        b"DICompositeType" => &[
            b"file",
            b"scope",
            b"name",
            b"baseType",
            b"elements",
            b"vtableHolder",
            b"templateParams",
            b"identifier",
            b"discriminator",
            b"dataLocation",
            b"associated",
            b"allocated",
            b"rank",
            b"annotations",
        ],
        b"DILexicalBlock" | b"DILexicalBlockFile" | b"DIModule" => &[b"file", b"scope"],
        b"DISubprogram" => &[
            b"file",
            b"scope",
            b"name",
            b"linkageName",
            b"type",
            b"unit",
            b"declaration",
            b"retainedNodes",
            b"containingType",
            b"templateParams",
            b"thrownTypes",
            b"annotations",
            b"targetFuncName",
        ],
        _ => return None,
    })
}

/// The nodes node text `text` (`!{...}`, `!DIxxx(...)`, without `distinct`) refers to, in
/// operand order (see the module doc), into `out` (cleared first).
pub fn node_children(text: &[u8], out: &mut Vec<u32>) {
    out.clear();
    if let Some(loc) = printed_location(text) {
        out.push(loc.scope.1);
        out.extend(loc.inlined_at.map(|r| r.1));
        return;
    }
    let table = crate::ir::metadata::node_kind(text).and_then(operand_table);
    let Some(table) = table else {
        for_each_ref(text, |r| {
            if r.kind == RefKind::Md {
                out.push(r.id);
            }
        });
        return;
    };
    // (rank, id): fields this table does not know keep their printed place after the known
    // ones. A reference's field is the name printed before it (`scope: !5`).
    let mut ranked: Vec<(u8, u32)> = Vec::new();
    for_each_ref(text, |r| {
        if r.kind == RefKind::Md {
            let name = field_before(&text[..r.start]);
            let rank = table
                .iter()
                .position(|&f| f == name)
                .map_or(u8::MAX, |k| k as u8);
            ranked.push((rank, r.id));
        }
    });
    ranked.sort_by_key(|&(rank, _)| rank);
    out.extend(ranked.into_iter().map(|(_, id)| id));
}

/// The field name `before` ends with, as LLVM prints a field (`name: `); empty otherwise.
fn field_before(before: &[u8]) -> &[u8] {
    let Some(before) = before.strip_suffix(b": ") else {
        return &[];
    };
    let start = before
        .iter()
        .rposition(|c| !(c.is_ascii_alphanumeric() || *c == b'_'))
        .map_or(0, |p| p + 1);
    &before[start..]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refs(t: &str) -> Vec<(RefKind, u32, usize, usize)> {
        let mut v = Vec::new();
        for_each_ref(t.as_bytes(), |r| v.push((r.kind, r.id, r.start, r.end)));
        v
    }

    #[test]
    fn references_outside_strings() {
        use RefKind::{Attr, Md};
        assert_eq!(
            refs("call void @f() #3, !dbg !17"),
            vec![(Attr, 3, 15, 17), (Md, 17, 24, 27)]
        );
        assert_eq!(refs("#dbg_value(i32 0, !5, !DIExpression(), !6)").len(), 2);
        assert!(refs("c\"!3 #4\" !\"a!1\" !llvm.loop").is_empty());
        assert_eq!(refs("!{!\"x\\22\", !9}"), vec![(Md, 9, 11, 13)]);
        assert!(refs("!1234567890").is_empty(), "too long for a node number");
        assert!(refs("\"unterminated !3").is_empty());
        assert!(has_ref(b"x !0") && !has_ref(b"!dbg #dbg"));
    }

    #[test]
    fn children_follow_operand_order() {
        let mut out = Vec::new();
        node_children(
            b"!DILocation(line: 3, column: 2, scope: !7, inlinedAt: !9)",
            &mut out,
        );
        assert_eq!(out, [7, 9]);
        node_children(
            b"!DILexicalBlock(scope: !10, file: !11, line: 8, column: 9)",
            &mut out,
        );
        assert_eq!(out, [11, 10]);
        let sp = b"!DISubprogram(name: \"f\", scope: !1, file: !1, line: 2, type: !3, \
            scopeLine: 2, containingType: !8, spFlags: DISPFlagDefinition, unit: !4, \
            templateParams: !9, declaration: !5, retainedNodes: !6)";
        node_children(sp, &mut out);
        assert_eq!(out, [1, 1, 3, 4, 5, 6, 8, 9]);
        node_children(b"distinct !{!31, !26, !32}", &mut out);
        assert_eq!(out, [31, 26, 32]);
        node_children(
            b"!DIDerivedType(tag: DW_TAG_member, name: \"x\", scope: !5, file: !1, \
              baseType: !7, extraData: !8)",
            &mut out,
        );
        assert_eq!(out, [1, 5, 7, 8]);
    }
}
