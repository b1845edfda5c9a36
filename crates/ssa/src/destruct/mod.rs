//! Out of SSA for any IR: which copies go on which edge, in which order, with which
//! temporaries, and where each edge's copies can be placed.
//!
//! Your side, the [`PhiFunction`] trait: the graph, the phis of each block (or its block
//! parameters) and their incoming values per predecessor, and two facts about your IR (which
//! edges can be split, and whether copies can go before a block's terminator). [`plan`] returns,
//! for every edge into a block with phis, its parallel copy already *sequenced* ([`Plan`]):
//! - every phi `a` of block `S` and every distinct predecessor `P` give one copy
//!   `a <- incoming(a, P)`, all of one edge performed *at once* (a repeated edge, such as a
//!   two-way branch whose arms both go to `S`, is one parallel copy: its values are equal);
//! - each parallel copy is sequenced by [`parallel_copy`] (Boissinot, Darte, Rastello, Dupont de
//!   Dinechin, Guillon, *Revisiting Out-of-SSA Translation for Correctness, Code Quality, and
//!   Efficiency*, CGO 2009, Algorithm 1): chains in dependency order, one temporary per closed
//!   cycle (the *swap problem*: `a, b <- b, a`), none elsewhere; self-copies vanish.
//!
//! Where an edge's copies go ([`Place`], decided per edge):
//! 1. [`Place::End`] of `P`, before its terminator, when `P` has one distinct successor and
//!    [`PhiFunction::end_usable`] allows it;
//! 2. [`Place::Head`] of `S`, when `S` has one distinct predecessor (that head is on the edge and
//!    on no other);
//! 3. [`Place::Split`]: a new block on the edge, when the edge is *critical* (`P` has other
//!    successors, `S` other predecessors) and [`PhiFunction::can_split`] allows it. Putting the
//!    copies at the end of `P` instead would run them on `P`'s other edges too: the *lost-copy
//!    problem* (Briggs et al. 1998; Sreedhar et al. 1999), where a loop's back edge that is
//!    also its exit clobbers a phi still live after the loop;
//! 4. [`Place::BeforeTerm`] of `P` although `P` has other successors, when the edge cannot be
//!    split (an indirect branch, an exception edge). Then `S` is a *fallback block*
//!    ([`PhiBlock::fallback`]): each phi `a` of `S` gets its own incoming variable `in(a)`
//!    ([`Loc::In`]); the copies of every edge into `S` write `in(a)`, never `a`, and the head of
//!    `S` reads `a <- in(a)`. `in(a)` is read only at `S`'s head, so writing it on a path that
//!    then leaves `P` another way is harmless, and no temporary is needed (sources are read as
//!    SSA values, never from a variable the copy writes). This is how LLVM's `PHIElimination`
//!    always works.
//!
//! Invariants: the plan depends only on the function; it costs the phis' incoming lists plus
//! the edges; no recursion; no hash-map iteration decides anything.

pub mod parallel_copy;

use std::fmt;
use std::hash::Hash;
use std::ops::Range;

use crate::cfg::Cfg;
use crate::graph::{Graph, GraphError};
use crate::Block;
use parallel_copy::{Move, Sequentializer};

/// A function in SSA form, as out-of-SSA sees it (see the module docs).
pub trait PhiFunction: Graph {
    /// The user's values: phi results and incoming values.
    type Value: Copy + Eq + Hash;

    /// Appends the results of block `b`'s phis (or its block parameters) to `out`, in order.
    fn phis(&self, b: Block, out: &mut Vec<Self::Value>);

    /// Appends the incoming `(predecessor, value)` pairs of block `b`'s `k`-th phi to `out`
    /// (for block parameters: the `k`-th argument of each edge into `b`).
    fn incoming(&self, b: Block, k: usize, out: &mut Vec<(Block, Self::Value)>);

    /// Whether the edge `pred -> succ` can be split with a new block.
    fn can_split(&self, _pred: Block, _succ: Block) -> bool {
        true
    }

    /// Whether copies can go at the end of `pred`, before its terminator, when it has one
    /// successor (no: its terminator defines a value the copies would need, say).
    fn end_usable(&self, _pred: Block) -> bool {
        true
    }
}

/// Where the copies of an edge go (see the module docs).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Place {
    /// At the end of the predecessor, before its terminator.
    End,
    /// At the head of the successor.
    Head,
    /// In a new block on the edge.
    Split,
    /// Before the predecessor's terminator, although it has other successors (the fallback).
    BeforeTerm,
}

impl Place {
    /// A short name: `end`, `head`, `split`, `before-terminator`.
    pub fn name(self) -> &'static str {
        match self {
            Place::End => "end",
            Place::Head => "head",
            Place::Split => "split",
            Place::BeforeTerm => "before-terminator",
        }
    }
}

/// A location of a parallel copy: a value (a phi's result or any source), or the incoming
/// variable of the phi with this index in [`Plan::phis`] (fallback blocks only).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Loc<V> {
    /// A value.
    Val(V),
    /// The incoming variable of phi `k`.
    In(u32),
}

/// A block with phis.
#[derive(Clone, Debug)]
pub struct PhiBlock {
    /// The block.
    pub block: Block,
    /// Its phis, as a range of [`Plan::phis`].
    pub phis: Range<usize>,
    /// Whether some incoming edge uses [`Place::BeforeTerm`] (see the module docs).
    pub fallback: bool,
}

/// The copies of one edge.
#[derive(Clone, Debug)]
pub struct EdgeCopies {
    /// The predecessor.
    pub pred: Block,
    /// The successor: an index into [`Plan::blocks`].
    pub succ: usize,
    /// Where the copies go.
    pub place: Place,
    /// The sequenced moves, a range of [`Plan::moves`].
    pub moves: Range<usize>,
}

/// Counts of a plan.
#[derive(Clone, Copy, PartialEq, Eq, Default, Debug)]
pub struct Stats {
    /// Phis.
    pub phis: usize,
    /// Copies into phis (self-copies excluded): one move each.
    pub copies: usize,
    /// Temporaries (one per closed cycle of a parallel copy): one extra move each.
    pub temps: usize,
    /// Edges to split.
    pub edges_split: usize,
    /// Edges whose copies go before a terminator with other successors.
    pub fallback_edges: usize,
}

impl std::ops::AddAssign for Stats {
    fn add_assign(&mut self, o: Self) {
        self.phis += o.phis;
        self.copies += o.copies;
        self.temps += o.temps;
        self.edges_split += o.edges_split;
        self.fallback_edges += o.fallback_edges;
    }
}

/// Everything out-of-SSA decided, before the function is changed (see the module docs).
#[derive(Clone, Debug)]
pub struct Plan<V> {
    /// Every phi's result, block by block (blocks in layout order).
    pub phis: Vec<V>,
    /// The blocks with phis, in layout order.
    pub blocks: Vec<PhiBlock>,
    /// The edges with copies (edges whose copy is empty are left out), block by block.
    pub edges: Vec<EdgeCopies>,
    /// The moves of all edges.
    pub moves: Vec<Move<Loc<V>>>,
    /// Counts.
    pub stats: Stats,
}

impl<V> Plan<V> {
    /// The edges to split, `(pred, succ)`, in plan order.
    pub fn split_edges(&self) -> impl Iterator<Item = (Block, Block)> + '_ {
        (self.edges.iter())
            .filter(|e| e.place == Place::Split)
            .map(|e| (e.pred, self.blocks[e.succ].block))
    }
}

/// Why a function cannot leave SSA form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DestructError {
    /// The graph is malformed.
    Graph(GraphError),
    /// A phi of `block` has no incoming value for `pred`.
    MissingIncoming {
        /// The block of the phi.
        block: Block,
        /// The predecessor.
        pred: Block,
    },
    /// A phi's result is also the result of another phi, so the copies would not be parallel.
    DuplicatePhi {
        /// The block.
        block: Block,
    },
}

impl fmt::Display for DestructError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DestructError::Graph(e) => e.fmt(f),
            DestructError::MissingIncoming { pred, .. } => {
                write!(f, "a phi has no entry for predecessor {pred}")
            }
            DestructError::DuplicatePhi { block } => {
                write!(f, "two phis of {block} have the same result")
            }
        }
    }
}

impl std::error::Error for DestructError {}

impl From<GraphError> for DestructError {
    fn from(e: GraphError) -> Self {
        DestructError::Graph(e)
    }
}

/// The out-of-SSA plan of `f` (see the module docs).
pub fn plan<F: PhiFunction>(f: &F) -> Result<Plan<F::Value>, DestructError> {
    let cfg = Cfg::new(f)?;
    plan_with_cfg(f, &cfg)
}

/// [`plan`], with `f`'s CFG already computed.
pub fn plan_with_cfg<F: PhiFunction>(f: &F, cfg: &Cfg) -> Result<Plan<F::Value>, DestructError> {
    let mut plan = Plan {
        phis: Vec::new(),
        blocks: Vec::new(),
        edges: Vec::new(),
        moves: Vec::new(),
        stats: Stats::default(),
    };
    let mut sc = Scratch {
        seq: Sequentializer::new(),
        pred_pos: vec![u32::MAX; cfg.num_block_ids()],
        srcs: Vec::new(),
        copies: Vec::new(),
        inc: Vec::new(),
    };
    for &s in cfg.blocks() {
        let start = plan.phis.len();
        f.phis(s, &mut plan.phis);
        if plan.phis.len() > start {
            plan_block(f, cfg, s, start, &mut plan, &mut sc)?;
        }
    }
    plan.stats.phis = plan.phis.len();
    Ok(plan)
}

/// Buffers reused across blocks.
struct Scratch<V> {
    seq: Sequentializer<Loc<V>>,
    pred_pos: Vec<u32>,
    srcs: Vec<Option<V>>,
    copies: Vec<(Loc<V>, Loc<V>)>,
    inc: Vec<(Block, V)>,
}

/// Plans the phis `plan.phis[start..]` of block `s`.
fn plan_block<F: PhiFunction>(
    f: &F,
    cfg: &Cfg,
    s: Block,
    start: usize,
    plan: &mut Plan<F::Value>,
    sc: &mut Scratch<F::Value>,
) -> Result<(), DestructError> {
    let preds = cfg.distinct_preds(s);
    let places: Vec<Place> = preds.iter().map(|&p| place(f, cfg, p, s)).collect();
    let fallback = places.contains(&Place::BeforeTerm);
    incoming_table(f, s, preds, plan.phis.len() - start, sc)?;
    let m = plan.phis.len() - start;
    let bi = plan.blocks.len();
    for (i, (&p, &pl)) in preds.iter().zip(&places).enumerate() {
        sc.copies.clear();
        for j in 0..m {
            let dst = if fallback {
                Loc::In((start + j) as u32)
            } else {
                Loc::Val(plan.phis[start + j])
            };
            let src = sc.srcs[i * m + j].expect("filled by incoming_table");
            sc.copies.push((dst, Loc::Val(src)));
        }
        let m0 = plan.moves.len();
        let st = sc
            .seq
            .sequentialize(&sc.copies, &mut plan.moves)
            .map_err(|_| DestructError::DuplicatePhi { block: s })?;
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
    });
    Ok(())
}

/// Where the copies of edge `p -> s` go (see the module docs).
fn place<F: PhiFunction>(f: &F, cfg: &Cfg, p: Block, s: Block) -> Place {
    if cfg.distinct_succs(p).len() == 1 && f.end_usable(p) {
        Place::End
    } else if cfg.distinct_preds(s).len() == 1 {
        Place::Head
    } else if f.can_split(p, s) {
        Place::Split
    } else {
        Place::BeforeTerm
    }
}

/// Fills `sc.srcs[i * m + j]` with the incoming value of phi `j` from distinct predecessor `i`
/// (linear in the phis' entries; the first entry for a predecessor counts).
fn incoming_table<F: PhiFunction>(
    f: &F,
    s: Block,
    preds: &[Block],
    m: usize,
    sc: &mut Scratch<F::Value>,
) -> Result<(), DestructError> {
    for (i, &p) in preds.iter().enumerate() {
        sc.pred_pos[p.index()] = i as u32;
    }
    sc.srcs.clear();
    sc.srcs.resize(preds.len() * m, None);
    for j in 0..m {
        sc.inc.clear();
        f.incoming(s, j, &mut sc.inc);
        for &(b, v) in &sc.inc {
            let pos = sc.pred_pos.get(b.index()).copied().unwrap_or(u32::MAX);
            if pos != u32::MAX && sc.srcs[pos as usize * m + j].is_none() {
                sc.srcs[pos as usize * m + j] = Some(v);
            }
        }
    }
    for &p in preds {
        sc.pred_pos[p.index()] = u32::MAX;
    }
    match sc.srcs.iter().position(|v| v.is_none()) {
        Some(k) => Err(DestructError::MissingIncoming {
            block: s,
            pred: preds[k / m],
        }),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests;
