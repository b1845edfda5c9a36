//! What a read of a slot gets where no store reaches it (`--uninit`, [`Uninit`]): the value
//! the renaming walk starts each slot with, that an `alloca` outside the entry block and a
//! lifetime marker (read as a store) set again, that the single-block fast path gives a load
//! above every store, and that a phi gets for an edge from an unreachable predecessor.
//!
//! The values ([`Uninit`]):
//! - `undef` (the default): as LLVM 19 — `undef` (one value per slot and function, as
//!   LLVM's `undef` of a type is one constant), and for unreachable predecessors LLVM's
//!   `poison` (`undef` in typed-pointer modules);
//! - `poison`: poison;
//! - `zero`: the type's zero (`0`, `false`, `0.000000e+00`, `null`, `zeroinitializer`,
//!   spelled as LLVM prints them); target extension types and `x86_amx`, which may have no
//!   zero, get the `freeze` value instead;
//! - `freeze`: `freeze <ty> poison`, one per slot and function, so every undefined read of a
//!   slot sees one arbitrary but fixed value. It is placed in the entry block after its
//!   leading allocas (before its first other instruction), where it dominates every use;
//!   freezes nothing but debug values use are deleted again (their debug values see `undef`),
//!   so debug info never changes the code.
//!
//! Edges from unreachable predecessors are never taken, so what they carry cannot be observed:
//! under `undef` they keep LLVM's value (above); under `poison`, `zero` and `freeze` they get
//! the option's value, so that with `zero` or `freeze` promotion puts no `undef` or `poison`
//! into the promoted values at all.
//!
//! Correctness: in LLVM 19 a read of uninitialized memory gives `undef`, which any value may
//! refine: `zero` and `freeze` (one fixed value) refine the original program. `poison` does
//! not — it is more undefined than `undef` (`and i32 %l, 0` is 0 for an undef `%l`, poison for
//! a poison one) — but it is the semantics LLVM means to move to (llvm-project issue 52930) and
//! Alive2 checks against, and right for a front end whose language makes such reads undefined
//! behaviour (C's automatic variables whose address is never taken, Rust). The fast path for a
//! single store (loads it does not dominate take the stored value, where that cannot be
//! poison) stays under `undef`, `poison` and `freeze` (its value is then the slot's one fixed
//! value), and is off under `zero`, which defines those reads.

use super::slots::Slot;
use super::Promoter;
use llvm_ir::ir::{FloatKind, FuncBuilder, Inst, Opcode, Text, Type, TypeData, Value};

/// What a read of a slot that no store reaches gives (see the module docs).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum Uninit {
    /// `undef`, as LLVM.
    #[default]
    Undef,
    /// `poison`.
    Poison,
    /// The type's zero.
    Zero,
    /// One `freeze <ty> poison` per slot.
    Freeze,
}

impl Uninit {
    /// Parses the command line's spelling (`undef`, `poison`, `zero`, `freeze`).
    pub fn from_name(name: &str) -> Option<Uninit> {
        Some(match name {
            "undef" => Uninit::Undef,
            "poison" => Uninit::Poison,
            "zero" => Uninit::Zero,
            "freeze" => Uninit::Freeze,
            _ => return None,
        })
    }

    /// The command line's spelling.
    pub fn name(self) -> &'static str {
        match self {
            Uninit::Undef => "undef",
            Uninit::Poison => "poison",
            Uninit::Zero => "zero",
            Uninit::Freeze => "freeze",
        }
    }
}

/// Which LLVM's rules for undefined values to follow where LLVM 19 and later releases differ
/// (`--undef-rules`). Two rules differ:
/// - lifetime markers: LLVM 19 deletes a slot's `llvm.lifetime.*` markers and carries the
///   last stored value across them (around a loop's back edge, through a phi); newer LLVM
///   (llvm-project pull request 191909) reads a marker of the whole slot as a store of
///   `undef`, so a variable declared inside a loop needs no phi there. Here only slots that
///   need phis use them, so the fast paths decide as in LLVM 19;
/// - `phi(x, undef)`: LLVM 19 folds it to `x` wherever `x` dominates the phi, even when `x`
///   may be poison, which makes the undef path more undefined (the conformance test
///   `single-store.ll` calls it "a miscompile"); newer LLVM (pull request 96631, the
///   conformance test `UndefValuesMerge.ll`) keeps the phi unless `x` cannot be poison.
///
/// LLVM 19's rules give `opt-19 -passes=mem2reg`'s bytes; the newer ones never make a value
/// more poisonous than the input's.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum UndefRules {
    /// Those of the LLVM the module is written for: the newer ones for a module that uses
    /// the one-operand `llvm.lifetime.*` intrinsics (LLVM 22 or later), else LLVM 19's.
    #[default]
    Auto,
    /// LLVM 19's, for every module.
    Llvm19,
    /// The newer ones, for every module.
    Newer,
}

impl UndefRules {
    /// Parses the command line's spelling (`auto`, `llvm19`, `newer`).
    pub fn from_name(name: &str) -> Option<UndefRules> {
        Some(match name {
            "auto" => UndefRules::Auto,
            "llvm19" => UndefRules::Llvm19,
            "newer" => UndefRules::Newer,
            _ => return None,
        })
    }
}

/// The value slot `s` reads where no store reaches: the slot's one value, made on first use
/// and remembered in the slot (for [`Uninit::Undef`] one `undef` serves every read, as LLVM's
/// `undef` of a type is one constant: a value per read cost a function with a million such
/// reads a value table twice the size).
pub(crate) fn value(p: &mut Promoter<'_, '_>, s: &Slot) -> Value {
    let mode = p.opts.uninit;
    let known = s.uninit.get();
    if !known.is_none() {
        return known;
    }
    let v = match (mode, zero_text(p, s.ty)) {
        (Uninit::Undef, _) => p.f.dfg.undef(s.ty),
        (Uninit::Poison, _) => p.f.dfg.poison(s.ty),
        (Uninit::Zero, Some(text)) => p.f.dfg.constant(s.ty, text),
        _ => freeze(p, s),
    };
    s.uninit.set(v);
    v
}

/// What a phi of slot `s` gets for an edge from a predecessor the walk never reached.
pub(crate) fn missing_value(p: &mut Promoter<'_, '_>, s: &Slot) -> Value {
    match p.opts.uninit {
        Uninit::Undef if p.f.types.opaque_mode => p.f.dfg.poison(s.ty),
        _ => value(p, s),
    }
}

/// Whether a load that the single store does not dominate may still take the stored value
/// (a value that cannot be poison): yes where the read would be undefined (it may be any
/// value), no where `--uninit=zero` defines it.
pub(crate) fn any_value_will_do(p: &Promoter<'_, '_>) -> bool {
    p.opts.uninit != Uninit::Zero
}

/// The zero of `ty` as LLVM prints it, if the type has one for sure.
fn zero_text(p: &Promoter<'_, '_>, ty: Type) -> Option<&'static str> {
    let types = &p.f.types;
    Some(match types.data(types.resolve_named(ty)) {
        TypeData::Int(1) => "false",
        TypeData::Int(_) => "0",
        TypeData::Float(k) => match k {
            FloatKind::Half => "0xH0000",
            FloatKind::BFloat => "0xR0000",
            FloatKind::Float | FloatKind::Double => "0.000000e+00",
            FloatKind::X86Fp80 => "0xK00000000000000000000",
            FloatKind::Fp128 => "0xL00000000000000000000000000000000",
            FloatKind::PpcFp128 => "0xM00000000000000000000000000000000",
        },
        TypeData::Ptr { .. } | TypeData::TypedPtr { .. } => "null",
        TypeData::TargetExt(_) | TypeData::X86Amx => return None,
        _ => "zeroinitializer",
    })
}

/// A new `freeze <ty> poison` for slot `s`, placed in the entry block after the leading
/// allocas (after the function's earlier freezes), and listed for [`finish`].
fn freeze(p: &mut Promoter<'_, '_>, s: &Slot) -> Value {
    let poison = p.f.dfg.poison(s.ty);
    let mut fb = FuncBuilder::new(p.f);
    fb.text("freeze ").ty(s.ty).text(" ").value(poison);
    let inst = fb.finish(Opcode::Freeze, 0, Type::NONE, Some((s.ty, Text::NONE)));
    match p.freezes.last() {
        Some(&(prev, _)) => p.f.layout.insert_inst_after(inst, prev),
        None => {
            let entry = p.f.layout.entry_block().expect("non-empty function");
            let first =
                p.f.layout
                    .block_insts(entry)
                    .find(|&i| p.f.dfg.opcode(i) != Opcode::Alloca);
            match first {
                Some(i) => p.f.layout.insert_inst_before(inst, i),
                None => p.f.layout.append_inst(inst, entry),
            }
        }
    }
    if p.pos.len() <= inst.index() {
        p.pos.resize(inst.index() + 1, 0);
    }
    p.freezes.push((inst, s.name.clone()));
    p.f.dfg.insts[inst].result
}

/// After the last round: deletes the function's freezes that only debug values use (or none),
/// and names the others `<slot>.fr` (unnamed for an unnamed slot).
pub(crate) fn finish(p: &mut Promoter<'_, '_>) {
    if p.freezes.is_empty() {
        return;
    }
    let freezes = std::mem::take(&mut p.freezes);
    let insts: Vec<Inst> = freezes.iter().map(|f| f.0).collect();
    let used = super::byval::used_by_code(p, &insts);
    for ((inst, name), used) in freezes.into_iter().zip(used) {
        if !used {
            super::edit::erase(p.f, inst);
            continue;
        }
        if name.is_empty() {
            continue;
        }
        let mut base = name;
        base.extend_from_slice(b".fr");
        let unique = p.names().create(&base);
        let text = super::names::name_text(p.f, &unique);
        let r = p.f.dfg.insts[inst].result;
        p.f.dfg.values[r].name = text;
    }
}
