//! SSA construction the front-end way: [`to_ssa_on_the_fly`] replays a pre-SSA function through
//! the [`FunctionBuilder`] (the `ssa` library's on-the-fly builder), as a front end would emit
//! it, instead of analysing the whole function as [`crate::to_ssa`] does. The two must agree:
//! the same behaviour on every CFG, and the same number of merges on reducible CFGs (both are
//! minimal there once trivial phis are removed, and both prune dead ones), which the property
//! tests check.
//!
//! How the function is replayed:
//! - blocks are emitted in reverse postorder from the entry, then the unreachable ones in
//!   layout order, and numbered in that order (a synthetic entry block comes first if the
//!   input's entry has predecessors: the builder's entry can have none);
//! - a block is sealed as soon as every block with an edge into it is emitted, and, if it is
//!   unreachable, once it is emitted itself (code is never emitted into a block sealed without
//!   predecessors);
//! - `t = read v` emits nothing: `t` stands for `use_var(v)` from then on, so `write x, t`
//!   defines `x` as what `v` held (whole-function construction's `UseInto`); `write v, x` is
//!   `def_var(v, x)`; every other instruction is emitted with its operands renamed.
//!
//! Input: a function that passes [`verify_ssa`] (its temps are in SSA form, its variables not)
//! with no phis or block parameters yet, temps and variables below [`MAX_ENTITY`]. Anything
//! else is an [`Err`]. Output: as [`crate::to_ssa`]'s, with the same fuel accounting (the only
//! block that may be added is synthetic), but numbered in emission order.

use std::fmt;

use crate::analysis::Dominators;
use crate::frontend::{FrontendError, FunctionBuilder, Merges};
use crate::interp::MAX_ENTITY;
use crate::ir::{Block, Function, Inst, Operand, Term, Var};
use crate::verify::{verify_ssa, Location, VerifyError};

/// Why a function cannot be replayed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OnTheFlyError {
    /// The input is not valid pre-SSA toy-ir: every error [`verify_ssa`] found.
    Invalid(Vec<VerifyError>),
    /// A phi or block parameter (or a block argument) is already there.
    AlreadySsa(Location),
    /// A temp or variable number is [`MAX_ENTITY`] or more.
    TooLarge,
    /// The builder refused a call (not expected after the checks above).
    Builder(FrontendError),
}

impl fmt::Display for OnTheFlyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OnTheFlyError::Invalid(errs) => {
                f.write_str("not valid pre-SSA toy-ir")?;
                errs.first().map_or(Ok(()), |e| write!(f, ": {e}"))
            }
            OnTheFlyError::AlreadySsa(at) => write!(f, "{at}: a phi or block parameter"),
            OnTheFlyError::TooLarge => write!(f, "temp or variable numbers not below {MAX_ENTITY}"),
            OnTheFlyError::Builder(e) => write!(f, "function builder: {e}"),
        }
    }
}

impl std::error::Error for OnTheFlyError {}

impl From<FrontendError> for OnTheFlyError {
    fn from(e: FrontendError) -> Self {
        OnTheFlyError::Builder(e)
    }
}

/// Puts `f` in SSA form with the on-the-fly builder (see the module docs).
pub fn to_ssa_on_the_fly(f: &Function, merges: Merges) -> Result<Function, OnTheFlyError> {
    to_ssa_on_the_fly_with(f, merges, false)
}

/// [`to_ssa_on_the_fly`], also removing redundant phi cycles if `remove_cycles` (see
/// `ssa::construct::cycles`).
pub fn to_ssa_on_the_fly_with(
    f: &Function,
    merges: Merges,
    remove_cycles: bool,
) -> Result<Function, OnTheFlyError> {
    check(f)?;
    let mut r = Replay::new(f, merges)?;
    r.fb.set_remove_redundant_cycles(remove_cycles);
    for i in 0..r.order.len() {
        let x = r.order[i];
        r.emit(x)?;
        r.filled[x.index()] = true;
        for s in f.successors(x) {
            r.unfilled_preds[s.index()] -= 1;
            r.seal_if_ready(s)?;
        }
        r.seal_if_ready(x)?;
    }
    Ok(r.fb.finish()?)
}

/// The input rules of the module docs.
fn check(f: &Function) -> Result<(), OnTheFlyError> {
    verify_ssa(f).map_err(OnTheFlyError::Invalid)?;
    if f.temp_count() > MAX_ENTITY || f.var_count() > MAX_ENTITY {
        return Err(OnTheFlyError::TooLarge);
    }
    for (b, data) in f.block_ids().zip(&f.blocks) {
        if !data.params.is_empty() {
            return Err(OnTheFlyError::AlreadySsa(Location::Block(b)));
        }
        if let Some(i) = data.insts.iter().position(Inst::is_phi) {
            return Err(OnTheFlyError::AlreadySsa(Location::Inst(b, i)));
        }
        let targets = data.term.as_ref().map(Term::targets).unwrap_or_default();
        if targets.iter().any(|t| !t.args.is_empty()) {
            return Err(OnTheFlyError::AlreadySsa(Location::Term(b)));
        }
    }
    Ok(())
}

/// The replay's state.
struct Replay<'f> {
    f: &'f Function,
    fb: FunctionBuilder,
    /// Input blocks in emission order.
    order: Vec<Block>,
    /// Per input block: its block in the output.
    id: Vec<Block>,
    reachable: Vec<bool>,
    filled: Vec<bool>,
    sealed: Vec<bool>,
    /// Per input block: edges into it from blocks not emitted yet.
    unfilled_preds: Vec<usize>,
    /// Per input temp: what it stands for in the output.
    temps: Vec<Operand>,
    vars: Vec<Var>,
}

impl<'f> Replay<'f> {
    /// Declares the variables and parameters, creates the blocks, seals the entry.
    fn new(f: &'f Function, merges: Merges) -> Result<Self, OnTheFlyError> {
        let mut fb = FunctionBuilder::new(merges);
        let vars = (0..f.var_count()).map(|_| fb.declare_var()).collect();
        let mut temps = vec![Operand::Imm(0); f.temp_count() as usize];
        for &p in &f.params {
            temps[p.index()] = fb.param()?.into();
        }
        let dom = Dominators::compute(f);
        let mut order: Vec<Block> = dom.reverse_postorder().collect();
        order.extend(f.block_ids().filter(|&b| !dom.is_reachable(b)));
        let preds = f.pred_edges();
        let entry = (!preds[0].is_empty()).then(|| fb.create_synthetic_block());
        let mut id = vec![Block(0); f.blocks.len()];
        for &x in &order {
            let data = &f.blocks[x.index()];
            id[x.index()] = match data.synthetic {
                true => fb.create_synthetic_block(),
                false => fb.create_block(),
            };
        }
        if let Some(entry) = entry {
            fb.seal_block(entry)?;
            fb.switch_to_block(entry)?;
            fb.jump(id[0])?;
        }
        let mut r = Replay {
            f,
            fb,
            order,
            id,
            reachable: f.block_ids().map(|b| dom.is_reachable(b)).collect(),
            filled: vec![false; f.blocks.len()],
            sealed: vec![false; f.blocks.len()],
            unfilled_preds: preds.iter().map(Vec::len).collect(),
            temps,
            vars,
        };
        r.seal_if_ready(Block(0))?;
        Ok(r)
    }

    /// Seals input block `b` if every edge into it is emitted, and it is reachable or emitted.
    fn seal_if_ready(&mut self, b: Block) -> Result<(), OnTheFlyError> {
        let i = b.index();
        let ready = self.unfilled_preds[i] == 0 && (self.reachable[i] || self.filled[i]);
        if ready && !self.sealed[i] {
            self.fb.seal_block(self.id[i])?;
            self.sealed[i] = true;
        }
        Ok(())
    }

    fn op(&self, o: Operand) -> Operand {
        match o {
            Operand::Temp(t) => self
                .temps
                .get(t.index())
                .copied()
                .unwrap_or(Operand::Imm(0)),
            imm => imm,
        }
    }

    /// Emits input block `x`.
    fn emit(&mut self, x: Block) -> Result<(), OnTheFlyError> {
        let f = self.f;
        self.fb.switch_to_block(self.id[x.index()])?;
        for inst in &f.blocks[x.index()].insts {
            let (dst, value) = match *inst {
                Inst::Read { dst, var } => (dst, self.fb.use_var(self.vars[var.index()])?),
                Inst::Write { var, src } => {
                    self.fb.def_var(self.vars[var.index()], self.op(src))?;
                    continue;
                }
                Inst::Print { src } => {
                    self.fb.print(self.op(src))?;
                    continue;
                }
                Inst::Const { dst, value } => (dst, self.fb.iconst(value)?.into()),
                Inst::Binary { op, dst, a, b } => {
                    (dst, self.fb.binary(op, self.op(a), self.op(b))?.into())
                }
                Inst::Copy { dst, src } => (dst, self.fb.copy(self.op(src))?.into()),
                Inst::Phi { .. } => return Err(OnTheFlyError::AlreadySsa(Location::Block(x))),
            };
            self.temps[dst.index()] = value;
        }
        self.terminate(x)
    }

    fn terminate(&mut self, x: Block) -> Result<(), OnTheFlyError> {
        let Some(term) = &self.f.blocks[x.index()].term else {
            return Err(OnTheFlyError::AlreadySsa(Location::Term(x)));
        };
        let to = |t: &crate::ir::Target| self.id[t.block.index()];
        match term {
            Term::Jump(t) => self.fb.jump(to(t))?,
            Term::Branch {
                cond,
                then_to,
                else_to,
            } => self.fb.branch(self.op(*cond), to(then_to), to(else_to))?,
            Term::Switch {
                value,
                cases,
                default,
            } => {
                let cases: Vec<(i64, Block)> = cases.iter().map(|(k, t)| (*k, to(t))).collect();
                self.fb.switch(self.op(*value), &cases, to(default))?
            }
            Term::Return(v) => self.fb.ret(self.op(*v))?,
        }
        Ok(())
    }
}
