//! `--explain`: a readable account of what mem2reg decided for each stack slot and why.
//!
//! For a slot that needs phis: the blocks that store to it, the blocks that load it before any
//! store (upward-exposed uses), the blocks where it is live on entry, the iterated dominance
//! frontier of its stores, and the phi blocks — the frontier restricted to live-in blocks
//! (pruned SSA, as LLVM's PromoteMemoryToRegister), or the whole frontier for the minimal and
//! semi-pruned flavours. For a slot taken by a fast path, which one. (Slots left in memory are
//! explained with the use that blocks them by the remarks in `mod.rs`.)
//!
//! Invariants: block and value names are those of the input function (numbered before the
//! pass changed anything), lists are in layout order, and the text depends only on the
//! function. The live-in sets here are computed exactly (LLVM's method), independently of the
//! bounded placement the pass itself uses, so the two can be compared.

use std::fmt::Write;

use super::slots::Slot;
use super::Promoter;
use llvm_ir::ir::Block;
use ssa::construct::place::Placer;

/// The slot's name as the input spelled it (a `byval` argument's, for its stand-in slot).
fn slot_ref(p: &mut Promoter<'_, '_>, s: &Slot) -> String {
    let num = p.input_names();
    let name = num.value_ref(p.f, s.shown);
    match s.shown == s.ptr {
        true => name,
        false => format!("{name} (byval argument)"),
    }
}

/// `%a, %b` in layout order (`-` when empty).
fn blocks_text(p: &mut Promoter<'_, '_>, blocks: &[Block]) -> String {
    let mut sorted = blocks.to_vec();
    sorted.sort_unstable_by_key(|&b| p.cfg().layout_position(b));
    sorted.dedup();
    if sorted.is_empty() {
        return "-".into();
    }
    let num = p.input_names();
    let names: Vec<String> = sorted.iter().map(|&b| num.block_ref(p.f, b)).collect();
    names.join(", ")
}

/// Explains a slot promoted by a fast path (`what`: "no loads or stores", ...).
pub(super) fn fast_path(p: &mut Promoter<'_, '_>, s: &Slot, what: &str) {
    let fname = p.f.name_str();
    let slot = slot_ref(p, s);
    let _ = writeln!(p.explain, "{fname}: {slot}: promoted: {what}");
}

/// Explains the phi placement of a slot whose definition and upward-exposed use blocks
/// `placer` has just gathered.
pub(super) fn slot_placement(p: &mut Promoter<'_, '_>, placer: &mut Placer<'_>, s: &Slot) {
    let (defs, ubd) = (placer.def_blocks().to_vec(), placer.use_blocks().to_vec());
    let (defs, ubd) = (&defs[..], &ubd[..]);
    let mut order = Vec::new();
    let live_set = placer.live().compute(defs, ubd, &mut order).clone();
    let mut frontier = Vec::new();
    let idf = placer.idf();
    idf.compute(defs, &mut frontier);
    let mut phis = Vec::new();
    let flavour = p.opts.flavour;
    let rule = match flavour {
        super::Flavour::Pruned => {
            idf.compute_pruned(defs, &live_set, &mut phis);
            "frontier ∩ live-in (pruned SSA)"
        }
        super::Flavour::SemiPruned if ubd.is_empty() => {
            "none: no block loads it before a store (semi-pruned SSA)"
        }
        super::Flavour::SemiPruned => {
            phis = frontier.clone();
            "the frontier (semi-pruned SSA)"
        }
        super::Flavour::Minimal => {
            phis = frontier.clone();
            "the frontier (minimal SSA)"
        }
    };
    let fname = p.f.name_str();
    let slot = slot_ref(p, s);
    let lines = [
        ("stored in", blocks_text(p, defs)),
        ("loaded first in", blocks_text(p, ubd)),
        ("live on entry to", blocks_text(p, &order)),
        ("frontier (DF+ of stores)", blocks_text(p, &frontier)),
        ("phis at", blocks_text(p, &phis)),
    ];
    let what = match p.opts.phi_copy_limit {
        Some(_) => "phis placed (the phi-copy budget may still drop them, see below)",
        None => "promoted with phis",
    };
    let _ = writeln!(p.explain, "{fname}: {slot}: {what}");
    for (what, list) in lines {
        let _ = writeln!(p.explain, "    {what:<26} {list}");
        if what == "stored in" && s.kills > 0 {
            let n = s.kills;
            let _ = writeln!(
                p.explain,
                "    {:<26} {n}, read as stores of {} (counted above)",
                "lifetime markers",
                uninit_name(p.opts.uninit)
            );
        }
    }
    let _ = writeln!(p.explain, "    {:<26} {rule}", "rule");
}

/// How explanations name the `--uninit` value.
fn uninit_name(u: super::Uninit) -> &'static str {
    match u {
        super::Uninit::Undef => "undef",
        super::Uninit::Poison => "poison",
        super::Uninit::Zero => "zero",
        super::Uninit::Freeze => "the slot's frozen value",
    }
}
