//! Random programs from `arbitrary::Unstructured`, for property tests and fuzzers; a failing
//! program shrinks with its input bytes and prints as source ([`crate::printer`]).
//!
//! Programs use data variables `x0`, `x1`, ... (read before written on many paths, so reading
//! 0), nested `if`/`else` and `while`, `break` and `continue` inside loops, prints (often of a
//! variable, so wrong values show), and an occasional `return`. Loops are *bounded* unless
//! [`Config::wild_loops`] allows otherwise: each gets a fresh counter `cK`, reset just before
//! the loop and incremented first thing in its body (before any `continue`), never assigned
//! elsewhere, and the condition is `cK < limit`, possibly `&&` a random expression:
//!
//! ```text
//! c0 = 0;
//! while (c0 < 3 && x1 != 2) {
//!     c0 = c0 + 1;
//!     ...
//! }
//! ```
//!
//! Invariants: generated programs parse back from their printed form and stay within
//! [`crate::ast::MAX_DEPTH`]; without wild loops they finish within
//! [`Config::fuel_bound`]; the same bytes and config give the same program.

use arbitrary::{Result, Unstructured};

use crate::ast::{BinaryOp, Expr, Program, Stmt, UnaryOp};

/// Knobs of the generator.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    /// Deepest statement nesting (a top-level statement is at depth 1).
    pub max_depth: u32,
    /// Statements per block, at most (a bounded loop's counter reset not counted); the top
    /// level has between 1 and twice this many.
    pub max_stmts: usize,
    /// Height of expressions, at most.
    pub max_expr_height: u32,
    /// Data variables, at most.
    pub max_vars: u32,
    /// Largest iteration limit of a bounded loop.
    pub max_trips: i64,
    /// Allow loops on a random condition, which may not terminate.
    pub wild_loops: bool,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            max_depth: 4,
            max_stmts: 5,
            max_expr_height: 3,
            max_vars: 4,
            max_trips: 4,
            wild_loops: false,
        }
    }
}

impl Config {
    /// Fuel within which every program generated without wild loops finishes: a nested block
    /// has at most `max_stmts` statements (the top level twice that), a loop costs at most
    /// `trips + 1` condition evaluations plus `trips` runs of its body, a print one unit.
    pub fn fuel_bound(&self) -> u64 {
        let (s, t) = (self.max_stmts as u64, self.max_trips.max(0) as u64);
        let mut inner = s; // a block at the deepest level: prints only
        for _ in 1..self.max_depth {
            inner = s.saturating_mul((t + 1).saturating_add(t.saturating_mul(inner)));
        }
        inner.saturating_mul(2)
    }
}

/// Generates a program (see the module doc).
pub fn program(u: &mut Unstructured, cfg: &Config) -> Result<Program> {
    let vars = u.int_in_range(1..=cfg.max_vars.max(1))?;
    let mut g = Gen {
        u,
        cfg,
        vars,
        counters: 0,
        loops: 0,
    };
    let mut body = Vec::new();
    for _ in 0..g.u.int_in_range(1..=2 * cfg.max_stmts.max(1))? {
        g.stmt(1, &mut body)?;
    }
    Ok(Program { body })
}

struct Gen<'a, 'b> {
    u: &'a mut Unstructured<'b>,
    cfg: &'a Config,
    vars: u32,
    counters: u32,
    /// Enclosing loops of the statement being generated.
    loops: u32,
}

impl Gen<'_, '_> {
    fn var(&mut self) -> Result<String> {
        Ok(format!("x{}", self.u.int_in_range(0..=self.vars - 1)?))
    }

    /// Statements at `depth`, appended to `out`.
    fn block(&mut self, depth: u32, out: &mut Vec<Stmt>) -> Result<()> {
        for _ in 0..self.u.int_in_range(0..=self.cfg.max_stmts)? {
            self.stmt(depth, out)?;
        }
        Ok(())
    }

    fn stmt(&mut self, depth: u32, out: &mut Vec<Stmt>) -> Result<()> {
        let nest = depth < self.cfg.max_depth;
        let mut kinds = vec![0, 0, 0, 1, 1, 2];
        if nest {
            kinds.extend([3, 3, 4, 4]);
        }
        if self.loops > 0 {
            kinds.extend([5, 6]);
        }
        if self.u.ratio(1, 40)? {
            kinds = vec![7];
        }
        let s = match *self.u.choose(&kinds)? {
            0 => Stmt::Assign(self.var()?, self.expr(self.cfg.max_expr_height)?),
            1 => Stmt::Print(Expr::Var(self.var()?)),
            2 => Stmt::Print(self.expr(self.cfg.max_expr_height)?),
            3 => self.if_stmt(depth)?,
            4 => return self.while_stmt(depth, out),
            5 => Stmt::Break,
            6 => Stmt::Continue,
            _ => Stmt::Return(self.expr(self.cfg.max_expr_height)?),
        };
        out.push(s);
        Ok(())
    }

    fn if_stmt(&mut self, depth: u32) -> Result<Stmt> {
        let cond = self.expr(self.cfg.max_expr_height)?;
        let (mut then, mut otherwise) = (Vec::new(), Vec::new());
        self.block(depth + 1, &mut then)?;
        if self.u.ratio(1, 2)? {
            self.block(depth + 1, &mut otherwise)?;
        }
        Ok(Stmt::If(cond, then, otherwise))
    }

    /// A bounded loop (two statements: counter reset, loop) or, if allowed, a wild one.
    fn while_stmt(&mut self, depth: u32, out: &mut Vec<Stmt>) -> Result<()> {
        let mut body = Vec::new();
        let cond = if self.cfg.wild_loops && self.u.ratio(1, 4)? {
            self.expr(self.cfg.max_expr_height)?
        } else {
            let c = format!("c{}", self.counters);
            self.counters += 1;
            out.push(Stmt::Assign(c.clone(), Expr::Num(0)));
            let bump = Expr::Binary(BinaryOp::Add, var(&c), Box::new(Expr::Num(1)));
            body.push(Stmt::Assign(c.clone(), bump));
            let limit = Expr::Num(self.u.int_in_range(0..=self.cfg.max_trips)?);
            let bound = Expr::Binary(BinaryOp::Lt, var(&c), Box::new(limit));
            if self.u.ratio(1, 3)? {
                let extra = self.expr(self.cfg.max_expr_height.saturating_sub(1))?;
                Expr::Binary(BinaryOp::And, Box::new(bound), Box::new(extra))
            } else {
                bound
            }
        };
        self.loops += 1;
        let filled = self.block(depth + 1, &mut body);
        self.loops -= 1;
        filled?;
        out.push(Stmt::While(cond, body));
        Ok(())
    }

    fn expr(&mut self, height: u32) -> Result<Expr> {
        if height <= 1 || self.u.ratio(1, 3)? {
            return self.leaf();
        }
        if self.u.ratio(1, 6)? {
            let op = if self.u.arbitrary()? {
                UnaryOp::Neg
            } else {
                UnaryOp::Not
            };
            return Ok(Expr::Unary(op, Box::new(self.expr(height - 1)?)));
        }
        let op = *self.u.choose(&BinaryOp::ALL)?;
        let a = self.expr(height - 1)?;
        Ok(Expr::Binary(
            op,
            Box::new(a),
            Box::new(self.expr(height - 1)?),
        ))
    }

    fn leaf(&mut self) -> Result<Expr> {
        if self.u.ratio(1, 2)? {
            return Ok(Expr::Var(self.var()?));
        }
        if self.u.ratio(1, 12)? {
            return Ok(Expr::Num(*self.u.choose(&[i64::MIN, i64::MAX, -1, 63])?));
        }
        Ok(Expr::Num(self.u.int_in_range(-3..=10)?))
    }
}

fn var(name: &str) -> Box<Expr> {
    Box::new(Expr::Var(name.to_owned()))
}
