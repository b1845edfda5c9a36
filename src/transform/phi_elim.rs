//! Phi elimination: leaving SSA form by turning every phi into copies on its incoming edges.
//!
//! For every block `S` with phis and every distinct predecessor `P`, the phis of `S` read their
//! incoming values *at once*: one parallel copy `(x_1, ..., x_m) <- (v_1, ..., v_m)` per edge
//! (an edge repeated in a terminator, `br i1 %c, label %S, label %S` or switch cases sharing a
//! destination, is one parallel copy: in valid IR its phi entries carry the same value). Each
//! parallel copy is sequentialized by [`crate::transform::parallel_copy`] (Boissinot, Darte,
//! Rastello, Dupont de Dinechin, Guillon, *Revisiting Out-of-SSA Translation for Correctness,
//! Code Quality, and Efficiency*, CGO 2009, Algorithm 1): chains in dependency order, one
//! temporary per closed cycle (the *swap problem*), none elsewhere; self-copies vanish. So a phi
//! uses a temporary only on the edges where it lies on a cycle.
//!
//! # Where the copies of an edge `P -> S` go
//! 1. *End of `P`*, before its terminator, when `P` has one distinct successor and its
//!    terminator defines no value.
//! 2. *Head of `S`* (after its EH pad), when `S` has one distinct predecessor: that head is on
//!    the edge and on no other.
//! 3. *A new block on the edge* ([`crate::transform::edges`]), when the edge is critical and
//!    can be split — only where the sequence is not empty. Placing the copies of a critical
//!    edge at the end of `P` would run them on `P`'s other edges too: the *lost-copy problem*
//!    (Briggs et al. 1998; Sreedhar et al., SAS 1999): a loop's back edge that is also its exit
//!    would clobber a phi still live after the loop.
//! 4. *Before the terminator of `P` although `P` has other successors* (the fallback), when the
//!    edge cannot be split: `indirectbr`, `callbr` indirect targets, the unwind edge of `invoke`
//!    (into a landingpad), funclet edges. Then `S` is a *fallback block*: as in LLVM's
//!    `PHIElimination` (which always copies into a fresh "incoming" register), each phi `a` of `S`
//!    gets its own incoming variable `in(a)`, the copies write `in(a)` (never `a`), and `S`'s head
//!    reads `a <- in(a)`. Why this is correct: `in(a)` is read *only* at `S`'s head, so writing
//!    it on a path that then leaves `P` another way is harmless — the next entry into `S` comes
//!    through some edge into `S`, and every such edge writes every `in(a)` again (in a fallback
//!    block no copy is dropped as a self-copy: `in(a) <- a` is a real copy). Sources are read as
//!    SSA values, never from a variable that this copy writes, so the order of the writes does
//!    not matter and no temporary is needed. An `invoke` result is never a source here: LLVM
//!    only lets it flow along the normal edge, which is always splittable (case 3).
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
use std::ops::Range;

use crate::analysis::cfg::Cfg;
use crate::entity::SecondaryMap;
use crate::ir::{Block, FuncBuilder, Function, Inst, Opcode, Text, Type, Value, ValueDef};
use crate::text::printer::Numbering;
use crate::transform::edges::{end_anchor, first_non_phi, is_splittable, split_edges};
use crate::transform::parallel_copy::{Move, Sequentializer, Slot};

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
    pub layout: Option<&'a crate::ir::datalayout::DataLayout>,
}

/// What phi elimination did to one function (or, summed, to a module).
#[derive(Clone, Copy, PartialEq, Eq, Default, Debug)]
pub struct PhiElimStats {
    /// Phis removed.
    pub phis: usize,
    /// Copies into phi variables (self-copies excluded): one move each.
    pub copies: usize,
    /// Temporaries (one per closed cycle of a parallel copy): one extra move each.
    pub temps: usize,
    /// Edges split with a new block.
    pub edges_split: usize,
    /// Edges whose copies went before a terminator with other successors (the fallback).
    pub fallback_edges: usize,
}

impl std::ops::AddAssign for PhiElimStats {
    fn add_assign(&mut self, o: Self) {
        self.phis += o.phis;
        self.copies += o.copies;
        self.temps += o.temps;
        self.edges_split += o.edges_split;
        self.fallback_edges += o.fallback_edges;
    }
}

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

/// A location of a parallel copy: a value (a phi variable or any source) or the incoming
/// variable of the phi with this index in [`Plan::phis`] (fallback blocks only).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
enum Loc {
    Val(Value),
    In(u32),
}

/// Where the copies of an edge go.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Place {
    End,
    Head,
    Split,
    BeforeTerm,
}

impl Place {
    fn name(self) -> &'static str {
        match self {
            Place::End => "end",
            Place::Head => "head",
            Place::Split => "split",
            Place::BeforeTerm => "before-terminator",
        }
    }
}

/// A block with phis.
struct PhiBlock {
    block: Block,
    /// Its phis, as a range of [`Plan::phis`].
    phis: Range<usize>,
    /// Whether some incoming edge uses the fallback placement (see the module docs).
    fallback: bool,
    /// Where its head code goes: before this instruction.
    head: Inst,
}

/// The copies of one edge.
struct EdgeCopies {
    pred: Block,
    /// Index into [`Plan::blocks`].
    succ: usize,
    place: Place,
    moves: Range<usize>,
}

/// Everything decided before the function is changed.
#[derive(Default)]
struct Plan {
    phis: Vec<Inst>,
    blocks: Vec<PhiBlock>,
    edges: Vec<EdgeCopies>,
    moves: Vec<Move<Loc>>,
    stats: PhiElimStats,
}

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

/// Decides placements and sequentializes every parallel copy.
fn make_plan(func: &Function) -> Result<Plan, PhiElimError> {
    let cfg = Cfg::compute(func);
    let mut plan = Plan::default();
    let mut scratch = Scratch::default();
    for s in func.layout.blocks() {
        let start = plan.phis.len();
        let phis = func.layout.block_insts(s);
        plan.phis
            .extend(phis.take_while(|&i| func.dfg.opcode(i) == Opcode::Phi));
        if plan.phis.len() > start {
            plan_block(func, &cfg, s, start, &mut plan, &mut scratch)?;
        }
    }
    plan.stats.phis = plan.phis.len();
    Ok(plan)
}

/// Buffers reused across blocks.
struct Scratch {
    seq: Sequentializer<Loc>,
    pred_pos: SecondaryMap<Block, u32>,
    srcs: Vec<Value>,
    copies: Vec<(Loc, Loc)>,
}

impl Default for Scratch {
    fn default() -> Self {
        Self {
            seq: Sequentializer::new(),
            pred_pos: SecondaryMap::with_default(u32::MAX),
            srcs: Vec::new(),
            copies: Vec::new(),
        }
    }
}

/// Plans the phis `plan.phis[start..]` of block `s`.
fn plan_block(
    func: &Function,
    cfg: &Cfg,
    s: Block,
    start: usize,
    plan: &mut Plan,
    sc: &mut Scratch,
) -> Result<(), PhiElimError> {
    let head = head_anchor(func, s).map_err(|m| err(func, m))?;
    let preds = cfg.distinct_preds(s);
    let places: Vec<Place> = preds
        .iter()
        .map(|&p| place(func, cfg, p, s))
        .collect::<Result<_, _>>()
        .map_err(|m| err(func, m))?;
    let fallback = places.contains(&Place::BeforeTerm);
    incoming_table(func, preds, &plan.phis[start..], sc).map_err(|m| err(func, m))?;
    let m = plan.phis.len() - start;
    let bi = plan.blocks.len();
    for (i, (&p, &pl)) in preds.iter().zip(&places).enumerate() {
        sc.copies.clear();
        for j in 0..m {
            let a = func.dfg.insts[plan.phis[start + j]].result;
            let dst = if fallback {
                Loc::In((start + j) as u32)
            } else {
                Loc::Val(a)
            };
            sc.copies.push((dst, Loc::Val(sc.srcs[i * m + j])));
        }
        let m0 = plan.moves.len();
        let st = sc
            .seq
            .sequentialize(&sc.copies, &mut plan.moves)
            .expect("phis are distinct destinations");
        if st.copies == 0 {
            continue;
        }
        plan.stats.copies += st.copies;
        plan.stats.temps += st.temps;
        plan.stats.edges_split += usize::from(pl == Place::Split);
        plan.stats.fallback_edges += usize::from(pl == Place::BeforeTerm);
        plan.edges.push(EdgeCopies {
            pred: p,
            succ: bi,
            place: pl,
            moves: m0..plan.moves.len(),
        });
    }
    plan.blocks.push(PhiBlock {
        block: s,
        phis: start..plan.phis.len(),
        fallback,
        head,
    });
    Ok(())
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

/// Where the copies of edge `p -> s` go (see the module docs).
fn place(func: &Function, cfg: &Cfg, p: Block, s: Block) -> Result<Place, String> {
    let term = func
        .terminator(p)
        .ok_or("a predecessor has no terminator")?;
    if func.dfg.opcode(term) == Opcode::CatchSwitch {
        return Err("copies on an edge out of a catchswitch are not supported".into());
    }
    Ok(
        if cfg.distinct_succs(p).len() == 1 && func.dfg.inst_result(term).is_none() {
            Place::End
        } else if cfg.distinct_preds(s).len() == 1 {
            Place::Head
        } else if is_splittable(func, p, s) {
            Place::Split
        } else {
            Place::BeforeTerm
        },
    )
}

/// Fills `sc.srcs[i * m + j]` with the incoming value of phi `j` from distinct predecessor `i`
/// (linear in the phis' entries).
fn incoming_table(
    func: &Function,
    preds: &[Block],
    phis: &[Inst],
    sc: &mut Scratch,
) -> Result<(), String> {
    let m = phis.len();
    for (i, &p) in preds.iter().enumerate() {
        sc.pred_pos[p] = i as u32;
    }
    sc.srcs.clear();
    sc.srcs.resize(preds.len() * m, Value::NONE);
    for (j, &phi) in phis.iter().enumerate() {
        let vals = func.dfg.inst_values(phi);
        for (&v, &b) in vals.iter().zip(func.dfg.inst_blocks(phi)) {
            let pos = sc.pred_pos[b];
            if pos != u32::MAX && sc.srcs[pos as usize * m + j].is_none() {
                sc.srcs[pos as usize * m + j] = v;
            }
        }
    }
    for &p in preds {
        sc.pred_pos[p] = u32::MAX;
    }
    match sc.srcs.iter().position(|v| v.is_none()) {
        Some(k) => Err(format!(
            "a phi has no entry for predecessor {}",
            preds[k / m]
        )),
        None => Ok(()),
    }
}

/// Changes the function as planned.
fn apply(
    func: &mut Function,
    plan: &Plan,
    lowering: Lowering,
    layout: Option<&crate::ir::datalayout::DataLayout>,
) {
    let reqs: Vec<(Block, Block)> = plan
        .edges
        .iter()
        .filter(|e| e.place == Place::Split)
        .map(|e| (e.pred, plan.blocks[e.succ].block))
        .collect();
    let mut new_blocks = split_edges(func, &reqs, false).into_iter();
    let mut em = Emitter::new(func, plan, lowering, layout);
    // Head code first (copies at the head, then the phis' replacements), so that code later
    // inserted before a terminator of the same block comes after it.
    for e in plan.edges.iter().filter(|e| e.place == Place::Head) {
        let anchor = plan.blocks[e.succ].head;
        em.emit_moves(e, anchor);
    }
    for pb in &plan.blocks {
        em.replace_phis(pb);
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
    layout: Option<&'p crate::ir::datalayout::DataLayout>,
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
        layout: Option<&'p crate::ir::datalayout::DataLayout>,
    ) -> Self {
        let mut phi_of = SecondaryMap::with_default(0u32);
        for (k, &phi) in plan.phis.iter().enumerate() {
            phi_of[func.dfg.insts[phi].result] = k as u32 + 1;
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
        self.func.dfg.insts[self.plan.phis[k]].result
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
    fn abi_align(&self, ty: crate::ir::Type) -> Option<u64> {
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
    fn replace_phis(&mut self, pb: &PhiBlock) {
        for k in pb.phis.clone() {
            let phi = self.plan.phis[k];
            let a = self.phi_value(k);
            match self.lowering {
                Lowering::StackSlots => {
                    let ty = self.func.dfg.value_type(a);
                    let name = self.func.dfg.values[a].name;
                    let align = self.abi_align(ty);
                    let l = FuncBuilder::new(self.func).make_load(ty, self.var[k], name, align);
                    self.insert(l, pb.head);
                    let lv = self.func.dfg.insts[l].result;
                    self.func.dfg.replace_all_uses(a, lv);
                }
                Lowering::Copies if pb.fallback => self.copy_into(self.var[k], a, pb.head),
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
        Loc::In(k) => format!(
            "in({})",
            num.value_ref(func, func.dfg.insts[plan.phis[k as usize]].result)
        ),
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
    m: &mut crate::ir::Module,
    opts: &crate::pipeline::RunOptions,
    report: &mut crate::pipeline::RunReport,
) -> Result<(), crate::pipeline::PipelineError> {
    let ctx = m.ctx.clone();
    let o = Options {
        lowering: Lowering::StackSlots,
        list: opts.print_copies,
        layout: ctx.as_deref().map(|c| &c.dl),
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
