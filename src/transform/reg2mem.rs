//! reg2mem: the inverse of mem2reg — every value that crosses a block boundary, and every phi,
//! goes through a stack slot, as LLVM's `RegToMem` pass does (llvm/lib/Transforms/Scalar/
//! Reg2Mem.cpp, with `DemoteRegToStack` and `DemotePHIToStack` from
//! llvm/lib/Transforms/Utils/DemoteRegToStack.cpp as the model; the facts carried over, not the
//! code).
//!
//! Steps, per function:
//! 1. Split every critical edge that can be split ([`crate::transform::edges`]), and the normal
//!    edge of an `invoke` (default edge of a `callbr`) whose destination has phis, so that code
//!    for that edge has a home *after* the call (LLVM asserts "Invoke edge not supported yet"
//!    there).
//! 2. Demote values: every instruction result of a sized type (not `token`, `void`, ...) that is
//!    used outside its block or by a phi, except the allocas of the entry block, gets a slot
//!    (`alloca` in the entry block, after its leading allocas, in order). Its value is stored right after
//!    the definition (after the block's phis and EH pad when the definition is one of them); an
//!    `invoke`/`callbr` result is stored at the head of its normal destination (single
//!    predecessor after step 1); a value whose block ends in a `catchswitch` is stored at the
//!    head of every handler. Every use then reads the slot: one load right before each using
//!    instruction, or, for a phi, one load at the end of the incoming block (shared by the
//!    phi's entries from that block, so a repeated edge still carries one value).
//! 3. Demote phis: each phi gets a slot; its incoming value is stored at the end of each
//!    distinct incoming block (before the terminator — for an `invoke` unwind edge that is
//!    before the invoke, and the value cannot be the invoke's result there); the phi is
//!    replaced by a load at the head of its block, after its EH pad and before the stores of
//!    step 2. Storing a successor's phi slot before a terminator with other successors is safe
//!    because that slot is read only at that successor's head, and every edge into it stores
//!    again.
//!
//! Debug uses (`llvm.dbg.*` operands, `#dbg_*` records) are not uses: they keep naming the
//! demoted value, which still exists (it feeds its store), as in LLVM, where metadata does not
//! use values. A phi without any use is deleted. New instructions are unnamed except each
//! phi's replacement load, which takes the phi's name. Unsupported (an error): phis in, or
//! incoming from, a `catchswitch` block (WinEH funclets).
//!
//! Invariant of the result: no phi, and no instruction value (other than entry allocas and
//! unsized values) used outside its block. Cost: linear in instructions + operands + phi
//! entries; no recursion, no hash map.

use crate::entity::SecondaryMap;
use crate::ir::{flags, Block, FuncBuilder, Function, Inst, Opcode, Text, TypeData, Value};
use crate::transform::edges::{anchor_before, end_anchor, split_critical_edges};

/// What reg2mem did to one function (or, summed, to a module).
#[derive(Clone, Copy, PartialEq, Eq, Default, Debug)]
pub struct Reg2MemStats {
    /// Edges split in step 1.
    pub edges_split: usize,
    /// Instruction values demoted in step 2.
    pub values_demoted: usize,
    /// Phis demoted in step 3 (deleted unused phis not counted).
    pub phis_demoted: usize,
}

impl std::ops::AddAssign for Reg2MemStats {
    fn add_assign(&mut self, o: Self) {
        self.edges_split += o.edges_split;
        self.values_demoted += o.values_demoted;
        self.phis_demoted += o.phis_demoted;
    }
}

/// Why reg2mem refused a function.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reg2MemError(pub String);

impl std::fmt::Display for Reg2MemError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Reg2MemError {}

/// Runs reg2mem on `func` (see the module docs). On error `func` is unchanged.
pub fn reg2mem(func: &mut Function) -> Result<Reg2MemStats, Reg2MemError> {
    func.dfg.resolve_aliases();
    check_supported(func)?;
    let edges_split = split_critical_edges(func, true);
    let insts: Vec<Inst> = func
        .layout
        .blocks()
        .flat_map(|b| func.layout.block_insts(b))
        .collect();
    let uses = Uses::compute(func, &insts);
    let mut d = Demoter::new(func);
    let values_demoted = d.demote_values(&insts, &uses);
    let phis_demoted = d.demote_phis(&insts, &uses);
    Ok(Reg2MemStats {
        edges_split,
        values_demoted,
        phis_demoted,
    })
}

/// Rejects catchswitch blocks with phis and phis incoming from a catchswitch block.
fn check_supported(func: &Function) -> Result<(), Reg2MemError> {
    let is_cs = |i: Inst| func.dfg.opcode(i) == Opcode::CatchSwitch;
    for b in func.layout.blocks() {
        let mut phis = func
            .layout
            .block_insts(b)
            .take_while(|&i| func.dfg.opcode(i) == Opcode::Phi)
            .peekable();
        if phis.peek().is_none() {
            continue;
        }
        let bad_head = crate::transform::edges::first_non_phi(func, b).is_some_and(is_cs);
        let bad_pred = phis.any(|i| {
            func.dfg
                .inst_blocks(i)
                .iter()
                .any(|&p| func.terminator(p).is_some_and(is_cs))
        });
        if bad_head || bad_pred {
            return Err(Reg2MemError(format!(
                "reg2mem: function @{}: phis in or incoming from a catchswitch block are not \
                 supported",
                func.name_str()
            )));
        }
    }
    Ok(())
}

/// Use facts from one scan of the instructions.
struct Uses {
    /// Whether the value must be demoted in step 2.
    escapes: SecondaryMap<Value, bool>,
    /// Whether the value has any use (debug uses included).
    used: SecondaryMap<Value, bool>,
}

impl Uses {
    fn compute(func: &Function, insts: &[Inst]) -> Self {
        let mut escapes = SecondaryMap::with_default(false);
        let mut used = SecondaryMap::with_default(false);
        let entry = func.entry_block();
        for &u in insts {
            let ub = func.layout.inst_block(u);
            let is_phi = func.dfg.opcode(u) == Opcode::Phi;
            let debug = is_debug(func, u);
            for &v in func.dfg.inst_values(u) {
                used[v] = true;
                let Some(def) = func.dfg.value_inst(v) else {
                    continue;
                };
                let Some(db) = func.layout.inst_block(def) else {
                    continue;
                };
                if !debug && (is_phi || ub != Some(db)) && demotable(func, def, entry) {
                    escapes[v] = true;
                }
            }
        }
        Self { escapes, used }
    }
}

/// Whether `inst`'s operands are debug uses only.
fn is_debug(func: &Function, inst: Inst) -> bool {
    func.dfg.opcode(inst) == Opcode::DbgRecord || func.dfg.insts[inst].flags & flags::DEBUG != 0
}

/// Whether `def`'s result may get a slot: sized, and not an alloca of the entry block.
fn demotable(func: &Function, def: Inst, entry: Option<Block>) -> bool {
    if func.dfg.opcode(def) == Opcode::Alloca && func.layout.inst_block(def) == entry {
        return false;
    }
    let ty = func.dfg.value_type(func.dfg.insts[def].result);
    func.types.size_bits(ty, 64).is_some()
        || matches!(func.types.data(ty), TypeData::Vector { scalable: true, .. })
}

/// Makes slots, loads and stores.
struct Demoter<'f> {
    func: &'f mut Function,
    /// New allocas go right after this one (the last alloca of the entry block's leading run,
    /// or the last new one), or first in the entry block when `None`.
    alloca_after: Option<Inst>,
    /// Per block: `(value, load)` made for the phi being rewritten (phi operands), or the last
    /// phi that stored there (`.0` is that phi's result, for step 3).
    per_block: SecondaryMap<Block, (Value, Value)>,
    touched: Vec<Block>,
}

impl<'f> Demoter<'f> {
    fn new(func: &'f mut Function) -> Self {
        let alloca_after = func.entry_block().and_then(|e| {
            func.layout
                .block_insts(e)
                .take_while(|&i| func.dfg.opcode(i) == Opcode::Alloca)
                .last()
        });
        Self {
            func,
            alloca_after,
            per_block: SecondaryMap::with_default((Value::NONE, Value::NONE)),
            touched: Vec::new(),
        }
    }

    fn slot_for(&mut self, v: Value) -> Value {
        let ty = self.func.dfg.value_type(v);
        let pty = self.func.types.pointer_to_spelled(ty, 0);
        let a = FuncBuilder::new(self.func).make_alloca(ty, pty, Text::NONE);
        match (self.alloca_after, self.func.entry_block()) {
            (Some(after), _) => self.func.layout.insert_inst_after(a, after),
            (None, Some(e)) => self.func.layout.prepend_inst(a, e),
            (None, None) => unreachable!("a function with values has an entry block"),
        }
        self.alloca_after = Some(a);
        self.func.dfg.insts[a].result
    }

    fn store_before(&mut self, v: Value, slot: Value, at: Inst) {
        let s = FuncBuilder::new(self.func).make_store(v, slot);
        self.func.layout.insert_inst_before(s, at);
    }

    fn load_before(&mut self, slot: Value, ty: crate::ir::Type, name: Text, at: Inst) -> Value {
        let l = FuncBuilder::new(self.func).make_load(ty, slot, name);
        self.func.layout.insert_inst_before(l, at);
        self.func.dfg.insts[l].result
    }

    /// The first instruction of `b` after its phis and EH pads (before which head code goes),
    /// or the `catchswitch` that ends the block.
    fn head_of(&self, b: Block) -> Inst {
        let f = &*self.func;
        f.layout
            .block_insts(b)
            .find(|&i| {
                let op = f.dfg.opcode(i);
                op == Opcode::CatchSwitch || (op != Opcode::Phi && !op.is_eh_pad())
            })
            .expect("block has a terminator")
    }

    /// Step 2: slots, stores and loads for every escaping value. Returns how many.
    fn demote_values(&mut self, insts: &[Inst], uses: &Uses) -> usize {
        let mut slot: SecondaryMap<Value, Value> = SecondaryMap::with_default(Value::NONE);
        let mut n = 0;
        for &def in insts {
            let Some(v) = self.func.dfg.inst_result(def) else {
                continue;
            };
            if uses.escapes[v] {
                slot[v] = self.slot_for(v);
                self.store_def(def, v, slot[v]);
                n += 1;
            }
        }
        for &u in insts {
            if !is_debug(self.func, u) {
                self.reload_operands(u, &slot);
            }
        }
        n
    }

    /// Stores `v` (the result of `def`) into `slot` where the value is complete.
    fn store_def(&mut self, def: Inst, v: Value, slot: Value) {
        let op = self.func.dfg.opcode(def);
        if matches!(op, Opcode::Invoke | Opcode::CallBr) {
            let normal = self.func.dfg.inst_blocks(def)[0];
            let at = self.head_of(normal);
            return self.store_before(v, slot, at);
        }
        let b = self.func.layout.inst_block(def).expect("placed");
        let after = match op {
            Opcode::Phi => self.head_of(b),
            _ if op.is_eh_pad() => self.head_of(b),
            _ => self.func.layout.next_inst(def).expect("not a terminator"),
        };
        if self.func.dfg.opcode(after) == Opcode::CatchSwitch {
            let handlers = self.func.dfg.inst_blocks(after).to_vec();
            let unwind = self.func.dfg.insts[after].flags & crate::ir::flags::UNWIND_DEST != 0;
            let n = handlers.len() - usize::from(unwind);
            for h in handlers.into_iter().take(n) {
                let at = self.head_of(h);
                self.store_before(v, slot, at);
            }
            return;
        }
        self.store_before(v, slot, after);
    }

    /// Replaces `u`'s operands that have slots by loads: before `u`, or, for a phi, at the end
    /// of the incoming block (one load per (value, block)).
    fn reload_operands(&mut self, u: Inst, slot: &SecondaryMap<Value, Value>) {
        let is_phi = self.func.dfg.opcode(u) == Opcode::Phi;
        let mut made: Vec<(Value, Value)> = Vec::new();
        let n = self.func.dfg.inst_values(u).len();
        for k in 0..n {
            let v = self.func.dfg.inst_values(u)[k];
            let s = slot[v];
            if s.is_none() {
                continue;
            }
            let load = if is_phi {
                let b = self.func.dfg.inst_blocks(u)[k];
                self.phi_operand_load(v, s, b)
            } else if let Some(m) = made.iter().find(|m| m.0 == v) {
                m.1
            } else {
                let at = anchor_before(self.func, u);
                let ty = self.func.dfg.value_type(v);
                let l = self.load_before(s, ty, Text::NONE, at);
                made.push((v, l));
                l
            };
            self.func.dfg.inst_values_mut(u)[k] = load;
        }
        for b in self.touched.drain(..) {
            self.per_block[b] = (Value::NONE, Value::NONE);
        }
    }

    /// The load of `v` (slot `s`) at the end of `b` for the phi being rewritten.
    fn phi_operand_load(&mut self, v: Value, s: Value, b: Block) -> Value {
        let (pv, pl) = self.per_block[b];
        if pv == v {
            return pl;
        }
        let at = end_anchor(self.func, b);
        let ty = self.func.dfg.value_type(v);
        let l = self.load_before(s, ty, Text::NONE, at);
        if pv.is_none() {
            self.touched.push(b);
        }
        self.per_block[b] = (v, l);
        l
    }

    /// Step 3: every phi becomes stores in its incoming blocks and a load at its head.
    fn demote_phis(&mut self, insts: &[Inst], uses: &Uses) -> usize {
        let mut n = 0;
        let mut head_block = Block::NONE;
        let mut head = None;
        for &phi in insts {
            if self.func.dfg.opcode(phi) != Opcode::Phi {
                continue;
            }
            let b = self.func.layout.inst_block(phi).expect("placed");
            if b != head_block {
                head_block = b;
                head = Some(self.head_of(b));
            }
            let v = self.func.dfg.insts[phi].result;
            if uses.used[v] {
                self.demote_phi(phi, v, head.expect("set above"));
                n += 1;
            }
            self.func.remove_inst(phi);
        }
        n
    }

    fn demote_phi(&mut self, phi: Inst, v: Value, head: Inst) {
        let slot = self.slot_for(v);
        let entries: Vec<(Value, Block)> = self
            .func
            .dfg
            .inst_values(phi)
            .iter()
            .copied()
            .zip(self.func.dfg.inst_blocks(phi).iter().copied())
            .collect();
        for (x, p) in entries {
            // One store per distinct incoming block (a repeated edge carries one value).
            if self.per_block[p].0 != v {
                self.per_block[p] = (v, Value::NONE);
                let at = end_anchor(self.func, p);
                self.store_before(x, slot, at);
            }
        }
        let ty = self.func.dfg.value_type(v);
        let name = self.func.dfg.values[v].name;
        let l = self.load_before(slot, ty, name, head);
        self.func.dfg.replace_all_uses(v, l);
    }
}

/// The `reg2mem` pass of the pipeline; summed counts go to `report.stats` as
/// `reg2mem.{edges-split,values-demoted,phis-demoted}`.
pub fn run_on_module(
    m: &mut crate::ir::Module,
    opts: &crate::pipeline::RunOptions,
    report: &mut crate::pipeline::RunReport,
) -> Result<(), crate::pipeline::PipelineError> {
    let results = crate::pipeline::for_each_function(m, opts.threads, reg2mem);
    let mut total = Reg2MemStats::default();
    let mut messages = Vec::new();
    for r in results {
        match r {
            Ok(s) => total += s,
            Err(e) => messages.push(e.0),
        }
    }
    if !messages.is_empty() {
        return Err(crate::pipeline::PipelineError { messages });
    }
    for (k, v) in [
        ("edges-split", total.edges_split),
        ("values-demoted", total.values_demoted),
        ("phis-demoted", total.phis_demoted),
    ] {
        report.stats.push((format!("reg2mem.{k}"), v as u64));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::FuncId;
    use crate::transform::phi_elim::tests::{parse, random_loop, run, SWAP};
    use crate::util::rng::Rng;

    /// No phi is left, and no instruction value other than an entry alloca is used outside its
    /// block.
    fn check_demoted(func: &Function) {
        let entry = func.entry_block();
        for b in func.layout.blocks() {
            for u in func.layout.block_insts(b) {
                assert_ne!(func.dfg.opcode(u), Opcode::Phi);
                for &v in func.dfg.inst_values(u) {
                    let v = func.dfg.resolve(v);
                    let Some(d) = func.dfg.value_inst(v) else {
                        continue;
                    };
                    let db = func.layout.inst_block(d);
                    let entry_alloca = func.dfg.opcode(d) == Opcode::Alloca && db == entry;
                    assert!(db == Some(b) || entry_alloca, "{v} escapes its block");
                }
            }
        }
    }

    fn same_behaviour(text: &str, args: &[&[i64]]) -> Reg2MemStats {
        let m0 = parse(text);
        let mut m1 = parse(text);
        let f = &mut m1.functions[FuncId(0)];
        let st = reg2mem(f).unwrap();
        check_demoted(f);
        for a in args {
            let want = run(&m0.functions[FuncId(0)], a);
            assert_eq!(run(&m1.functions[FuncId(0)], a), want, "{text}");
        }
        st
    }

    #[test]
    fn swap_loop() {
        let st = same_behaviour(SWAP, &[&[1], &[4]]);
        // %a, %b (used by phis and after the loop) and %i.next; then 3 phis.
        assert_eq!(
            st,
            Reg2MemStats {
                edges_split: 1,
                values_demoted: 3,
                phis_demoted: 3
            }
        );
    }

    #[test]
    fn random_loops() {
        let mut rng = Rng::new(0x2e9);
        for case in 0..200 {
            let k = 1 + rng.below(6) as usize;
            let text = random_loop(&mut rng, k, case % 3);
            same_behaviour(&text, &[&[1], &[2], &[5]]);
        }
    }

    #[test]
    fn unused_phi_is_deleted_and_repeated_edge_stored_once() {
        let t = "define i32 @f(i32 %x) {
entry:
  %c = icmp slt i32 %x, 3
  br i1 %c, label %j, label %j
j:
  %dead = phi i32 [ 1, %entry ], [ 1, %entry ]
  %p = phi i32 [ %x, %entry ], [ %x, %entry ]
  ret i32 %p
}
";
        let mut m = parse(t);
        let f = &mut m.functions[FuncId(0)];
        let st = reg2mem(f).unwrap();
        check_demoted(f);
        assert_eq!((st.edges_split, st.phis_demoted), (1, 1));
        let text = String::from_utf8(crate::text::print_module(&m, 1)).unwrap();
        assert_eq!(text.matches("store").count(), 1, "{text}");
    }

    /// A clang -O0 style function: `k` variables in slots, a counted loop whose body assigns
    /// variables from each other (swaps, rotations, chains) straight or inside diamonds.
    fn random_slots(rng: &mut Rng, k: usize, stmts: usize) -> String {
        let mut s = String::from("define i32 @f(i32 %n) {\nentry:\n");
        for j in 0..k {
            s += &format!("  %v{j} = alloca i32\n");
        }
        s += "  %i = alloca i32\n";
        for j in 0..k {
            s += &format!("  store i32 {j}, ptr %v{j}\n");
        }
        s += "  store i32 0, ptr %i\n  br label %head\nhead:\n  %iv = load i32, ptr %i\n";
        s += "  %c = icmp slt i32 %iv, %n\n  br i1 %c, label %body, label %exit\nbody:\n";
        let assign = |s: &mut String, t: usize, rng: &mut Rng| {
            let (a, b) = (rng.below(k as u64), rng.below(k as u64));
            *s += &format!("  %l{t} = load i32, ptr %v{b}\n");
            *s += &format!("  %x{t} = add i32 %l{t}, {}\n", rng.below(3));
            *s += &format!("  store i32 %x{t}, ptr %v{a}\n");
        };
        for t in 0..stmts {
            if rng.below(3) == 0 {
                s += &format!("  %d{t} = icmp slt i32 %iv, {}\n", rng.below(6));
                s += &format!("  br i1 %d{t}, label %t{t}, label %e{t}\nt{t}:\n");
                assign(&mut s, 2 * t + 1000, rng);
                s += &format!("  br label %j{t}\ne{t}:\n");
                assign(&mut s, 2 * t + 1001, rng);
                s += &format!("  br label %j{t}\nj{t}:\n");
            } else {
                assign(&mut s, t, rng);
            }
        }
        s += "  %in = add i32 %iv, 1\n  store i32 %in, ptr %i\n  br label %head\nexit:\n";
        s += "  %h0 = add i32 0, 0\n";
        for j in 0..k {
            s += &format!("  %r{j} = load i32, ptr %v{j}\n  %m{j} = mul i32 %h{j}, 7\n");
            s += &format!("  %h{} = add i32 %m{j}, %r{j}\n", j + 1);
        }
        s += &format!("  ret i32 %h{k}\n}}\n");
        s
    }

    fn count_phis(func: &Function) -> usize {
        func.layout
            .blocks()
            .flat_map(|b| func.layout.block_insts(b))
            .filter(|&i| func.dfg.opcode(i) == Opcode::Phi)
            .count()
    }

    /// mem2reg after reg2mem gives back as many phis as mem2reg alone, and the same behaviour.
    #[test]
    fn mem2reg_after_reg2mem_gives_the_same_phis() {
        use crate::transform::mem2reg::{promote_function, Options};
        let mut rng = Rng::new(0x3e3);
        let opts = Options::default();
        let mut total = 0;
        for _ in 0..150 {
            let k = 2 + rng.below(5) as usize;
            let stmts = 1 + rng.below(8) as usize;
            let text = random_slots(&mut rng, k, stmts);
            let mut m = parse(&text);
            let f = &mut m.functions[FuncId(0)];
            let want = run(f, &[4]);
            promote_function(f, None, &opts);
            let phis = count_phis(f);
            total += phis;
            reg2mem(f).unwrap();
            check_demoted(f);
            assert_eq!(run(f, &[4]), want, "{text}");
            promote_function(f, None, &opts);
            assert_eq!(count_phis(f), phis, "{text}");
            assert_eq!(run(f, &[4]), want, "{text}");
        }
        assert!(total > 300, "the cases have phis ({total})");
    }
}
