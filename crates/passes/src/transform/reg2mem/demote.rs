//! reg2mem's demotion steps, in LLVM's order and with LLVM's names, so that the result is the
//! module `opt -passes=reg2mem` prints (llvm/lib/Transforms/Scalar/Reg2Mem.cpp with
//! `DemoteRegToStack`/`DemotePHIToStack` of llvm/lib/Transforms/Utils/DemoteRegToStack.cpp as
//! the model; the facts carried over, not the code).
//!
//! - Users are visited in LLVM's use-list order, which a freshly read module has: the users
//!   after the definition in the text, last first, then the users before it (forward
//!   references: phis of loop headers, blocks laid out before the definition's), first first.
//!   Each distinct user counts once; debug uses (`#dbg_*` records, `llvm.dbg.*` calls) are not
//!   uses, as metadata is not in LLVM. (Not modelled: LLVM also moves a destination phi to the
//!   front of its operands' use lists when a loop-exit split rewrites it, and puts new `.ph`
//!   phis there; this could renumber `.reload` names, and was never seen on clang output.)
//! - Step 2 ([`Demoter::demote_values`]) takes the escaping values — sized results used by a
//!   phi or in another block, entry-block allocas excepted — in *reverse* layout order. Each
//!   gets a slot `%<name>.reg2mem` (allocas go just before the alloca point, so in creation
//!   order); then per user a load `%<name>.reload` (right before a plain user, replacing all of
//!   its uses; for a phi, before the terminator of each incoming block, one per block per phi);
//!   then the store: after the definition past phis and EH pads, at the first insertion point
//!   of each successor when that leads to a `catchswitch`, at the head of the normal
//!   destination for an `invoke`/`callbr` result (split first if it has other predecessors).
//! - Step 3 ([`Demoter::demote_phis`]) takes all phis in reverse layout order. A phi without
//!   uses is deleted (its debug uses become `undef`); otherwise it gets a slot, one store per
//!   incoming *entry* before that block's terminator, and a load `%<name>.reload` after the
//!   block's phis and EH pad that replaces it everywhere, debug uses included.
//! - Names are made unique with LLVM's running counter ([`NameTable`]), in creation order.
//! - "Right before X" means right before X even when debug records precede it (LLVM 19 moves
//!   them onto the new instruction); only the heads of blocks (invoke destinations, handlers,
//!   the alloca point in an entry without leading allocas) go before the records. With
//!   `llvm19` false (typed-pointer modules, LLVM 14) debug calls are ordinary instructions
//!   when skipping past a definition and counting leading allocas.
//!
//! Invariant: no phi is left, and no non-entry-alloca sized value is used outside its block.
//! Cost: linear in instructions + operands + phi entries (plus the names' hashing).

use crate::transform::mem2reg::names::{name_text, plain, NameTable};
use llvm_ir::entity::SecondaryMap;
use llvm_ir::ir::{flags, Block, FuncBuilder, Function, Inst, Opcode, Text, Type, TypeData, Value};

use super::split::{Preds, Splitter};

/// Whether `inst` is a debug record or debug intrinsic call (its operands are not uses).
pub fn is_debug(func: &Function, inst: Inst) -> bool {
    func.dfg.opcode(inst) == Opcode::DbgRecord || func.dfg.insts[inst].flags & flags::DEBUG != 0
}

/// The distinct non-debug users of each instruction value, in LLVM's use-list order.
pub struct Users {
    range: SecondaryMap<Value, (u32, u32)>,
    list: Vec<Inst>,
}

impl Users {
    /// Computes the users of the values defined by `insts` (all placed instructions, in layout
    /// order, which is the text order of the module as read).
    pub fn compute(func: &Function, insts: &[Inst]) -> Self {
        let mut pos: SecondaryMap<Inst, u32> = SecondaryMap::with_default(0);
        for (k, &i) in insts.iter().enumerate() {
            pos[i] = k as u32;
        }
        let mut last: SecondaryMap<Value, Inst> = SecondaryMap::with_default(Inst::NONE);
        let mut pairs: Vec<(Value, Inst)> = Vec::new();
        let mut count: SecondaryMap<Value, u32> = SecondaryMap::with_default(0);
        for &u in insts.iter().filter(|&&u| !is_debug(func, u)) {
            for &v in func.dfg.inst_values(u) {
                if last[v] != u && func.dfg.value_inst(v).is_some() {
                    last[v] = u;
                    count[v] += 1;
                    pairs.push((v, u));
                }
            }
        }
        let mut range = SecondaryMap::with_default((0u32, 0u32));
        let mut at = 0u32;
        for &(v, _) in &pairs {
            if range[v] == (0, 0) && count[v] > 0 {
                range[v] = (at, at);
                at += count[v];
                count[v] = 0;
            }
        }
        let mut text_order = vec![Inst::NONE; pairs.len()];
        for &(v, u) in &pairs {
            let (s, e) = range[v];
            text_order[e as usize] = u;
            range[v] = (s, e + 1);
        }
        // LLVM order: users after the definition, last first; then the earlier ones in order.
        let mut list = Vec::with_capacity(text_order.len());
        let mut seen: SecondaryMap<Value, bool> = SecondaryMap::with_default(false);
        for &(v, _) in &pairs {
            if std::mem::replace(&mut seen[v], true) {
                continue;
            }
            let (s, e) = range[v];
            let users = &text_order[s as usize..e as usize];
            let def = pos[func.dfg.value_inst(v).expect("instruction value")];
            let split = users.partition_point(|&u| pos[u] <= def);
            list.extend(users[split..].iter().rev());
            list.extend_from_slice(&users[..split]);
        }
        Self { range, list }
    }

    /// The users of `v` in LLVM's order.
    pub fn of(&self, v: Value) -> &[Inst] {
        let (s, e) = self.range[v];
        &self.list[s as usize..e as usize]
    }
}

/// Makes slots, loads and stores (see the module docs).
pub struct Demoter<'f> {
    pub func: &'f mut Function,
    pub names: &'f mut NameTable,
    pub preds: &'f mut Preds,
    /// The `"reg2mem alloca point"` bitcast; new allocas go right before it.
    point: Inst,
    /// LLVM 19 rules for debug records (else LLVM 14's, see the module docs).
    llvm19: bool,
    /// The module's data layout, for the alignments of slots, loads and stores.
    layout: Option<&'f llvm_ir::ir::datalayout::DataLayout>,
}

impl<'f> Demoter<'f> {
    /// Inserts the alloca point into the entry block and returns the demoter.
    pub fn new(
        func: &'f mut Function,
        names: &'f mut NameTable,
        preds: &'f mut Preds,
        layout: Option<&'f llvm_ir::ir::datalayout::DataLayout>,
    ) -> Self {
        let llvm19 = func.types.opaque_mode;
        let entry = func.entry_block().expect("a defined function");
        let name = names.create(b"reg2mem alloca point");
        let name = name_text(func, &name);
        let i32t = func.types.int(32);
        let mut fb = FuncBuilder::new(func);
        fb.text("bitcast i32 0 to i32");
        let point = fb.finish(Opcode::BitCast, 0, Type::NONE, Some((i32t, name)));
        let d = Self {
            func,
            names,
            preds,
            point,
            llvm19,
            layout,
        };
        let mut allocas = 0;
        let mut at = d.func.layout.first_inst(entry);
        while let Some(i) = at {
            if d.invisible(i) || d.func.dfg.opcode(i) == Opcode::Alloca {
                allocas += usize::from(d.func.dfg.opcode(i) == Opcode::Alloca);
                at = d.func.layout.next_inst(i);
                continue;
            }
            break;
        }
        let first_non_alloca = at.expect("entry block has a terminator");
        if allocas == 0 {
            d.func.layout.prepend_inst(point, entry);
        } else {
            d.func.layout.insert_inst_before(point, first_non_alloca);
        }
        d
    }

    /// Whether LLVM does not see `i` as an instruction (a debug record in LLVM 19).
    fn invisible(&self, i: Inst) -> bool {
        self.llvm19 && is_debug(self.func, i)
    }

    /// From `i` on, the first instruction LLVM sees that is neither a phi nor an EH pad, or the
    /// `catchswitch` met on the way.
    fn past_phis_and_pads(&self, mut i: Inst) -> Inst {
        loop {
            let op = self.func.dfg.opcode(i);
            let skip = self.invisible(i) || op == Opcode::Phi || op.is_eh_pad();
            if !skip || op == Opcode::CatchSwitch {
                return i;
            }
            i = self
                .func
                .layout
                .next_inst(i)
                .expect("block has a terminator");
        }
    }

    /// Where head code of `b` goes: `getFirstInsertionPt`, right after the phis and the EH
    /// pad, before any debug records there.
    fn head_of(&self, b: Block) -> Inst {
        let f = &*self.func;
        let mut at = f.layout.first_inst(b).expect("block has a terminator");
        while f.dfg.opcode(at) == Opcode::Phi {
            at = f.layout.next_inst(at).expect("block has a terminator");
        }
        let mut first = at;
        while self.invisible(first) {
            first = f.layout.next_inst(first).expect("block has a terminator");
        }
        let op = f.dfg.opcode(first);
        if op.is_eh_pad() && op != Opcode::CatchSwitch {
            return f.layout.next_inst(first).expect("block has a terminator");
        }
        at
    }

    fn named(&mut self, v: Value, suffix: &[u8]) -> Text {
        let mut base = self.func.value_name(v).map(plain).unwrap_or_default();
        base.extend_from_slice(suffix);
        let name = self.names.create(&base);
        name_text(self.func, &name)
    }

    fn new_slot(&mut self, v: Value) -> Value {
        let ty = self.func.dfg.value_type(v);
        let pty = self.func.types.pointer_to_spelled(ty, 0);
        let name = self.named(v, b".reg2mem");
        let align = self
            .layout
            .and_then(|dl| dl.pref_align(&self.func.types, ty));
        let a = FuncBuilder::new(self.func).make_alloca(ty, pty, name, align);
        self.func.layout.insert_inst_before(a, self.point);
        self.func.dfg.insts[a].result
    }

    fn store_before(&mut self, v: Value, slot: Value, at: Inst) {
        let ty = self.func.dfg.value_type(v);
        let align = self
            .layout
            .and_then(|dl| dl.abi_align(&self.func.types, ty));
        let s = FuncBuilder::new(self.func).make_store(v, slot, align);
        self.func.layout.insert_inst_before(s, at);
    }

    fn reload_before(&mut self, v: Value, slot: Value, at: Inst) -> Value {
        let ty = self.func.dfg.value_type(v);
        let name = self.named(v, b".reload");
        let align = self
            .layout
            .and_then(|dl| dl.abi_align(&self.func.types, ty));
        let l = FuncBuilder::new(self.func).make_load(ty, slot, name, align);
        self.func.layout.insert_inst_before(l, at);
        self.func.dfg.insts[l].result
    }

    /// Step 2; returns how many values were demoted.
    pub fn demote_values(&mut self, insts: &[Inst], users: &Users) -> usize {
        let entry = self.func.entry_block();
        let work: Vec<Inst> = insts
            .iter()
            .rev()
            .copied()
            .filter(|&i| escapes(self.func, i, entry, users))
            .collect();
        for &def in &work {
            let v = self.func.dfg.insts[def].result;
            self.demote_value(def, v, users.of(v));
        }
        work.len()
    }

    fn demote_value(&mut self, def: Inst, v: Value, users: &[Inst]) {
        let slot = self.new_slot(v);
        if matches!(self.func.dfg.opcode(def), Opcode::Invoke | Opcode::CallBr) {
            let normal = self.func.dfg.inst_blocks(def)[0];
            if self.preds.count(normal) != 1 {
                let mut s = Splitter {
                    func: &mut *self.func,
                    names: &mut *self.names,
                    preds: &mut *self.preds,
                };
                s.split_edge(def, 0, None);
            }
        }
        for &u in users {
            if self.func.dfg.opcode(u) == Opcode::Phi {
                self.reload_phi_operands(u, v, slot);
            } else {
                let l = self.reload_before(v, slot, u);
                for x in self.func.dfg.inst_values_mut(u) {
                    if *x == v {
                        *x = l;
                    }
                }
            }
        }
        self.store_def(def, v, slot);
    }

    /// Replaces the entries of `phi` holding `v` by loads at the end of their blocks (one
    /// load per block).
    fn reload_phi_operands(&mut self, phi: Inst, v: Value, slot: Value) {
        let mut made: Vec<(Block, Value)> = Vec::new();
        for k in 0..self.func.dfg.inst_values(phi).len() {
            if self.func.dfg.inst_values(phi)[k] != v {
                continue;
            }
            let b = self.func.dfg.inst_blocks(phi)[k];
            let l = match made.iter().find(|m| m.0 == b) {
                Some(m) => m.1,
                None => {
                    let term = self.func.terminator(b).expect("block has a terminator");
                    let l = self.reload_before(v, slot, term);
                    made.push((b, l));
                    l
                }
            };
            self.func.dfg.inst_values_mut(phi)[k] = l;
        }
    }

    /// Stores `v` (the result of `def`) into `slot` where the value is complete.
    fn store_def(&mut self, def: Inst, v: Value, slot: Value) {
        if matches!(self.func.dfg.opcode(def), Opcode::Invoke | Opcode::CallBr) {
            let normal = self.func.dfg.inst_blocks(def)[0];
            let at = self.head_of(normal);
            return self.store_before(v, slot, at);
        }
        let next = self.func.layout.next_inst(def).expect("not a terminator");
        let at = self.past_phis_and_pads(next);
        if self.func.dfg.opcode(at) == Opcode::CatchSwitch {
            for h in self.func.dfg.inst_blocks(at).to_vec() {
                let at = self.head_of(h);
                self.store_before(v, slot, at);
            }
            return;
        }
        self.store_before(v, slot, at);
    }

    /// Step 3; returns how many phis were demoted (deleted unused ones not counted).
    pub fn demote_phis(&mut self, insts: &[Inst], users: &Users) -> usize {
        let phis: Vec<Inst> = insts
            .iter()
            .copied()
            .filter(|&i| self.func.dfg.opcode(i) == Opcode::Phi)
            .collect();
        let mut n = 0;
        for &phi in phis.iter().rev() {
            let v = self.func.dfg.insts[phi].result;
            if users.of(v).is_empty() {
                let ty = self.func.dfg.value_type(v);
                let u = self.func.dfg.undef(ty);
                self.func.dfg.replace_all_uses(v, u);
            } else {
                self.demote_phi(phi, v);
                n += 1;
            }
            if let Some(name) = self.func.value_name(v).map(<[u8]>::to_vec) {
                self.names.remove(&name);
            }
            self.func.remove_inst(phi);
        }
        n
    }

    fn demote_phi(&mut self, phi: Inst, v: Value) {
        let slot = self.new_slot(v);
        let n = self.func.dfg.inst_values(phi).len();
        for k in 0..n {
            let x = self.func.dfg.resolve(self.func.dfg.inst_values(phi)[k]);
            let b = self.func.dfg.inst_blocks(phi)[k];
            let term = self.func.terminator(b).expect("block has a terminator");
            self.store_before(x, slot, term);
        }
        let at = self.past_phis_and_pads(phi);
        let l = self.reload_before(v, slot, at);
        self.func.dfg.replace_all_uses(v, l);
    }
}

/// Whether `def`'s value goes through a slot in step 2: sized, not an entry-block alloca, and
/// used by a phi or in another block.
fn escapes(func: &Function, def: Inst, entry: Option<Block>, users: &Users) -> bool {
    let Some(v) = func.dfg.inst_result(def) else {
        return false;
    };
    if func.dfg.opcode(def) == Opcode::Alloca && func.layout.inst_block(def) == entry {
        return false;
    }
    let ty = func.dfg.value_type(v);
    let sized = func.types.size_bits(ty, 64).is_some()
        || matches!(func.types.data(ty), TypeData::Vector { scalable: true, .. });
    let b = func.layout.inst_block(def);
    sized
        && users
            .of(v)
            .iter()
            .any(|&u| func.dfg.opcode(u) == Opcode::Phi || func.layout.inst_block(u) != b)
}
