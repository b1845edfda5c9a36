//! The `analyses` pass: the control-flow analyses mem2reg stands on, run alone, so that their
//! cost can be measured apart from renaming and printing (`bench/bench.py --sections
//! analyses`). For one function it computes the CFG, the dominator tree and, for every
//! `alloca` whose address is only loaded from and stored to, the slot's live-in bound
//! ([`LiveBound`](ssa::live_bound::LiveBound), what mem2reg uses by default) and its iterated
//! dominance frontier pruned by that bound ([`IdfCalculator`](ssa::idf::IdfCalculator)): the
//! candidate blocks for the slot's phis, through the same [`PrunedPlacer`] as mem2reg (slots
//! with equal definition and use blocks share one computation).
//!
//! Exact live-in sets ([`ssa::liveness::LiveInCalculator`]) are not used here:
//! their total size is quadratic on a nest of N loops (each loop's counter is live in every
//! inner block), so computing them cannot be linear, and mem2reg does not need them.
//!
//! Invariants: the function is not changed; the result is a function of the input alone
//! (block lists are in the calculators' deterministic orders); every step is near-linear in
//! the function's size plus, per slot, the size of its live range (no per-slot pass over the
//! whole function: one walk over the instructions gathers every slot's blocks).

use llvm_ir::entity::SecondaryMap;
use llvm_ir::ir::{Block, Function, Inst, Opcode, Value};
use ssa::domtree::DomTree;
use ssa::placement::PrunedPlacer;

/// What the analyses found in one function.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SlotPhis {
    /// Slots analysed (allocas used only as the address of loads and stores).
    pub slots: u64,
    /// Slots whose bound is the whole function (a load can see the entry's undefined value).
    pub live_everywhere: u64,
    /// Candidate phi blocks (iterated frontier within the bound), summed over slots.
    pub phi_blocks: u64,
}

/// One slot's blocks, gathered in one walk.
#[derive(Default)]
struct SlotBlocks {
    /// Blocks with a store (each once).
    defs: Vec<Block>,
    /// Blocks with a load before any store in the block (each once).
    upward: Vec<Block>,
    /// The block last seen for this slot, and whether it had a store by then.
    last: Option<(Block, bool)>,
    /// A use other than a load or store address: the slot is not analysed.
    escapes: bool,
}

/// Runs CFG, dominators, liveness and IDF for every load/store-only slot of `func`.
pub fn analyse(func: &Function) -> SlotPhis {
    let mut out = SlotPhis::default();
    if func.layout.entry_block().is_none() {
        return out;
    }
    let cfg = llvm_ir::ir::cfg::cfg_of(func);
    let dt = DomTree::compute(&cfg);
    let slots = gather(func);
    let mut placer = PrunedPlacer::new(&cfg, &dt);
    let mut phi_blocks = Vec::new();
    for s in &slots {
        if s.escapes || s.defs.is_empty() {
            continue;
        }
        let all = placer.place(&s.defs, &s.upward, &mut phi_blocks);
        out.slots += 1;
        out.live_everywhere += u64::from(all);
        out.phi_blocks += phi_blocks.len() as u64;
    }
    out
}

/// Every alloca's def and upward-exposed use blocks, in layout order of the allocas.
fn gather(func: &Function) -> Vec<SlotBlocks> {
    // Value -> index into `slots` (dense: one array over the function's values, no hashing).
    let mut slot_of: SecondaryMap<Value, u32> = SecondaryMap::with_default(u32::MAX);
    let mut slots = Vec::new();
    for b in func.layout.blocks() {
        for i in func.layout.block_insts(b) {
            let d = &func.dfg.insts[i];
            if d.opcode == Opcode::Alloca {
                slot_of[d.result] = slots.len() as u32;
                slots.push(SlotBlocks::default());
                continue;
            }
            note_uses(func, &slot_of, &mut slots, b, i);
        }
    }
    slots
}

/// Records what instruction `i` of block `b` does to the slots among its operands.
fn note_uses(
    func: &Function,
    slot_of: &SecondaryMap<Value, u32>,
    slots: &mut [SlotBlocks],
    b: Block,
    i: Inst,
) {
    let opcode = func.dfg.opcode(i);
    for (k, &v) in func.dfg.inst_values(i).iter().enumerate() {
        let Some(s) = slots.get_mut(slot_of[func.dfg.resolve(v)] as usize) else {
            continue;
        };
        let stored_here = s.last.is_some_and(|(lb, st)| lb == b && st);
        let seen_here = s.last.is_some_and(|(lb, _)| lb == b);
        match (opcode, k) {
            (Opcode::Load, 0) => {
                if !seen_here {
                    s.upward.push(b);
                    s.last = Some((b, false));
                }
            }
            (Opcode::Store, 1) => {
                if !stored_here {
                    s.defs.push(b);
                    s.last = Some((b, true));
                }
            }
            _ => s.escapes = true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loop_counter_needs_one_phi() {
        let src = b"define i32 @f(i32 %n) {
entry:
  %i = alloca i32
  store i32 0, ptr %i
  br label %loop
loop:
  %v = load i32, ptr %i
  %next = add i32 %v, 1
  store i32 %next, ptr %i
  %done = icmp sge i32 %next, %n
  br i1 %done, label %exit, label %loop
exit:
  %r = load i32, ptr %i
  ret i32 %r
}
";
        let m = llvm_reader::parse(std::sync::Arc::from(&src[..])).unwrap();
        let f = m.functions.values().next().unwrap();
        let got = analyse(f);
        // Every load sees a store above it; the phi goes to loop only.
        assert_eq!(
            got,
            SlotPhis {
                slots: 1,
                live_everywhere: 0,
                phi_blocks: 1
            }
        );
    }
}
