//! Whole-function SSA construction: you report where each variable is defined and used, block
//! by block; [`build`] places phis, renames, removes trivial phis, and tells you each use's
//! reaching definition and each phi's incoming values.
//!
//! The algorithm is LLVM's mem2reg (phis at the iterated dominance frontier of the definitions,
//! pruned by liveness: Cytron et al. 1991; Sreedhar and Gao 1995), with renaming in linear time
//! ([`rename`]) and trivial phis removed recursively ([`fold`]). The parts are usable alone:
//! [`place`] (where one variable needs phis), [`rename`] (the walk, over your own values),
//! [`fold`] (the worklist); LLVM's mem2reg in this workspace is built on them.
//!
//! Your side, the [`Variables`] trait: the graph ([`Graph`]), the number of variables, and for
//! each block its [`Access`]es in order. A definition carries your value (a temporary, a
//! constant: anything `Copy + Eq + Hash`); a use carries your id for it (an instruction
//! number). What comes back ([`Ssa`]):
//! - for each use, a [`Value`]: your value, a phi, or [`Value::Undefined`] (no definition on
//!   some path into it: make it undef, poison, zero or a freeze, as your language says);
//! - the phis that are left: block, variable, and one incoming value per predecessor edge, in
//!   the order of [`Ssa::preds`] (repeated edges included);
//! - which variables were left out ([`Options::max_promoted`], [`Options::phi_copy_budget`]):
//!   keep those in memory.
//!
//! Conventions: a use in an unreachable block reads [`Value::Undefined`]; an edge from an
//! unreachable predecessor carries [`Value::Undefined`]; the entry block must have no
//! predecessors (add an empty block before it if yours has: phis there would have no value for
//! the function's start); a [`Access::Kill`] makes the variable undefined again from there (a
//! variable declared inside a loop). A use may name the temporary it reads into
//! ([`Access::UseInto`]): definitions of that temporary then assign what the use read, so a
//! copy `x = y` compiled as `t = read y; write x, t` needs no phi where `y` needs none. The
//! temporary must be an SSA value of your IR: assigned once, by that use, which dominates every
//! definition whose value it is (the table of such temporaries is kept for the whole function).

pub mod cycles;
pub mod fold;
pub mod on_the_fly;
pub mod place;
pub mod rename;
pub mod walk;

mod build;

pub use build::build;
pub use place::Method;

use std::fmt;

use crate::cfg::Cfg;
use crate::graph::{Graph, GraphError};
use crate::Block;

/// A variable: a dense index below [`Variables::num_vars`].
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Var(pub u32);
crate::entity_impl!(Var, "var");

/// A phi of the result: an index into [`Ssa::phis`].
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct PhiId(pub u32);
crate::entity_impl!(PhiId, "phi");

/// One access of a variable, reported in program order within its block.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Access<V> {
    /// The variable is assigned the value.
    Def(Var, V),
    /// The variable is read; the result is reported under the id.
    Use(Var, u32),
    /// The variable is read into the temporary `V` (reported under the id): later definitions
    /// whose value is that temporary assign what was read.
    UseInto(Var, u32, V),
    /// The variable is undefined from here on.
    Kill(Var),
}

impl<V> Access<V> {
    /// The variable accessed.
    pub fn var(&self) -> Var {
        match *self {
            Access::Def(v, _) | Access::Use(v, _) | Access::UseInto(v, _, _) | Access::Kill(v) => v,
        }
    }
}

/// What the user's function tells the construction (see the module docs).
pub trait Variables: Graph {
    /// The user's values that definitions assign.
    type Value: Copy + Eq + std::hash::Hash;

    /// The number of variables: every [`Var`] is below it.
    fn num_vars(&self) -> usize;

    /// Appends block `b`'s accesses to `out`, in program order.
    fn accesses(&self, b: Block, out: &mut Vec<Access<Self::Value>>);
}

/// What a use reads, or a phi receives along an edge.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Value<V> {
    /// A value a definition assigned.
    Def(V),
    /// The result of a phi.
    Phi(PhiId),
    /// Nothing: the variable has no definition on some path here.
    Undefined(Var),
}

/// A phi of the result.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Phi {
    /// Its variable.
    pub var: Var,
    /// Its block.
    pub block: Block,
}

/// How to build.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// How phis are placed: pruned (the default), semi-pruned or minimal SSA.
    pub method: Method,
    /// Remove trivial phis (all operands one value, or the phi itself), recursively.
    pub fold_trivial: bool,
    /// Leave the costliest variables (by phi operands: the copies phi elimination will make)
    /// unpromoted while the total exceeds this (a Rust C compiler uses 50,000).
    pub phi_copy_budget: Option<u64>,
    /// Promote at most this many variables: those with the most accesses (uses, definitions
    /// and kills), ties broken by the lower variable index; the others are left unpromoted
    /// (a register budget).
    pub max_promoted: Option<usize>,
    /// After folding trivial phis, also remove groups of phis that only use each other and
    /// one value from outside ([`cycles`]; off by default: a pass over every phi).
    pub remove_cycles: bool,
}

impl Default for Options {
    fn default() -> Self {
        Self {
            method: Method::Bounded,
            fold_trivial: true,
            phi_copy_budget: None,
            max_promoted: None,
            remove_cycles: false,
        }
    }
}

/// Why a function cannot be put in SSA form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BuildError {
    /// The graph is malformed.
    Graph(GraphError),
    /// An access names a variable not below [`Variables::num_vars`].
    VarOutOfRange {
        /// The block of the access.
        block: Block,
        /// The variable.
        var: Var,
    },
    /// The entry block has predecessors (see the module docs).
    EntryHasPredecessors {
        /// The entry.
        entry: Block,
    },
    /// More accesses than 2^32 - 1.
    TooLarge,
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BuildError::Graph(e) => e.fmt(f),
            BuildError::VarOutOfRange { block, var } => write!(
                f,
                "an access in {block} names {var}, which is not below the function's variable count"
            ),
            BuildError::EntryHasPredecessors { entry } => write!(
                f,
                "the entry block {entry} has predecessors: add an empty entry block before it"
            ),
            BuildError::TooLarge => write!(f, "more than 2^32 - 1 accesses"),
        }
    }
}

impl std::error::Error for BuildError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            BuildError::Graph(e) => Some(e),
            _ => None,
        }
    }
}

impl From<GraphError> for BuildError {
    fn from(e: GraphError) -> Self {
        BuildError::Graph(e)
    }
}

/// Counts of what construction did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Variables promoted.
    pub promoted: usize,
    /// Phis placed (after pruning at renaming).
    pub phis_placed: usize,
    /// Phis removed as trivial.
    pub phis_folded: usize,
}

/// The function in SSA form (see the module docs).
#[derive(Clone, Debug)]
pub struct Ssa<V> {
    cfg: Cfg,
    phis: Vec<Phi>,
    /// Phi `k`'s operands are `operands[op_start[k]..op_start[k + 1]]`.
    op_start: Vec<u32>,
    operands: Vec<Value<V>>,
    uses: Vec<(u32, Value<V>)>,
    promoted: Vec<bool>,
    stats: Stats,
}

impl<V: Copy> Ssa<V> {
    /// The phis, in block order (blocks by id), and by variable within a block.
    pub fn phis(&self) -> &[Phi] {
        &self.phis
    }

    /// Phi `p`.
    pub fn phi(&self, p: PhiId) -> Phi {
        self.phis[p.index()]
    }

    /// The phis of block `b` (their ids are consecutive).
    pub fn phis_of(&self, b: Block) -> impl Iterator<Item = PhiId> + '_ {
        let start = self.phis.partition_point(|p| p.block < b);
        let end = start + self.phis[start..].partition_point(|p| p.block == b);
        (start..end).map(PhiId::new)
    }

    /// Phi `p`'s incoming values: one per predecessor edge of its block, in the order of
    /// [`Ssa::preds`].
    pub fn operands(&self, p: PhiId) -> &[Value<V>] {
        let k = p.index();
        &self.operands[self.op_start[k] as usize..self.op_start[k + 1] as usize]
    }

    /// Block parameters instead of phis: the arguments that the `succ_index`-th successor edge
    /// of `pred` passes to its target's parameters (the target's phis, in [`Ssa::phis_of`]
    /// order). An edge is told apart from another between the same blocks by its place among
    /// `pred`'s successors, in the graph's order ([`Graph::successors`]). Nothing for an edge
    /// that does not exist. Costs `O(log preds)` plus the arguments.
    pub fn arguments(&self, pred: Block, succ_index: usize) -> impl Iterator<Item = Value<V>> + '_ {
        let k = self.edge_index(pred, succ_index);
        let target = k.map(|_| self.cfg.succs(pred)[succ_index]);
        let phis = target.map(|t| self.phis_of(t)).into_iter().flatten();
        phis.map(move |p| self.operands(p)[k.expect("an edge")])
    }

    /// The index, among its target's predecessors ([`Ssa::preds`]), of the `succ_index`-th
    /// successor edge of `pred`.
    fn edge_index(&self, pred: Block, succ_index: usize) -> Option<usize> {
        if !self.cfg.in_layout(pred) {
            return None;
        }
        let succs = self.cfg.succs(pred);
        let target = *succs.get(succ_index)?;
        let earlier = succs[..succ_index].iter().filter(|&&s| s == target).count();
        // Predecessor lists are ordered by the predecessor's layout position.
        let preds = self.cfg.preds(target);
        let at = self.cfg.layout_position(pred)?;
        let first = preds.partition_point(|&p| self.cfg.layout_position(p) < Some(at));
        Some(first + earlier)
    }

    /// The predecessors of `b`, one per edge: the order of every phi's operands in `b`.
    pub fn preds(&self, b: Block) -> &[Block] {
        self.cfg.preds(b)
    }

    /// Each use's value, `(your id, value)`, in report order (blocks in layout order, accesses
    /// in order). Uses of variables left unpromoted are not listed.
    pub fn uses(&self) -> &[(u32, Value<V>)] {
        &self.uses
    }

    /// Whether `v` was promoted (else it stays in memory: see [`Options`]).
    pub fn is_promoted(&self, v: Var) -> bool {
        self.promoted.get(v.index()).copied().unwrap_or(false)
    }

    /// The CFG the construction saw.
    pub fn cfg(&self) -> &Cfg {
        &self.cfg
    }

    /// What construction did.
    pub fn stats(&self) -> Stats {
        self.stats
    }
}

#[cfg(test)]
mod tests;
