//! Out of SSA for toy-ir: phis and block parameters become copies ([`Inst::Copy`]), placed by
//! the `ssa` library's plan ([`ssa::destruct::plan`]). This module is toy-ir's side of it: the
//! [`PhiFunction`] view of a function ([`View`]) and the lowering of the plan.
//!
//! Steps:
//! 1. **Split duplicate edges whose block arguments differ.** Block arguments are per edge, but
//!    the plan has one parallel copy per *predecessor* (phis cannot tell two edges from one
//!    predecessor apart). So every edge of a group of edges `p -> s` whose arguments are not
//!    all equal gets a synthetic block of its own (`jump s(args)`); if `can_split` refuses
//!    `p -> s`, that is [`DestructError::CannotSplit`].
//! 2. **Plan** with [`View`]: a block's merges are its parameters, then its phis; the incoming
//!    value of a parameter from `p` is the argument of `p`'s first edge into the block. Copies
//!    go at the end of a predecessor with one successor when its terminator is a `jump` (a
//!    branch or switch would read its operand after the copies), else at the head of a block
//!    with one predecessor, else on a split edge, else (when `can_split` refuses) before the
//!    predecessor's terminator, writing *incoming temps* that the target's head copies into
//!    its merges (the plan's fallback).
//! 3. **Lower**: every sequenced move becomes a copy, with fresh temps (numbered from the
//!    function's [`Function::temp_count`]) for the plan's temporaries and incoming temps; a
//!    split edge becomes a synthetic block `copies; jump s`, appended after the others; then
//!    merges and block arguments go. A merge that no copy writes (in an unreachable block,
//!    whose incoming values are all the merge itself) is set to 0 at its block's head, so that
//!    every temp used is still defined.
//!
//! Invariants: the input must pass [`verify_ssa`] (else [`DestructError::Invalid`]); the output
//! passes [`crate::verify()`], has no phis, parameters or block arguments, and runs exactly like
//! the input with equal fuel (added blocks are synthetic; copies cost nothing). Temps may then
//! be assigned more than once: the output is not in SSA form. The result depends only on the
//! input and `can_split`.

use std::fmt;

use ssa::destruct::parallel_copy::{Move, Slot};
use ssa::destruct::{self as sd, Loc, PhiFunction, Place, Plan};

use crate::ir::{Block, BlockData, Function, Inst, Operand, Target, Temp, Term};
use crate::verify::{verify_ssa, VerifyError};

/// Why a function cannot leave SSA form.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DestructError {
    /// The input is not in strict SSA form: every error [`verify_ssa`] found.
    Invalid(Vec<VerifyError>),
    /// Edges `from -> to` pass different block arguments, so each needs a block of its own,
    /// but `can_split` refuses the edge.
    CannotSplit {
        /// The predecessor.
        from: Block,
        /// The block with parameters.
        to: Block,
    },
    /// The library refused the function (not expected after the checks above).
    Plan(sd::DestructError),
    /// More blocks or temps than `u32` numbers can count.
    TooLarge,
}

impl fmt::Display for DestructError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DestructError::Invalid(errs) => {
                f.write_str("not in strict SSA form")?;
                errs.first().map_or(Ok(()), |e| write!(f, ": {e}"))
            }
            DestructError::CannotSplit { from, to } => write!(
                f,
                "edges {from} -> {to} pass different arguments but cannot be split"
            ),
            DestructError::Plan(e) => write!(f, "out-of-SSA plan: {e}"),
            DestructError::TooLarge => f.write_str("too many blocks or temps"),
        }
    }
}

impl std::error::Error for DestructError {}

/// What [`destruct`] made.
#[derive(Clone, Debug)]
pub struct Destruction {
    /// The function without merges (see the module docs).
    pub function: Function,
    /// The plan's counts: merges, copies, temporaries, split and fallback edges.
    pub stats: sd::Stats,
    /// Edges split in step 1 (duplicate edges with different block arguments).
    pub duplicates_split: usize,
}

/// A function and its plan (steps 1 and 2 of the module docs).
#[derive(Clone, Debug)]
pub struct Planned {
    /// The input with its differing duplicate edges split.
    pub function: Function,
    /// The plan for it; values are operands (merge results are temps).
    pub plan: Plan<Operand>,
    /// Edges split in step 1.
    pub duplicates_split: usize,
}

/// Takes `f` out of SSA form, splitting any edge as needed (see the module docs).
pub fn out_of_ssa(f: &Function) -> Result<Function, DestructError> {
    destruct(f, |_, _| true).map(|d| d.function)
}

/// Takes `f` out of SSA form; an edge `p -> s` is split only if `can_split(p, s)`.
pub fn destruct(
    f: &Function,
    can_split: impl Fn(Block, Block) -> bool,
) -> Result<Destruction, DestructError> {
    let p = plan(f, &can_split)?;
    let stats = p.plan.stats;
    let function = lower(p.function, &p.plan)?;
    Ok(Destruction {
        function,
        stats,
        duplicates_split: p.duplicates_split,
    })
}

/// Steps 1 and 2 of the module docs: the plan, without changing anything yet.
pub fn plan(
    f: &Function,
    can_split: &dyn Fn(Block, Block) -> bool,
) -> Result<Planned, DestructError> {
    verify_ssa(f).map_err(DestructError::Invalid)?;
    let mut g = f.clone();
    let duplicates_split = split_differing_duplicates(&mut g, can_split)?;
    let view = View::new(&g, can_split);
    let plan = sd::plan(&view).map_err(DestructError::Plan)?;
    Ok(Planned {
        function: g,
        plan,
        duplicates_split,
    })
}

/// Step 1: gives each edge of a group `p -> s` with differing arguments a block of its own.
fn split_differing_duplicates(
    g: &mut Function,
    can_split: &dyn Fn(Block, Block) -> bool,
) -> Result<usize, DestructError> {
    let mut split = 0;
    for p in 0..g.blocks.len() {
        let from = Block(p as u32);
        let Some(term) = &g.blocks[p].term else {
            continue;
        };
        let targets = term.targets();
        let differs = |t: &Target| {
            targets
                .iter()
                .any(|u| u.block == t.block && u.args != t.args)
        };
        let slots: Vec<usize> = (0..targets.len())
            .filter(|&i| differs(targets[i]))
            .collect();
        if let Some(&i) = slots.iter().find(|&&i| !can_split(from, targets[i].block)) {
            let to = targets[i].block;
            return Err(DestructError::CannotSplit { from, to });
        }
        let first_new = g.blocks.len();
        if u32::try_from(first_new + slots.len()).is_err() {
            return Err(DestructError::TooLarge);
        }
        let targets = g.blocks[p]
            .term
            .as_mut()
            .map(Term::targets_mut)
            .unwrap_or_default();
        let mut made = Vec::new();
        for (_, t) in targets
            .into_iter()
            .enumerate()
            .filter(|(i, _)| slots.contains(i))
        {
            let new = Target::new(Block((first_new + made.len()) as u32));
            made.push(BlockData {
                term: Some(Term::Jump(std::mem::replace(t, new))),
                synthetic: true,
                ..BlockData::default()
            });
        }
        split += made.len();
        g.blocks.extend(made);
    }
    Ok(split)
}

/// A toy-ir function as out-of-SSA sees it (see the module docs, step 2).
pub struct View<'f> {
    f: &'f Function,
    /// Per block: the edges into it, `(predecessor, slot in its terminator)`.
    into: Vec<Vec<(Block, usize)>>,
    can_split: &'f dyn Fn(Block, Block) -> bool,
}

impl<'f> View<'f> {
    /// The view of `f`, whose edge `p -> s` may be split if `can_split(p, s)`.
    pub fn new(f: &'f Function, can_split: &'f dyn Fn(Block, Block) -> bool) -> Self {
        let mut into = vec![Vec::new(); f.blocks.len()];
        for (p, data) in f.block_ids().zip(&f.blocks) {
            let targets = data.term.as_ref().map(Term::targets).unwrap_or_default();
            for (slot, t) in targets.into_iter().enumerate() {
                if let Some(v) = into.get_mut(t.block.index()) {
                    v.push((p, slot));
                }
            }
        }
        View { f, into, can_split }
    }
}

impl ssa::Graph for View<'_> {
    fn num_blocks(&self) -> usize {
        ssa::Graph::num_blocks(self.f)
    }

    fn entry(&self) -> Option<ssa::Block> {
        ssa::Graph::entry(self.f)
    }

    fn successors(&self, b: ssa::Block) -> impl Iterator<Item = ssa::Block> + '_ {
        ssa::Graph::successors(self.f, b)
    }
}

impl PhiFunction for View<'_> {
    type Value = Operand;

    fn phis(&self, b: ssa::Block, out: &mut Vec<Operand>) {
        let Some(data) = self.f.blocks.get(b.index()) else {
            return;
        };
        out.extend(data.params.iter().map(|&t| Operand::Temp(t)));
        let phis = data.insts.iter().map_while(|i| match i {
            Inst::Phi { dst, .. } => Some(Operand::Temp(*dst)),
            _ => None,
        });
        out.extend(phis);
    }

    fn incoming(&self, b: ssa::Block, k: usize, out: &mut Vec<(ssa::Block, Operand)>) {
        let Some(data) = self.f.blocks.get(b.index()) else {
            return;
        };
        let np = data.params.len();
        if k < np {
            for &(p, slot) in &self.into[b.index()] {
                let term = self.f.blocks[p.index()].term.as_ref();
                let arg = term
                    .and_then(|t| t.target(slot))
                    .and_then(|t| t.args.get(k));
                out.extend(arg.map(|&a| (p.into(), a)));
            }
        } else if let Some(Inst::Phi { args, .. }) = data.insts.get(k - np) {
            out.extend(args.iter().map(|&(p, v)| (p.into(), v)));
        }
    }

    fn can_split(&self, pred: ssa::Block, succ: ssa::Block) -> bool {
        (self.can_split)(pred.into(), succ.into())
    }

    fn end_usable(&self, pred: ssa::Block) -> bool {
        let term = self
            .f
            .blocks
            .get(pred.index())
            .and_then(|d| d.term.as_ref());
        matches!(term, Some(Term::Jump(_)))
    }
}

/// Step 3: applies `plan` to `g` (see the module docs).
fn lower(mut g: Function, plan: &Plan<Operand>) -> Result<Function, DestructError> {
    let mut temps = Temps {
        next: g.temp_count(),
    };
    let mut incoming: Vec<Option<Temp>> = vec![None; plan.phis.len()];
    let n = g.blocks.len();
    let (mut head, mut tail) = (vec![Vec::new(); n], vec![Vec::new(); n]);
    for pb in plan.blocks.iter().filter(|pb| pb.fallback) {
        for k in pb.phis.clone() {
            let t = temps.fresh()?;
            incoming[k] = Some(t);
            if let Operand::Temp(dst) = plan.phis[k] {
                head[pb.block.index()].push(Inst::Copy { dst, src: t.into() });
            }
        }
    }
    let mut split = Vec::new();
    for e in &plan.edges {
        let copies = copies(&plan.moves[e.moves.clone()], &incoming, &mut temps)?;
        let (pred, succ) = (Block::from(e.pred), Block::from(plan.blocks[e.succ].block));
        match e.place {
            Place::End | Place::BeforeTerm => tail[pred.index()].extend(copies),
            Place::Head => head[succ.index()].extend(copies),
            Place::Split => {
                let new =
                    Block(u32::try_from(n + split.len()).map_err(|_| DestructError::TooLarge)?);
                let targets = g.blocks[pred.index()].term.as_mut().map(Term::targets_mut);
                for t in targets
                    .unwrap_or_default()
                    .into_iter()
                    .filter(|t| t.block == succ)
                {
                    t.block = new;
                }
                split.push(BlockData {
                    insts: copies,
                    term: Some(Term::Jump(Target::new(succ))),
                    synthetic: true,
                    ..BlockData::default()
                });
            }
        }
    }
    g.blocks.extend(split);
    for (b, data) in g.blocks.iter_mut().enumerate() {
        data.params.clear();
        let body = std::mem::take(&mut data.insts)
            .into_iter()
            .filter(|i| !i.is_phi());
        let mut insts = head.get_mut(b).map(std::mem::take).unwrap_or_default();
        insts.extend(body);
        insts.extend(tail.get_mut(b).map(std::mem::take).unwrap_or_default());
        data.insts = insts;
        let targets = data
            .term
            .as_mut()
            .map(Term::targets_mut)
            .unwrap_or_default();
        targets.into_iter().for_each(|t| t.args.clear());
    }
    define_unwritten(&mut g, plan, temps.next);
    Ok(g)
}

/// Sets to 0, at the head of its block, every merge that no copy writes (only a merge of an
/// unreachable block can be one: all its incoming copies were self-copies), so that every temp
/// used keeps a definition.
fn define_unwritten(g: &mut Function, plan: &Plan<Operand>, temp_count: u32) {
    let mut defined = vec![false; temp_count as usize];
    let mut mark = |t: Temp| {
        if let Some(d) = defined.get_mut(t.index()) {
            *d = true;
        }
    };
    g.params.iter().for_each(|&t| mark(t));
    g.blocks
        .iter()
        .flat_map(|d| &d.insts)
        .filter_map(Inst::dst)
        .for_each(&mut mark);
    for pb in &plan.blocks {
        let unwritten = plan.phis[pb.phis.clone()].iter().filter_map(|v| v.temp());
        let zeros: Vec<Inst> = unwritten
            .filter(|t| defined.get(t.index()) == Some(&false))
            .map(|dst| Inst::Copy {
                dst,
                src: Operand::Imm(0),
            })
            .collect();
        g.blocks[pb.block.index()].insts.splice(0..0, zeros);
    }
}

/// Fresh temps, numbered up from the function's.
struct Temps {
    next: u32,
}

impl Temps {
    fn fresh(&mut self) -> Result<Temp, DestructError> {
        let t = self.next;
        self.next = t
            .checked_add(1)
            .filter(|&n| n < u32::MAX)
            .ok_or(DestructError::TooLarge)?;
        Ok(Temp(t))
    }
}

/// One edge's sequenced moves as copies; the plan's temporaries become fresh temps.
fn copies(
    moves: &[Move<Loc<Operand>>],
    incoming: &[Option<Temp>],
    temps: &mut Temps,
) -> Result<Vec<Inst>, DestructError> {
    let mut tmp: Vec<Temp> = Vec::new();
    let mut out = Vec::with_capacity(moves.len());
    for m in moves {
        if let Slot::Temp(j) = m.dst {
            while tmp.len() <= j as usize {
                tmp.push(temps.fresh()?);
            }
        }
        let place = |s: Slot<Loc<Operand>>| -> Option<Operand> {
            match s {
                Slot::Loc(Loc::Val(v)) => Some(v),
                Slot::Loc(Loc::In(k)) => incoming
                    .get(k as usize)
                    .copied()
                    .flatten()
                    .map(Operand::Temp),
                Slot::Temp(j) => tmp.get(j as usize).map(|&t| Operand::Temp(t)),
            }
        };
        // Destinations are merge results, incoming temps or temporaries: always temps.
        if let (Some(Operand::Temp(dst)), Some(src)) = (place(m.dst), place(m.src)) {
            out.push(Inst::Copy { dst, src });
        }
    }
    Ok(out)
}
