//! The tree-walking evaluator: the reference semantics of the while-language.
//!
//! Variables start at 0 and are global to the program; arithmetic is toy-ir's (wrapping, total:
//! see [`crate::ast::BinaryOp`]); falling off the end returns 0.
//!
//! # Fuel: what a compiled version must count
//! The result has toy-ir's [`Outcome`] shape, so a compiled program's run compares directly.
//! One unit of fuel is consumed by each *event*:
//! - each evaluation of a `while` condition (so a loop that runs `n` times costs `n + 1`);
//! - each executed `print`.
//!
//! An event happens only if a unit is left; otherwise the run stops *before* it, with
//! `out_of_fuel` set and no result. Nothing else costs fuel. A compiler to toy-ir stays
//! comparable, with equal fuel giving an *identical* outcome, by making each loop's condition
//! start in a non-synthetic block (its *header*) that every entry to and every iteration of the
//! loop enters exactly once before evaluating the condition, and by marking every other block
//! `synthetic` (toy-ir counts non-synthetic block entries and prints). [`crate::compile()`] does
//! exactly that, and so must the future SSA front end.
//!
//! Nesting deeper than [`MAX_DEPTH`] (only possible in a hand-built tree: the parser rejects
//! it) gives [`EvalError::TooDeep`] instead of exhausting the stack.

use std::collections::HashMap;
use std::fmt;

pub use toy_ir::Outcome;

use crate::ast::{Expr, Program, Stmt, MAX_DEPTH};

/// Why an evaluation failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EvalError {
    /// The tree nests deeper than [`MAX_DEPTH`].
    TooDeep,
}

impl fmt::Display for EvalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EvalError::TooDeep => write!(f, "program nested deeper than {MAX_DEPTH} levels"),
        }
    }
}

impl std::error::Error for EvalError {}

/// Runs `program` with `fuel` units of fuel (see the module doc).
pub fn eval(program: &Program, fuel: u64) -> Result<Outcome, EvalError> {
    let mut m = Machine {
        vars: HashMap::new(),
        fuel,
        outcome: Outcome::default(),
    };
    match m.block(&program.body, 1)? {
        Flow::Return(v) => m.outcome.result = Some(v),
        Flow::OutOfFuel => m.outcome.out_of_fuel = true,
        Flow::Normal | Flow::Break | Flow::Continue => m.outcome.result = Some(0),
    }
    Ok(m.outcome)
}

/// How a statement finished.
enum Flow {
    Normal,
    Break,
    Continue,
    Return(i64),
    OutOfFuel,
}

struct Machine<'p> {
    vars: HashMap<&'p str, i64>,
    fuel: u64,
    outcome: Outcome,
}

impl<'p> Machine<'p> {
    /// Consumes a unit of fuel for an event; false if none is left.
    fn spend(&mut self) -> bool {
        let ok = self.fuel > 0;
        self.fuel = self.fuel.saturating_sub(1);
        ok
    }

    /// Runs statements at `depth`, stopping at the first that does not finish normally.
    fn block(&mut self, body: &'p [Stmt], depth: u32) -> Result<Flow, EvalError> {
        if depth > MAX_DEPTH {
            return Err(EvalError::TooDeep);
        }
        for s in body {
            match self.stmt(s, depth)? {
                Flow::Normal => {}
                other => return Ok(other),
            }
        }
        Ok(Flow::Normal)
    }

    fn stmt(&mut self, s: &'p Stmt, depth: u32) -> Result<Flow, EvalError> {
        let expr_depth = depth + 1;
        Ok(match s {
            Stmt::Assign(x, e) => {
                let v = self.expr(e, expr_depth)?;
                self.vars.insert(x, v);
                Flow::Normal
            }
            Stmt::Print(e) => {
                let v = self.expr(e, expr_depth)?;
                if !self.spend() {
                    return Ok(Flow::OutOfFuel);
                }
                self.outcome.trace.push(v);
                Flow::Normal
            }
            Stmt::Return(e) => Flow::Return(self.expr(e, expr_depth)?),
            Stmt::Break => Flow::Break,
            Stmt::Continue => Flow::Continue,
            Stmt::If(c, then, otherwise) => {
                let body = if self.expr(c, expr_depth)? != 0 {
                    then
                } else {
                    otherwise
                };
                self.block(body, depth + 1)?
            }
            Stmt::While(c, body) => self.while_loop(c, body, depth)?,
        })
    }

    fn while_loop(&mut self, c: &'p Expr, body: &'p [Stmt], depth: u32) -> Result<Flow, EvalError> {
        loop {
            if !self.spend() {
                return Ok(Flow::OutOfFuel);
            }
            if self.expr(c, depth + 1)? == 0 {
                return Ok(Flow::Normal);
            }
            match self.block(body, depth + 1)? {
                Flow::Normal | Flow::Continue => {}
                Flow::Break => return Ok(Flow::Normal),
                other => return Ok(other),
            }
        }
    }

    fn expr(&self, e: &Expr, depth: u32) -> Result<i64, EvalError> {
        if depth > MAX_DEPTH {
            return Err(EvalError::TooDeep);
        }
        Ok(match e {
            Expr::Num(v) => *v,
            Expr::Var(x) => self.vars.get(x.as_str()).copied().unwrap_or(0),
            Expr::Unary(op, a) => op.eval(self.expr(a, depth + 1)?),
            Expr::Binary(op, a, b) => op.eval(self.expr(a, depth + 1)?, self.expr(b, depth + 1)?),
        })
    }
}
