//! Reading debug-info metadata on demand: the fields of `!DIxxx(...)` nodes, `!DIExpression`
//! operations, `!DILocation`s and their scope chains, and variable sizes.
//!
//! The IR keeps metadata as text (module nodes are spans of the input indexed by number in
//! [`crate::ir::module_info::ModuleInfo`]; inline nodes are spans in instructions). This module
//! reads the few fields passes need, when they need them, by scanning that text. Invariant:
//! a node is identified by [`MdNodeId`] — its number, or its exact inline text — so two
//! references are the same node exactly when LLVM would see the same uniqued node for
//! references by number, and for identical inline text.

use crate::ir::module_info::ModuleInfo;
use crate::lexical::parse_u32;
use crate::lexical::parse_u64;
use crate::lexical::{write_u32, write_u64};

/// Identity of a metadata node.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum MdNodeId {
    /// `!N`
    Num(u32),
    /// An inline node, by its text.
    Inline(Vec<u8>),
}

impl MdNodeId {
    /// How to write a reference to this node (`!7`, or the inline text).
    pub fn write(&self, out: &mut Vec<u8>) {
        match self {
            MdNodeId::Num(n) => {
                out.push(b'!');
                write_u32(out, *n);
            }
            MdNodeId::Inline(t) => out.extend_from_slice(t),
        }
    }
}

/// Resolves metadata references against a module's nodes.
#[derive(Clone, Copy)]
pub struct MdReader<'a> {
    /// The module's input.
    pub source: &'a [u8],
    /// The module's metadata index (`None` for modules built in Rust).
    pub ctx: Option<&'a ModuleInfo>,
}

/// The node a reference text names: `!7` → number 7; anything else is inline.
pub fn node_id(text: &[u8]) -> Option<MdNodeId> {
    if let Some(n) = node_number(text) {
        return Some(MdNodeId::Num(n));
    }
    let t = trim(text);
    if t.is_empty() || t == b"null" {
        return None;
    }
    Some(MdNodeId::Inline(t.to_vec()))
}

/// `N` when the reference text is `!N` (white space around allowed), without building an
/// [`MdNodeId`] (an inline node's would copy its text).
pub fn node_number(text: &[u8]) -> Option<u32> {
    // Fast path, the common reference `!123` (no white space): digits read once.
    if let [b'!', digits @ ..] = text {
        if digits.len() <= 9 {
            if let Some(n) = parse_u32(digits) {
                return Some(n);
            }
        }
    }
    let t = trim(text);
    if t.len() > 1 && t[0] == b'!' && t[1..].iter().all(u8::is_ascii_digit) {
        return parse_u32(&t[1..]);
    }
    None
}

/// `s` without leading and trailing ASCII white space.
pub fn trim(s: &[u8]) -> &[u8] {
    // Most texts have no surrounding white space: two byte tests.
    match (s.first(), s.last()) {
        (Some(f), Some(l)) if !f.is_ascii_whitespace() && !l.is_ascii_whitespace() => return s,
        (None, _) => return s,
        _ => {}
    }
    let a = s
        .iter()
        .position(|c| !c.is_ascii_whitespace())
        .unwrap_or(s.len());
    let b = s
        .iter()
        .rposition(|c| !c.is_ascii_whitespace())
        .map_or(a, |i| i + 1);
    &s[a..b]
}

impl<'a> MdReader<'a> {
    /// The text of node `id` (`!DILocation(...)`, `!{...}`), if known.
    pub fn text(&self, id: &'a MdNodeId) -> Option<&'a [u8]> {
        match id {
            MdNodeId::Num(n) => self.ctx?.metadata_text(self.source, *n),
            MdNodeId::Inline(t) => Some(t),
        }
    }

    /// The text of the node a reference names.
    pub fn resolve<'t>(&self, reference: &'t [u8]) -> Option<(MdNodeId, &'t [u8])>
    where
        'a: 't,
    {
        let id = node_id(reference)?;
        let text = match &id {
            MdNodeId::Num(n) => self.ctx?.metadata_text(self.source, *n)?,
            MdNodeId::Inline(_) => trim(reference),
        };
        Some((id, text))
    }
}

/// The kind of a specialized node (`DILocation` for `!DILocation(...)`), if it is one.
pub fn node_kind(text: &[u8]) -> Option<&[u8]> {
    let t = trim(text);
    let t = t.strip_prefix(b"!")?;
    let end = t.iter().position(|&c| c == b'(')?;
    Some(&t[..end])
}

/// The value text of field `name` of a specialized node (`scope` of `!DILocation(line: 3,
/// scope: !7)` is `!7`).
pub fn field<'t>(text: &'t [u8], name: &[u8]) -> Option<&'t [u8]> {
    let t = trim(text);
    let open = t.iter().position(|&c| c == b'(')?;
    let body = &t[open + 1..t.len().checked_sub(1)?];
    let mut i = 0;
    while i < body.len() {
        while body.get(i).is_some_and(u8::is_ascii_whitespace) {
            i += 1;
        }
        let end = top_level_end(body, i);
        // `name`, white space, `:` (field names hold neither white space nor colons).
        if let Some(rest) = body[i..end].strip_prefix(name) {
            let at = rest.iter().position(|c| !c.is_ascii_whitespace());
            if let Some(value) = at.and_then(|k| rest[k..].strip_prefix(b":")) {
                return Some(trim(value));
            }
        }
        i = end + 1;
    }
    None
}

/// The `name: value` fields of a specialized node, in order (items without a colon skipped).
pub fn fields(text: &[u8]) -> impl Iterator<Item = (&[u8], &[u8])> {
    let t = trim(text);
    let body = t
        .iter()
        .position(|&c| c == b'(')
        .and_then(|open| t.get(open + 1..t.len().checked_sub(1)?))
        .unwrap_or(&[]);
    let mut i = 0;
    std::iter::from_fn(move || {
        while i < body.len() {
            let end = top_level_end(body, i);
            let item = trim(&body[i..end]);
            i = end + 1;
            if let Some(colon) = item.iter().position(|&c| c == b':') {
                return Some((trim(&item[..colon]), trim(&item[colon + 1..])));
            }
        }
        None
    })
}

/// The bytes [`top_level_end`] looks at: brackets, quotes and commas.
static SPECIAL: [bool; 256] = {
    let mut t = [false; 256];
    let mut k = 0;
    let bytes = b"(){}[]<>\",";
    while k < bytes.len() {
        t[bytes[k] as usize] = true;
        k += 1;
    }
    t
};

/// The end of the comma-separated item starting at `i` (nesting and strings respected).
fn top_level_end(s: &[u8], mut i: usize) -> usize {
    let mut depth = 0i32;
    while i < s.len() {
        // Skip ordinary bytes with one table lookup each.
        if !SPECIAL[s[i] as usize] {
            i += 1;
            continue;
        }
        match s[i] {
            b'(' | b'{' | b'[' | b'<' => depth += 1,
            b')' | b'}' | b']' | b'>' => depth -= 1,
            b'"' => {
                i += 1;
                while i < s.len() && s[i] != b'"' {
                    i += 1;
                }
            }
            b',' if depth == 0 => return i,
            _ => {}
        }
        i += 1;
    }
    s.len()
}

/// An integer field (`line: 3`), 0 when absent.
pub fn int_field(text: &[u8], name: &[u8]) -> u64 {
    field(text, name)
        .and_then(|v| std::str::from_utf8(v).ok()?.parse().ok())
        .unwrap_or(0)
}

/// A `!DIExpression(...)`'s operations as words (`DW_OP_deref`, `0`, `32`, ...).
pub fn expression_ops(text: &[u8]) -> Vec<&[u8]> {
    let t = trim(text);
    let (Some(open), true) = (t.iter().position(|&c| c == b'('), t.ends_with(b")")) else {
        return Vec::new();
    };
    t[open + 1..t.len() - 1]
        .split(|&c| c == b',')
        .map(trim)
        .filter(|w| !w.is_empty())
        .collect()
}

/// The expression is exactly `DW_OP_deref`.
pub fn is_deref(ops: &[&[u8]]) -> bool {
    ops == [b"DW_OP_deref" as &[u8]]
}

/// The expression starts with `DW_OP_deref`.
pub fn starts_with_deref(ops: &[&[u8]]) -> bool {
    ops.first() == Some(&(b"DW_OP_deref" as &[u8]))
}

/// The fragment `(offset, size)` in bits of `DW_OP_LLVM_fragment, offset, size`, if any.
pub fn fragment(ops: &[&[u8]]) -> Option<(u64, u64)> {
    let i = ops.iter().position(|w| *w == b"DW_OP_LLVM_fragment")?;
    let num = |w: &[u8]| std::str::from_utf8(w).ok()?.parse::<u64>().ok();
    Some((num(ops.get(i + 1)?)?, num(ops.get(i + 2)?)?))
}

/// A cursor over the text of a printed node: exact pieces and short decimal numbers.
struct FieldCursor<'t>(&'t [u8]);

impl FieldCursor<'_> {
    /// Skips `s` if the text goes on with it.
    fn eat(&mut self, s: &[u8]) -> bool {
        match self.0.strip_prefix(s) {
            Some(rest) => {
                self.0 = rest;
                true
            }
            None => false,
        }
    }

    /// A number of 1 to 9 decimal digits (so it fits any field and node number).
    fn number(&mut self) -> Option<u64> {
        let n = self
            .0
            .iter()
            .take(10)
            .take_while(|c| c.is_ascii_digit())
            .count();
        let (digits, rest) = self.0.split_at(n);
        let v = parse_u32(digits).filter(|_| n <= 9)?;
        self.0 = rest;
        Some(u64::from(v))
    }
}

/// A `!DILocation`'s fields.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Location {
    /// `line:`
    pub line: u64,
    /// `column:`
    pub column: u64,
    /// `scope:` (required)
    pub scope: MdNodeId,
    /// `inlinedAt:`
    pub inlined_at: Option<MdNodeId>,
    /// `isImplicitCode: true`
    pub implicit: bool,
}

impl Location {
    /// Reads a `!DILocation(...)` node's text (one pass over its fields: this runs for every
    /// location promotion merges or copies).
    pub fn parse(text: &[u8]) -> Option<Location> {
        Location::parse_printed(text).or_else(|| Location::parse_general(text))
    }

    /// The form LLVM's printer writes — `!DILocation(line: L[, column: C], scope: !S[,
    /// inlinedAt: !I][, isImplicitCode: true])`, numbers of at most 9 digits — read without
    /// splitting fields; `None` for anything else (which [`Location::parse_general`] reads).
    fn parse_printed(text: &[u8]) -> Option<Location> {
        let mut c = FieldCursor(text.strip_prefix(b"!DILocation(line: ")?);
        let line = c.number()?;
        let column = if c.eat(b", column: ") { c.number()? } else { 0 };
        if !c.eat(b", scope: !") {
            return None;
        }
        let scope = MdNodeId::Num(u32::try_from(c.number()?).ok()?);
        let inlined_at = if c.eat(b", inlinedAt: !") {
            Some(MdNodeId::Num(u32::try_from(c.number()?).ok()?))
        } else {
            None
        };
        let implicit = c.eat(b", isImplicitCode: true");
        (c.0 == b")").then_some(Location {
            line,
            column,
            scope,
            inlined_at,
            implicit,
        })
    }

    /// Reads a `!DILocation(...)` node's text in any form: fields in any order, white space.
    fn parse_general(text: &[u8]) -> Option<Location> {
        let t = trim(text);
        let rest = t.strip_prefix(b"!DILocation(")?;
        let body = rest.get(..rest.len().checked_sub(1)?)?;
        let (mut line, mut column, mut scope, mut inlined_at, mut implicit) =
            (0, 0, None, None, false);
        let mut i = 0;
        while i < body.len() {
            let end = top_level_end(body, i);
            let item = &body[i..end];
            i = end + 1;
            let Some(colon) = item.iter().position(|&c| c == b':') else {
                continue;
            };
            let value = trim(&item[colon + 1..]);
            match trim(&item[..colon]) {
                b"line" => line = parse_u64(value).unwrap_or(0),
                b"column" => column = parse_u64(value).unwrap_or(0),
                b"scope" => scope = Some(value),
                b"inlinedAt" => inlined_at = node_id(value),
                b"isImplicitCode" => implicit = value == b"true",
                _ => {}
            }
        }
        Some(Location {
            line,
            column,
            scope: node_id(scope?)?,
            inlined_at,
            implicit,
        })
    }

    /// The node text LLVM prints for this location.
    pub fn to_text(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(64);
        out.extend_from_slice(b"!DILocation(line: ");
        write_u64(&mut out, self.line);
        if self.column != 0 {
            out.extend_from_slice(b", column: ");
            write_u64(&mut out, self.column);
        }
        out.extend_from_slice(b", scope: ");
        self.scope.write(&mut out);
        if let Some(i) = &self.inlined_at {
            out.extend_from_slice(b", inlinedAt: ");
            i.write(&mut out);
        }
        if self.implicit {
            out.extend_from_slice(b", isImplicitCode: true");
        }
        out.push(b')');
        out
    }
}

impl<'a> MdReader<'a> {
    /// The location a reference names.
    pub fn location(&self, reference: &[u8]) -> Option<(MdNodeId, Location)> {
        let (id, text) = self.resolve(reference)?;
        Some((id, Location::parse(text)?))
    }

    /// The parent scope of scope `s` (`None` at a subprogram or when unknown).
    pub fn parent_scope(&self, s: &MdNodeId) -> Option<MdNodeId> {
        let text = self.node_text(s)?;
        if node_kind(text)? == b"DISubprogram" {
            return None;
        }
        node_id(field(text, b"scope")?)
    }

    /// The `scope:` of any scope node (a subprogram's enclosing file or type too).
    pub fn scope_of(&self, s: &MdNodeId) -> Option<MdNodeId> {
        let text = self.node_text(s)?;
        node_id(field(text, b"scope")?)
    }

    /// Whether `s` is a local scope (subprogram, lexical block, lexical block file).
    pub fn is_local_scope(&self, s: &MdNodeId) -> bool {
        self.node_text(s)
            .and_then(|t| {
                node_kind(t).map(|k| {
                    matches!(
                        k,
                        b"DISubprogram" | b"DILexicalBlock" | b"DILexicalBlockFile"
                    )
                })
            })
            .unwrap_or(false)
    }

    /// Whether scope `s` is a subprogram.
    pub fn is_subprogram(&self, s: &MdNodeId) -> bool {
        self.node_text(s)
            .and_then(|t| node_kind(t).map(|k| k == b"DISubprogram"))
            .unwrap_or(false)
    }

    /// The subprogram enclosing scope `s`.
    pub fn subprogram(&self, s: &MdNodeId) -> Option<MdNodeId> {
        let mut cur = s.clone();
        for _ in 0..10_000 {
            if self.is_subprogram(&cur) {
                return Some(cur);
            }
            cur = self.parent_scope(&cur)?;
        }
        None
    }

    fn node_text<'t>(&self, id: &'t MdNodeId) -> Option<&'t [u8]>
    where
        'a: 't,
    {
        match id {
            MdNodeId::Num(n) => self.ctx?.metadata_text(self.source, *n),
            MdNodeId::Inline(t) => Some(t),
        }
    }

    /// The size in bits of a variable (`!DILocalVariable(..., type: !T)`), following derived
    /// types without a size to their base type, as `DIVariable::getSizeInBits` does.
    pub fn variable_size(&self, var_ref: &[u8]) -> Option<u64> {
        self.type_size(self.variable_type(var_ref)?)
    }

    /// The `type:` of a variable (`!DILocalVariable(..., type: !T)`).
    pub fn variable_type(&self, var_ref: &[u8]) -> Option<MdNodeId> {
        let (_, var) = self.resolve(var_ref)?;
        node_id(field(var, b"type")?)
    }

    /// The size in bits of debug type `ty`, following derived types without a size to their
    /// base type.
    pub fn type_size(&self, mut ty: MdNodeId) -> Option<u64> {
        for _ in 0..10_000 {
            let text = self.node_text(&ty)?;
            let size = int_field(text, b"size");
            if size != 0 {
                return Some(size);
            }
            if node_kind(text)? != b"DIDerivedType" {
                return None;
            }
            ty = node_id(field(text, b"baseType")?)?;
        }
        None
    }

    /// The location in `text` of a DILocation reference's scope and inlinedAt, for
    /// `!DILocation(line: 0, scope: S, inlinedAt: I)` ("an unknown location in the same scope").
    pub fn line_zero_location(&self, loc_ref: &[u8]) -> Option<Vec<u8>> {
        let (_, l) = self.location(loc_ref)?;
        Some(
            Location {
                line: 0,
                column: 0,
                scope: l.scope,
                inlined_at: l.inlined_at,
                implicit: false,
            }
            .to_text(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_and_expressions() {
        let t = b"!DILocation(line: 3, column: 7, scope: !12, inlinedAt: !DILocation(line: 1, scope: !2))";
        assert_eq!(field(t, b"scope"), Some(&b"!12"[..]));
        assert_eq!(int_field(t, b"column"), 7);
        let l = Location::parse(t).unwrap();
        assert_eq!(l.scope, MdNodeId::Num(12));
        assert!(matches!(l.inlined_at, Some(MdNodeId::Inline(_))));
        assert_eq!(
            Location {
                line: 0,
                column: 0,
                scope: MdNodeId::Num(5),
                inlined_at: None,
                implicit: false
            }
            .to_text(),
            b"!DILocation(line: 0, scope: !5)".to_vec()
        );
        let ops = expression_ops(b"!DIExpression(DW_OP_deref, DW_OP_LLVM_fragment, 0, 32)");
        assert!(starts_with_deref(&ops) && !is_deref(&ops));
        assert_eq!(fragment(&ops), Some((0, 32)));
        assert!(is_deref(&expression_ops(b"!DIExpression(DW_OP_deref)")));
        assert!(expression_ops(b"!DIExpression()").is_empty());
        assert_eq!(
            field(b"!DIBasicType(name: \"a, b\", size: 32)", b"size"),
            Some(&b"32"[..])
        );
        assert_eq!(
            field(b"!DIFoo(scopeLine: 3, scope : !4)", b"scope"),
            Some(&b"!4"[..])
        );
        assert_eq!(field(b"!DIFoo( line:5 )", b"line"), Some(&b"5"[..]));
        assert_eq!(field(b"!DIFoo(lines: 5)", b"line"), None);
    }

    #[test]
    fn printed_locations_read_as_the_general_reader_reads_them() {
        let texts: [&[u8]; 9] = [
            b"!DILocation(line: 3, column: 7, scope: !12)",
            b"!DILocation(line: 0, scope: !5)",
            b"!DILocation(line: 8, column: 1, scope: !12, inlinedAt: !40)",
            b"!DILocation(line: 8, scope: !2, inlinedAt: !40, isImplicitCode: true)",
            b"!DILocation(line: 8, scope: !2, isImplicitCode: true)",
            b"!DILocation(line: 1234567890, scope: !2)",
            b"!DILocation(scope: !2, line: 4)",
            b"!DILocation(line: 4, scope: !2 )",
            b"!DILocation(line: 4, scope: !DILexicalBlock(scope: !1))",
        ];
        for t in texts {
            let printed = Location::parse_printed(t);
            assert!(
                printed.is_none() || printed == Location::parse_general(t),
                "{t:?}"
            );
            assert_eq!(Location::parse(t), Location::parse_general(t));
        }
        assert!(Location::parse_printed(texts[3]).unwrap().implicit);
        assert!(Location::parse_printed(texts[5]).is_none());
    }
}
