//! The SSA front end: while-language straight to toy-ir in SSA form, with toy-ir's function
//! builder ([`toy_ir::frontend::FunctionBuilder`], the `ssa` library's on-the-fly construction
//! after Braun et al.), merging values by phis or block parameters ([`Merges`]). No
//! `read`/`write` is ever emitted: every source variable is a front-end variable of the
//! builder, and each `&&` / `||` gets a hidden one of its own (its diamond's result).
//!
//! # Blocks, and when they are sealed
//! Blocks are sealed as soon as every edge into them is emitted:
//! - the entry at once (it has no predecessors); the arms of an `if`, a loop's body and the
//!   right-hand side of `&&` / `||` right after the branch into them;
//! - an `if`'s join once both arms are emitted (it is created only if some arm falls through,
//!   or for the false edge of an `if` without `else`);
//! - a loop's *header* (where its condition starts) and its *exit* once its body is emitted:
//!   by then the back edge and every `continue` (into the header) and `break` (into the exit)
//!   are known.
//!
//! Code after `return`, `break` or `continue` is never emitted (the rest of that statement list
//! cannot run): the builder rejects code in a block nothing branches to, by design.
//!
//! # Output invariants
//! - It passes [`toy_ir::verify_ssa`]; [`toy_ir::run`] gives the same [`toy_ir::Outcome`] as
//!   [`crate::eval()`] with equal fuel: loop headers are the only non-synthetic blocks, each
//!   entered once per evaluation of its condition (the fuel rule of [`mod@crate::eval`]).
//! - The result depends only on the program: blocks and temps are numbered in emission order.
//! - Trees deeper than [`MAX_DEPTH`] give [`SsaCompileError::TooDeep`]; nothing panics.

use std::collections::HashMap;
use std::fmt;

use toy_ir::frontend::{FrontendError, FunctionBuilder};
use toy_ir::{BinOp, Block, Function, Merges, Operand, Var};

use crate::ast::{BinaryOp, Expr, Program, Stmt, UnaryOp, MAX_DEPTH};

/// Why the SSA front end failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SsaCompileError {
    /// The tree nests deeper than [`MAX_DEPTH`].
    TooDeep,
    /// The function builder refused a call (a bug of this front end, reported, not a panic).
    Builder(FrontendError),
}

impl fmt::Display for SsaCompileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SsaCompileError::TooDeep => write!(f, "program nested deeper than {MAX_DEPTH} levels"),
            SsaCompileError::Builder(e) => write!(f, "function builder: {e}"),
        }
    }
}

impl std::error::Error for SsaCompileError {}

impl From<FrontendError> for SsaCompileError {
    fn from(e: FrontendError) -> Self {
        SsaCompileError::Builder(e)
    }
}

type Result<T> = std::result::Result<T, SsaCompileError>;

/// Compiles `program` to toy-ir in SSA form, merging with `merges` (see the module docs).
pub fn compile_ssa(program: &Program, merges: Merges) -> Result<Function> {
    let mut fb = FunctionBuilder::new(merges);
    let vars = (program.variables().into_iter())
        .map(|name| (name, fb.declare_var()))
        .collect();
    let entry = fb.create_synthetic_block();
    fb.seal_block(entry)?;
    fb.switch_to_block(entry)?;
    let mut c = Front {
        fb,
        vars,
        loops: Vec::new(),
        live: true,
    };
    c.block(&program.body, 1)?;
    if c.live {
        c.fb.ret(Operand::Imm(0))?;
    }
    Ok(c.fb.finish()?)
}

/// An enclosing loop: where `continue` and `break` go.
#[derive(Clone, Copy)]
struct Loop {
    header: Block,
    exit: Block,
}

struct Front<'p> {
    fb: FunctionBuilder,
    vars: HashMap<&'p str, Var>,
    loops: Vec<Loop>,
    /// Whether the current block can run (false after `return`, `break`, `continue`).
    live: bool,
}

impl<'p> Front<'p> {
    fn var(&self, name: &str) -> Var {
        // Every name is declared from `Program::variables`.
        self.vars.get(name).copied().unwrap_or(Var(0))
    }

    /// Statements at `depth`, up to the first after which nothing runs.
    fn block(&mut self, body: &'p [Stmt], depth: u32) -> Result<()> {
        if depth > MAX_DEPTH {
            return Err(SsaCompileError::TooDeep);
        }
        for s in body {
            if !self.live {
                break;
            }
            self.stmt(s, depth)?;
        }
        Ok(())
    }

    fn stmt(&mut self, s: &'p Stmt, depth: u32) -> Result<()> {
        match s {
            Stmt::Assign(x, e) => {
                let v = self.expr(e, depth + 1)?;
                self.fb.def_var(self.var(x), v)?;
            }
            Stmt::Print(e) => {
                let v = self.expr(e, depth + 1)?;
                self.fb.print(v)?;
            }
            Stmt::Return(e) => {
                let v = self.expr(e, depth + 1)?;
                self.fb.ret(v)?;
                self.live = false;
            }
            // Outside any loop (hand-built trees only) both end the program with 0, as in the
            // evaluator.
            Stmt::Break | Stmt::Continue => {
                match (self.loops.last(), s) {
                    (Some(l), Stmt::Break) => self.fb.jump(l.exit)?,
                    (Some(l), _) => self.fb.jump(l.header)?,
                    (None, _) => self.fb.ret(Operand::Imm(0))?,
                }
                self.live = false;
            }
            Stmt::If(c, then, otherwise) => self.if_stmt(c, then, otherwise, depth)?,
            Stmt::While(c, body) => self.while_stmt(c, body, depth)?,
        }
        Ok(())
    }

    fn if_stmt(
        &mut self,
        c: &'p Expr,
        then: &'p [Stmt],
        otherwise: &'p [Stmt],
        depth: u32,
    ) -> Result<()> {
        let cond = self.expr(c, depth + 1)?;
        let then_b = self.fb.create_synthetic_block();
        if otherwise.is_empty() {
            let join = self.fb.create_synthetic_block();
            self.fb.branch(cond, then_b, join)?;
            self.arm(then_b, then, depth)?
                .map_or(Ok(()), |end| self.jump_from(end, join))?;
            return self.enter_join(join);
        }
        let else_b = self.fb.create_synthetic_block();
        self.fb.branch(cond, then_b, else_b)?;
        let ends = [
            self.arm(then_b, then, depth)?,
            self.arm(else_b, otherwise, depth)?,
        ];
        if ends.iter().all(Option::is_none) {
            self.live = false;
            return Ok(());
        }
        let join = self.fb.create_synthetic_block();
        for end in ends.into_iter().flatten() {
            self.jump_from(end, join)?;
        }
        self.enter_join(join)
    }

    /// Compiles an arm into `start` (sealed: its only edge is emitted); returns the block it
    /// falls out of, if it does.
    fn arm(&mut self, start: Block, body: &'p [Stmt], depth: u32) -> Result<Option<Block>> {
        self.fb.seal_block(start)?;
        self.fb.switch_to_block(start)?;
        self.live = true;
        self.block(body, depth + 1)?;
        Ok(self.live.then(|| self.fb.current_block()).flatten())
    }

    fn jump_from(&mut self, from: Block, to: Block) -> Result<()> {
        self.fb.switch_to_block(from)?;
        Ok(self.fb.jump(to)?)
    }

    /// Seals `join` (every edge into it is emitted) and continues there.
    fn enter_join(&mut self, join: Block) -> Result<()> {
        self.fb.seal_block(join)?;
        self.fb.switch_to_block(join)?;
        self.live = true;
        Ok(())
    }

    fn while_stmt(&mut self, c: &'p Expr, body: &'p [Stmt], depth: u32) -> Result<()> {
        let header = self.fb.create_block();
        self.fb.jump(header)?;
        self.fb.switch_to_block(header)?;
        let cond = self.expr(c, depth + 1)?;
        let (body_b, exit) = (
            self.fb.create_synthetic_block(),
            self.fb.create_synthetic_block(),
        );
        self.fb.branch(cond, body_b, exit)?;
        self.loops.push(Loop { header, exit });
        let end = self.arm(body_b, body, depth);
        self.loops.pop();
        if let Some(end) = end? {
            self.jump_from(end, header)?;
        }
        self.fb.seal_block(header)?;
        self.enter_join(exit)
    }

    fn expr(&mut self, e: &'p Expr, depth: u32) -> Result<Operand> {
        if depth > MAX_DEPTH {
            return Err(SsaCompileError::TooDeep);
        }
        Ok(match e {
            Expr::Num(v) => Operand::Imm(*v),
            Expr::Var(x) => self.fb.use_var(self.var(x))?,
            Expr::Unary(op, a) => {
                let a = self.expr(a, depth + 1)?;
                let t = match op {
                    UnaryOp::Neg => self.fb.binary(BinOp::Sub, Operand::Imm(0), a)?,
                    UnaryOp::Not => self.fb.binary(BinOp::Eq, a, Operand::Imm(0))?,
                };
                t.into()
            }
            Expr::Binary(op, a, b) => match op.to_ir() {
                Some(ir_op) => {
                    let a = self.expr(a, depth + 1)?;
                    let b = self.expr(b, depth + 1)?;
                    self.fb.binary(ir_op, a, b)?.into()
                }
                None => self.short_circuit(*op == BinaryOp::And, a, b, depth)?,
            },
        })
    }

    /// `a && b` / `a || b`: a diamond defining a hidden variable, read at the join.
    fn short_circuit(
        &mut self,
        is_and: bool,
        a: &'p Expr,
        b: &'p Expr,
        depth: u32,
    ) -> Result<Operand> {
        let hidden = self.fb.declare_var();
        let a = self.expr(a, depth + 1)?;
        self.fb.def_var(hidden, Operand::Imm(i64::from(!is_and)))?;
        let (rhs, join) = (
            self.fb.create_synthetic_block(),
            self.fb.create_synthetic_block(),
        );
        if is_and {
            self.fb.branch(a, rhs, join)?;
        } else {
            self.fb.branch(a, join, rhs)?;
        }
        self.fb.seal_block(rhs)?;
        self.fb.switch_to_block(rhs)?;
        let b = self.expr(b, depth + 1)?;
        let truth = self.fb.binary(BinOp::Ne, b, Operand::Imm(0))?;
        self.fb.def_var(hidden, truth.into())?;
        self.fb.jump(join)?;
        self.enter_join(join)?;
        Ok(self.fb.use_var(hidden)?)
    }
}
