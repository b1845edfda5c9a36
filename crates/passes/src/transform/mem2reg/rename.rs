//! Renaming for mem2reg: the `ssa` crate's renaming walk ([`ssa::construct::rename`]), with
//! LLVM's side of it — loads replaced by values, stores removed with their debug locations
//! carried to the phis (merged in LLVM's order), declares converted at a phi block's first
//! edge. The walk replays LLVM's `RenamePass` order, so the phis, their operands and their
//! order are `opt`'s.
//!
//! The events are the round's slots' loads (uses), stores (definitions, lifetime markers read
//! as stores of `undef` included) and allocas (a slot outside the entry block is undefined
//! again each time its alloca runs: a kill), ordered by position within each block.
//!
//! With `prune`, the phis given are candidates (see `analysis::live_bound`): the walk keeps
//! those a load reads or a kept phi takes as an operand, and reports the others dead before
//! any operand, location or debug value is attached to them.

use super::debug_info::{self, Loc};
use super::slots::{remove_store, replace_load, NewPhi, Slot};
use super::tags::ValueTags;
use super::Promoter;
use llvm_ir::ir::{Block, Inst, MdRef, Opcode, Value};
use ssa::construct::rename::{
    self, Access, Def, Event, Incoming, PhiInfo, PhisByBlock, RenameBuffers, Renamed, Renamer, Walk,
};
use ssa::construct::Var;

/// What a round's walk keeps from round to round and function to function.
#[derive(Default)]
pub struct RenameScratch {
    buffers: RenameBuffers<Value, Loc>,
    events: rename::BlockEvents,
}

/// The pass's side of the walk.
struct Host<'p, 'f, 'm> {
    p: &'p mut Promoter<'f, 'm>,
    slots: &'p [Slot],
    phis: &'p [NewPhi],
    /// The phi (index) each new phi's result is (tagged only with `prune`).
    phi_of: &'p ValueTags,
}

impl Renamer for Host<'_, '_, '_> {
    type Value = Value;
    type Loc = Loc;

    fn undefined(&mut self, var: Var) -> Value {
        super::uninit::value(self.p, &self.slots[var.index()])
    }

    #[inline]
    fn phi(&self, k: usize) -> PhiInfo<Value> {
        let ph = &self.phis[k];
        PhiInfo {
            var: Var(ph.slot),
            block: ph.block,
            value: ph.value,
        }
    }

    fn use_reaches(&mut self, id: u32, _var: Var, value: Value) {
        replace_load(self.p, Inst(id), value);
    }

    fn definition(&mut self, id: u32, var: Var) -> Def<Value, Loc> {
        let store = Inst(id);
        let v = self.p.f.dfg.resolve(self.p.f.dfg.inst_values(store)[0]);
        let loc = store_loc(self.p, store);
        let phi = self.phi_of.get(v);
        remove_store(self.p, &self.slots[var.index()], store);
        Def { value: v, phi, loc }
    }

    fn merge(&mut self, old: Loc, new: Loc) -> Loc {
        debug_info::merge(self.p.f, &mut self.p.md, old, new)
    }

    fn first_edge_into(&mut self, _block: Block, phis: std::ops::Range<usize>, live: &[bool]) {
        for k in phis.filter(|&k| live[k]) {
            let ph = &self.phis[k];
            let s = &self.slots[ph.slot as usize];
            for d in &s.dbg {
                if d.is_address_of() && self.p.f.layout.is_inst_inserted(d.inst) {
                    let info = super::slots::slot_info(self.p, s);
                    debug_info::convert_at_phi(self.p.f, &mut self.p.md, d, ph.inst, info);
                }
            }
        }
    }
}

/// Renames every load and store of `slots` and fills `incoming` with the phis' incoming values
/// and locations. With `prune`, only live phis get them; returns which phis are live (all
/// without `prune`) and which slots keep a load or store in unreachable code.
pub(crate) fn run(
    p: &mut Promoter<'_, '_>,
    slots: &[Slot],
    phis: &[NewPhi],
    by_block: &PhisByBlock,
    incoming: &mut Incoming<Value, Loc>,
    prune: bool,
) -> Renamed {
    let mut scratch = std::mem::take(&mut p.rename_scratch);
    fill_events(p, slots, &mut scratch.events);
    let mut phi_of = std::mem::take(&mut p.phi_of);
    if prune {
        for (k, ph) in phis.iter().enumerate() {
            phi_of.set(ph.value, k as u32);
        }
    }
    let entry = p.f.layout.entry_block().expect("non-empty function");
    let cfg = p.cfg();
    let walk = Walk {
        cfg,
        entry,
        events: &scratch.events,
        phis: by_block,
        num_vars: slots.len(),
        prune,
    };
    let mut host = Host {
        p,
        slots,
        phis,
        phi_of: &phi_of,
    };
    let renamed = rename::rename(&walk, &mut host, &mut scratch.buffers, incoming);
    if prune {
        for ph in phis {
            phi_of.unset(ph.value);
        }
    }
    p.phi_of = phi_of;
    let accesses: usize = slots
        .iter()
        .map(|s| 1 + s.loads.len() + s.stores.len())
        .sum();
    if phis.len() + accesses <= super::KEEP_BUFFERS_LIMIT {
        p.rename_scratch = scratch;
    }
    renamed
}

/// The walk's events: for each slot left in the round, its alloca (a kill), loads (uses) and
/// stores (definitions), at their positions. Only placed instructions: an unplaced one has
/// nothing to rename, as the walk over blocks would not have met it.
fn fill_events(p: &Promoter<'_, '_>, slots: &[Slot], events: &mut rename::BlockEvents) {
    events.begin(slots.len());
    for (k, s) in slots.iter().enumerate().filter(|(_, s)| !s.dropped) {
        let var = Var(k as u32);
        let all = [
            (Access::Kill, std::slice::from_ref(&s.alloca)),
            (Access::Use, &s.loads[..]),
            (Access::Def, &s.stores[..]),
        ];
        for (access, insts) in all {
            for &i in insts {
                let Some(b) = p.f.layout.inst_block(i) else {
                    continue;
                };
                debug_assert!(access != Access::Use || p.f.dfg.opcode(i) == Opcode::Load);
                let e = Event {
                    var,
                    access,
                    id: i.0,
                };
                events.push(b, p.pos[i.index()], e);
            }
        }
    }
    events.finish(p.cfg().num_block_ids());
}

/// A store's `!dbg` location.
fn store_loc(p: &Promoter<'_, '_>, store: Inst) -> Loc {
    p.f.dfg
        .inst_attachments(store)
        .iter()
        .find(|(k, _)| p.f.text(*k) == b"dbg")
        .map(|&(_, n)| n)
        .filter(|n: &MdRef| !n.is_none())
}
