//! The naive compiler: while-language to *pre-SSA* toy-ir, one `Var` per source variable.
//!
//! Every variable access becomes a toy-ir [`Inst::Read`] or [`Inst::Write`] (no SSA values
//! across blocks), so the output is exactly the input whole-function SSA construction expects,
//! and running it must give the same [`toy_ir::Outcome`] as [`crate::eval()`] (a property test).
//!
//! # Output invariants
//! - `Var(i)` is the `i`-th name of [`Program::variables`]; variables after those are hidden
//!   results of `&&` / `||`, written on every path before they are read.
//! - Temps are defined once each, in the block that uses them: only variables cross blocks.
//! - Block 0 is the entry. Every loop has a *header* block, entered once before each evaluation
//!   of its condition and holding the start of that evaluation; headers are the only
//!   non-synthetic blocks, which makes toy-ir's fuel count exactly the evaluator's events (see
//!   [`mod@crate::eval`]). Every cycle passes through a header.
//! - Code after `break`, `continue` or `return` goes to a fresh unreachable block, which may
//!   jump back into reachable code.
//! - `&&` and `||` short-circuit with branches (a diamond writing the hidden variable), and
//!   `if` without `else` branches straight to its join block.
//!
//! The output passes [`toy_ir::verify()`]. Trees deeper than [`MAX_DEPTH`] give
//! [`CompileError::TooDeep`].

use std::collections::HashMap;
use std::fmt;

use toy_ir::{BinOp, Block, BlockData, Function, Inst, Operand, Target, Temp, Term, Var};

use crate::ast::{BinaryOp, Expr, Program, Stmt, UnaryOp, MAX_DEPTH};

/// Why compilation failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CompileError {
    /// The tree nests deeper than [`MAX_DEPTH`].
    TooDeep,
}

impl fmt::Display for CompileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CompileError::TooDeep => write!(f, "program nested deeper than {MAX_DEPTH} levels"),
        }
    }
}

impl std::error::Error for CompileError {}

/// Compiles `program` to pre-SSA toy-ir (see the module doc).
pub fn compile(program: &Program) -> Result<Function, CompileError> {
    let names = program.variables();
    let vars: HashMap<&str, Var> = names
        .iter()
        .enumerate()
        .map(|(i, &n)| (n, Var(i as u32)))
        .collect();
    let mut c = Compiler {
        vars,
        next_var: names.len() as u32,
        next_temp: 0,
        blocks: Vec::new(),
        cur: Block(0),
        loops: Vec::new(),
    };
    c.cur = c.new_block(true);
    c.block(&program.body, 1)?;
    c.terminate(Term::Return(Operand::Imm(0)));
    Ok(Function {
        params: Vec::new(),
        blocks: c.blocks,
    })
}

struct Compiler<'p> {
    vars: HashMap<&'p str, Var>,
    next_var: u32,
    next_temp: u32,
    blocks: Vec<BlockData>,
    /// The block being filled.
    cur: Block,
    /// Enclosing loops: (header, exit).
    loops: Vec<(Block, Block)>,
}

fn jump(b: Block) -> Term {
    Term::Jump(Target::new(b))
}

fn branch(cond: Operand, then_to: Block, else_to: Block) -> Term {
    Term::Branch {
        cond,
        then_to: Target::new(then_to),
        else_to: Target::new(else_to),
    }
}

impl<'p> Compiler<'p> {
    fn new_block(&mut self, synthetic: bool) -> Block {
        self.blocks.push(BlockData {
            synthetic,
            ..BlockData::default()
        });
        Block(self.blocks.len() as u32 - 1)
    }

    fn emit(&mut self, inst: Inst) {
        self.blocks[self.cur.index()].insts.push(inst);
    }

    fn def(&mut self, make: impl FnOnce(Temp) -> Inst) -> Operand {
        let t = Temp(self.next_temp);
        self.next_temp += 1;
        self.emit(make(t));
        Operand::Temp(t)
    }

    fn terminate(&mut self, term: Term) {
        self.blocks[self.cur.index()].term = Some(term);
    }

    /// Ends the current block with `term` and continues in a fresh, unreachable block.
    fn terminate_dead_end(&mut self, term: Term) {
        self.terminate(term);
        self.cur = self.new_block(true);
    }

    fn var(&self, name: &str) -> Var {
        self.vars.get(name).copied().unwrap_or(Var(0))
    }

    fn block(&mut self, body: &'p [Stmt], depth: u32) -> Result<(), CompileError> {
        if depth > MAX_DEPTH {
            return Err(CompileError::TooDeep);
        }
        body.iter().try_for_each(|s| self.stmt(s, depth))
    }

    fn stmt(&mut self, s: &'p Stmt, depth: u32) -> Result<(), CompileError> {
        // Outside any loop (hand-built trees only), `break` and `continue` end the program
        // with 0, as in the evaluator.
        let (header, exit) = match self.loops.last() {
            Some(&(h, e)) => (jump(h), jump(e)),
            None => (Term::Return(Operand::Imm(0)), Term::Return(Operand::Imm(0))),
        };
        match s {
            Stmt::Assign(x, e) => {
                let src = self.expr(e, depth + 1)?;
                let var = self.var(x);
                self.emit(Inst::Write { var, src });
            }
            Stmt::Print(e) => {
                let src = self.expr(e, depth + 1)?;
                self.emit(Inst::Print { src });
            }
            Stmt::Return(e) => {
                let v = self.expr(e, depth + 1)?;
                self.terminate_dead_end(Term::Return(v));
            }
            Stmt::Break => self.terminate_dead_end(exit),
            Stmt::Continue => self.terminate_dead_end(header),
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
    ) -> Result<(), CompileError> {
        let cond = self.expr(c, depth + 1)?;
        let then_b = self.new_block(true);
        let else_b = if otherwise.is_empty() {
            None
        } else {
            Some(self.new_block(true))
        };
        let join = self.new_block(true);
        self.terminate(branch(cond, then_b, else_b.unwrap_or(join)));
        self.cur = then_b;
        self.block(then, depth + 1)?;
        self.terminate(jump(join));
        if let Some(else_b) = else_b {
            self.cur = else_b;
            self.block(otherwise, depth + 1)?;
            self.terminate(jump(join));
        }
        self.cur = join;
        Ok(())
    }

    fn while_stmt(
        &mut self,
        c: &'p Expr,
        body: &'p [Stmt],
        depth: u32,
    ) -> Result<(), CompileError> {
        let header = self.new_block(false);
        self.terminate(jump(header));
        self.cur = header;
        let cond = self.expr(c, depth + 1)?;
        let body_b = self.new_block(true);
        let exit = self.new_block(true);
        self.terminate(branch(cond, body_b, exit));
        self.cur = body_b;
        self.loops.push((header, exit));
        let compiled = self.block(body, depth + 1);
        self.loops.pop();
        compiled?;
        self.terminate(jump(header));
        self.cur = exit;
        Ok(())
    }

    fn expr(&mut self, e: &'p Expr, depth: u32) -> Result<Operand, CompileError> {
        if depth > MAX_DEPTH {
            return Err(CompileError::TooDeep);
        }
        Ok(match e {
            Expr::Num(v) => Operand::Imm(*v),
            Expr::Var(x) => {
                let var = self.var(x);
                self.def(|dst| Inst::Read { dst, var })
            }
            Expr::Unary(op, a) => {
                let a = self.expr(a, depth + 1)?;
                let (op, a, b) = match op {
                    UnaryOp::Neg => (BinOp::Sub, Operand::Imm(0), a),
                    UnaryOp::Not => (BinOp::Eq, a, Operand::Imm(0)),
                };
                self.def(|dst| Inst::Binary { op, dst, a, b })
            }
            Expr::Binary(op, a, b) => match op.to_ir() {
                Some(ir_op) => {
                    let a = self.expr(a, depth + 1)?;
                    let b = self.expr(b, depth + 1)?;
                    self.def(|dst| Inst::Binary {
                        op: ir_op,
                        dst,
                        a,
                        b,
                    })
                }
                None => self.short_circuit(*op == BinaryOp::And, a, b, depth)?,
            },
        })
    }

    /// `a && b` / `a || b` as a diamond writing a hidden variable, read back at the join.
    fn short_circuit(
        &mut self,
        is_and: bool,
        a: &'p Expr,
        b: &'p Expr,
        depth: u32,
    ) -> Result<Operand, CompileError> {
        let hidden = Var(self.next_var);
        self.next_var += 1;
        let a = self.expr(a, depth + 1)?;
        self.emit(Inst::Write {
            var: hidden,
            src: Operand::Imm(i64::from(!is_and)),
        });
        let (rhs, join) = (self.new_block(true), self.new_block(true));
        let term = if is_and {
            branch(a, rhs, join)
        } else {
            branch(a, join, rhs)
        };
        self.terminate(term);
        self.cur = rhs;
        let b = self.expr(b, depth + 1)?;
        let truth = self.def(|dst| Inst::Binary {
            op: BinOp::Ne,
            dst,
            a: b,
            b: Operand::Imm(0),
        });
        self.emit(Inst::Write {
            var: hidden,
            src: truth,
        });
        self.terminate(jump(join));
        self.cur = join;
        Ok(self.def(|dst| Inst::Read { dst, var: hidden }))
    }
}
