//! Phi elimination: leaving SSA form by turning every phi into copies on its incoming edges.
//!
//! The plan is the `ssa` crate's ([`ssa::destruct`]): one parallel copy per edge into a block
//! with phis, sequenced with one temporary per closed cycle (the swap problem), placed at the
//! end of the predecessor, at the head of the successor, on a split critical edge (the
//! lost-copy problem), or — where the edge cannot be split — before the predecessor's
//! terminator with incoming variables (a *fallback block*). This file gives the plan LLVM's
//! facts: an edge can be split unless it is an `indirectbr`, `callbr` indirect target, the
//! unwind edge of an `invoke` (into a landingpad) or a funclet edge ([`is_splittable`]); the
//! end of a block takes copies only if its terminator defines no value (an `invoke` result
//! flows only along the normal edge, which is always splittable); head code goes after a
//! block's EH pad. Then it changes the function.
//!
//! # Output forms ([`Lowering`])
//! - [`Lowering::Copies`] (the library form, for a back end; not LLVM IR): each phi `%a` of a
//!   normal block is *removed* and becomes a variable: every move into it is an instruction
//!   `%a = copy T %src` (opcode [`Opcode::Copy`]) whose result is the phi's own value, so `%a` is
//!   defined once per incoming edge (and `values[%a].def` names the last of those copies). A
//!   temporary is a fresh value `%t = copy T %a`, defined and read once. In a fallback block, the
//!   incoming variable `in(a)` is a new value defined by the copies on the edges, and the phi is
//!   replaced at the head of `S` (after any EH pad) by `%a = copy T %in.a`.
//! - [`Lowering::StackSlots`] (the command line's form: valid LLVM IR that runs): each phi gets a
//!   stack slot (an `alloca` at the head of the entry block; typed-pointer modules spell its type
//!   `T*`). A move `x <- y` becomes `store y, slot(x)`, where a source `y` that this same copy
//!   writes is first loaded from its slot (so a wrong order would show as wrong behaviour); a
//!   temporary is the SSA value `%t = load T, ptr slot(y)`. Each phi is replaced by
//!   `load T, ptr slot(a)` at the head of its block (after its EH pad, after the block's own
//!   head copies), which takes over the phi's name and uses. Slots are written only on edges
//!   into their block, so outside the parallel copies a slot always equals its phi's value.
//!
//! After either form no phi remains. Unsupported (an error, not a miscompile): phis in a
//! `catchswitch` block and copies on an edge out of one (WinEH funclets; LLVM's WinEHPrepare
//! demotes those before codegen).
//!
//! Cost: linear in phis × distinct predecessors (the size of the phis' entry lists) plus edges;
//! one pass over the blocks, no recursion, no hash map drives the output.

use std::fmt::Write as _;

use crate::transform::edges::{end_anchor, first_non_phi, is_splittable, split_edges};
use llvm_ir::entity::SecondaryMap;
use llvm_ir::ir::cfg::FunctionGraph;
use llvm_ir::ir::{Block, FuncBuilder, Function, Inst, Opcode, Text, Type, Value, ValueDef};
use llvm_ir::print::Numbering;
use ssa::cfg::Cfg;
use ssa::destruct::parallel_copy::{Move, Slot};
use ssa::destruct::{self, EdgeCopies, PhiBlock, PhiFunction, Place};

/// How the sequentialized copies are expressed (see the module docs).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Lowering {
    /// `copy` instructions for a back end (not LLVM IR).
    Copies,
    /// Stack slots, loads and stores (LLVM IR).
    StackSlots,
}

/// Options of [`eliminate_phis`].
#[derive(Clone, Copy, Debug)]
pub struct Options<'a> {
    /// The output form.
    pub lowering: Lowering,
    /// Also return a readable listing of the copies of every edge ([`PhiElimOutput::listing`]).
    pub list: bool,
    /// The module's data layout: stack slots and their loads and stores get its alignments
    /// (preferred for the `alloca`, ABI for loads and stores, as LLVM's defaults); `None`:
    /// written without `align`.
    pub layout: Option<&'a llvm_ir::ir::datalayout::DataLayout>,
}

/// What phi elimination did to one function (or, summed, to a module): phis removed, copies
/// into phi variables, temporaries, edges split, fallback edges.
pub type PhiElimStats = ssa::destruct::Stats;

/// The result of [`eliminate_phis`].
#[derive(Clone, Debug, Default)]
pub struct PhiElimOutput {
    /// Counts.
    pub stats: PhiElimStats,
    /// With [`Options::list`], for a function with phis: a header line
    /// `@f: P phis, C copies, T temporaries, E edges split` and one line per edge with copies,
    /// `  %pred -> %succ [place]: dst <- src, ...` in execution order, naming values as the
    /// input printed them; `tmpK` is a temporary, `in(%a)` the incoming variable of phi `%a` in
    /// a fallback block; places are `end`, `head`, `split`, `before-terminator`. Empty otherwise.
    pub listing: String,
}

/// Why phi elimination refused a function.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PhiElimError(pub String);

impl std::fmt::Display for PhiElimError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for PhiElimError {}

/// The plan ([`ssa::destruct::plan`]), with each phi block's head anchor: where its head code
/// goes (before this instruction: its first non-phi, or the one after its EH pad).
struct Plan {
    plan: destruct::Plan<Value>,
    heads: Vec<Inst>,
}

impl std::ops::Deref for Plan {
    type Target = destruct::Plan<Value>;
    fn deref(&self) -> &Self::Target {
        &self.plan
    }
}

type Loc = destruct::Loc<Value>;

/// Eliminates every phi of `func` (see the module docs). On error `func` is unchanged.
pub fn eliminate_phis(func: &mut Function, opts: &Options) -> Result<PhiElimOutput, PhiElimError> {
    func.dfg.resolve_aliases();
    let plan = make_plan(func)?;
    let listing = if opts.list && !plan.phis.is_empty() {
        listing(func, &plan)
    } else {
        String::new()
    };
    apply(func, &plan, opts.lowering, opts.layout);
    Ok(PhiElimOutput {
        stats: plan.stats,
        listing,
    })
}

fn err(func: &Function, msg: String) -> PhiElimError {
    PhiElimError(format!("phi-elim: function @{}: {msg}", func.name_str()))
}

/// A function as out-of-SSA sees it: its graph, its phis and their incoming values, which
/// edges split and which block ends take copies (LLVM's rules, see the module docs).
struct Phis<'f> {
    func: &'f Function,
    graph: FunctionGraph<'f>,
    /// The phis of every block, block by block: block `b`'s are `insts[start[b]..end]` where
    /// `end` is the next block's start.
    insts: Vec<Inst>,
    start: SecondaryMap<Block, u32>,
    count: SecondaryMap<Block, u32>,
}

impl<'f> Phis<'f> {
    fn new(func: &'f Function) -> Self {
        let mut p = Phis {
            func,
            graph: FunctionGraph(func),
            insts: Vec::new(),
            start: SecondaryMap::with_default(0),
            count: SecondaryMap::with_default(0),
        };
        for b in func.layout.blocks() {
            let start = p.insts.len();
            let phis = func.layout.block_insts(b);
            p.insts
                .extend(phis.take_while(|&i| func.dfg.opcode(i) == Opcode::Phi));
            p.start[b] = start as u32;
            p.count[b] = (p.insts.len() - start) as u32;
        }
        p
    }

    fn of(&self, b: Block) -> &[Inst] {
        let s = self.start[b] as usize;
        &self.insts[s..s + self.count[b] as usize]
    }
}

impl ssa::Graph for Phis<'_> {
    fn num_blocks(&self) -> usize {
        self.graph.num_blocks()
    }
    fn entry(&self) -> Option<Block> {
        self.graph.entry()
    }
    fn successors(&self, b: Block) -> impl Iterator<Item = Block> + '_ {
        self.graph.successors(b)
    }
    fn blocks(&self) -> impl Iterator<Item = Block> + '_ {
        self.func.layout.blocks()
    }
}

impl PhiFunction for Phis<'_> {
    type Value = Value;

    fn phis(&self, b: Block, out: &mut Vec<Value>) {
        out.extend(self.of(b).iter().map(|&i| self.func.dfg.insts[i].result));
    }

    fn incoming(&self, b: Block, k: usize, out: &mut Vec<(Block, Value)>) {
        let (dfg, phi) = (&self.func.dfg, self.of(b)[k]);
        let vals = dfg.inst_values(phi).iter().copied();
        out.extend(dfg.inst_blocks(phi).iter().copied().zip(vals));
    }

    fn can_split(&self, pred: Block, succ: Block) -> bool {
        is_splittable(self.func, pred, succ)
    }

    fn end_usable(&self, pred: Block) -> bool {
        let term = self.func.terminator(pred).expect("checked by check_blocks");
        self.func.dfg.inst_result(term).is_none()
    }
}

/// Decides placements and sequentializes every parallel copy.
fn make_plan(func: &Function) -> Result<Plan, PhiElimError> {
    let cfg = llvm_ir::ir::cfg::cfg_of(func);
    let phis = Phis::new(func);
    let heads = check_blocks(func, &cfg, &phis).map_err(|m| err(func, m))?;
    let plan = destruct::plan_with_cfg(&phis, &cfg).map_err(|e| err(func, e.to_string()))?;
    Ok(Plan { plan, heads })
}

/// What LLVM IR rules out before a plan: phi blocks without a place for head code (a
/// `catchswitch`, an EH pad ending its block) and edges out of blocks without a terminator or
/// out of a `catchswitch`. Returns each phi block's head anchor, in layout order.
fn check_blocks(func: &Function, cfg: &Cfg, phis: &Phis<'_>) -> Result<Vec<Inst>, String> {
    let mut heads = Vec::new();
    for s in func.layout.blocks().filter(|&b| phis.count[b] > 0) {
        heads.push(head_anchor(func, s)?);
        for &p in cfg.distinct_preds(s) {
            let term = func
                .terminator(p)
                .ok_or("a predecessor has no terminator")?;
            if func.dfg.opcode(term) == Opcode::CatchSwitch {
                return Err("copies on an edge out of a catchswitch are not supported".into());
            }
        }
    }
    Ok(heads)
}

/// The instruction before which `s`'s head code goes: its first non-phi, or the one after it
/// when that is an EH pad.
fn head_anchor(func: &Function, s: Block) -> Result<Inst, String> {
    let first = first_non_phi(func, s).ok_or("a block with phis has no terminator")?;
    match func.dfg.opcode(first) {
        Opcode::CatchSwitch => Err("phis in a catchswitch block are not supported".into()),
        op if op.is_eh_pad() => func
            .layout
            .next_inst(first)
            .ok_or_else(|| "an EH pad ends its block".into()),
        _ => Ok(first),
    }
}

/// Changes the function as planned.
fn apply(
    func: &mut Function,
    plan: &Plan,
    lowering: Lowering,
    layout: Option<&llvm_ir::ir::datalayout::DataLayout>,
) {
    let reqs: Vec<(Block, Block)> = plan.split_edges().collect();
    let mut new_blocks = split_edges(func, &reqs, false).into_iter();
    let mut em = Emitter::new(func, plan, lowering, layout);
    // Head code first (copies at the head, then the phis' replacements), so that code later
    // inserted before a terminator of the same block comes after it.
    for e in plan.edges.iter().filter(|e| e.place == Place::Head) {
        let anchor = plan.heads[e.succ];
        em.emit_moves(e, anchor);
    }
    for (pb, &head) in plan.blocks.iter().zip(&plan.heads) {
        em.replace_phis(pb, head);
    }
    for e in plan.edges.iter().filter(|e| e.place != Place::Head) {
        let at = match e.place {
            Place::Split => new_blocks.next().expect("one new block per split edge"),
            _ => e.pred,
        };
        let anchor = end_anchor(em.func, at);
        em.emit_moves(e, anchor);
    }
}

/// Emits instructions for one lowering.
struct Emitter<'f, 'p> {
    func: &'f mut Function,
    plan: &'p Plan,
    lowering: Lowering,
    layout: Option<&'p llvm_ir::ir::datalayout::DataLayout>,
    /// Per phi (index in `plan.phis`): its stack slot, or (copies, fallback) its `in` variable.
    var: Vec<Value>,
    /// Per value: index + 1 of the phi it is the result of, 0 for others.
    phi_of: SecondaryMap<Value, u32>,
    temps: Vec<Value>,
}

impl<'f, 'p> Emitter<'f, 'p> {
    fn new(
        func: &'f mut Function,
        plan: &'p Plan,
        lowering: Lowering,
        layout: Option<&'p llvm_ir::ir::datalayout::DataLayout>,
    ) -> Self {
        let mut phi_of = SecondaryMap::with_default(0u32);
        for (k, &phi) in plan.phis.iter().enumerate() {
            phi_of[phi] = k as u32 + 1;
        }
        let mut em = Emitter {
            func,
            plan,
            lowering,
            layout,
            var: Vec::new(),
            phi_of,
            temps: Vec::new(),
        };
        match lowering {
            Lowering::StackSlots => em.make_slots(),
            Lowering::Copies => em.make_in_vars(),
        }
        em
    }

    fn phi_value(&self, k: usize) -> Value {
        self.plan.phis[k]
    }

    /// One `alloca` per phi at the head of the entry block, in phi order.
    fn make_slots(&mut self) {
        let Some(entry) = self.func.entry_block() else {
            return;
        };
        let first = self.func.layout.first_inst(entry);
        for k in 0..self.plan.phis.len() {
            let ty = self.func.dfg.value_type(self.phi_value(k));
            let pty = self.func.types.pointer_to_spelled(ty, 0);
            let align = self
                .layout
                .and_then(|dl| dl.pref_align(&self.func.types, ty));
            let a = FuncBuilder::new(self.func).make_alloca(ty, pty, Text::NONE, align);
            match first {
                Some(f) => self.func.layout.insert_inst_before(a, f),
                None => self.func.layout.append_inst(a, entry),
            }
            self.var.push(self.func.dfg.insts[a].result);
        }
    }

    /// The `in` variables of the phis of fallback blocks (copies form).
    fn make_in_vars(&mut self) {
        self.var = vec![Value::NONE; self.plan.phis.len()];
        for pb in self.plan.blocks.iter().filter(|pb| pb.fallback) {
            for k in pb.phis.clone() {
                let ty = self.func.dfg.value_type(self.phi_value(k));
                self.var[k] = self.func.dfg.make_value(ty, ValueDef::Undef, Text::NONE);
            }
        }
    }

    fn insert(&mut self, inst: Inst, anchor: Inst) -> Inst {
        self.func.layout.insert_inst_before(inst, anchor);
        inst
    }

    /// Whether `v` is a phi that the copy into `pb` writes in place (so must be read from its
    /// variable, not as an SSA value).
    fn written_here(&self, v: Value, pb: &PhiBlock) -> Option<usize> {
        let k = self.phi_of[v] as usize;
        (k > 0 && !pb.fallback && pb.phis.contains(&(k - 1))).then(|| k - 1)
    }

    /// Emits the moves of edge `e` before `anchor`.
    fn emit_moves(&mut self, e: &EdgeCopies, anchor: Inst) {
        let pb = &self.plan.blocks[e.succ];
        self.temps.clear();
        for mv in &self.plan.moves[e.moves.clone()] {
            match self.lowering {
                Lowering::StackSlots => self.emit_slot_move(mv, pb, anchor),
                Lowering::Copies => self.emit_copy_move(mv, anchor),
            }
        }
    }

    fn emit_slot_move(&mut self, mv: &Move<Loc>, pb: &PhiBlock, anchor: Inst) {
        let src = match mv.src {
            Slot::Temp(k) => self.temps[k as usize],
            Slot::Loc(Loc::Val(v)) => match self.written_here(v, pb) {
                Some(k) => {
                    let ty = self.func.dfg.value_type(v);
                    let align = self.abi_align(ty);
                    let l =
                        FuncBuilder::new(self.func).make_load(ty, self.var[k], Text::NONE, align);
                    let l = self.insert(l, anchor);
                    self.func.dfg.insts[l].result
                }
                None => v,
            },
            Slot::Loc(Loc::In(_)) => unreachable!("an incoming variable is never a source"),
        };
        match mv.dst {
            Slot::Temp(_) => self.temps.push(src),
            Slot::Loc(Loc::In(k)) => self.store(src, k as usize, anchor),
            Slot::Loc(Loc::Val(a)) => {
                let k = self.phi_of[a] as usize - 1;
                self.store(src, k, anchor)
            }
        }
    }

    fn store(&mut self, v: Value, k: usize, anchor: Inst) {
        let align = self.abi_align(self.func.dfg.value_type(v));
        let s = FuncBuilder::new(self.func).make_store(v, self.var[k], align);
        self.insert(s, anchor);
    }

    /// The ABI alignment of `ty`, for a slot's load or store.
    fn abi_align(&self, ty: llvm_ir::ir::Type) -> Option<u64> {
        self.layout
            .and_then(|dl| dl.abi_align(&self.func.types, ty))
    }

    fn emit_copy_move(&mut self, mv: &Move<Loc>, anchor: Inst) {
        let src = match mv.src {
            Slot::Temp(k) => self.temps[k as usize],
            Slot::Loc(Loc::Val(v)) => v,
            Slot::Loc(Loc::In(_)) => unreachable!("an incoming variable is never a source"),
        };
        match mv.dst {
            Slot::Temp(_) => {
                let c = FuncBuilder::new(self.func).make_copy(src, Text::NONE);
                let c = self.insert(c, anchor);
                self.temps.push(self.func.dfg.insts[c].result);
            }
            Slot::Loc(Loc::In(k)) => self.copy_into(src, self.var[k as usize], anchor),
            Slot::Loc(Loc::Val(a)) => self.copy_into(src, a, anchor),
        }
    }

    /// `dst = copy T src` with the existing value `dst` as result (a multiply-assigned variable).
    fn copy_into(&mut self, src: Value, dst: Value, anchor: Inst) {
        let ty = self.func.dfg.value_type(dst);
        let mut fb = FuncBuilder::new(self.func);
        fb.text("copy ").ty(ty).text(" ").value(src);
        let c = fb.finish(Opcode::Copy, 0, Type::NONE, None);
        self.func.dfg.insts[c].result = dst;
        self.func.dfg.values[dst].def = ValueDef::Inst(c);
        self.insert(c, anchor);
    }

    /// Removes the phis of `pb`, putting their replacements at its head.
    fn replace_phis(&mut self, pb: &PhiBlock, head: Inst) {
        for k in pb.phis.clone() {
            let a = self.phi_value(k);
            let phi = self.func.dfg.value_inst(a).expect("a phi's result");
            match self.lowering {
                Lowering::StackSlots => {
                    let ty = self.func.dfg.value_type(a);
                    let name = self.func.dfg.values[a].name;
                    let align = self.abi_align(ty);
                    let l = FuncBuilder::new(self.func).make_load(ty, self.var[k], name, align);
                    self.insert(l, head);
                    let lv = self.func.dfg.insts[l].result;
                    self.func.dfg.replace_all_uses(a, lv);
                }
                Lowering::Copies if pb.fallback => self.copy_into(self.var[k], a, head),
                Lowering::Copies => {}
            }
            self.func.remove_inst(phi);
        }
    }
}

/// The `--print-copies` text of `plan` (values named as in the unchanged `func`).
fn listing(func: &Function, plan: &Plan) -> String {
    let num = Numbering::compute(func);
    let st = plan.stats;
    let mut out = format!(
        "@{}: {} phis, {} copies, {} temporaries, {} edges split\n",
        func.name_str(),
        st.phis,
        st.copies,
        st.temps,
        st.edges_split
    );
    let loc = |l: Loc| match l {
        Loc::Val(v) => num.value_ref(func, v),
        Loc::In(k) => format!("in({})", num.value_ref(func, plan.phis[k as usize])),
    };
    let slot = |s: Slot<Loc>| match s {
        Slot::Loc(l) => loc(l),
        Slot::Temp(k) => format!("tmp{k}"),
    };
    for e in &plan.edges {
        let s = plan.blocks[e.succ].block;
        let _ = write!(
            out,
            "  {} -> {} [{}]:",
            num.block_ref(func, e.pred),
            num.block_ref(func, s),
            e.place.name()
        );
        for (i, mv) in plan.moves[e.moves.clone()].iter().enumerate() {
            let sep = if i == 0 { " " } else { ", " };
            let _ = write!(out, "{sep}{} <- {}", slot(mv.dst), slot(mv.src));
        }
        out.push('\n');
    }
    out
}

/// The `phi-elim` pass of the pipeline: [`Lowering::StackSlots`] on every function; the
/// listing (with `print_copies`) goes to `report.copies`, the summed counts to `report.stats`
/// as `phi-elim.{phis,copies,temporaries,edges-split,fallback-edges}`.
pub fn run_on_module(
    m: &mut llvm_ir::ir::Module,
    opts: &crate::pipeline::RunOptions,
    report: &mut crate::pipeline::RunReport,
) -> Result<(), crate::pipeline::PipelineError> {
    let info = m.info.clone();
    let o = Options {
        lowering: Lowering::StackSlots,
        list: opts.print_copies,
        layout: info.as_deref().map(|c| &c.dl),
    };
    let results = crate::pipeline::for_each_function(m, opts.threads, |f| eliminate_phis(f, &o));
    let mut total = PhiElimStats::default();
    let mut messages = Vec::new();
    for r in results {
        match r {
            Ok(out) => {
                total += out.stats;
                report.copies.push_str(&out.listing);
            }
            Err(e) => messages.push(e.0),
        }
    }
    if !messages.is_empty() {
        return Err(crate::pipeline::PipelineError { messages });
    }
    for (k, v) in [
        ("phis", total.phis),
        ("copies", total.copies),
        ("temporaries", total.temps),
        ("edges-split", total.edges_split),
        ("fallback-edges", total.fallback_edges),
    ] {
        report.stats.push((format!("phi-elim.{k}"), v as u64));
    }
    Ok(())
}

#[cfg(test)]
#[path = "phi_elim_tests.rs"]
pub(crate) mod tests;
