//! `--promote-byval` ([`Options::promote_byval`](super::Options::promote_byval)): a `byval`
//! pointer argument is the callee's own copy of the caller's value, so when its address does
//! not escape — its users are those a promotable slot may have: loads and stores of the whole
//! byval type at the pointer itself, lifetime markers, debug and droppable uses — it is
//! promoted like a slot (stores to it are invisible to the caller anyway).
//!
//! How: before the first round, each such argument `%p` gets a stand-in slot. Its `alloca`
//! goes at the top of the entry block, and `%p.val = load <ty>, ptr %p, align A` (the
//! argument's `align`, else 1) and a store of it into the slot go after the block's leading
//! allocas; every use of `%p` becomes a use of the slot. The rounds then treat the slot as any
//! other (the store makes its entry value `%p.val`), so the argument's loads and stores become
//! SSA values. After the last round (`finish`): a stand-in slot left in memory (by
//! `--max-promoted`, `--max-slot-size` or the phi-copy budget) is undone — its uses are the
//! argument's again, the load and store go — and `%p.val` goes too when only debug values
//! read it (they then see `undef`), so debug info never changes the code. Explanations and
//! remarks name the argument.
//!
//! The byval type is read from the function's header (`byval(<ty>)`, or the pointee of a typed
//! pointer for LLVM 14's bare `byval`): an argument whose first load or store uses another
//! type (compared as printed, ignoring spaces) stays in memory.

use super::promotable::{self, Blocker};
use super::uses::UseIndex;
use super::Promoter;
use llvm_ir::ir::{FuncBuilder, Function, Inst, Opcode, Piece, Text, Type, TypeData, Value};

/// A `byval` argument given a stand-in slot.
pub(crate) struct ByvalSlot {
    /// The argument.
    pub param: Value,
    /// The stand-in slot's `alloca`.
    pub alloca: Inst,
    /// `%p.val = load <ty>, ptr %p`: the entry value.
    load: Inst,
    /// The store of the entry value into the slot.
    store: Inst,
}

/// A `byval` parameter as the function's header writes it.
struct ByvalParam {
    /// Its position.
    index: usize,
    /// The type inside `byval(...)`, spaces removed (`None` for a bare `byval`).
    ty_text: Option<Vec<u8>>,
    /// Its `align`.
    align: Option<u64>,
}

/// Gives each promotable `byval` argument its stand-in slot (listed in `p.byval`), and with
/// `--explain` says why the others stay in memory.
pub(crate) fn prepare(p: &mut Promoter<'_, '_>) {
    let params = byval_params(p.f);
    if params.is_empty() {
        return;
    }
    let uses = UseIndex::compute(p.f);
    for bp in params {
        let param = p.f.params[bp.index];
        let pty = p.f.dfg.value_type(param);
        if !matches!(
            p.f.types.data(pty),
            TypeData::Ptr { .. } | TypeData::TypedPtr { .. }
        ) {
            continue; // (a broken module read with -disable-verify)
        }
        // With no load or store, any other use blocks it (whatever the type).
        let verdict = match value_type(p.f, &uses, param, &bp) {
            None => promotable::check_address(p.f, &uses, param, Type::NONE).map(|()| None),
            Some(Ok(ty)) => promotable::check_address(p.f, &uses, param, ty).map(|()| Some(ty)),
            Some(Err(e)) => Err(e),
        };
        match verdict {
            Ok(None) => {}
            Ok(Some(ty)) => {
                let slot = stand_in(p, &uses, param, ty, bp.align);
                p.byval.push(slot);
            }
            Err((why, inst)) if p.opts.explain => explain_blocked(p, param, why, inst),
            Err(_) => {}
        }
    }
}

/// The type the argument's value would have: that of its first load or store (`None` when it
/// has none); `Err` names that access when the type is not the byval type.
#[allow(clippy::type_complexity)]
fn value_type(
    f: &Function,
    uses: &UseIndex,
    param: Value,
    bp: &ByvalParam,
) -> Option<Result<Type, (Blocker, Inst)>> {
    let dfg = &f.dfg;
    let (access, ty) = uses
        .users(param)
        .iter()
        .find_map(|&(u, k)| match dfg.opcode(u) {
            Opcode::Load => Some((u, dfg.value_type(dfg.insts[u].result))),
            Opcode::Store if k == 1 => {
                Some((u, dfg.value_type(dfg.resolve(dfg.inst_values(u)[0]))))
            }
            _ => None,
        })?;
    let same = match &bp.ty_text {
        Some(text) => without_spaces(f.types.display(ty).to_string().as_bytes()) == *text,
        None => matches!(
            f.types.data(dfg.value_type(param)),
            TypeData::TypedPtr { pointee, .. } if *pointee == ty
        ),
    };
    Some(if same {
        Ok(ty)
    } else {
        Err((Blocker::TypeMismatch, access))
    })
}

/// Makes the stand-in slot of `param` (see the module docs), after those of earlier arguments:
/// every stand-in alloca comes before every entry value's store (an alloca starts its slot's
/// life: a store above it would be forgotten).
fn stand_in(
    p: &mut Promoter<'_, '_>,
    uses: &UseIndex,
    param: Value,
    ty: Type,
    align: Option<u64>,
) -> ByvalSlot {
    let entry = p.f.layout.entry_block().expect("non-empty function");
    let pty = p.f.dfg.value_type(param);
    let name = match p.f.value_name(param).map(super::names::plain) {
        Some(mut n) => {
            n.extend_from_slice(b".val");
            let unique = p.names().create(&n);
            super::names::name_text(p.f, &unique)
        }
        None => Text::NONE,
    };
    let mut fb = FuncBuilder::new(p.f);
    let alloca = fb.make_alloca(ty, pty, Text::NONE, None);
    let slot = fb.func.dfg.insts[alloca].result;
    fb.text("load ")
        .ty(ty)
        .text(", ")
        .ty(pty)
        .text(" ")
        .value(param);
    fb.text(&format!(", align {}", align.unwrap_or(1)));
    let load = fb.finish(Opcode::Load, 0, Type::NONE, Some((ty, name)));
    let loaded = fb.func.dfg.insts[load].result;
    let store = fb.make_store(loaded, slot, None);
    match p.byval.last() {
        Some(prev) => {
            p.f.layout.insert_inst_after(alloca, prev.alloca);
            p.f.layout.insert_inst_after(load, prev.store);
        }
        None => {
            p.f.layout.prepend_inst(alloca, entry);
            let first =
                p.f.layout
                    .block_insts(entry)
                    .find(|&i| p.f.dfg.opcode(i) != Opcode::Alloca);
            match first {
                Some(i) => p.f.layout.insert_inst_before(load, i),
                None => p.f.layout.append_inst(load, entry),
            }
        }
    }
    p.f.layout.insert_inst_after(store, load);
    for &(u, k) in uses.users(param) {
        p.f.dfg.inst_values_mut(u)[k as usize] = slot;
    }
    ByvalSlot {
        param,
        alloca,
        load,
        store,
    }
}

/// After the last round: undoes the stand-in slots left in memory (their reasons go to
/// `p.byval_left` for explanations and remarks), and deletes entry values that only debug
/// values read.
pub(crate) fn finish(p: &mut Promoter<'_, '_>) {
    if p.byval.is_empty() {
        return;
    }
    p.f.dfg.resolve_aliases();
    let slots = std::mem::take(&mut p.byval);
    let (left, promoted): (Vec<ByvalSlot>, Vec<ByvalSlot>) = slots
        .into_iter()
        .partition(|b| p.f.layout.is_inst_inserted(b.alloca));
    if !left.is_empty() {
        let uses = UseIndex::compute(p.f);
        for b in &left {
            undo(p, &uses, b);
        }
    }
    let loads: Vec<Inst> = promoted.iter().map(|b| b.load).collect();
    let used = used_by_code(p, &loads);
    for (b, used) in promoted.iter().zip(used) {
        if !used {
            p.forget_name(b.load);
            super::edit::erase(p.f, b.load);
        }
    }
}

/// Undoes a stand-in slot left in memory: its uses become the argument's again; its load,
/// store and alloca go.
fn undo(p: &mut Promoter<'_, '_>, uses: &UseIndex, b: &ByvalSlot) {
    let reason = super::unpromoted_reason(p, b.alloca);
    let aggregate = promotable::is_aggregate_slot(p.f, b.alloca);
    p.byval_left.push((b.param, reason, aggregate));
    let slot = p.f.dfg.insts[b.alloca].result;
    for &(u, k) in uses.users(slot) {
        if u != b.store {
            p.f.dfg.inst_values_mut(u)[k as usize] = b.param;
        }
    }
    p.f.layout.remove_inst(b.store);
    p.forget_name(b.load);
    p.f.layout.remove_inst(b.load);
    p.f.layout.remove_inst(b.alloca);
}

/// Whether each of `insts` (placed, with results) is an operand of a placed instruction other
/// than a debug value: one use index of the whole function.
pub(crate) fn used_by_code(p: &mut Promoter<'_, '_>, insts: &[Inst]) -> Vec<bool> {
    if insts.is_empty() {
        return Vec::new();
    }
    p.f.dfg.resolve_aliases();
    let uses = UseIndex::compute(p.f);
    let f = &*p.f;
    insts
        .iter()
        .map(|&i| {
            (uses.users(f.dfg.insts[i].result).iter()).any(|&(u, _)| !promotable::is_debug(f, u))
        })
        .collect()
}

/// `--explain` for a byval argument that stays in memory.
fn explain_blocked(p: &mut Promoter<'_, '_>, param: Value, why: Blocker, inst: Inst) {
    use std::fmt::Write as _;
    let fname = p.f.name_str();
    let num = p.input_names();
    let (arg, blocking) = (num.value_ref(p.f, param), num.inst_text(p.f, inst));
    let _ = writeln!(
        p.explain,
        "{fname}: {arg} (byval argument): stays in memory: {} (blocking use: {})",
        why.message(),
        blocking.trim()
    );
}

/// The function's `byval` parameters, read from its header.
fn byval_params(f: &Function) -> Vec<ByvalParam> {
    let mut out = Vec::new();
    let mut text: Vec<u8> = Vec::new();
    // The first parameter's attributes follow `@name(`; the return type and its attributes
    // before it are skipped.
    let mut opening = b"@".to_vec();
    opening.extend_from_slice(f.text(f.name));
    opening.push(b'(');
    let mut first = true;
    for piece in f.header_pieces() {
        match *piece {
            Piece::Text(t) => text.extend_from_slice(f.text(t)),
            Piece::Value(i) => {
                let attrs = match first {
                    true => {
                        find(&text, &opening).map_or(&text[..0], |at| &text[at + opening.len()..])
                    }
                    false => &text[..],
                };
                first = false;
                if let Some(bp) = parse_byval(attrs, i as usize) {
                    out.push(bp);
                }
                text.clear();
            }
            _ => {}
        }
    }
    out.retain(|bp| bp.index < f.params.len());
    out
}

/// Reads `byval` and `align` from one parameter's text (its type and attributes), skipping
/// quoted strings.
fn parse_byval(attrs: &[u8], index: usize) -> Option<ByvalParam> {
    let words = words(attrs);
    let at = words.iter().position(|w| w.0 == b"byval")?;
    let after = words[at].1;
    let ty_text = match attrs.get(after) {
        Some(b'(') => Some(without_spaces(balanced(&attrs[after..])?)),
        _ => None,
    };
    let align = words.iter().position(|w| w.0 == b"align").and_then(|k| {
        let rest = &attrs[words[k].1..];
        let rest = rest.strip_prefix(b"(").unwrap_or(rest);
        let digits: Vec<u8> = rest
            .iter()
            .skip_while(|c| **c == b' ')
            .take_while(|c| c.is_ascii_digit())
            .copied()
            .collect();
        std::str::from_utf8(&digits).ok()?.parse().ok()
    });
    Some(ByvalParam {
        index,
        ty_text,
        align,
    })
}

/// The bare words of `s` (letters, digits, `_`, `.`, `%`, `@`, `$`, `"`-free), each with the
/// offset just past it; quoted strings are skipped.
fn words(s: &[u8]) -> Vec<(&[u8], usize)> {
    let mut out = Vec::new();
    let mut k = 0;
    while k < s.len() {
        let c = s[k];
        if c == b'"' {
            k += 1;
            while k < s.len() && s[k] != b'"' {
                k += 1;
            }
            k += 1;
        } else if c.is_ascii_alphanumeric() || b"_.%@$".contains(&c) {
            let start = k;
            while k < s.len() && (s[k].is_ascii_alphanumeric() || b"_.%@$".contains(&s[k])) {
                k += 1;
            }
            out.push((&s[start..k], k));
        } else {
            k += 1;
        }
    }
    out
}

/// The text inside the parentheses that open `s`, up to the matching one.
fn balanced(s: &[u8]) -> Option<&[u8]> {
    let mut depth = 0u32;
    let mut quoted = false;
    for (k, &c) in s.iter().enumerate() {
        match c {
            b'"' => quoted = !quoted,
            b'(' if !quoted => depth += 1,
            b')' if !quoted => {
                depth -= 1;
                if depth == 0 {
                    return Some(&s[1..k]);
                }
            }
            _ => {}
        }
    }
    None
}

fn without_spaces(s: &[u8]) -> Vec<u8> {
    s.iter()
        .copied()
        .filter(|c| !c.is_ascii_whitespace())
        .collect()
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byval_and_align_are_read_from_a_parameter() {
        let bp = parse_byval(b", ptr noundef byval(%struct.S) align 8 ", 1).expect("byval");
        assert_eq!(
            (bp.index, bp.ty_text.as_deref(), bp.align),
            (1, Some(&b"%struct.S"[..]), Some(8))
        );
        let bp = parse_byval(b"{ i32, i32 }* byval align 4 ", 0).expect("byval");
        assert_eq!((bp.ty_text, bp.align), (None, Some(4)));
        let bp = parse_byval(b"ptr byval({ i32, ptr addrspace(1) }) ", 0).expect("byval");
        assert_eq!(bp.ty_text.as_deref(), Some(&b"{i32,ptraddrspace(1)}"[..]));
        assert!(parse_byval(b"ptr \"byval\" %struct.byval ", 0).is_none());
        assert!(parse_byval(b"ptr noundef align 8 ", 0).is_none());
    }
}
