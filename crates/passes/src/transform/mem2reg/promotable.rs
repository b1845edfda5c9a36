//! Which stack slots can be promoted (LLVM's `isAllocaPromotable`), and, for those that
//! cannot, the use that blocks them — for `--explain` and `-pass-remarks-output`.
//!
//! Promotable: every use is a non-volatile load or store of the whole slot with the slot's
//! type (atomic ones are fine), never a store *of* the slot's address; lifetime intrinsics,
//! droppable uses (`llvm.assume` operand bundles), `llvm.fake.use` and debug uses do not
//! block; a `bitcast` or all-zero `getelementptr` used only by lifetime markers or droppable
//! uses is fine, an `addrspacecast` only by lifetime markers.
//!
//! Beyond LLVM, with [`Options::byte_array_slots`](super::Options::byte_array_slots): a byte
//! array `[N x i8]` (the type rustc gives every local) whose loads and stores all use one type
//! that fits in its N bytes is promoted as a slot of that type ([`value_type`]).

use super::tags::ValueTags;
use super::uses::UseIndex;
use llvm_ir::ir::datalayout::DataLayout;
use llvm_ir::ir::{flags, Function, Inst, Opcode, Type, TypeData, Value, ValueDef};

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

/// The type the slot's value has in SSA form, which [`check`] requires of every load and
/// store: the allocated type; or, with `byte_arrays`, for a byte array `[N x i8]`, the type
/// of its first load or store when that type's allocation size is at most N. A slot whose
/// loads and stores all use that one type behaves as a slot of that type (each load reads,
/// in the same type, what the last store wrote), and the bytes past it are never read.
pub fn value_type(
    func: &Function,
    uses: &UseIndex,
    dl: &DataLayout,
    alloca: Inst,
    byte_arrays: bool,
) -> Type {
    let d = &func.dfg.insts[alloca];
    let ty = d.aux_ty;
    if !byte_arrays {
        return ty;
    }
    let TypeData::Array { len, elem } = *func.types.data(func.types.resolve_named(ty)) else {
        return ty;
    };
    if elem != func.types.common().i8 {
        return ty;
    }
    let dfg = &func.dfg;
    let first = uses
        .users(d.result)
        .iter()
        .find_map(|&(u, k)| match dfg.opcode(u) {
            Opcode::Load => Some(dfg.value_type(dfg.insts[u].result)),
            Opcode::Store if k == 1 => Some(dfg.value_type(dfg.resolve(dfg.inst_values(u)[0]))),
            _ => None,
        });
    match first {
        Some(t)
            if dl
                .alloc_size(&func.types, t)
                .is_some_and(|size| size <= len) =>
        {
            t
        }
        _ => ty,
    }
}

/// Checks slot `alloca` (an `alloca` instruction) whose value type (see [`value_type`]) is
/// `ty`; `Err` names the blocking use.
pub fn check(
    func: &Function,
    uses: &UseIndex,
    alloca: Inst,
    ty: Type,
) -> Result<(), (Blocker, Inst)> {
    check_address(func, uses, func.dfg.insts[alloca].result, ty)
}

/// [`check`] for any address `ptr` (a `byval` argument, with `--promote-byval`): whether
/// its every use lets it be promoted as a slot whose value has type `ty`.
pub fn check_address(
    func: &Function,
    uses: &UseIndex,
    ptr: Value,
    ty: Type,
) -> Result<(), (Blocker, Inst)> {
    for &(u, k) in uses.users(ptr) {
        check_use(func, uses, ty, u, k)?;
    }
    Ok(())
}

/// [`check`] for each of `allocas`, from one walk over the function in layout order rather
/// than one walk over each slot's users: those are spread over the whole function, so on a
/// large one visiting them slot by slot misses the caches at every use. The walk meets each
/// slot's users in use-list order (the index lists them in layout order), so the first
/// blocking use it finds is the one `check` names. `tys` are the slots' value types. `tags`
/// must be clear; it is left clear.
pub fn check_all(
    func: &Function,
    uses: &UseIndex,
    allocas: &[Inst],
    tys: &[Type],
    tags: &mut ValueTags,
) -> Vec<Result<(), (Blocker, Inst)>> {
    let dfg = &func.dfg;
    let mut out = vec![Ok(()); allocas.len()];
    for (j, &a) in allocas.iter().enumerate() {
        tags.set(dfg.insts[a].result, j as u32);
    }
    for b in func.layout.blocks() {
        for u in func.layout.block_insts(b) {
            for (k, &v) in dfg.inst_values(u).iter().enumerate() {
                let Some(j) = tags.get(dfg.resolve(v)) else {
                    continue;
                };
                let r = &mut out[j as usize];
                if r.is_ok() {
                    *r = check_use(func, uses, tys[j as usize], u, k as u32);
                }
            }
        }
    }
    for &a in allocas {
        tags.unset(dfg.insts[a].result);
    }
    out
}

/// Whether use `k` of a slot's address (of allocated type `ty`) by `u` lets it be promoted.
fn check_use(
    func: &Function,
    uses: &UseIndex,
    ty: Type,
    u: Inst,
    k: u32,
) -> Result<(), (Blocker, Inst)> {
    let dfg = &func.dfg;
    if is_debug(func, u) {
        return Ok(());
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
            if k == 0 && all_zero_indices(func, u) && only_markers(func, uses, d.result, true) => {}
        Opcode::AddrSpaceCast if only_markers(func, uses, d.result, false) => {}
        _ => return Err((Blocker::OtherUse, u)),
    }
    Ok(())
}

/// Whether the slot is an aggregate whose refusal is SROA's business (not reported).
pub fn is_aggregate_slot(func: &Function, alloca: Inst) -> bool {
    let ty = func.dfg.insts[alloca].aux_ty;
    let ty = func.types.resolve_named(ty);
    matches!(
        func.types.data(ty),
        TypeData::Struct { .. } | TypeData::Array { .. } | TypeData::Vector { .. }
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use llvm_ir::ir::module::FuncId;

    /// The walk over the function names the same blocking use as the walk over each slot's
    /// users, including the first of several (in layout order, across blocks).
    #[test]
    fn check_all_agrees_with_check() {
        let text = "declare void @g(ptr)
declare void @llvm.lifetime.start.p0(i64, ptr)
define void @f(i1 %c) {
entry:
  %ok = alloca i32, align 4
  %vol = alloca i32, align 4
  %esc = alloca ptr, align 8
  %call = alloca i32, align 4
  %two = alloca i32, align 4
  %cast = alloca i32, align 4
  %ty = alloca i32, align 4
  %p = alloca ptr, align 8
  store i32 1, ptr %ok, align 4
  %b = bitcast ptr %cast to ptr
  call void @llvm.lifetime.start.p0(i64 4, ptr %b)
  br i1 %c, label %l, label %r
l:
  %v = load volatile i32, ptr %vol, align 4
  store ptr %esc, ptr %p, align 8
  store i32 2, ptr %two, align 4
  %w = load i16, ptr %ty, align 2
  br label %r
r:
  call void @g(ptr %call)
  call void @g(ptr %two)
  %x = load i32, ptr %ok, align 4
  %y = load i32, ptr %two, align 4
  %z = ptrtoint ptr %two to i64
  ret void
}
";
        let m = llvm_reader::parse(text.as_bytes().to_vec().into()).expect("parses");
        let f = &m.functions[FuncId(0)];
        let uses = UseIndex::compute(f);
        let allocas: Vec<Inst> = f
            .layout
            .block_insts(f.layout.entry_block().expect("entry"))
            .filter(|&i| f.dfg.opcode(i) == Opcode::Alloca)
            .collect();
        let mut tags = ValueTags::default();
        let tys: Vec<Type> = allocas.iter().map(|&a| f.dfg.insts[a].aux_ty).collect();
        let walked = check_all(f, &uses, &allocas, &tys, &mut tags);
        let each: Vec<_> = (allocas.iter().zip(&tys))
            .map(|(&a, &t)| check(f, &uses, a, t))
            .collect();
        assert_eq!(walked, each);
        assert!(tags.is_clear());
        let blockers: Vec<Option<Blocker>> =
            walked.iter().map(|r| r.err().map(|(b, _)| b)).collect();
        use Blocker::*;
        assert_eq!(
            blockers,
            [
                None,
                Some(VolatileLoad),
                Some(AddressStored),
                Some(PassedToCall),
                Some(PassedToCall),
                None,
                Some(TypeMismatch),
                None
            ]
        );
    }
}
