//! mem2reg: promote stack slots (`alloca` + `load`/`store`) to SSA values with phis.
//!
//! The algorithm is LLVM's `PromoteMemoryToRegister` (Cytron et al. 1991 for phi
//! placement at iterated dominance frontiers; Sreedhar–Gao for computing them; pruned SSA by
//! slot liveness), with the same fast paths, phi names, phi operand order, debug-info rules
//! and trivial-phi folding, so its output matches `opt -passes=mem2reg` — but renaming is
//! linear: values flow along the spanning tree of LLVM's own traversal with an undo log,
//! instead of copying every slot's value at every branch (which makes LLVM quadratic on deep
//! loop nests). Files, in the order the pass uses them:
//! - [`promotable`]: which slots qualify, and what blocks the others;
//! - [`slots`]: per slot, dead / single-store / single-block fast paths, else phi placement;
//! - [`rename`]: the renaming walk; [`simplify`]: folding trivial phis, filling in
//!   unreachable predecessors; [`debug_info`]: `dbg.declare` → `dbg.value`;
//! - [`names`], [`edit`], [`uses`]: naming, IR edits, use lists.
//!
//! Where LLVM 19 and newer LLVM differ on undefined values (lifetime markers, `phi(x,
//! undef)`), the rules of the LLVM the module is written for, or those asked for
//! ([`UndefRules`]). Options: slots outside the entry block, byte-array slots accessed as one
//! type (rustc's), a maximum slot size, a phi-copy budget (as in a Rust C compiler's notes:
//! 50,000 copies), a per-function slot budget,
//! what uninitialized reads give ([`uninit`]), `byval` arguments as slots ([`byval`]),
//! minimal / semi-pruned SSA for comparison, and an explanation of every slot left in memory.
//! Invariant: a function's result depends only on the function (and the module's metadata),
//! never on thread count or hash order.

pub mod byval;
mod const_gep;
pub mod debug_info;
pub mod edit;
pub mod explain;
pub mod names;
pub mod promotable;
pub mod rename;
pub mod simplify;
pub mod slots;
pub mod tags;
pub mod uninit;
pub mod uses;

use std::fmt::Write as _;

use llvm_ir::ir::metadata::MdReader;
use llvm_ir::ir::ModuleInfo;
use llvm_ir::ir::{Function, Inst, Module, Opcode, Type};
use ssa::cfg::Cfg;
use ssa::domtree::DomTree;

pub use promotable::Blocker;
pub use uninit::{UndefRules, Uninit};

/// Which SSA form to build (for learners comparing phi counts; the default is LLVM's).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum Flavour {
    /// Cytron et al.: phis at the iterated frontier of every slot's stores.
    Minimal,
    /// Briggs et al.: as minimal, but only for slots live across blocks.
    SemiPruned,
    /// Only where the slot is live (LLVM's choice), with LLVM's fast paths.
    #[default]
    Pruned,
}

/// How to promote.
#[derive(Clone, Debug)]
pub struct Options {
    /// SSA flavour.
    pub flavour: Flavour,
    /// Leave slots larger than this many bytes in memory.
    pub max_slot_bytes: Option<u64>,
    /// Drop the most expensive slots (by estimated copies: phi operands) while the function's
    /// total exceeds this (a Rust C compiler's notes use 50,000).
    pub phi_copy_limit: Option<u64>,
    /// Promote slots outside the entry block too (their value is undefined each time the
    /// `alloca` runs).
    pub promote_non_entry: bool,
    /// Promote byte arrays `[N x i8]` (rustc's stack slots) whose loads and stores all use
    /// one type that fits in them, as slots of that type (see [`promotable::value_type`]).
    /// LLVM's mem2reg leaves them to SROA.
    pub byte_array_slots: bool,
    /// What a read of a slot that no store reaches gives (`--uninit`; default: `undef`, as
    /// LLVM). See [`Uninit`].
    pub uninit: Uninit,
    /// LLVM 19's rules for lifetime markers and `phi(x, undef)`, or newer LLVM's
    /// (`--undef-rules`; default: those of the LLVM the module is written for). See
    /// [`UndefRules`].
    pub undef_rules: UndefRules,
    /// Promote at most this many slots per function (`--max-promoted`): those with the most
    /// loads and stores, ties broken by the earlier alloca — the rule of
    /// [`ssa::construct::place::most_accessed`]. Each round chooses among its promotable slots
    /// with what is left of the budget; the others stay in memory, in later rounds too, and
    /// explanations and remarks say so.
    pub max_promoted: Option<usize>,
    /// Promote `byval` arguments whose address does not escape, as slots whose entry value is
    /// loaded once at the top of the entry block (`--promote-byval`; see [`byval`]).
    pub promote_byval: bool,
    /// Collect a readable explanation of every slot.
    pub explain: bool,
    /// Collect a [`Remark`] (with the blocking use) for every scalar slot left in memory. It
    /// costs a use index and a numbering of each function that keeps a slot; without it only
    /// [`Stats::not_promoted`] is counted.
    pub remarks: bool,
    /// Measure the time spent computing CFGs and dominator trees ([`Report::analysis_time`]),
    /// as opt's `-time-passes` times `DominatorTreeAnalysis` apart from `PromotePass`.
    pub time_analyses: bool,
}

impl Default for Options {
    fn default() -> Self {
        Self {
            flavour: Flavour::Pruned,
            max_slot_bytes: None,
            phi_copy_limit: None,
            promote_non_entry: true,
            byte_array_slots: false,
            uninit: Uninit::Undef,
            undef_rules: UndefRules::Auto,
            max_promoted: None,
            promote_byval: false,
            explain: false,
            remarks: true,
            time_analyses: false,
        }
    }
}

/// What promotion did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Slots promoted (all kinds below included).
    pub promoted: u64,
    /// ... of which with a single store (fast path).
    pub single_store: u64,
    /// ... of which used in a single block (fast path).
    pub single_block: u64,
    /// ... of which never loaded or stored (deleted).
    pub dead: u64,
    /// Phis left in the output.
    pub phis_inserted: u64,
    /// Phis placed and then folded away as trivial.
    pub phis_folded: u64,
    /// Loads removed.
    pub loads_removed: u64,
    /// Stores removed.
    pub stores_removed: u64,
    /// Slots left in memory.
    pub not_promoted: u64,
}

impl Stats {
    /// Adds `o` to these statistics.
    pub fn add(&mut self, o: &Stats) {
        self.promoted += o.promoted;
        self.single_store += o.single_store;
        self.single_block += o.single_block;
        self.dead += o.dead;
        self.phis_inserted += o.phis_inserted;
        self.phis_folded += o.phis_folded;
        self.loads_removed += o.loads_removed;
        self.stores_removed += o.stores_removed;
        self.not_promoted += o.not_promoted;
    }
}

/// A slot left in memory, and why.
#[derive(Clone, Debug)]
pub struct Remark {
    /// The function.
    pub function: String,
    /// The slot, as printed (`%x`, `%3`).
    pub slot: String,
    /// Why.
    pub reason: String,
    /// The blocking instruction, as printed (when one is to blame).
    pub blocking: Option<String>,
}

/// The result of promoting a function or module.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// Statistics.
    pub stats: Stats,
    /// Slots left in memory (scalars only: aggregates are SROA's business).
    pub remarks: Vec<Remark>,
    /// With [`Options::explain`]: one paragraph per slot.
    pub explanations: String,
    /// With [`Options::time_analyses`]: the part of the pass's time spent computing the CFG
    /// and the dominator tree.
    pub analysis_time: std::time::Duration,
}

/// A placement or renaming that handled more phis and accesses than this frees its buffers
/// when done instead of keeping them for the next round or function: kept, they would hold
/// the largest function's memory through the rest of its promotion (a loop nest with 1.6
/// million phis: about 90 MB while its phis are named, a fifth of the peak).
pub(crate) const KEEP_BUFFERS_LIMIT: usize = 1 << 20;

/// The pass's state for one function.
pub(crate) struct Promoter<'f, 'm> {
    pub f: &'f mut Function,
    pub md: debug_info::DbgMd<'m>,
    pub dl: &'m llvm_ir::ir::datalayout::DataLayout,
    /// The CFG and the dominator tree, computed on first use: a function whose slots all
    /// take the fast paths (dead, single store in the entry block, single block) never needs
    /// them. Promotion never changes a terminator or the block layout, so computing them
    /// late gives what computing them first would.
    pub cfg_cell: &'m std::cell::OnceCell<Cfg>,
    pub dt_cell: &'m std::cell::OnceCell<DomTree>,
    /// An earlier function's CFG and tree, recomputed into (for their buffers) on first use.
    spare: std::cell::Cell<(Option<Cfg>, Option<DomTree>)>,
    /// Time spent computing them (measured with [`Options::time_analyses`] only).
    analysis_time: std::cell::Cell<std::time::Duration>,
    pub opts: &'m Options,
    pub stats: Stats,
    pub names: Option<names::NameTable>,
    /// Position of each placed instruction within its block (this round).
    pub pos: Vec<u32>,
    /// Whether some store of the function (at this round's start) stores an address: the
    /// result of an alloca, cast or GEP ([`stores_address`]). Without one, promotion cannot
    /// make another slot promotable ([`may_unblock`]).
    stores_an_address: bool,
    pub explain: String,
    /// The input's numbering of values and blocks (with [`Options::explain`]).
    pub input_names: Option<llvm_ir::print::Numbering>,
    /// Allocas the phi-copy budget left in memory: later rounds do not take them again
    /// (else the budget would not hold, and a limit no slot meets would never end).
    pub over_budget: Vec<Inst>,
    /// Allocas `--max-promoted` left in memory (later rounds do not take them either).
    pub over_max: Vec<Inst>,
    /// The `byval` arguments given stand-in slots (see [`byval`]).
    pub(crate) byval: Vec<byval::ByvalSlot>,
    /// The `byval` arguments whose stand-in slots stayed in memory: the argument, why, and
    /// whether it is an aggregate (no remark).
    pub byval_left: Vec<(llvm_ir::ir::Value, String, bool)>,
    /// The freezes made for `--uninit=freeze`, in order, each with its slot's name (see
    /// [`uninit::finish`]).
    pub freezes: Vec<(Inst, Vec<u8>)>,
    /// The new phi each phi result is, during renaming (see [`tags`]).
    pub phi_of: tags::ValueTags,
    /// Slots of earlier rounds and functions, kept for their lists' buffers (their contents
    /// are stale: `slots::new_slot` resets every field).
    pub slot_pool: Vec<slots::Slot>,
    /// The buffers of an earlier function's phi placement (see [`KEEP_BUFFERS_LIMIT`]).
    pub placing_buffers: ssa::construct::place::PlacerBuffers,
    /// The blocks that get a phi, for the slot being placed.
    pub phi_blocks: Vec<llvm_ir::ir::Block>,
    /// The buffers of an earlier renaming walk (see [`KEEP_BUFFERS_LIMIT`]).
    pub rename_scratch: rename::RenameScratch,
    /// The incoming pairs of all new phis of a round (see `slots::NewPhi::incoming`).
    pub phi_incoming: ssa::construct::rename::Incoming<llvm_ir::ir::Value, debug_info::Loc>,
    /// The round's stores of `undef` standing for lifetime markers (see `slots::kill_store`).
    pub kills: Vec<Inst>,
    /// Whether the input is written for LLVM 22 or later (see [`Promoter::newer_llvm`]):
    /// known from the module, or found out on first use.
    newer_llvm: std::cell::OnceCell<bool>,
}

impl<'m> Promoter<'_, 'm> {
    /// The CFG (computed now if not yet).
    pub fn cfg(&self) -> &'m Cfg {
        self.cfg_cell.get_or_init(|| {
            let (cfg, dt) = self.spare.take();
            let mut cfg = cfg.unwrap_or_default();
            self.spare.set((None, dt));
            self.timed(|| llvm_ir::ir::cfg::recompute_cfg(&mut cfg, self.f));
            cfg
        })
    }

    /// The dominator tree (computed now if not yet).
    pub fn dt(&self) -> &'m DomTree {
        let cfg = self.cfg();
        self.dt_cell.get_or_init(|| {
            let (c, dt) = self.spare.take();
            let mut dt = dt.unwrap_or_default();
            self.spare.set((c, None));
            self.timed(|| dt.recompute(cfg));
            dt
        })
    }

    /// Whether the input is written for LLVM 22 or later: its module declares (see
    /// `ModuleInfo::newer_llvm`) or this function calls an `llvm.lifetime.*` intrinsic of one
    /// operand, which LLVM 19 rejects. (Newer LLVM also takes calls of undeclared intrinsics.)
    pub fn newer_llvm(&self) -> bool {
        *self.newer_llvm.get_or_init(|| {
            let f = &*self.f;
            f.layout.blocks().any(|b| {
                f.layout.block_insts(b).any(|i| {
                    f.dfg.inst_values(i).len() == 2 && promotable::is_lifetime_marker(f, i)
                })
            })
        })
    }

    /// Whether newer LLVM's rules for undefined values apply (see [`UndefRules`]).
    pub fn newer_undef_rules(&self) -> bool {
        match self.opts.undef_rules {
            UndefRules::Auto => self.newer_llvm(),
            UndefRules::Llvm19 => false,
            UndefRules::Newer => true,
        }
    }

    /// Runs `compute`, adding its time to `analysis_time` if asked to measure it.
    fn timed(&self, compute: impl FnOnce()) {
        if !self.opts.time_analyses {
            return compute();
        }
        let t0 = std::time::Instant::now();
        compute();
        self.analysis_time
            .set(self.analysis_time.get() + t0.elapsed());
    }

    /// Numbers the instructions of every block (positions only grow along a block), lists
    /// the allocas among them in layout order into `allocas`, and builds the use index.
    fn number_positions(&mut self, uses: &mut uses::UseIndex, allocas: &mut Vec<Inst>) {
        llvm_ir::util::refill(&mut self.pos, self.f.dfg.insts.len(), 0);
        allocas.clear();
        uses.begin(self.f);
        self.stores_an_address = false;
        for b in self.f.layout.blocks() {
            for (k, i) in self.f.layout.block_insts(b).enumerate() {
                self.pos[i.index()] = k as u32;
                match self.f.dfg.insts[i].opcode {
                    Opcode::Alloca => allocas.push(i),
                    Opcode::Store if !self.stores_an_address => {
                        self.stores_an_address = stores_address(&self.f.dfg, i);
                    }
                    _ => {}
                }
                uses.add(self.f, i);
            }
        }
    }

    /// The input function's numbering (only with [`Options::explain`]).
    pub fn input_names(&self) -> &llvm_ir::print::Numbering {
        self.input_names
            .as_ref()
            .expect("numbered at the start when explaining")
    }

    /// The name table, built on first use.
    pub fn names(&mut self) -> &mut names::NameTable {
        if self.names.is_none() {
            self.names = Some(names::NameTable::build(self.f));
        }
        self.names.as_mut().expect("just built")
    }

    /// Forgets the name of `inst`'s result (it is being deleted).
    pub fn forget_name(&mut self, inst: Inst) {
        if self.names.is_none() {
            return;
        }
        let r = self.f.dfg.insts[inst].result;
        if r.is_none() {
            return;
        }
        if let Some(n) = self.f.value_name(r).map(<[u8]>::to_vec) {
            self.names.as_mut().expect("present").remove(&n);
        }
    }
}

/// Buffers a thread reuses from function to function: the pass's vectors sized by a
/// function's values and instructions, which would otherwise be allocated (and, past glibc's
/// small sizes, split from and merged back into its heap) for every function.
#[derive(Default)]
struct Scratch {
    uses: uses::UseIndex,
    pos: Vec<u32>,
    /// The function's allocas in layout order (this round).
    allocas: Vec<Inst>,
    phi_of: tags::ValueTags,
    slot_pool: Vec<slots::Slot>,
    placing_buffers: ssa::construct::place::PlacerBuffers,
    phi_blocks: Vec<llvm_ir::ir::Block>,
    rename_scratch: rename::RenameScratch,
    phi_incoming: ssa::construct::rename::Incoming<llvm_ir::ir::Value, debug_info::Loc>,
    /// The last function's CFG and dominator tree (for their buffers).
    cfg: Cfg,
    dt: DomTree,
    /// The debug-metadata memos (see [`debug_info::DbgMemo`]).
    dbg_memo: debug_info::DbgMemo,
}

/// Functions of more instructions than this have their slots checked by one walk over the
/// function (about as many bytes of instructions as a core's L2 cache holds).
const CHECK_BY_WALK_FROM_INSTS: usize = 1 << 16;

/// A thread keeps its buffers after a function of at most this many instructions.
const KEEP_SCRATCH_UP_TO_INSTS: usize = 1 << 17;

thread_local! {
    /// Boxed, so that taking it out and putting it back moves a pointer, not the buffers.
    static SCRATCH: std::cell::RefCell<Option<Box<Scratch>>> = const { std::cell::RefCell::new(None) };
}

/// Promotes the slots of one function. `ctx` is the module's reader context (for debug
/// metadata); `None` for functions built in Rust. Afterwards no operand names a replaced
/// value (see [`DataFlowGraph::resolve_aliases`](llvm_ir::ir::DataFlowGraph::resolve_aliases)).
pub fn promote_function(func: &mut Function, ctx: Option<&ModuleInfo>, opts: &Options) -> Report {
    let report = promote_keeping_aliases(func, ctx, opts);
    func.dfg.resolve_aliases();
    report
}

/// [`promote_function`], leaving the last round's replacements recorded as aliases: for the
/// pipeline, whose readers resolve operands as they read them (the printer and the verifier
/// per operand, the other passes with one `resolve_aliases` at their start), so no pass over
/// all operands is spent on them.
pub(crate) fn promote_keeping_aliases(
    func: &mut Function,
    ctx: Option<&ModuleInfo>,
    opts: &Options,
) -> Report {
    let mut report = Report::default();
    if func.optnone || func.layout.entry_block().is_none() {
        return report;
    }
    func.dfg.resolve_aliases();
    let source = func.source.clone();
    let cfg = std::cell::OnceCell::new();
    let dt = std::cell::OnceCell::new();
    let input_names = opts
        .explain
        .then(|| llvm_ir::print::Numbering::compute(func));
    let default_dl;
    let dl = match ctx {
        Some(c) => &c.dl,
        None => {
            default_dl = llvm_ir::ir::datalayout::DataLayout::default();
            &default_dl
        }
    };
    let mut scratch = SCRATCH.with(|s| s.borrow_mut().take()).unwrap_or_default();
    let module_id = ctx.map_or(0, |c| c.id);
    let mut p = Promoter {
        md: debug_info::DbgMd::with_memo(
            MdReader {
                source: &source,
                ctx,
            },
            module_id,
            std::mem::take(&mut scratch.dbg_memo),
        ),
        dl,
        f: func,
        cfg_cell: &cfg,
        dt_cell: &dt,
        spare: std::cell::Cell::new((
            Some(std::mem::take(&mut scratch.cfg)),
            Some(std::mem::take(&mut scratch.dt)),
        )),
        analysis_time: std::cell::Cell::default(),
        opts,
        stats: Stats::default(),
        names: None,
        pos: std::mem::take(&mut scratch.pos),
        stores_an_address: false,
        explain: String::new(),
        input_names,
        over_budget: Vec::new(),
        over_max: Vec::new(),
        byval: Vec::new(),
        byval_left: Vec::new(),
        freezes: Vec::new(),
        phi_of: std::mem::take(&mut scratch.phi_of),
        slot_pool: std::mem::take(&mut scratch.slot_pool),
        placing_buffers: std::mem::take(&mut scratch.placing_buffers),
        phi_blocks: std::mem::take(&mut scratch.phi_blocks),
        rename_scratch: std::mem::take(&mut scratch.rename_scratch),
        phi_incoming: std::mem::take(&mut scratch.phi_incoming),
        kills: Vec::new(),
        newer_llvm: match ctx {
            Some(c) if c.newer_llvm => std::cell::OnceCell::from(true),
            _ => std::cell::OnceCell::new(),
        },
    };
    if opts.promote_byval {
        byval::prepare(&mut p);
    }
    let mut rounds = 0;
    loop {
        p.number_positions(&mut scratch.uses, &mut scratch.allocas);
        let candidates = candidate_slots(&p, &scratch.allocas);
        if candidates.is_empty() {
            break;
        }
        let uses = &scratch.uses;
        let tys = value_types(&p, uses, &candidates);
        // Small functions: slot by slot (their uses are in cache); large ones: one walk
        // over the function (the same verdicts; see `check_all`).
        let verdicts = if p.f.dfg.insts.len() > CHECK_BY_WALK_FROM_INSTS {
            promotable::check_all(p.f, uses, &candidates, &tys, &mut p.phi_of)
        } else {
            let f = &*p.f;
            (candidates.iter().zip(&tys))
                .map(|(&a, &t)| promotable::check(f, uses, a, t))
                .collect()
        };
        let (mut chosen, mut chosen_tys) = (Vec::new(), Vec::new());
        for ((a, v), t) in candidates.into_iter().zip(verdicts).zip(tys) {
            let left_out = p.over_budget.contains(&a) || p.over_max.binary_search(&a).is_ok();
            if v.is_ok() && within_size(&p, a) && !left_out {
                chosen.push(a);
                chosen_tys.push(t);
            }
        }
        apply_max_promoted(&mut p, uses, &mut chosen, &mut chosen_tys);
        if chosen.is_empty() {
            break;
        }
        let again = p.stores_an_address && may_unblock(p.f, uses, &chosen);
        slots::promote(&mut p, uses, chosen, chosen_tys);
        rounds += 1;
        if !again || rounds > 1_000_000 {
            break;
        }
        p.f.dfg.resolve_aliases();
    }
    byval::finish(&mut p);
    uninit::finish(&mut p);
    remarks_for_remaining(&mut p, &scratch.allocas, &mut report);
    scratch.pos = std::mem::take(&mut p.pos);
    scratch.phi_of = std::mem::take(&mut p.phi_of);
    scratch.slot_pool = std::mem::take(&mut p.slot_pool);
    scratch.placing_buffers = std::mem::take(&mut p.placing_buffers);
    scratch.phi_blocks = std::mem::take(&mut p.phi_blocks);
    scratch.rename_scratch = std::mem::take(&mut p.rename_scratch);
    scratch.phi_incoming = std::mem::take(&mut p.phi_incoming);
    let (spare_cfg, spare_dt) = p.spare.take();
    debug_assert!(scratch.phi_of.is_clear());
    let size = p.f.dfg.insts.len();
    report.stats = p.stats;
    report.explanations = std::mem::take(&mut p.explain);
    report.analysis_time = p.analysis_time.get();
    scratch.dbg_memo = p.md.into_memo();
    scratch.cfg = cfg.into_inner().or(spare_cfg).unwrap_or_default();
    scratch.dt = dt.into_inner().or(spare_dt).unwrap_or_default();
    // A very large function's buffers are released rather than kept: later functions are
    // unlikely to need that much, and the memory can serve its printing at once.
    if size <= KEEP_SCRATCH_UP_TO_INSTS {
        SCRATCH.with(|s| *s.borrow_mut() = Some(scratch));
    }
    report
}

/// Whether promoting `chosen` can make another slot promotable, so another round is needed.
///
/// Promotability looks only at the users of a slot's address and of its casts and zero GEPs.
/// Promoting a slot deletes its own loads, stores and markers and hands each load's users the
/// stored value: the users of any other address change only if such an address (an alloca,
/// or a cast or GEP of one: any cast or GEP counts, to stay on the safe side) is stored into
/// a promoted slot. Without such a store the next round would find nothing, and its use
/// index would cost as much as this one's. (A function with no store of an address at all
/// skips this scan, which reads every user of every chosen slot: see
/// [`Promoter::stores_an_address`].)
fn may_unblock(f: &Function, uses: &uses::UseIndex, chosen: &[Inst]) -> bool {
    let dfg = &f.dfg;
    chosen.iter().any(|&a| {
        uses.users(dfg.insts[a].result)
            .iter()
            .any(|&(u, k)| k == 1 && dfg.opcode(u) == Opcode::Store && stores_address(dfg, u))
    })
}

/// Whether the store `store` stores an address: the result of an alloca, or of a cast or GEP
/// (of anything: to stay on the safe side).
fn stores_address(dfg: &llvm_ir::ir::DataFlowGraph, store: Inst) -> bool {
    let stored = dfg.resolve(dfg.inst_values(store)[0]);
    matches!(
        dfg.values[stored].def,
        llvm_ir::ir::ValueDef::Inst(d) if matches!(
            dfg.opcode(d),
            Opcode::Alloca | Opcode::BitCast | Opcode::GetElementPtr | Opcode::AddrSpaceCast
        )
    )
}

/// Allocas that may be promoted this round, from the function's `allocas` in layout order:
/// the entry block's, then, with [`Options::promote_non_entry`], static ones in other
/// reachable blocks.
fn candidate_slots(p: &Promoter<'_, '_>, allocas: &[Inst]) -> Vec<Inst> {
    let f = &*p.f;
    let entry = f.layout.entry_block().expect("non-empty function");
    let mut out = Vec::new();
    for &i in allocas {
        let d = &f.dfg.insts[i];
        if d.flags & (llvm_ir::ir::flags::INALLOCA | llvm_ir::ir::flags::SWIFTERROR) != 0 {
            continue;
        }
        let b = f.layout.inst_block(i).expect("placed");
        if b != entry {
            if !p.opts.promote_non_entry {
                break;
            }
            if !f.dfg.inst_values(i).is_empty() || !p.cfg().is_reachable(b) {
                continue;
            }
        }
        out.push(i);
    }
    out
}

/// [`promotable::value_type`] of each slot of `allocas`.
fn value_types(p: &Promoter<'_, '_>, uses: &uses::UseIndex, allocas: &[Inst]) -> Vec<Type> {
    let bytes = p.opts.byte_array_slots;
    (allocas.iter())
        .map(|&a| promotable::value_type(p.f, uses, p.dl, a, bytes))
        .collect()
}

fn within_size(p: &Promoter<'_, '_>, a: Inst) -> bool {
    match p.opts.max_slot_bytes {
        None => true,
        Some(max) => {
            let ty = p.f.dfg.insts[a].aux_ty;
            p.dl.alloc_size(&p.f.types, ty).is_some_and(|s| s <= max)
        }
    }
}

/// `--max-promoted`: keeps, of the round's `chosen` slots (in layout order) and their types,
/// as many as the function's budget has left, by [`ssa::construct::place::most_accessed`]
/// over their loads and stores; the others go to `p.over_max`.
fn apply_max_promoted(
    p: &mut Promoter<'_, '_>,
    uses: &uses::UseIndex,
    chosen: &mut Vec<Inst>,
    tys: &mut Vec<Type>,
) {
    let Some(max) = p.opts.max_promoted else {
        return;
    };
    let left = usize::try_from((max as u64).saturating_sub(p.stats.promoted)).unwrap_or(max);
    let dfg = &p.f.dfg;
    let counts: Vec<u32> = (chosen.iter())
        .map(|&a| {
            let users = uses.users(dfg.insts[a].result).iter();
            let n = users.filter(|&&(u, k)| match dfg.opcode(u) {
                Opcode::Load => true,
                Opcode::Store => k == 1,
                _ => false,
            });
            u32::try_from(n.count()).unwrap_or(u32::MAX)
        })
        .collect();
    let keep = ssa::construct::place::most_accessed(&counts, left);
    let mut k = 0;
    tys.retain(|_| {
        k += 1;
        keep[k - 1]
    });
    let mut k = 0;
    chosen.retain(|&a| {
        k += 1;
        if !keep[k - 1] {
            p.over_max.push(a);
        }
        keep[k - 1]
    });
    p.over_max.sort_unstable();
}

/// Why promotable slot `a` stayed in memory: its size, its dynamic element count,
/// `--max-promoted`, or the phi-copy budget.
pub(crate) fn unpromoted_reason(p: &Promoter<'_, '_>, a: Inst) -> String {
    if !within_size(p, a) {
        "Slot is larger than --max-slot-size.".to_string()
    } else if p.f.dfg.inst_values(a).len() == 1 {
        "Has a dynamic element count.".to_string()
    } else if p.over_max.binary_search(&a).is_ok() {
        format!(
            "Beyond --max-promoted={}: the slots with more loads and stores (ties: the earlier) \
             were promoted.",
            p.opts.max_promoted.unwrap_or(0)
        )
    } else {
        "Dropped to stay within the phi-copy budget.".to_string()
    }
}

/// A slot left in memory, for remarks and explanations.
struct Left {
    slot: String,
    /// A `byval` argument's stand-in slot (named by the argument).
    byval: bool,
    reason: String,
    blocking: Option<String>,
    aggregate: bool,
}

/// Remarks for the slots left in memory (scalars only, as LLVM: splitting an aggregate is
/// SROA's work, and SROA reports it), and `--explain` lines for all of them: first the
/// `byval` arguments whose stand-in slots stayed (see [`byval`]), then the allocas. `allocas`
/// lists the function's allocas as the last round began (the pass adds none that stay, so it
/// holds every one still placed).
fn remarks_for_remaining(p: &mut Promoter<'_, '_>, allocas: &[Inst], report: &mut Report) {
    let f = &*p.f;
    let remaining: Vec<Inst> = allocas
        .iter()
        .copied()
        .filter(|&i| f.layout.is_inst_inserted(i))
        .collect();
    let byval_left = std::mem::take(&mut p.byval_left);
    p.stats.not_promoted += (remaining.len() + byval_left.len()) as u64;
    let none_left = remaining.is_empty() && byval_left.is_empty();
    if none_left || !(p.opts.remarks || p.opts.explain) {
        return;
    }
    p.f.dfg.resolve_aliases();
    let uses = uses::UseIndex::compute(p.f);
    let num = llvm_ir::print::Numbering::compute(p.f);
    let mut left: Vec<Left> = (byval_left.into_iter())
        .map(|(param, reason, aggregate)| Left {
            slot: num.value_ref(p.f, param),
            byval: true,
            reason,
            blocking: None,
            aggregate,
        })
        .collect();
    for a in remaining {
        let slot = num.value_ref(p.f, p.f.dfg.insts[a].result);
        let ty = promotable::value_type(p.f, &uses, p.dl, a, p.opts.byte_array_slots);
        left.push(match promotable::check(p.f, &uses, a, ty) {
            Err((why, inst)) => Left {
                slot,
                byval: false,
                reason: why.message().to_string(),
                blocking: Some(num.inst_text(p.f, inst)),
                aggregate: promotable::is_aggregate_slot(p.f, a),
            },
            Ok(()) => Left {
                slot,
                byval: false,
                reason: unpromoted_reason(p, a),
                blocking: None,
                aggregate: false,
            },
        });
    }
    report_left(p, left, report);
}

/// Writes the explanations and remarks of the slots in `left`.
fn report_left(p: &mut Promoter<'_, '_>, left: Vec<Left>, report: &mut Report) {
    let fname = p.f.name_str();
    for l in left {
        if p.opts.explain {
            let _ = writeln!(
                p.explain,
                "{fname}: {}{}: stays in memory: {}{}{}",
                l.slot,
                if l.byval { " (byval argument)" } else { "" },
                l.reason,
                l.blocking
                    .as_deref()
                    .map(|b| format!(" (blocking use: {b})"))
                    .unwrap_or_default(),
                if l.aggregate {
                    " An aggregate: splitting it is SROA's work (no remark)."
                } else {
                    ""
                }
            );
        }
        if l.aggregate {
            continue;
        }
        report.remarks.push(Remark {
            function: fname.clone(),
            slot: l.slot,
            reason: l.reason,
            blocking: l.blocking,
        });
    }
}

/// Promotes every function of `m` with `opts.mem2reg`, on up to `opts.threads` threads; the
/// report sums them (remarks in function order).
pub fn promote_module(m: &mut Module, opts: &crate::pipeline::RunOptions) -> Report {
    let ctx = m.info.clone();
    let reports = crate::pipeline::for_each_function(m, opts.threads, |f| {
        promote_function(f, ctx.as_deref(), &opts.mem2reg)
    });
    let mut total = Report::default();
    for r in reports {
        total.stats.add(&r.stats);
        total.remarks.extend(r.remarks);
        total.explanations.push_str(&r.explanations);
    }
    total
}

/// Writes remarks in LLVM's YAML remark format (`-pass-remarks-output`).
pub fn remarks_yaml(remarks: &[Remark]) -> String {
    let mut out = String::new();
    for r in remarks {
        let _ = write!(
            out,
            "--- !Missed\nPass:            mem2reg\nName:            AllocaNotPromotable\nFunction:        {}\nArgs:\n  - String:          'Cannot promote '\n  - Alloca:          '{}'\n  - String:          ': {}'\n",
            yaml_scalar(&r.function),
            yaml_quote(&r.slot),
            yaml_quote(&r.reason)
        );
        if let Some(b) = &r.blocking {
            let _ = writeln!(
                out,
                "  - String:          ' Blocking use: {}'",
                yaml_quote(b.trim())
            );
        }
        out.push_str("...\n");
    }
    out
}

fn yaml_quote(s: &str) -> String {
    s.replace('\'', "''")
}

fn yaml_scalar(s: &str) -> String {
    if s.chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
        && !s.is_empty()
    {
        s.to_string()
    } else {
        format!("'{}'", yaml_quote(s))
    }
}

#[cfg(test)]
mod semantics_tests;
#[cfg(test)]
mod tests;
