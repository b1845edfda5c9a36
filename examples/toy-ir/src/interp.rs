//! The reference interpreter: runs a function on arguments with a fuel budget and returns its
//! observable [`Outcome`] (the printed trace and the returned value).
//!
//! # Semantics
//! - Integers are `i64`; every operator is total ([`crate::BinOp::eval`]).
//! - A variable never written reads as **0** (a front end's "undefined on entry" maps to the
//!   constant 0). Reading a *temp* that holds no value yet is an error: only bad IR does that.
//! - On entry to a block, its parameters take the arguments of the edge taken and its leading
//!   phis take their argument for the predecessor just left, all in parallel (every value is
//!   read before any is assigned). The first argument naming the predecessor is used; the
//!   verifier makes the arguments of a predecessor's duplicate edges equal.
//!
//! # Fuel: the rule that makes a program and its transformed versions comparable
//! One unit of fuel is consumed by each *event*:
//! - entering a block that is not [`synthetic`](crate::BlockData::synthetic) (the entry included);
//! - executing a `print`.
//!
//! An event happens only if a unit is left; otherwise the run stops *before* it, with
//! `out_of_fuel` set and no result. Instructions, phis and synthetic blocks are free. SSA
//! construction (removes reads and writes, adds phis or block parameters, may add a synthetic
//! entry block) and out-of-SSA (adds copies, adds synthetic blocks on split critical edges)
//! preserve the sequence of events exactly, so with equal fuel a correct transformation gives
//! an **identical** outcome, `out_of_fuel` included; [`Outcome::agrees_with`] is the weaker
//! check for programs whose fuel accounting differs. A front end must mark as non-synthetic
//! exactly the blocks that stand for its own counted events (while-lang: loop headers).
//!
//! A run of more than `blocks.len()` consecutive synthetic block entries can only be a cycle of
//! synthetic blocks; it is reported as an error rather than looping forever.

use std::fmt;

use crate::ir::{Block, Function, Inst, Operand, Temp, Term};
use crate::verify::Location;

/// Temp and variable numbers must be below this for [`run`] (it keeps them in dense vectors).
pub const MAX_ENTITY: u32 = 1 << 20;

/// What a run did, as far as an observer can tell.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Outcome {
    /// The printed values, in order.
    pub trace: Vec<i64>,
    /// The returned value; `None` when the run ran out of fuel.
    pub result: Option<i64>,
    /// True if the run stopped because its fuel ran out.
    pub out_of_fuel: bool,
}

impl Outcome {
    /// Equivalence of two runs: equal when neither ran out of fuel; otherwise the trace of a
    /// run that ran out of fuel is a prefix of the other's trace.
    pub fn agrees_with(&self, other: &Outcome) -> bool {
        match (self.out_of_fuel, other.out_of_fuel) {
            (false, false) => self == other,
            (true, false) => other.trace.starts_with(&self.trace),
            (false, true) => self.trace.starts_with(&other.trace),
            (true, true) => {
                self.trace.starts_with(&other.trace) || other.trace.starts_with(&self.trace)
            }
        }
    }
}

/// Why a run failed (only malformed IR fails).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RunErrorKind {
    /// The function has no blocks.
    NoBlocks,
    /// `args.len()` differs from the function's parameter count.
    ArgCount {
        /// Parameters declared.
        params: usize,
        /// Arguments given.
        args: usize,
    },
    /// A temp or variable number is at least [`MAX_ENTITY`].
    EntityTooLarge(u32),
    /// A temp was read before any value was assigned to it.
    UndefinedTemp(Temp),
    /// A jump to a block that does not exist.
    BlockOutOfRange(Block),
    /// The block has no terminator.
    MissingTerminator,
    /// A phi has no argument for the edge taken (`None`: the function's entry, no edge).
    MissingPhiArg(Option<Block>),
    /// A phi after a non-phi instruction.
    PhiNotAtStart,
    /// A target's argument count differs from its block's parameter count.
    TargetArgCount,
    /// The entry block, entered at the start, has parameters.
    MergeInEntry,
    /// More consecutive synthetic block entries than there are blocks.
    SyntheticCycle,
}

/// A run-time error and where it happened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunError {
    /// Where.
    pub at: Location,
    /// What.
    pub kind: RunErrorKind,
}

impl RunError {
    fn new(at: Location, kind: RunErrorKind) -> Self {
        RunError { at, kind }
    }
}

impl fmt::Display for RunErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunErrorKind::NoBlocks => f.write_str("function has no blocks"),
            RunErrorKind::ArgCount { params, args } => {
                write!(f, "{args} argument(s) for {params} parameter(s)")
            }
            RunErrorKind::EntityTooLarge(n) => write!(f, "temp or variable number {n} too large"),
            RunErrorKind::UndefinedTemp(t) => write!(f, "{t} read before it has a value"),
            RunErrorKind::BlockOutOfRange(b) => write!(f, "jump to {b}, which does not exist"),
            RunErrorKind::MissingTerminator => f.write_str("block has no terminator"),
            RunErrorKind::MissingPhiArg(Some(p)) => write!(f, "phi has no argument for {p}"),
            RunErrorKind::MissingPhiArg(None) => f.write_str("phi in the entry block"),
            RunErrorKind::PhiNotAtStart => f.write_str("phi after a non-phi instruction"),
            RunErrorKind::TargetArgCount => f.write_str("wrong number of block arguments"),
            RunErrorKind::MergeInEntry => f.write_str("entry block has parameters"),
            RunErrorKind::SyntheticCycle => f.write_str("endless cycle of synthetic blocks"),
        }
    }
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.at, self.kind)
    }
}

impl std::error::Error for RunError {}

/// Runs `f` on `args` with `fuel` units of fuel (see the module doc).
pub fn run(f: &Function, args: &[i64], fuel: u64) -> Result<Outcome, RunError> {
    let fail = |kind| Err(RunError::new(Location::Function, kind));
    if f.blocks.is_empty() {
        return fail(RunErrorKind::NoBlocks);
    }
    if args.len() != f.params.len() {
        return fail(RunErrorKind::ArgCount {
            params: f.params.len(),
            args: args.len(),
        });
    }
    let (temps, vars) = (f.temp_count(), f.var_count());
    if temps > MAX_ENTITY || vars > MAX_ENTITY {
        return fail(RunErrorKind::EntityTooLarge(temps.max(vars) - 1));
    }
    let mut m = Machine {
        f,
        temps: vec![None; temps as usize],
        vars: vec![0; vars as usize],
        fuel,
        outcome: Outcome::default(),
    };
    for (&p, &a) in f.params.iter().zip(args) {
        m.temps[p.index()] = Some(a);
    }
    m.run()?;
    Ok(m.outcome)
}

struct Machine<'f> {
    f: &'f Function,
    temps: Vec<Option<i64>>,
    vars: Vec<i64>,
    fuel: u64,
    outcome: Outcome,
}

/// Where control goes after a block.
enum Next {
    Goto {
        from: Block,
        to: Block,
        args: Vec<i64>,
    },
    Return(i64),
}

impl Machine<'_> {
    /// Consumes one unit of fuel for an event; false (and `out_of_fuel` set) if none is left.
    fn spend(&mut self) -> bool {
        if self.fuel == 0 {
            self.outcome.out_of_fuel = true;
            return false;
        }
        self.fuel -= 1;
        true
    }

    fn run(&mut self) -> Result<(), RunError> {
        let mut cur = Function::ENTRY;
        let mut edge: Option<(Block, Vec<i64>)> = None; // None: entered from the caller
        let mut synthetic_run = 0usize;
        loop {
            let Some(data) = self.f.block(cur) else {
                let at = edge.map_or(Location::Function, |(p, _)| Location::Term(p));
                return Err(RunError::new(at, RunErrorKind::BlockOutOfRange(cur)));
            };
            if data.synthetic {
                synthetic_run += 1;
                if synthetic_run > self.f.blocks.len() {
                    return Err(RunError::new(
                        Location::Block(cur),
                        RunErrorKind::SyntheticCycle,
                    ));
                }
            } else {
                synthetic_run = 0;
                if !self.spend() {
                    return Ok(());
                }
            }
            let first_non_phi = self.enter(cur, edge)?;
            match self.body(cur, first_non_phi)? {
                None => return Ok(()),
                Some(Next::Return(v)) => {
                    self.outcome.result = Some(v);
                    return Ok(());
                }
                Some(Next::Goto { from, to, args }) => {
                    cur = to;
                    edge = Some((from, args));
                }
            }
        }
    }

    /// Assigns block parameters and leading phis in parallel from the edge taken (`None` at the
    /// function's entry); returns the index of the first non-phi instruction.
    fn enter(&mut self, b: Block, edge: Option<(Block, Vec<i64>)>) -> Result<usize, RunError> {
        let data = &self.f.blocks[b.index()];
        let (from, args) = match edge {
            Some((p, args)) => (Some(p), args),
            None if data.params.is_empty() => (None, Vec::new()),
            None => {
                return Err(RunError::new(
                    Location::Block(b),
                    RunErrorKind::MergeInEntry,
                ));
            }
        };
        let mut values: Vec<(Temp, i64)> = data.params.iter().copied().zip(args).collect();
        let mut i = 0;
        while let Some(Inst::Phi { dst, args }) = data.insts.get(i) {
            let at = Location::Inst(b, i);
            let arg = from.and_then(|p| args.iter().find(|(q, _)| *q == p));
            let Some(&(_, v)) = arg else {
                return Err(RunError::new(at, RunErrorKind::MissingPhiArg(from)));
            };
            values.push((*dst, self.operand(v, at)?));
            i += 1;
        }
        for (t, v) in values {
            self.temps[t.index()] = Some(v);
        }
        Ok(i)
    }

    /// Runs the instructions from `start` and the terminator; `None` if fuel ran out.
    fn body(&mut self, b: Block, start: usize) -> Result<Option<Next>, RunError> {
        let data = &self.f.blocks[b.index()];
        for (i, inst) in data.insts.iter().enumerate().skip(start) {
            let at = Location::Inst(b, i);
            if !self.exec(inst, at)? {
                return Ok(None);
            }
        }
        let Some(term) = &data.term else {
            return Err(RunError::new(
                Location::Term(b),
                RunErrorKind::MissingTerminator,
            ));
        };
        self.terminate(b, term).map(Some)
    }

    fn operand(&self, o: Operand, at: Location) -> Result<i64, RunError> {
        match o {
            Operand::Imm(v) => Ok(v),
            Operand::Temp(t) => {
                self.temps[t.index()].ok_or(RunError::new(at, RunErrorKind::UndefinedTemp(t)))
            }
        }
    }

    /// Executes one instruction; false if a print found no fuel.
    fn exec(&mut self, inst: &Inst, at: Location) -> Result<bool, RunError> {
        let (dst, value) = match inst {
            Inst::Const { dst, value } => (*dst, *value),
            Inst::Binary { op, dst, a, b } => {
                (*dst, op.eval(self.operand(*a, at)?, self.operand(*b, at)?))
            }
            Inst::Read { dst, var } => (*dst, self.vars[var.index()]),
            Inst::Copy { dst, src } => (*dst, self.operand(*src, at)?),
            Inst::Write { var, src } => {
                self.vars[var.index()] = self.operand(*src, at)?;
                return Ok(true);
            }
            Inst::Print { src } => {
                let v = self.operand(*src, at)?;
                if !self.spend() {
                    return Ok(false);
                }
                self.outcome.trace.push(v);
                return Ok(true);
            }
            Inst::Phi { .. } => return Err(RunError::new(at, RunErrorKind::PhiNotAtStart)),
        };
        self.temps[dst.index()] = Some(value);
        Ok(true)
    }

    fn terminate(&self, b: Block, term: &Term) -> Result<Next, RunError> {
        let at = Location::Term(b);
        let target = match term {
            Term::Return(v) => return Ok(Next::Return(self.operand(*v, at)?)),
            Term::Jump(t) => t,
            Term::Branch {
                cond,
                then_to,
                else_to,
            } => {
                if self.operand(*cond, at)? != 0 {
                    then_to
                } else {
                    else_to
                }
            }
            Term::Switch {
                value,
                cases,
                default,
            } => {
                let v = self.operand(*value, at)?;
                cases
                    .iter()
                    .find(|(k, _)| *k == v)
                    .map_or(default, |(_, t)| t)
            }
        };
        let params = self.f.block(target.block).map_or(0, |d| d.params.len());
        if self.f.block(target.block).is_some() && params != target.args.len() {
            return Err(RunError::new(at, RunErrorKind::TargetArgCount));
        }
        let args = target
            .args
            .iter()
            .map(|&o| self.operand(o, at))
            .collect::<Result<_, _>>()?;
        Ok(Next::Goto {
            from: b,
            to: target.block,
            args,
        })
    }
}
