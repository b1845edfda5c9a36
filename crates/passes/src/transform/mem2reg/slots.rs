//! One round of promotion over a set of promotable slots: LLVM's `PromoteMem2Reg::run`.
//!
//! For each slot, in order (a slot handled by a fast path is replaced by the last one, as
//! LLVM's `RemoveFromAllocasList` does — this decides phi order and names): drop its
//! droppable uses, and its lifetime markers unless they may save phis; delete the slot if
//! nothing loads or stores it; rewrite it with its single store when that store dominates
//! the loads (or the stored value cannot be poison); sweep it linearly when it lives in one
//! block (these fast paths drop the markers left, as LLVM 19 does); otherwise, under newer
//! LLVM's rules (`UndefRules`), replace its lifetime markers by stores of `undef` (see
//! `kill_store`), and place phis at the iterated dominance frontier of its stores,
//! restricted to the blocks where it is live.
//! Then the renaming walk, removal of the slots and their declares, and phi folding.
//!
//! Invariant: loads and stores of a slot are only ever replaced by values that reach them
//! on every path (or by `undef` where nothing was stored, or where a lifetime marker of the
//! whole slot was passed last), so behaviour is preserved.

use super::debug_info::{self, DbgUser};
use super::edit::{self, erase};
use super::uses::UseIndex;
use super::Promoter;
use llvm_ir::ir::{Block, FuncBuilder, Inst, Opcode, Text, Type, Value};
use ssa::construct::place::{Method, Placer};
use ssa::construct::rename::{Incoming, PhisByBlock};

/// A slot being promoted.
pub struct Slot {
    /// The `alloca`.
    pub alloca: Inst,
    /// Its address value.
    pub ptr: Value,
    /// The type of its value: the type of every load and store (the allocated type, the
    /// alloca's `aux_ty`, but for a byte array promoted as the one type it is accessed with).
    pub ty: Type,
    /// Its unescaped name (empty if unnamed).
    pub name: Vec<u8>,
    /// Loads of it, in layout order.
    pub loads: Vec<Inst>,
    /// Stores to it: its own in layout order, then (on the general path) the stores of
    /// `undef` that stand for its lifetime markers (see `kill_store`).
    pub stores: Vec<Inst>,
    /// Its lifetime markers of the whole slot, kept until the fast paths have had their
    /// turn (see `take_markers`).
    pub markers: Vec<Inst>,
    /// Debug instructions naming it.
    pub dbg: Vec<DbgUser>,
    /// Its block.
    pub block: Block,
    /// How many of `stores` stand for lifetime markers (the last ones).
    pub kills: u32,
    /// Whether it is outside the entry block (its `alloca` then defines `undef`).
    pub non_entry: bool,
    /// Left in memory (phi-copy budget).
    pub dropped: bool,
    /// What it reads where no store reaches, once made (`Value::NONE` before; see
    /// `uninit::value`).
    pub uninit: std::cell::Cell<Value>,
    /// The value explanations name it by: its address, or the `byval` argument it stands in
    /// for (see [`super::byval`]).
    pub shown: Value,
}

/// A phi placed for a slot.
#[derive(Clone)]
pub struct NewPhi {
    /// The phi.
    pub inst: Inst,
    /// Its result, and the result's type (the slot's): kept here so that passes over the
    /// round's phis need not read each instruction again (on very large functions those
    /// reads are cache misses, one per phi and pass).
    pub value: Value,
    /// See `value`.
    pub ty: Type,
    /// Its slot (index into the round's slot list).
    pub slot: u32,
    /// Its block.
    pub block: Block,
}

/// A phi placed for a slot and not yet made (see `make_phis`).
#[derive(Clone, Copy)]
pub struct Candidate {
    /// Its slot (index into the round's slot list).
    pub slot: u32,
    /// Its block.
    pub block: Block,
    /// Its name (`Text::NONE` while naming is deferred: see `keep_live_phis`).
    pub name: Text,
}

/// Runs one round on `allocas` (all promotable), whose values have types `tys` (see
/// [`super::promotable::value_type`]).
pub(crate) fn promote(
    p: &mut Promoter<'_, '_>,
    uses: &UseIndex,
    allocas: Vec<Inst>,
    tys: Vec<Type>,
) {
    let entry = p.f.layout.entry_block().expect("non-empty function");
    let mut slots: Vec<Slot> = Vec::with_capacity(allocas.len());
    for (a, ty) in allocas.into_iter().zip(tys) {
        let s = new_slot(p, a, ty, entry);
        slots.push(s);
    }
    // The phis placed, in placement order (the order LLVM makes them in, which naming
    // follows); made block by block after the last slot (see `make_phis`).
    let mut cands: Vec<Candidate> = Vec::new();
    // What placing phis needs, made for the first slot that needs phis (a function whose
    // slots all take fast paths never computes its CFG).
    let mut placing = None;
    let mut i = 0;
    while i < slots.len() {
        gather(p, uses, &mut slots[i]);
        let s = &mut slots[i];
        let fast = p.opts.flavour == super::Flavour::Pruned;
        let done = if s.loads.is_empty() && s.stores.is_empty() {
            delete_dead(p, s);
            Some("no loads or stores (deleted)")
        } else if fast && s.stores.len() == 1 && single_store(p, s) {
            p.stats.single_store += 1;
            Some("one store, dominating every load (loads take the stored value)")
        } else if fast && one_block(p, s) && single_block(p, s) {
            p.stats.single_block += 1;
            Some("used in one block only (loads take the nearest store above)")
        } else {
            None
        };
        if let Some(what) = done {
            drop_markers(p, &mut slots[i]);
            if p.opts.explain {
                super::explain::fast_path(p, &slots[i], what);
            }
            p.stats.promoted += 1;
            let s = slots.swap_remove(i);
            p.slot_pool.push(s);
            continue;
        }
        let placer = placing.get_or_insert_with(|| {
            let bufs = std::mem::take(&mut p.placing_buffers);
            Placer::with_buffers(p.cfg(), p.dt(), bufs)
        });
        take_markers(p, &mut slots[i]);
        place_phis(p, placer, &slots[i], i as u32, &mut cands);
        i += 1;
    }
    if let Some(placer) = placing {
        if cands.len() <= super::KEEP_BUFFERS_LIMIT {
            p.placing_buffers = placer.into_buffers();
        }
    }
    if !slots.is_empty() {
        rename_and_finish(p, slots, cands);
    }
    remove_kills(p);
}

/// The round after phi placement: the phi budget, the phis, renaming, removal of the slots,
/// phi folding.
fn rename_and_finish(p: &mut Promoter<'_, '_>, mut slots: Vec<Slot>, mut cands: Vec<Candidate>) {
    apply_phi_budget(p, &mut slots, &mut cands);
    let (mut phis, by_block, rank) = make_phis(p, &slots, &cands);
    // Freed before the renaming, which is when a huge function's memory peaks.
    drop(cands);
    let bounded = method(p) == Method::Bounded;
    let mut incoming = std::mem::take(&mut p.phi_incoming);
    let walked = super::rename::run(p, &slots, &phis, &by_block, &mut incoming, bounded);
    if bounded {
        keep_live_phis(p, &slots, &mut phis, &mut incoming, &rank, &walked.live);
    }
    drop(rank);
    finish_slots(p, &slots, &walked.left);
    super::simplify::run(p, &slots, phis, &incoming);
    if incoming.list.len() <= super::KEEP_BUFFERS_LIMIT {
        p.phi_incoming = incoming;
    }
    p.slot_pool.append(&mut slots);
}

/// Removes the round's stores of `undef` for lifetime markers that promotion left: those in
/// unreachable code and those of slots left in memory by the phi budget (removing a store of
/// `undef` only makes the memory more defined). The statistics count the input's stores
/// only, so the others, which promotion counted as removed, are taken off again.
fn remove_kills(p: &mut Promoter<'_, '_>) {
    for k in std::mem::take(&mut p.kills) {
        if p.f.layout.is_inst_inserted(k) {
            p.f.layout.remove_inst(k);
        } else {
            p.stats.stores_removed -= 1;
        }
    }
}

fn new_slot(p: &mut Promoter<'_, '_>, a: Inst, ty: Type, entry: Block) -> Slot {
    let d = p.f.dfg.insts[a];
    let block = p.f.layout.inst_block(a).expect("placed alloca");
    // A recycled slot lends its lists' buffers (see `Promoter::slot_pool`).
    let (mut name, mut loads, mut stores, mut markers, mut dbg) = match p.slot_pool.pop() {
        Some(old) => (old.name, old.loads, old.stores, old.markers, old.dbg),
        None => Default::default(),
    };
    name.clear();
    loads.clear();
    stores.clear();
    markers.clear();
    dbg.clear();
    let param = p.byval.iter().find(|b| b.alloca == a).map(|b| b.param);
    if let Some(n) = p.f.value_name(param.unwrap_or(d.result)) {
        super::names::plain_into(n, &mut name);
    }
    Slot {
        alloca: a,
        ptr: d.result,
        ty,
        name,
        loads,
        stores,
        markers,
        dbg,
        block,
        kills: 0,
        non_entry: block != entry,
        dropped: false,
        uninit: std::cell::Cell::new(Value::NONE),
        shown: param.unwrap_or(d.result),
    }
}

/// LLVM's `removeIntrinsicUsers`, for one user `u` (operand `k`) of a slot's address that is
/// not a load, store or debug use: a lifetime marker goes, a droppable use is dropped, and a
/// cast / zero GEP feeding only those goes with its users. With `keep`, a marker of the
/// whole slot stays, listed in the slot's `markers`, for [`take_markers`] or [`drop_markers`].
fn remove_intrinsic_user(
    p: &mut Promoter<'_, '_>,
    uses: &UseIndex,
    s: &mut Slot,
    (u, k): (Inst, u32),
    keep: bool,
) {
    if super::promotable::is_droppable(p.f, u) {
        drop_droppable_use(p, u, k);
        return;
    }
    let r = p.f.dfg.insts[u].result;
    if !r.is_none() {
        for &(uu, kk) in uses.users(r) {
            if !p.f.layout.is_inst_inserted(uu) || super::promotable::is_debug(p.f, uu) {
                continue;
            }
            if super::promotable::is_droppable(p.f, uu) {
                drop_droppable_use(p, uu, kk);
            } else {
                remove_marker(p, s, uu, keep);
            }
        }
    }
    remove_marker(p, s, u, keep);
}

/// Removes `u` (a lifetime marker, or a cast whose users are gone), unless `keep` holds and
/// it is a marker of the whole slot: that one is listed in the slot's `markers`.
fn remove_marker(p: &mut Promoter<'_, '_>, s: &mut Slot, u: Inst, keep: bool) {
    if keep && covers_slot(p, s, u) {
        s.markers.push(u);
        return;
    }
    p.forget_name(u);
    erase(p.f, u);
}

/// The slot takes a fast path: its markers go, as LLVM 19 drops them. (They could change
/// only what a read of the slot after a marker gets, never whether a phi is needed.)
fn drop_markers(p: &mut Promoter<'_, '_>, s: &mut Slot) {
    for &m in &s.markers {
        p.forget_name(m);
        erase(p.f, m);
    }
    s.markers.clear();
}

/// The slot needs phis: each of its markers becomes a store of `undef` (see [`kill_store`];
/// of the `--uninit` value, see [`super::uninit`]).
fn take_markers(p: &mut Promoter<'_, '_>, s: &mut Slot) {
    let mut markers = std::mem::take(&mut s.markers);
    for &m in &markers {
        let store = kill_store(p, s, m);
        s.stores.push(store);
        s.kills += 1;
        p.forget_name(m);
        erase(p.f, m);
    }
    markers.clear();
    s.markers = markers;
}

/// Whether `u` is a lifetime marker of the whole slot: the one-operand form (newer LLVM; it
/// always names a whole object), or a size of `-1` or at least the slot's allocation size.
fn covers_slot(p: &mut Promoter<'_, '_>, s: &Slot, u: Inst) -> bool {
    if !super::promotable::is_lifetime_marker(p.f, u) {
        return false;
    }
    let dfg = &p.f.dfg;
    let size = match dfg.inst_values(u) {
        [_, _ptr] => return true,
        [_, size, _ptr] => match dfg.values[dfg.resolve(*size)].def {
            llvm_ir::ir::ValueDef::Const(t) => llvm_ir::lexical::int_literal_value(p.f.text(t)),
            _ => None,
        },
        _ => None,
    };
    match size {
        Some(-1) => true,
        Some(n) if n >= 0 => {
            let allocated = p.f.dfg.insts[s.alloca].aux_ty;
            p.md.alloc_size(p.f, p.dl, allocated)
                .is_some_and(|a| n as u128 >= u128::from(a))
        }
        _ => false,
    }
}

/// `store <ty> undef, ptr <slot>` right before `marker`, at its position: after
/// `llvm.lifetime.start` and `llvm.lifetime.end` the slot's contents are undefined, so a
/// load they reach reads `undef`, not a value stored before them. Renaming then needs no phi
/// to carry a variable declared inside a loop around the loop's back edge (LLVM does the
/// same since 2026: llvm-project pull request 191909, for every slot; here only slots that
/// need phis use them, so the fast paths decide as in LLVM 19). The store is removed like
/// any other store of the slot; [`remove_kills`] removes those left over.
fn kill_store(p: &mut Promoter<'_, '_>, s: &Slot, marker: Inst) -> Inst {
    let undef = super::uninit::value(p, s);
    let store = FuncBuilder::new(p.f).make_store(undef, s.ptr, None);
    p.f.layout.insert_inst_before(store, marker);
    let at = pos(p, marker);
    if p.pos.len() <= store.index() {
        p.pos.resize(store.index() + 1, 0);
    }
    p.pos[store.index()] = at;
    p.kills.push(store);
    store
}

/// `Instruction::dropDroppableUse` for an `llvm.assume` bundle operand: the operand becomes
/// `undef` (LLVM 19) or, in a module written for LLVM 22 or later, `poison` (what those
/// releases write; the operand is ignored either way), and its bundle's tag `"ignore"`.
fn drop_droppable_use(p: &mut Promoter<'_, '_>, call: Inst, k: u32) {
    let ty =
        p.f.dfg
            .value_type(p.f.dfg.resolve(p.f.dfg.inst_values(call)[k as usize]));
    let u = if p.newer_llvm() {
        edit::poison(p.f, ty)
    } else {
        p.f.dfg.undef(ty)
    };
    p.f.dfg.inst_values_mut(call)[k as usize] = u;
    let tag =
        p.f.dfg
            .inst_bundles(call)
            .iter()
            .find(|b| b.ops.start <= k && k < b.ops.start + b.ops.len)
            .map(|b| b.tag);
    if let Some(tag) = tag {
        if p.f.text(tag) != b"\"ignore\"" && tag.in_source() {
            edit::retext(p.f, call, tag, b"\"ignore\"");
        }
    }
}

/// Collects the slot's loads, stores and debug users, and removes its other users (lifetime
/// markers, droppable uses: see [`remove_intrinsic_user`]).
fn gather(p: &mut Promoter<'_, '_>, uses: &UseIndex, s: &mut Slot) {
    s.loads.clear();
    s.stores.clear();
    s.dbg.clear();
    // Room for every user in each list (a recycled slot's lists mostly have it already; a
    // new one's would otherwise grow one doubling at a time).
    let users = uses.users(s.ptr);
    s.loads.reserve(users.len());
    s.stores.reserve(users.len());
    let mut others = false;
    for &(u, k) in users {
        if !p.f.layout.is_inst_inserted(u) {
            continue;
        }
        match p.f.dfg.opcode(u) {
            Opcode::Load => s.loads.push(u),
            Opcode::Store if k == 1 => s.stores.push(u),
            _ if super::promotable::is_debug(p.f, u) => {
                let loc_operand = p.f.dfg.dbg[u].map_or(u32::MAX, |d| d.loc_operand);
                if loc_operand == k {
                    if let Some(d) = DbgUser::of(p.f, &p.md, u) {
                        if d.kind != llvm_ir::ir::DbgKind::Assign {
                            s.dbg.push(d);
                        }
                    }
                }
            }
            _ => others = true,
        }
    }
    if !others {
        return;
    }
    // The other users, once the loads are known: under newer LLVM's rules (see
    // `UndefRules`) markers matter to loads, and to the debugger (a declared variable is
    // unavailable after them); a slot with neither, or LLVM 19's rules, loses them without
    // a trace.
    let keep = p.newer_undef_rules()
        && (!s.loads.is_empty() || (!s.stores.is_empty() && !s.dbg.is_empty()));
    for &(u, k) in users {
        let gathered = match p.f.dfg.opcode(u) {
            Opcode::Load => true,
            Opcode::Store => k == 1,
            _ => super::promotable::is_debug(p.f, u),
        };
        if !gathered && p.f.layout.is_inst_inserted(u) {
            remove_intrinsic_user(p, uses, s, (u, k), keep);
        }
    }
}

/// The data layout and the slot's allocation size, for debug-info conversions.
pub(super) fn slot_info<'a>(p: &mut Promoter<'_, 'a>, s: &Slot) -> debug_info::SlotInfo<'a> {
    let allocated = p.f.dfg.insts[s.alloca].aux_ty;
    let elem = p.md.alloc_size(p.f, p.dl, allocated).map(|b| b * 8);
    let count = match p.f.dfg.inst_values(s.alloca).first() {
        None => Some(1),
        Some(&c) => match p.f.dfg.values[p.f.dfg.resolve(c)].def {
            llvm_ir::ir::ValueDef::Const(t) => {
                llvm_ir::lexical::int_literal_value(p.f.text(t)).and_then(|n| u64::try_from(n).ok())
            }
            _ => None,
        },
    };
    debug_info::SlotInfo {
        dl: p.dl,
        slot_bits: elem.zip(count).map(|(e, n)| e * n),
    }
}

fn block_of(p: &Promoter<'_, '_>, i: Inst) -> Block {
    p.f.layout.inst_block(i).expect("placed")
}

fn pos(p: &Promoter<'_, '_>, i: Inst) -> u32 {
    p.pos[i.index()]
}

/// Deletes a slot nothing loads or stores (its debug users see `undef`).
fn delete_dead(p: &mut Promoter<'_, '_>, s: &Slot) {
    p.forget_name(s.alloca);
    erase(p.f, s.alloca);
    p.stats.dead += 1;
}

/// Removes a store of a promoted slot, first turning its slot's declares into debug values.
/// A store that stands for a lifetime marker ([`kill_store`]) gets none: LLVM 19 writes no
/// debug value at a marker.
pub(super) fn remove_store(p: &mut Promoter<'_, '_>, s: &Slot, store: Inst) {
    // `p.kills` is in creation order, so ascending.
    let kill = s.kills > 0
        && p.kills
            .binary_search_by_key(&store.index(), |k| k.index())
            .is_ok();
    for d in &s.dbg {
        if !kill && d.is_address_of() && p.f.layout.is_inst_inserted(d.inst) {
            let info = slot_info(p, s);
            debug_info::convert_at_store(p.f, &mut p.md, d, store, info);
        }
    }
    p.forget_name(store);
    p.f.layout.remove_inst(store);
    p.stats.stores_removed += 1;
}

/// Replaces `load` by `v`, keeping what its `!nonnull` / `!noundef` metadata promised.
pub(super) fn replace_load(p: &mut Promoter<'_, '_>, load: Inst, v: Value) {
    super::simplify::convert_metadata_to_assumes(p, load, v);
    let r = p.f.dfg.insts[load].result;
    let v = if p.f.dfg.resolve(v) == r {
        let ty = p.f.dfg.value_type(r);
        edit::poison(p.f, ty)
    } else {
        v
    };
    p.forget_name(load);
    edit::replace_load(p.f, load, v);
    p.stats.loads_removed += 1;
}

/// LLVM's `rewriteSingleStoreAlloca`.
fn single_store(p: &mut Promoter<'_, '_>, s: &mut Slot) -> bool {
    let store = s.stores[0];
    let repl = p.f.dfg.resolve(p.f.dfg.inst_values(store)[0]);
    let require_dom = p.f.dfg.value_inst(repl).is_some()
        || !super::simplify::guaranteed_not_poison(p, repl, None, 0)
        || !super::uninit::any_value_will_do(p);
    let store_bb = block_of(p, store);
    let store_pos = pos(p, store);
    let non_entry = s.non_entry;
    // Loads the store does not reach stay (in order); the others take the stored value.
    s.loads.retain(|&load| {
        if require_dom {
            let lb = block_of(p, load);
            // A slot outside the entry block is `undef` again each time its alloca runs, so
            // across blocks dominance is not enough for it.
            let dominated = if lb == store_bb {
                store_pos < pos(p, load)
            } else {
                // (The entry block dominates every block: no tree needed for it.)
                !non_entry
                    && (Some(store_bb) == p.f.layout.entry_block()
                        || p.dt().dominates(store_bb, lb))
            };
            if !dominated {
                return true;
            }
        }
        replace_load(p, load, repl);
        false
    });
    if !s.loads.is_empty() {
        return false;
    }
    for d in &s.dbg {
        if !p.f.layout.is_inst_inserted(d.inst) {
            continue;
        }
        if d.is_address_of() {
            let info = slot_info(p, s);
            debug_info::convert_at_store(p.f, &mut p.md, d, store, info);
            erase(p.f, d.inst);
        } else if d.is_value_of() && d.starts_with_deref() {
            debug_info::move_to_store(p.f, &mut p.md, d, store);
            erase(p.f, d.inst);
        } else if d.starts_with_deref() {
            erase(p.f, d.inst);
        }
    }
    p.forget_name(store);
    p.f.layout.remove_inst(store);
    p.stats.stores_removed += 1;
    p.forget_name(s.alloca);
    erase(p.f, s.alloca);
    true
}

/// Whether all loads and stores of the slot are in one block.
fn one_block(p: &Promoter<'_, '_>, s: &Slot) -> bool {
    let mut it = s.loads.iter().chain(&s.stores).map(|&i| block_of(p, i));
    let first = it.next();
    it.all(|b| Some(b) == first)
}

/// LLVM's `promoteSingleBlockAlloca`.
fn single_block(p: &mut Promoter<'_, '_>, s: &mut Slot) -> bool {
    let mut stores: Vec<(u32, Inst)> = s.stores.iter().map(|&st| (pos(p, st), st)).collect();
    stores.sort_unstable();
    // Loads above the first store stay (in order); the others take the nearest store above.
    let mut loads = std::mem::take(&mut s.loads);
    loads.retain(|&load| {
        let lp = pos(p, load);
        let k = stores.partition_point(|&(sp, _)| sp < lp);
        let v = if k == 0 {
            if !stores.is_empty() {
                return true;
            }
            super::uninit::value(p, s)
        } else {
            p.f.dfg.resolve(p.f.dfg.inst_values(stores[k - 1].1)[0])
        };
        replace_load(p, load, v);
        false
    });
    s.loads = loads;
    if !s.loads.is_empty() {
        return false;
    }
    for &(_, st) in &stores {
        remove_store(p, s, st);
    }
    p.forget_name(s.alloca);
    erase(p.f, s.alloca);
    for d in &s.dbg {
        if p.f.layout.is_inst_inserted(d.inst) && (d.is_address_of() || d.starts_with_deref()) {
            erase(p.f, d.inst);
        }
    }
    true
}

/// How phis are placed this round: candidates bounded by the live-in bound, the dead ones
/// removed after renaming and names given afterwards (pruned SSA, the default: near-linear,
/// LLVM's result); exact live-in sets first (LLVM's own method, quadratic on deep loop nests)
/// when the phi-copy budget needs the final phis before renaming; or no liveness (semi-pruned
/// or minimal SSA).
fn method(p: &Promoter<'_, '_>) -> Method {
    match p.opts.flavour {
        super::Flavour::Pruned if p.opts.phi_copy_limit.is_some() => Method::Exact,
        super::Flavour::Pruned => Method::Bounded,
        super::Flavour::SemiPruned => Method::SemiPruned,
        super::Flavour::Minimal => Method::Minimal,
    }
}

/// Places the slot's phis (see [`method`]): appends them to `cands`. Its definitions are its
/// stores (and its alloca, when outside the entry block: a slot there is undefined each time
/// the alloca runs), its uses its loads.
fn place_phis(
    p: &mut Promoter<'_, '_>,
    placer: &mut Placer<'_>,
    s: &Slot,
    slot: u32,
    cands: &mut Vec<Candidate>,
) {
    let at = |i: &Inst| (block_of(p, *i), pos(p, *i));
    let alloca = s.non_entry.then_some(s.alloca);
    placer.gather(
        s.stores.iter().chain(alloca.iter()).map(at),
        s.loads.iter().map(at),
    );
    let mode = method(p);
    let mut blocks = std::mem::take(&mut p.phi_blocks);
    placer.place(mode, &mut blocks);
    if p.opts.explain {
        super::explain::slot_placement(p, placer, s);
    }
    for (version, &b) in blocks.iter().enumerate() {
        let name = if mode == Method::Bounded {
            let rank = cands.len() as u32;
            p.names().defer_phi(rank);
            Text::NONE
        } else {
            let name = p.names().create(&phi_base(s, version as u32));
            super::names::name_text(p.f, &name)
        };
        cands.push(Candidate {
            slot,
            block: b,
            name,
        });
    }
    p.phi_blocks = blocks;
}

/// Makes the placed phis, block by block: blocks in id order, and within a block in their
/// layout order (last placed first, as LLVM inserts each new phi at its block's front). The
/// walks over a round's phis go block by block, so this keeps one block's phis together in
/// the phi list and in the function's instruction and value tables (placing them slot by slot
/// would scatter them: on a large function every step of those walks would miss the caches).
/// Returns the phis, their ranges per block, and each phi's rank (its index in `cands`).
fn make_phis(
    p: &mut Promoter<'_, '_>,
    slots: &[Slot],
    cands: &[Candidate],
) -> (Vec<NewPhi>, PhisByBlock, Vec<u32>) {
    // (Every slot left in the round was placed, so the CFG exists.)
    let n = p.cfg().num_block_ids();
    let mut off = vec![0u32; n + 1];
    for c in cands {
        off[c.block.index() + 1] += 1;
    }
    for b in 0..n {
        off[b + 1] += off[b];
    }
    // Each block's range filled from its end: the last placed comes first.
    let mut end = off[1..].to_vec();
    let mut rank = vec![0u32; cands.len()];
    for (r, c) in cands.iter().enumerate() {
        let e = &mut end[c.block.index()];
        *e -= 1;
        rank[*e as usize] = r as u32;
    }
    let mut phis = Vec::with_capacity(cands.len());
    // Room for the phis, and for the value each slot reads where no store reaches (made while
    // renaming): a table grown by one value past its room would double.
    p.f.dfg.reserve_more(cands.len() + slots.len());
    let insts = p.f.dfg.insts.len() + cands.len();
    p.f.layout.reserve(insts, 0);
    let mut above = Inst::NONE;
    for (k, &r) in rank.iter().enumerate() {
        let c = cands[r as usize];
        let ty = slots[c.slot as usize].ty;
        let inst = FuncBuilder::new(p.f).make_phi_shell(ty, c.name);
        if k as u32 == off[c.block.index()] {
            p.f.layout.prepend_inst(inst, c.block);
        } else {
            p.f.layout.insert_inst_after(inst, above);
        }
        above = inst;
        phis.push(NewPhi {
            inst,
            value: p.f.dfg.insts[inst].result,
            ty,
            slot: c.slot,
            block: c.block,
        });
    }
    (phis, PhisByBlock::from_offsets(off), rank)
}

/// `<slot name>.<version>`.
fn phi_base(s: &Slot, version: u32) -> Vec<u8> {
    let mut base = Vec::new();
    super::names::write_versioned(&mut base, &s.name, version);
    base
}

/// After a bounded placement: removes the dead candidate phis and names the others as LLVM
/// would have named them (versions count the kept phis of each slot, in placement order).
fn keep_live_phis(
    p: &mut Promoter<'_, '_>,
    slots: &[Slot],
    phis: &mut Vec<NewPhi>,
    incoming: &mut Incoming<Value, debug_info::Loc>,
    rank: &[u32],
    live: &[bool],
) {
    if phis.is_empty() {
        // Nothing was placed, so nothing was deferred: no names to give (and no table to
        // build for them).
        return;
    }
    let mut version = vec![0u32; slots.len()];
    // Each rank's phi, and the name given to it.
    let mut at = vec![0u32; phis.len()];
    for (k, &r) in rank.iter().enumerate() {
        at[r as usize] = k as u32;
    }
    let mut named_as = vec![Text::NONE; phis.len()];
    p.names();
    let mut table = p.names.take().expect("built above");
    let f = &mut *p.f;
    // Room for every kept phi's name (`<slot>.<version>`, a few digits more when made unique).
    let room: usize = phis
        .iter()
        .zip(live)
        .filter(|(_, &l)| l)
        .map(|(ph, _)| slots[ph.slot as usize].name.len() + 8)
        .sum();
    f.dfg.strings.reserve(room);
    let bases: Vec<&[u8]> = slots.iter().map(|s| &s.name[..]).collect();
    let placed: &[NewPhi] = phis;
    table.replay(
        &bases,
        |r| {
            live[at[r as usize] as usize].then(|| {
                // The phi of rank `r` (the `r`-th candidate placed) is `placed[at[r]]`.
                let sl = placed[at[r as usize] as usize].slot;
                version[sl as usize] += 1;
                (sl, version[sl as usize] - 1)
            })
        },
        |r, name| named_as[r as usize] = super::names::name_text(f, name),
    );
    p.names = Some(table);
    for (k, ph) in phis.iter().enumerate() {
        if live[k] {
            p.f.dfg.values[ph.value].name = named_as[rank[k] as usize];
        }
    }
    let mut k = 0;
    phis.retain(|ph| {
        k += 1;
        if !live[k - 1] {
            p.f.layout.remove_inst(ph.inst);
        }
        live[k - 1]
    });
    // The incoming lists and locations follow their phis.
    let mut k = 0;
    incoming.ranges.retain(|_| {
        k += 1;
        live[k - 1]
    });
    let mut k = 0;
    incoming.locs.retain(|_| {
        k += 1;
        live[k - 1]
    });
}

/// Seed 02's budget: while the estimated copies (phi operands) exceed the limit, leave the
/// most expensive slot in memory.
fn apply_phi_budget(p: &mut Promoter<'_, '_>, slots: &mut [Slot], cands: &mut Vec<Candidate>) {
    let Some(limit) = p.opts.phi_copy_limit else {
        return;
    };
    let mut cost = vec![0u64; slots.len()];
    for c in cands.iter() {
        cost[c.slot as usize] += p.cfg().preds(c.block).len() as u64;
    }
    for i in ssa::construct::place::over_budget(&cost, limit) {
        slots[i].dropped = true;
        p.over_budget.push(slots[i].alloca);
    }
    cands.retain(|c| {
        if !slots[c.slot as usize].dropped {
            return true;
        }
        if let (Some(t), false) = (p.names.as_mut(), c.name.is_none()) {
            t.remove(p.f.text(c.name));
        }
        false
    });
}

/// After renaming: remove the slots and their declares. Loads and stores left in
/// unreachable code (never renamed: `left`, per slot, from the walk) then use `poison` as
/// their address, and so do debug uses; with no such leftovers, debug uses see `undef`, as
/// when LLVM erases a value.
fn finish_slots(p: &mut Promoter<'_, '_>, slots: &[Slot], left: &[bool]) {
    for (s, &left) in slots.iter().zip(left).filter(|(s, _)| !s.dropped) {
        p.stats.promoted += 1;
        if left {
            let ty = p.f.dfg.value_type(s.ptr);
            let poison = edit::poison(p.f, ty);
            p.f.dfg.replace_all_uses(s.ptr, poison);
            p.f.layout.remove_inst(s.alloca);
        } else {
            erase(p.f, s.alloca);
        }
        for d in &s.dbg {
            if p.f.layout.is_inst_inserted(d.inst) && (d.is_address_of() || d.starts_with_deref()) {
                p.f.layout.remove_inst(d.inst);
            }
        }
    }
}
