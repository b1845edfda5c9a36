//! Which stack slots can be promoted (LLVM's `isAllocaPromotable`), and, for those that
//! cannot, the use that blocks them — for `--explain` and `-pass-remarks-output`.
//!
//! Promotable: every use is a non-volatile load or store of the whole slot with the slot's
//! type (atomic ones are fine), never a store *of* the slot's address; lifetime intrinsics,
//! droppable uses (`llvm.assume` operand bundles), `llvm.fake.use` and debug uses do not
//! block; a `bitcast` or all-zero `getelementptr` used only by lifetime markers or droppable
//! uses is fine, an `addrspacecast` only by lifetime markers.

use super::uses::UseIndex;
use crate::ir::{flags, Function, Inst, Opcode, Value, ValueDef};

/// Why a slot stays in memory.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Blocker {
    /// A `load volatile`.
    VolatileLoad,
    /// A `store volatile`.
    VolatileStore,
    /// A load or store of a type other than the slot's.
    TypeMismatch,
    /// The address itself is stored to memory.
    AddressStored,
    /// The address is passed to a call.
    PassedToCall,
    /// The address is used by some other instruction (arithmetic, comparison, phi, ...).
    OtherUse,
}

impl Blocker {
    /// The sentence used in remarks and explanations.
    pub fn message(self) -> &'static str {
        match self {
            Blocker::VolatileLoad => "Has a volatile load.",
            Blocker::VolatileStore => "Has a volatile store.",
            Blocker::TypeMismatch => "Has loads and stores of different types.",
            Blocker::AddressStored => "Address is stored to memory.",
            Blocker::PassedToCall => "Address is passed to a call.",
            Blocker::OtherUse => "Address is used by an instruction other than a load or store.",
        }
    }
}

/// The callee's name text of a call (`@llvm.lifetime.start.p0`), or empty.
pub fn callee_name(func: &Function, call: Inst) -> &[u8] {
    let dfg = &func.dfg;
    if !matches!(
        dfg.opcode(call),
        Opcode::Call | Opcode::Invoke | Opcode::CallBr
    ) {
        return b"";
    }
    match dfg
        .inst_values(call)
        .first()
        .map(|&v| dfg.values[dfg.resolve(v)].def)
    {
        Some(ValueDef::Const(t)) => func.text(t),
        _ => b"",
    }
}

/// `llvm.lifetime.start` / `llvm.lifetime.end` (any overload suffix).
pub fn is_lifetime_marker(func: &Function, i: Inst) -> bool {
    let n = callee_name(func, i);
    n.starts_with(b"@llvm.lifetime.start") || n.starts_with(b"@llvm.lifetime.end")
}

/// A call whose uses of pointers are droppable (`llvm.assume` bundles) or ignorable
/// (`llvm.fake.use`, `llvm.coro.outside.frame`).
pub fn is_droppable(func: &Function, i: Inst) -> bool {
    let n = callee_name(func, i);
    n == b"@llvm.assume" || n == b"@llvm.experimental.noalias.scope.decl"
}

fn is_ignorable_intrinsic(func: &Function, i: Inst) -> bool {
    let n = callee_name(func, i);
    n.starts_with(b"@llvm.fake.use") || n == b"@llvm.coro.outside.frame"
}

/// Whether `i` is an `llvm.dbg.*` call or `#dbg_*` record (its uses are not real uses).
pub fn is_debug(func: &Function, i: Inst) -> bool {
    func.dfg.insts[i].flags & flags::DEBUG != 0
}

/// Whether every user of `v` is a lifetime marker (or, with `droppable`, a droppable use) or
/// a debug use.
fn only_markers(func: &Function, uses: &UseIndex, v: Value, droppable: bool) -> bool {
    uses.users(v).iter().all(|&(u, _)| {
        is_debug(func, u) || is_lifetime_marker(func, u) || (droppable && is_droppable(func, u))
    })
}

/// Whether all indices of `getelementptr` `i` are literal zeros.
fn all_zero_indices(func: &Function, i: Inst) -> bool {
    let dfg = &func.dfg;
    dfg.inst_values(i)[1..]
        .iter()
        .all(|&v| match dfg.values[dfg.resolve(v)].def {
            ValueDef::Const(t) => {
                let s = func.text(t);
                s == b"0" || s == b"zeroinitializer" || s == b"false"
            }
            _ => false,
        })
}

/// Checks slot `alloca` (an `alloca` instruction); `Err` names the blocking use.
pub fn check(func: &Function, uses: &UseIndex, alloca: Inst) -> Result<(), (Blocker, Inst)> {
    let dfg = &func.dfg;
    let ptr = dfg.insts[alloca].result;
    let ty = dfg.insts[alloca].aux_ty;
    for &(u, k) in uses.users(ptr) {
        if is_debug(func, u) {
            continue;
        }
        let d = &dfg.insts[u];
        match d.opcode {
            Opcode::Load => {
                if d.flags & flags::VOLATILE != 0 {
                    return Err((Blocker::VolatileLoad, u));
                }
                if dfg.value_type(d.result) != ty {
                    return Err((Blocker::TypeMismatch, u));
                }
            }
            Opcode::Store => {
                if k == 0 {
                    return Err((Blocker::AddressStored, u));
                }
                let v = dfg.resolve(dfg.inst_values(u)[0]);
                if dfg.value_type(v) != ty {
                    return Err((Blocker::TypeMismatch, u));
                }
                if d.flags & flags::VOLATILE != 0 {
                    return Err((Blocker::VolatileStore, u));
                }
            }
            Opcode::Call | Opcode::Invoke | Opcode::CallBr => {
                let intrinsic_ok = d.opcode == Opcode::Call
                    && (is_lifetime_marker(func, u)
                        || is_droppable(func, u)
                        || is_ignorable_intrinsic(func, u));
                if !intrinsic_ok {
                    return Err((Blocker::PassedToCall, u));
                }
            }
            Opcode::BitCast if only_markers(func, uses, d.result, true) => {}
            Opcode::GetElementPtr
                if k == 0
                    && all_zero_indices(func, u)
                    && only_markers(func, uses, d.result, true) => {}
            Opcode::AddrSpaceCast if only_markers(func, uses, d.result, false) => {}
            _ => return Err((Blocker::OtherUse, u)),
        }
    }
    Ok(())
}

/// Whether the slot is an aggregate whose refusal is SROA's business (not reported).
pub fn is_aggregate_slot(func: &Function, alloca: Inst) -> bool {
    use crate::ir::TypeData;
    let ty = func.dfg.insts[alloca].aux_ty;
    let ty = func.types.resolve_named(ty);
    matches!(
        func.types.data(ty),
        TypeData::Struct { .. } | TypeData::Array { .. } | TypeData::Vector { .. }
    )
}
