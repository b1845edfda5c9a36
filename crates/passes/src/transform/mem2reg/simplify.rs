//! After renaming: folding trivial phis, filling in unreachable predecessors, writing the
//! phis out; and the value facts that decide folds (LLVM's `simplifyPHINode`,
//! `isGuaranteedNotToBePoison`, `convertMetadataToAssumes`).
//!
//! A phi folds when its incoming values, ignoring itself, `undef` and `poison`, are one value
//! `v`; with `undef`/`poison` among them only when `v` dominates the phi, and — for `undef`,
//! under newer LLVM's rules ([`super::UndefRules`]) — only when `v` cannot be poison
//! (replacing `undef` by a possibly-poison value makes the program more undefined; LLVM 19
//! does it, see the conformance test `single-store.ll`'s "FIXME: This is a miscompile"). Folding repeats
//! through a worklist until nothing changes. Phis left with fewer entries than their block
//! has predecessor edges (edges from unreachable blocks) get `poison` for the missing ones,
//! in block order, as LLVM does.

use super::debug_info::Loc;
use super::slots::{NewPhi, Slot};
use super::tags::ValueTags;
use super::Promoter;
use llvm_ir::ir::builder::{CallPart, PhiWriter};
use llvm_ir::ir::dfg::ValueDef;
use llvm_ir::ir::{flags, param_flags, Block, FuncBuilder, Inst, Opcode, Text, TypeData, Value};
use ssa::construct::fold::{fold_trivial_phis, Folder};
use ssa::construct::rename::Incoming;

/// Whether `v` is `undef` (not poison).
fn is_undef(p: &Promoter<'_, '_>, v: Value) -> bool {
    matches!(p.f.dfg.values[v].def, ValueDef::Undef)
}

fn is_poison(p: &Promoter<'_, '_>, v: Value) -> bool {
    matches!(p.f.dfg.values[v].def, ValueDef::Poison)
}

/// Whether two (resolved) values are the same value: the same id, or equal constants.
pub(crate) fn same_value(p: &Promoter<'_, '_>, a: Value, b: Value) -> bool {
    if a == b {
        return true;
    }
    let (da, db) = (&p.f.dfg.values[a], &p.f.dfg.values[b]);
    if da.ty != db.ty {
        return false;
    }
    match (da.def, db.def) {
        (ValueDef::Const(x), ValueDef::Const(y)) => {
            let (tx, ty) = (p.f.text(x), p.f.text(y));
            if tx == ty {
                return true;
            }
            use llvm_ir::lexical::int_literal_value as lit;
            match (lit(tx), lit(ty), p.f.types.data(da.ty)) {
                (Some(i), Some(j), TypeData::Int(bits)) => truncate(i, *bits) == truncate(j, *bits),
                _ => false,
            }
        }
        _ => false,
    }
}

fn truncate(v: i128, bits: u32) -> i128 {
    if bits >= 128 {
        v
    } else {
        v & ((1i128 << bits) - 1)
    }
}

/// LLVM's `simplifyPHINode` (with the undef-to-poison guard under newer LLVM's rules).
fn simplify_phi(
    p: &mut Promoter<'_, '_>,
    ph: &NewPhi,
    incoming: &[(Value, Block)],
) -> Option<Value> {
    let me = ph.value;
    let (mut common, mut has_undef, mut has_poison) = (None::<Value>, false, false);
    for &(v, _) in incoming {
        let v = p.f.dfg.resolve(v);
        if v == me {
            continue;
        }
        if is_poison(p, v) {
            has_poison = true;
            continue;
        }
        if is_undef(p, v) {
            has_undef = true;
            continue;
        }
        match common {
            Some(c) if !same_value(p, c, v) => return None,
            _ => common = Some(v),
        }
    }
    let ty = p.f.dfg.value_type(me);
    let Some(c) = common else {
        return Some(if has_undef {
            p.f.dfg.undef(ty)
        } else {
            super::edit::poison(p.f, ty)
        });
    };
    if has_undef || has_poison {
        if !value_dominates_block(p, c, ph.block) {
            return None;
        }
        if has_undef && p.newer_undef_rules() && !guaranteed_not_poison(p, c, Some(ph.block), 0) {
            return None;
        }
    }
    Some(c)
}

/// Whether `v` is available at the head of `b` (not defined in `b` itself).
fn value_dominates_block(p: &Promoter<'_, '_>, v: Value, b: Block) -> bool {
    let Some(i) = p.f.dfg.value_inst(v) else {
        return true;
    };
    let Some(d) = p.f.layout.inst_block(i) else {
        return false;
    };
    if !p.dt().is_reachable(b) {
        return true;
    }
    if !p.dt().is_reachable(d) || d == b {
        return false;
    }
    if p.f.dfg.opcode(i) == Opcode::Invoke {
        // Only through the normal destination.
        let normal = p.f.dfg.inst_blocks(i)[0];
        return p.cfg().distinct_preds(normal) == [d] && p.dt().dominates(normal, b);
    }
    p.dt().strictly_dominates(d, b)
}

/// mem2reg's side of trivial-phi folding ([`ssa::construct::fold`]): LLVM's rule
/// ([`simplify_phi`]), and the IR edits of a fold.
struct Folding<'a, 'f, 'm> {
    p: &'a mut Promoter<'f, 'm>,
    phis: &'a [NewPhi],
    all: &'a Incoming<Value, Loc>,
    /// Each new phi result's phi index (borrowed from the pass: untagged again after).
    index: ValueTags,
}

impl Folder for Folding<'_, '_, '_> {
    #[inline]
    fn operand_phis(&self, k: usize, mut f: impl FnMut(u32)) {
        for &(v, _) in self.all.of(k) {
            if let Some(q) = self.index.get(self.p.f.dfg.resolve(v)) {
                f(q);
            }
        }
    }

    fn try_fold(&mut self, k: usize) -> Option<Option<u32>> {
        let ph = &self.phis[k];
        let v = simplify_phi(self.p, ph, self.all.of(k))?;
        let r = ph.value;
        self.p.f.layout.remove_inst(ph.inst);
        self.p.stats.phis_folded += 1;
        let v = self.p.f.dfg.resolve(v);
        if v != r {
            self.p.f.dfg.replace_all_uses(r, v);
        }
        Some(self.index.get(v))
    }
}

/// Folds trivial phis, then writes out the others (poison for unreachable predecessors,
/// `nsz` where the function asks for it, merged locations).
pub(crate) fn run(
    p: &mut Promoter<'_, '_>,
    slots: &[Slot],
    phis: Vec<NewPhi>,
    all: &Incoming<Value, Loc>,
) {
    let mut index = std::mem::take(&mut p.phi_of);
    for (k, ph) in phis.iter().enumerate() {
        index.set(ph.value, k as u32);
    }
    let mut folding = Folding {
        p,
        phis: &phis,
        all,
        index,
    };
    let alive = fold_trivial_phis(phis.len(), &mut folding);
    let mut index = folding.index;
    for ph in &phis {
        index.unset(ph.value);
    }
    p.phi_of = index;
    let dbg = p.f.dfg.strings.add(b"dbg");
    let mut w = PhiWriter::new();
    let mut buf = Vec::new();
    for (k, ph) in phis.into_iter().enumerate() {
        if alive[k] {
            let slot = &slots[ph.slot as usize];
            write_phi(p, &mut w, (ph, slot), all.of(k), all.loc(k), &mut buf, dbg);
            p.stats.phis_inserted += 1;
        }
    }
}

/// Writes phi `ph`'s template (of slot `slot`), adding `poison` for predecessors the walk
/// never reached (see [`super::uninit::missing_value`]).
fn write_phi(
    p: &mut Promoter<'_, '_>,
    w: &mut PhiWriter,
    (ph, slot): (NewPhi, &Slot),
    given: &[(Value, Block)],
    loc: Loc,
    incoming: &mut Vec<(Value, Block)>,
    dbg: Text,
) {
    incoming.clear();
    incoming.extend(given.iter().map(|&(v, b)| (p.f.dfg.resolve(v), b)));
    let preds = p.cfg().preds(ph.block);
    if incoming.len() < preds.len() {
        let mut missing: Vec<Block> = preds.to_vec();
        missing.sort_by_key(|&b| p.cfg().layout_position(b));
        for &(_, b) in incoming.iter() {
            if let Some(i) = missing.iter().position(|&m| m == b) {
                missing.remove(i);
            }
        }
        for b in missing {
            let z = super::uninit::missing_value(p, slot);
            incoming.push((z, b));
        }
    }
    let ty = ph.ty;
    let nsz = p.f.no_signed_zeros && is_fp_like(p, ty);
    w.set_incoming(p.f, ph.inst, nsz, incoming);
    if let Some(l) = loc {
        p.f.dfg.set_attachments(ph.inst, &[(dbg, l)]);
    }
}

fn is_fp_like(p: &Promoter<'_, '_>, mut t: llvm_ir::ir::Type) -> bool {
    loop {
        match p.f.types.data(t) {
            TypeData::Array { elem, .. } => t = *elem,
            TypeData::Float(_) => return true,
            TypeData::Vector { elem, .. } => {
                return matches!(p.f.types.data(*elem), TypeData::Float(_))
            }
            _ => return false,
        }
    }
}

/// LLVM's `isGuaranteedNotToBePoison` (depth-limited as LLVM's), for values of this
/// function; `ctx` is the block where the fact is needed (for dominating branch conditions).
pub(crate) fn guaranteed_not_poison(
    p: &Promoter<'_, '_>,
    v: Value,
    ctx: Option<Block>,
    depth: u32,
) -> bool {
    if depth >= 6 {
        return false;
    }
    let d = &p.f.dfg.values[v];
    let direct = match d.def {
        ValueDef::Poison => return false,
        ValueDef::Undef => return true,
        ValueDef::Param(i) => {
            p.f.param_flags
                .get(i as usize)
                .is_some_and(|f| f & (param_flags::NOUNDEF | param_flags::DEREFERENCEABLE) != 0)
        }
        ValueDef::Const(t) => const_not_poison(p, p.f.text(t)),
        ValueDef::Inst(i) => inst_not_poison(p, i, depth),
    };
    direct || (ctx.is_some() && used_by_dominating_branch(p, v, ctx.expect("checked")))
}

/// Constants that cannot be poison: literals, `null`, globals, strings, aggregates of those,
/// and constant GEPs that stay within a global (see `const_gep`).
fn const_not_poison(p: &Promoter<'_, '_>, t: &[u8]) -> bool {
    let contains = |w: &[u8]| t.windows(w.len()).any(|x| x == w);
    if contains(b"poison") || contains(b"undef") {
        return false;
    }
    let first_word = t
        .iter()
        .take_while(|c| c.is_ascii_alphabetic() || **c == b'_')
        .count();
    let word = &t[..first_word];
    if word == b"getelementptr" {
        return super::const_gep::not_poison(t, p.md.reader.ctx, &p.f.types, p.dl);
    }
    !matches!(
        word,
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
            | b"trunc"
            | b"zext"
            | b"sext"
            | b"fptoui"
            | b"fptosi"
            | b"uitofp"
            | b"sitofp"
            | b"ptrtoint"
            | b"inttoptr"
            | b"bitcast"
            | b"addrspacecast"
            | b"icmp"
            | b"fcmp"
            | b"select"
            | b"extractelement"
            | b"insertelement"
            | b"shufflevector"
            | b"blockaddress"
            | b"dso_local_equivalent"
            | b"no_cfi"
            | b"ptrauth"
            | b"asm"
    )
}

fn has_attachment(p: &Promoter<'_, '_>, i: Inst, kinds: &[&[u8]]) -> bool {
    p.f.dfg
        .inst_attachments(i)
        .iter()
        .any(|(k, _)| kinds.contains(&p.f.text(*k)))
}

fn inst_not_poison(p: &Promoter<'_, '_>, i: Inst, depth: u32) -> bool {
    let d = &p.f.dfg.insts[i];
    let ops = || p.f.dfg.inst_values(i).iter().map(|&v| p.f.dfg.resolve(v));
    match d.opcode {
        Opcode::Freeze | Opcode::Alloca => true,
        Opcode::Call | Opcode::Invoke => d.flags & flags::RET_NOUNDEF != 0,
        Opcode::Load => has_attachment(
            p,
            i,
            &[b"noundef", b"dereferenceable", b"dereferenceable_or_null"],
        ),
        Opcode::Phi => {
            let blocks = p.f.dfg.inst_blocks(i);
            ops()
                .zip(blocks)
                .all(|(v, &b)| guaranteed_not_poison(p, v, Some(b), depth + 1))
        }
        op => {
            !can_create_poison(p, i, op)
                && ops().all(|v| guaranteed_not_poison(p, v, None, depth + 1))
        }
    }
}

/// LLVM's `canCreateUndefOrPoison` (flags and metadata considered).
fn can_create_poison(p: &Promoter<'_, '_>, i: Inst, op: Opcode) -> bool {
    use Opcode::*;
    if p.f.dfg.insts[i].flags & flags::MAY_POISON != 0 {
        return true;
    }
    match op {
        Shl | LShr | AShr => {
            let amt = p.f.dfg.resolve(p.f.dfg.inst_values(i)[1]);
            let bits = match p.f.types.data(p.f.dfg.value_type(amt)) {
                TypeData::Int(b) => *b as i128,
                _ => return true,
            };
            match p.f.dfg.values[amt].def {
                ValueDef::Const(t) => !llvm_ir::lexical::int_literal_value(p.f.text(t))
                    .is_some_and(|v| (0..bits).contains(&v)),
                _ => true,
            }
        }
        Add | Sub | Mul | And | Or | Xor | UDiv | SDiv | URem | SRem | Trunc | ZExt | SExt
        | FPTrunc | FPExt | UIToFP | SIToFP | PtrToInt | IntToPtr | BitCast | AddrSpaceCast
        | GetElementPtr | ICmp | FCmp | Select | ExtractValue | InsertValue | FNeg | FAdd
        | FSub | FMul | FDiv | FRem => false,
        _ => true,
    }
}

/// Whether a conditional branch or switch in a dominator of `b` tests `v` (directly, or
/// through an instruction that propagates poison from it): then `v` is not poison at `b`.
fn used_by_dominating_branch(p: &Promoter<'_, '_>, v: Value, b: Block) -> bool {
    let mut cur = p.dt().idom(b);
    let mut steps = 0;
    while let Some(dom) = cur {
        if steps > 64 {
            break;
        }
        steps += 1;
        if let Some(t) = p.f.terminator(dom) {
            let cond = match p.f.dfg.opcode(t) {
                Opcode::Br if p.f.dfg.inst_values(t).len() == 1 => Some(p.f.dfg.inst_values(t)[0]),
                Opcode::Switch => Some(p.f.dfg.inst_values(t)[0]),
                _ => None,
            };
            if let Some(c) = cond.map(|c| p.f.dfg.resolve(c)) {
                if c == v {
                    return true;
                }
                if let Some(ci) = p.f.dfg.value_inst(c) {
                    let op = p.f.dfg.opcode(ci);
                    let propagates = matches!(
                        op,
                        Opcode::ICmp
                            | Opcode::FCmp
                            | Opcode::Add
                            | Opcode::Sub
                            | Opcode::Mul
                            | Opcode::And
                            | Opcode::Or
                            | Opcode::Xor
                            | Opcode::Trunc
                            | Opcode::ZExt
                            | Opcode::SExt
                            | Opcode::Shl
                            | Opcode::LShr
                            | Opcode::AShr
                    );
                    if propagates
                        && p.f
                            .dfg
                            .inst_values(ci)
                            .iter()
                            .any(|&o| p.f.dfg.resolve(o) == v)
                    {
                        return true;
                    }
                }
            }
        }
        cur = p.dt().idom(dom);
    }
    false
}

/// Whether `v` is known not to be null: slots, globals, `nonnull` parameters.
fn known_non_zero(p: &Promoter<'_, '_>, v: Value, depth: u32) -> bool {
    match p.f.dfg.values[v].def {
        ValueDef::Param(i) => {
            p.f.param_flags
                .get(i as usize)
                .is_some_and(|f| f & param_flags::NONNULL != 0)
        }
        ValueDef::Const(t) => {
            let s = p.f.text(t);
            s.first() == Some(&b'@')
                || (s.first().is_some_and(u8::is_ascii_digit) && s.iter().any(|&c| c != b'0'))
        }
        ValueDef::Inst(i) => match p.f.dfg.opcode(i) {
            Opcode::Alloca => true,
            Opcode::Phi if depth < 4 => {
                p.f.dfg
                    .inst_values(i)
                    .iter()
                    .all(|&o| known_non_zero(p, p.f.dfg.resolve(o), depth + 1))
            }
            _ => false,
        },
        _ => false,
    }
}

/// Whether a branch on `v != null` (or `v == null`, on its false edge) in a dominator of `b`
/// leads only into `b`'s part of the CFG (LLVM's `isKnownNonNullFromDominatingCondition`).
fn non_null_by_dominating_branch(p: &Promoter<'_, '_>, v: Value, b: Block) -> bool {
    let mut cur = Some(b);
    let mut steps = 0;
    while let Some(d) = cur {
        steps += 1;
        if steps > 256 {
            return false;
        }
        let Some(t) = p.f.terminator(d) else {
            cur = p.dt().idom(d);
            continue;
        };
        if p.f.dfg.opcode(t) == Opcode::Br && p.f.dfg.inst_values(t).len() == 1 {
            let c = p.f.dfg.resolve(p.f.dfg.inst_values(t)[0]);
            if let Some(ci) = p.f.dfg.value_inst(c) {
                if let Some(ne) = null_test(p, ci, v) {
                    let succ = p.f.dfg.inst_blocks(t)[if ne { 0 } else { 1 }];
                    let other = p.f.dfg.inst_blocks(t)[if ne { 1 } else { 0 }];
                    if succ != other
                        && p.cfg().distinct_preds(succ) == [d]
                        && p.dt().dominates(succ, b)
                    {
                        return true;
                    }
                }
            }
        }
        cur = p.dt().idom(d);
    }
    false
}

/// `Some(true)` for `icmp ne v, null`, `Some(false)` for `icmp eq v, null` (either order).
fn null_test(p: &Promoter<'_, '_>, cmp: Inst, v: Value) -> Option<bool> {
    if p.f.dfg.opcode(cmp) != Opcode::ICmp {
        return None;
    }
    let ops = p.f.dfg.inst_values(cmp);
    let (a, b) = (p.f.dfg.resolve(ops[0]), p.f.dfg.resolve(ops[1]));
    let is_null =
        |x: Value| matches!(p.f.dfg.values[x].def, ValueDef::Const(t) if p.f.text(t) == b"null");
    if !((a == v && is_null(b)) || (b == v && is_null(a))) {
        return None;
    }
    let text = p.f.dfg.inst_pieces(cmp).iter().find_map(|pc| match pc {
        llvm_ir::ir::Piece::Text(t) => Some(p.f.text(*t)),
        _ => None,
    })?;
    if text.windows(4).any(|w| w == b" ne ") {
        Some(true)
    } else if text.windows(4).any(|w| w == b" eq ") {
        Some(false)
    } else {
        None
    }
}

/// LLVM's `convertMetadataToAssumes`: a load replaced by `undef` that carried `!noundef`
/// leaves a store that marks the path unreachable; a `!nonnull !noundef` load replaced by a
/// value not known to be non-null leaves `llvm.assume(v != null)`.
pub(crate) fn convert_metadata_to_assumes(p: &mut Promoter<'_, '_>, load: Inst, v: Value) {
    let noundef = has_attachment(p, load, &[b"noundef"]);
    let opaque = p.f.types.opaque_mode;
    // LLVM 19 (opaque pointers): a null `!nonnull` load is poison, so the promise needs
    // `!noundef` too. LLVM 14 (typed pointers): it was undefined behaviour on its own.
    if opaque && !noundef {
        return;
    }
    let v = p.f.dfg.resolve(v);
    if opaque && (is_undef(p, v) || is_poison(p, v)) {
        {
            let i1 = p.f.types.common().i1;
            let ptr = p.f.types.ptr();
            let t = p.f.dfg.constant(i1, "true");
            let nowhere = p.f.dfg.poison(ptr);
            let mut fb = FuncBuilder::new(p.f);
            fb.text("store i1 ")
                .value(t)
                .text(", ptr ")
                .value(nowhere)
                .text(", align 1");
            let st = fb.finish(Opcode::Store, 0, llvm_ir::ir::Type::NONE, None);
            p.f.layout.insert_inst_before(st, load);
        }
        return;
    }
    if !has_attachment(p, load, &[b"nonnull"]) || known_non_zero(p, v, 0) {
        return;
    }
    let at = p.f.layout.inst_block(load).expect("placed load");
    if non_null_by_dominating_branch(p, v, at) {
        return;
    }
    let ty = p.f.dfg.value_type(v);
    let i1 = p.f.types.common().i1;
    let null = p.f.dfg.constant(ty, "null");
    let mut fb = FuncBuilder::new(p.f);
    let cmp = fb.make_icmp("ne", v, null, i1, Text::NONE);
    let c = fb.func.dfg.insts[cmp].result;
    let void = fb.func.types.void();
    let assume_ty = fb.func.types.function(void, &[i1], false);
    let parts = [
        CallPart::Text("call void @llvm.assume(i1 "),
        CallPart::Value(c),
        CallPart::Text(")"),
    ];
    let call = fb.make_call("@llvm.assume", assume_ty, &parts, None);
    p.f.layout.insert_inst_before(cmp, load);
    p.f.layout.insert_inst_before(call, load);
    p.f.needs_decls
        .push("declare void @llvm.assume(i1 noundef)");
}
