//! Whole-function SSA construction for toy-ir: variables ([`Inst::Read`] / [`Inst::Write`])
//! become temps, merged by phis or block parameters. The algorithm is the `ssa` library's
//! ([`ssa::construct::build`]); this module is the adapter around it, in three steps:
//!
//! 1. **Report** (the [`ssa::construct::Variables`] view of the function): in each block, in
//!    order, `t = read v` is [`Access::UseInto`]`(v, id, t)` and `write v, x` is
//!    [`Access::Def`]`(v, x)`, where the value is the operand `x` itself (a temp or an
//!    immediate) and `id` the instruction's position in the function (instructions numbered
//!    from 0 across the blocks in layout order). `UseInto` lets a copy between variables
//!    (`t = read y; write x, t`) carry `y`'s value without a phi of its own.
//! 2. **Build**, with the caller's [`ConstructOptions`] (placement method, folding, budgets).
//! 3. **Rewrite**: each promoted read becomes `t = copy r`, where `r` is the reaching value (a
//!    written operand; a phi's temp; `0` where no write reaches, toy-ir's value of a variable
//!    never written); each promoted write goes; each phi becomes an [`Inst::Phi`] at the start
//!    of its block (one argument per predecessor edge) or a block parameter with one argument
//!    on each edge into the block ([`Merges`]). Variables left out by a budget keep their reads
//!    and writes.
//!
//! # Input: pre-SSA toy-ir
//! The function must pass [`verify_ssa`]: its *temps* are already in strict SSA (each defined
//! once, before every use it dominates), only its variables are not. That is what makes a
//! written temp a value: it holds the same number wherever the write reaches. Phis and block
//! parameters already present are kept. Variable numbers must be below
//! [`MAX_ENTITY`] (the library keeps a table per variable number).
//! Anything else is an [`Err`], never a panic. If the entry block has predecessors, a
//! synthetic empty entry block is put in front (the library needs an entry without
//! predecessors, and a phi there would have no value for the function's start); the other
//! blocks then move up by one.
//!
//! # Output invariants
//! - It passes [`crate::verify()`], and [`verify_ssa`] when every variable was promoted.
//! - [`crate::run`] gives an *identical* outcome with equal fuel: reads, writes, phis and block
//!   parameters cost no fuel, and the only block added is synthetic.
//! - It is deterministic: new temps are numbered from the input's
//!   [`Function::temp_count`], one per phi in the library's order (by block, then variable);
//!   new phis come before the block's old ones, new parameters after its old ones.

use std::fmt;

use ssa::construct::{self as sc, Access, Value, Variables};
/// Re-exported from the library, so that callers need not depend on `ssa` themselves.
pub use ssa::construct::{BuildError, Method, Stats};

use crate::interp::MAX_ENTITY;
use crate::ir::{Block, BlockData, Function, Inst, Operand, Target, Temp, Term, Var};
use crate::verify::{verify_ssa, Location, VerifyError};

/// How merged values are written in the output.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Merges {
    /// [`Inst::Phi`]s at the start of the block.
    Phis,
    /// Block parameters ([`BlockData::params`]) and arguments on every edge.
    BlockParams,
}

/// How to build (see [`ssa::construct::Options`] for the library's side).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ConstructOptions {
    /// Phis or block parameters.
    pub merges: Merges,
    /// Where phis go: pruned (bounded or exact), semi-pruned or minimal SSA.
    pub method: Method,
    /// Remove trivial phis (one value apart from the phi itself), recursively.
    pub fold_trivial: bool,
    /// Promote at most this many variables (those with the most reads and writes).
    pub max_promoted: Option<usize>,
    /// Leave the costliest variables unpromoted while the phis' operands exceed this.
    pub phi_copy_budget: Option<u64>,
    /// Also remove groups of phis that only use each other and one outside value (see
    /// `ssa::construct::cycles`).
    pub remove_cycles: bool,
}

impl Default for ConstructOptions {
    /// Phis, pruned SSA (the library's default method), folding on, no budgets.
    fn default() -> Self {
        ConstructOptions {
            merges: Merges::Phis,
            method: Method::Bounded,
            fold_trivial: true,
            max_promoted: None,
            phi_copy_budget: None,
            remove_cycles: false,
        }
    }
}

/// Why a function cannot be put in SSA form.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ConstructError {
    /// The input is not valid pre-SSA toy-ir: every error [`verify_ssa`] found.
    Invalid(Vec<VerifyError>),
    /// A read or write names a variable numbered [`MAX_ENTITY`] or more.
    VarOutOfRange {
        /// The instruction.
        at: Location,
        /// The variable.
        var: Var,
    },
    /// More blocks, instructions or temps than `u32` numbers can count.
    TooLarge,
    /// The library refused the function (not expected after the checks above).
    Build(BuildError),
}

impl fmt::Display for ConstructError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConstructError::Invalid(errs) => {
                f.write_str("not valid pre-SSA toy-ir")?;
                match errs.split_first() {
                    Some((first, [])) => write!(f, ": {first}"),
                    Some((first, rest)) => write!(f, ": {first} (and {} more)", rest.len()),
                    None => Ok(()),
                }
            }
            ConstructError::VarOutOfRange { at, var } => {
                write!(f, "{at}: variable {var} is not below {MAX_ENTITY}")
            }
            ConstructError::TooLarge => f.write_str("too many blocks, instructions or temps"),
            ConstructError::Build(e) => write!(f, "SSA construction failed: {e}"),
        }
    }
}

impl std::error::Error for ConstructError {}

impl From<BuildError> for ConstructError {
    fn from(e: BuildError) -> Self {
        ConstructError::Build(e)
    }
}

/// What [`construct`] made, and how.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Construction {
    /// The function in SSA form (see the module docs for its invariants).
    pub function: Function,
    /// The library's counts: variables promoted, phis placed and folded.
    pub stats: Stats,
    /// The variables left unpromoted by a budget (their reads and writes stay), ascending.
    pub unpromoted: Vec<Var>,
    /// Whether a synthetic entry block was put in front (the input's entry had predecessors).
    pub entry_added: bool,
}

/// Puts `f` in SSA form (see the module docs); the function only.
pub fn to_ssa(f: &Function, opts: &ConstructOptions) -> Result<Function, ConstructError> {
    construct(f, opts).map(|c| c.function)
}

/// Puts `f` in SSA form (see the module docs), with what the construction did.
pub fn construct(f: &Function, opts: &ConstructOptions) -> Result<Construction, ConstructError> {
    verify_ssa(f).map_err(ConstructError::Invalid)?;
    let vars = variables(f)?;
    let mut g = f.clone();
    let entry_added = f.pred_edges().first().is_some_and(|p| !p.is_empty());
    if entry_added {
        prepend_entry(&mut g)?;
    }
    let options = sc::Options {
        method: opts.method,
        fold_trivial: opts.fold_trivial,
        phi_copy_budget: opts.phi_copy_budget,
        max_promoted: opts.max_promoted,
        remove_cycles: opts.remove_cycles,
    };
    let s = sc::build(&PreSsa::new(&g)?, &options)?;
    rewrite(&mut g, &s, opts.merges)?;
    let unpromoted = vars
        .into_iter()
        .filter(|&v| !s.is_promoted(var(v)))
        .collect();
    Ok(Construction {
        function: g,
        stats: s.stats(),
        unpromoted,
        entry_added,
    })
}

/// The library's number for a toy-ir variable.
fn var(v: Var) -> sc::Var {
    sc::Var(v.0)
}

/// The variables read or written, ascending; an error for one out of range.
fn variables(f: &Function) -> Result<Vec<Var>, ConstructError> {
    let mut vars = Vec::new();
    for (b, data) in f.block_ids().zip(&f.blocks) {
        for (i, inst) in data.insts.iter().enumerate() {
            let (Inst::Read { var, .. } | Inst::Write { var, .. }) = inst else {
                continue;
            };
            if var.0 >= MAX_ENTITY {
                let at = Location::Inst(b, i);
                return Err(ConstructError::VarOutOfRange { at, var: *var });
            }
            vars.push(*var);
        }
    }
    vars.sort_unstable();
    vars.dedup();
    Ok(vars)
}

/// Puts a synthetic `jump b1` block in front of the others, which move up by one.
fn prepend_entry(f: &mut Function) -> Result<(), ConstructError> {
    if f.blocks.len() >= u32::MAX as usize {
        return Err(ConstructError::TooLarge);
    }
    // Verified input: every target and phi predecessor is below `blocks.len()`.
    let up = |b: &mut Block| b.0 += 1;
    for data in &mut f.blocks {
        for inst in &mut data.insts {
            if let Inst::Phi { args, .. } = inst {
                args.iter_mut().for_each(|(p, _)| up(p));
            }
        }
        let targets = data
            .term
            .as_mut()
            .map(Term::targets_mut)
            .unwrap_or_default();
        targets.into_iter().for_each(|t| up(&mut t.block));
    }
    let entry = BlockData {
        term: Some(Term::Jump(Target::new(Block(1)))),
        synthetic: true,
        ..BlockData::default()
    };
    f.blocks.insert(0, entry);
    Ok(())
}

/// The pre-SSA function as the library sees it: its graph, and its reads and writes.
///
/// Invariant: `first[b]` is the id of block `b`'s first instruction (ids count instructions
/// across blocks in layout order), and every id fits a `u32`.
struct PreSsa<'f> {
    f: &'f Function,
    first: Vec<u32>,
    num_vars: usize,
}

impl<'f> PreSsa<'f> {
    fn new(f: &'f Function) -> Result<Self, ConstructError> {
        let first = first_ids(f)?;
        let num_vars = f.var_count() as usize;
        Ok(PreSsa { f, first, num_vars })
    }
}

/// The id of each block's first instruction (see [`PreSsa`]).
fn first_ids(f: &Function) -> Result<Vec<u32>, ConstructError> {
    let mut next = 0u32;
    let mut first = Vec::with_capacity(f.blocks.len());
    for data in &f.blocks {
        first.push(next);
        let n = u32::try_from(data.insts.len()).map_err(|_| ConstructError::TooLarge)?;
        next = next.checked_add(n).ok_or(ConstructError::TooLarge)?;
    }
    Ok(first)
}

impl ssa::Graph for PreSsa<'_> {
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

impl Variables for PreSsa<'_> {
    type Value = Operand;

    fn num_vars(&self) -> usize {
        self.num_vars
    }

    fn accesses(&self, b: ssa::Block, out: &mut Vec<Access<Operand>>) {
        let Some(data) = self.f.blocks.get(b.index()) else {
            return;
        };
        let first = self.first[b.index()];
        for (i, inst) in data.insts.iter().enumerate() {
            let id = first + i as u32;
            match *inst {
                Inst::Read { dst, var: v } => out.push(Access::UseInto(var(v), id, dst.into())),
                Inst::Write { var: v, src } => out.push(Access::Def(var(v), src)),
                _ => {}
            }
        }
    }
}

/// Rewrites `f` (the function [`sc::build`] saw) into SSA form with `s` (see the module docs).
fn rewrite(f: &mut Function, s: &sc::Ssa<Operand>, merges: Merges) -> Result<(), ConstructError> {
    let first = first_ids(f)?;
    let total =
        first.last().copied().unwrap_or(0) as usize + f.blocks.last().map_or(0, |d| d.insts.len());
    let mut reads: Vec<Option<Value<Operand>>> = vec![None; total];
    for &(id, v) in s.uses() {
        if let Some(r) = reads.get_mut(id as usize) {
            *r = Some(v);
        }
    }
    let temps = phi_temps(f, s.phis().len())?;
    let operand = |v: Value<Operand>| match v {
        Value::Def(o) => o,
        Value::Phi(p) => Operand::Temp(temps[p.index()]),
        Value::Undefined(_) => Operand::Imm(0),
    };
    // Reads and writes of promoted variables.
    for (data, &first) in f.blocks.iter_mut().zip(&first) {
        let old = std::mem::take(&mut data.insts);
        for (i, inst) in old.into_iter().enumerate() {
            match inst {
                Inst::Read { dst, var: v } if s.is_promoted(var(v)) => {
                    let reaching = reads[first as usize + i].unwrap_or(Value::Undefined(var(v)));
                    data.insts.push(Inst::Copy {
                        dst,
                        src: operand(reaching),
                    });
                }
                Inst::Write { var: v, .. } if s.is_promoted(var(v)) => {}
                inst => data.insts.push(inst),
            }
        }
    }
    // The merges.
    for b in f.block_ids() {
        let sb = ssa::Block::from(b);
        match merges {
            Merges::Phis => {
                let preds = s.preds(sb);
                let phis: Vec<Inst> = s
                    .phis_of(sb)
                    .map(|p| Inst::Phi {
                        dst: temps[p.index()],
                        args: (preds.iter().zip(s.operands(p)))
                            .map(|(&pred, &v)| (Block::from(pred), operand(v)))
                            .collect(),
                    })
                    .collect();
                f.blocks[b.index()].insts.splice(0..0, phis);
            }
            Merges::BlockParams => {
                let new = s.phis_of(sb).map(|p| temps[p.index()]);
                f.blocks[b.index()].params.extend(new);
                let term = f.blocks[b.index()].term.as_mut();
                let targets = term.map(Term::targets_mut).unwrap_or_default();
                for (k, t) in targets.into_iter().enumerate() {
                    t.args.extend(s.arguments(sb, k).map(operand));
                }
            }
        }
    }
    Ok(())
}

/// A fresh temp per phi, numbered from `f`'s [`Function::temp_count`].
fn phi_temps(f: &Function, n: usize) -> Result<Vec<Temp>, ConstructError> {
    let next = f.temp_count();
    // `temp_count` saturates: `u32::MAX` may mean that temp is taken.
    let end = u32::try_from(n)
        .ok()
        .and_then(|n| next.checked_add(n))
        .filter(|&end| n == 0 || end < u32::MAX)
        .ok_or(ConstructError::TooLarge)?;
    Ok((next..end).map(Temp).collect())
}
