//! Module-level metadata the debugify passes read and write, over a module's verbatim items:
//! named metadata (`!llvm.module.flags = !{!0, !1}`), module flags, the operands of small
//! tuples (`!{i32 12}`), and which function definitions LLVM's `isFunctionSkipped` skips.
//!
//! Invariants: an item is only ever replaced by the same entity with operands appended (as
//! LLVM's `getOrInsertNamedMetadata` + `addOperand` would leave it), or new items are
//! appended at the end; nothing here reorders the module.

use llvm_ir::ir::{Function, Item, Module};
use llvm_ir::lexical::unescape;

/// A named metadata entity found among a module's items.
#[derive(Clone, Debug)]
pub struct NamedMd {
    /// Index in `Module::items`.
    pub item: usize,
    /// Its operands' node numbers (`!{!2, !3}` → `[2, 3]`); inline operands are left out.
    pub operands: Vec<u32>,
}

/// The named metadata `!name` of `m`, if the module has it.
pub fn find_named(m: &Module, name: &[u8]) -> Option<NamedMd> {
    m.items.iter().enumerate().find_map(|(k, it)| {
        let Item::Text(t) = *it else { return None };
        let (n, operands) = parse_named(m.text(t))?;
        (n == name).then_some(NamedMd { item: k, operands })
    })
}

/// Reads `!name = !{!a, !b}`: the unescaped name and the numbered operands.
fn parse_named(text: &[u8]) -> Option<(Vec<u8>, Vec<u32>)> {
    let t = trim(text);
    let rest = t.strip_prefix(b"!")?;
    if !rest.first().is_some_and(|c| !c.is_ascii_digit()) {
        return None;
    }
    let eq = rest.iter().position(|&c| c == b'=')?;
    let name = unescape(trim(&rest[..eq]));
    let body = trim(&rest[eq + 1..]);
    let body = body.strip_prefix(b"!")?;
    let elems = tuple_elems(body)?;
    let operands = elems.iter().filter_map(|e| node_number(e)).collect();
    Some((name, operands))
}

/// The number of a `!N` reference.
pub fn node_number(reference: &[u8]) -> Option<u32> {
    let r = trim(reference).strip_prefix(b"!")?;
    if r.is_empty() || !r.iter().all(u8::is_ascii_digit) {
        return None;
    }
    std::str::from_utf8(r).ok()?.parse().ok()
}

/// The top-level elements of `{a, b, c}` (strings and nesting respected), trimmed.
pub fn tuple_elems(text: &[u8]) -> Option<Vec<&[u8]>> {
    let t = trim(text);
    let body = t.strip_prefix(b"{")?.strip_suffix(b"}")?;
    let mut out = Vec::new();
    let (mut depth, mut start, mut i) = (0i32, 0usize, 0usize);
    while i < body.len() {
        match body[i] {
            b'"' => {
                i += 1;
                while i < body.len() && body[i] != b'"' {
                    i += 1;
                }
            }
            b'(' | b'{' | b'[' | b'<' => depth += 1,
            b')' | b'}' | b']' | b'>' => depth -= 1,
            b',' if depth == 0 => {
                out.push(trim(&body[start..i]));
                start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    let last = trim(&body[start..]);
    if !last.is_empty() || !out.is_empty() {
        out.push(last);
    }
    Some(out)
}

/// The text of node `!n` (after `distinct`), if the module defines it.
pub fn node_text(m: &Module, n: u32) -> Option<&[u8]> {
    m.info.as_ref()?.metadata_text(&m.source, n)
}

/// The integer of a one-element tuple node `!{i32 12}`.
pub fn tuple_int(m: &Module, n: u32) -> Option<u64> {
    let text = node_text(m, n)?;
    let elems = tuple_elems(text.strip_prefix(b"!")?)?;
    int_of(elems.first()?)
}

/// The value of a typed integer constant (`i32 12`).
fn int_of(typed: &[u8]) -> Option<u64> {
    let v = typed
        .split(|c| c.is_ascii_whitespace())
        .rfind(|w| !w.is_empty())?;
    std::str::from_utf8(v).ok()?.parse().ok()
}

/// The module flag `key`'s value operand text (`i32 3`), as `Module::getModuleFlag` finds it.
pub fn module_flag<'m>(m: &'m Module, key: &[u8]) -> Option<&'m [u8]> {
    let flags = find_named(m, b"llvm.module.flags")?;
    flags.operands.iter().find_map(|&n| {
        let elems = tuple_elems(node_text(m, n)?.strip_prefix(b"!")?)?;
        let k = elems.get(1)?.strip_prefix(b"!\"")?.strip_suffix(b"\"")?;
        (unescape(k) == key)
            .then(|| elems.get(2).copied())
            .flatten()
    })
}

/// Appends the references `refs` to named metadata `!name`, creating it at the end of the
/// module when it does not exist (LLVM's `getOrInsertNamedMetadata` then `addOperand`).
pub fn append_named(m: &mut Module, name: &str, refs: &[u32]) {
    let list: Vec<String> = refs.iter().map(|n| format!("!{n}")).collect();
    match find_named(m, name.as_bytes()) {
        Some(found) => {
            let Item::Text(t) = m.items[found.item] else {
                return;
            };
            let old = trim(m.text(t)).to_vec();
            let Some(close) = old.iter().rposition(|&c| c == b'}') else {
                return;
            };
            let empty = old[..close].iter().rev().find(|c| !c.is_ascii_whitespace()) == Some(&b'{');
            let mut new = old[..close].to_vec();
            if !empty {
                new.extend_from_slice(b", ");
            }
            new.extend_from_slice(list.join(", ").as_bytes());
            new.extend_from_slice(&old[close..]);
            let nt = m.strings.add(&new);
            m.items[found.item] = Item::Text(nt);
        }
        None => m.push_text(&format!("!{name} = !{{{}}}", list.join(", "))),
    }
}

/// Whether LLVM's debugify skips `f` (`isFunctionSkipped`: no exact definition): linkonce,
/// weak, their ODR forms and available_externally definitions, and — when the module asks
/// for semantic interposition — definitions that are not dso_local.
pub fn is_skipped(f: &Function, semantic_interposition: bool) -> bool {
    let words = header_words(f);
    let has = |w: &[u8]| words.iter().any(|x| x.as_slice() == w);
    let inexact = [
        b"linkonce" as &[u8],
        b"weak",
        b"linkonce_odr",
        b"weak_odr",
        b"available_externally",
        b"common",
        b"extern_weak",
    ];
    if inexact.iter().any(|w| has(w)) {
        return true;
    }
    semantic_interposition && !is_local(f) && !has(b"dso_local")
}

/// Whether `f` has private or internal linkage.
pub fn is_local(f: &Function) -> bool {
    header_words(f)
        .iter()
        .any(|w| w.as_slice() == b"private" || w.as_slice() == b"internal")
}

/// The words of a function header before its name (`define internal fastcc i32`).
fn header_words(f: &Function) -> Vec<Vec<u8>> {
    let mut text = Vec::new();
    for p in f.header_pieces() {
        match *p {
            llvm_ir::ir::Piece::Text(t) => text.extend_from_slice(f.text(t)),
            _ => break,
        }
    }
    let end = text.iter().position(|&c| c == b'@').unwrap_or(text.len());
    text[..end]
        .split(|c| c.is_ascii_whitespace())
        .filter(|w| !w.is_empty())
        .map(<[u8]>::to_vec)
        .collect()
}

/// The function's name as LLVM holds it: unescaped, empty for a numbered (`@0`) function.
pub fn function_name(f: &Function) -> Vec<u8> {
    let w = f.text(f.name);
    match w.first() {
        Some(b'"') if w.len() >= 2 => unescape(&w[1..w.len() - 1]),
        _ if w.iter().all(u8::is_ascii_digit) => Vec::new(),
        _ => w.to_vec(),
    }
}

/// Whether the module flag `SemanticInterposition` is set (non-zero).
pub fn semantic_interposition(m: &Module) -> bool {
    module_flag(m, b"SemanticInterposition")
        .and_then(int_of)
        .is_some_and(|v| v != 0)
}

use llvm_ir::ir::metadata::trim;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn named_metadata_and_tuples() {
        let (n, ops) = parse_named(b"!llvm.module.flags = !{!0, !12}").unwrap();
        assert_eq!(n, b"llvm.module.flags");
        assert_eq!(ops, vec![0, 12]);
        assert!(parse_named(b"!3 = !{i32 1}").is_none());
        assert_eq!(
            parse_named(b"!llvm.dbg.cu = !{}").unwrap().1,
            Vec::<u32>::new()
        );
        let e = tuple_elems(b"{i32 2, !\"Debug, Info\", i32 3}").unwrap();
        assert_eq!(e, vec![&b"i32 2"[..], b"!\"Debug, Info\"", b"i32 3"]);
        assert_eq!(int_of(b"i32 12"), Some(12));
        assert!(tuple_elems(b"{}").unwrap().is_empty());
    }
}
