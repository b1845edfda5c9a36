//! The pretty-printer: `Display` for programs, statements and expressions.
//!
//! Output is canonical source that [`crate::parse`] reads back to an equal tree (the round
//! trip is a property test): four-space indentation, one statement per line, an `else` only
//! when its block is non-empty, and parentheses only where precedence or left-associativity
//! needs them. Two details keep literals exact: a negative literal prints as `-5` (which the
//! parser reads back as the literal, not as a negation), so a negation *of* a literal prints
//! as `-(5)`.
//!
//! Recursion follows the tree, one level per nesting level, so trees within
//! [`crate::ast::MAX_DEPTH`] print safely.

use std::fmt::{self, Display, Formatter};

use crate::ast::{Expr, Program, Stmt, UnaryOp};

/// Precedence of unary operators, above every binary one.
const UNARY_PRECEDENCE: u8 = 7;

fn precedence(e: &Expr) -> u8 {
    match e {
        Expr::Binary(op, ..) => op.precedence(),
        Expr::Unary(..) => UNARY_PRECEDENCE,
        Expr::Num(v) if *v < 0 => UNARY_PRECEDENCE,
        Expr::Num(_) | Expr::Var(_) => UNARY_PRECEDENCE + 1,
    }
}

/// Writes `e`, parenthesised if its precedence is below `min`.
fn operand(f: &mut Formatter<'_>, e: &Expr, min: u8) -> fmt::Result {
    if precedence(e) < min {
        write!(f, "({e})")
    } else {
        e.fmt(f)
    }
}

impl Display for Expr {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            Expr::Num(v) => write!(f, "{v}"),
            Expr::Var(x) => f.write_str(x),
            Expr::Unary(op, e) => {
                f.write_str(if *op == UnaryOp::Neg { "-" } else { "!" })?;
                match **e {
                    Expr::Num(_) => write!(f, "({e})"),
                    _ => operand(f, e, UNARY_PRECEDENCE),
                }
            }
            Expr::Binary(op, a, b) => {
                let p = op.precedence();
                operand(f, a, p)?;
                write!(f, " {} ", op.symbol())?;
                operand(f, b, p + 1)
            }
        }
    }
}

fn write_block(f: &mut Formatter<'_>, body: &[Stmt], indent: usize) -> fmt::Result {
    f.write_str("{\n")?;
    for s in body {
        write_stmt(f, s, indent + 1)?;
    }
    write!(f, "{:1$}}}", "", indent * 4)
}

fn write_stmt(f: &mut Formatter<'_>, s: &Stmt, indent: usize) -> fmt::Result {
    write!(f, "{:1$}", "", indent * 4)?;
    match s {
        Stmt::Assign(x, e) => write!(f, "{x} = {e};")?,
        Stmt::Print(e) => write!(f, "print {e};")?,
        Stmt::Return(e) => write!(f, "return {e};")?,
        Stmt::Break => f.write_str("break;")?,
        Stmt::Continue => f.write_str("continue;")?,
        Stmt::While(c, body) => {
            write!(f, "while ({c}) ")?;
            write_block(f, body, indent)?;
        }
        Stmt::If(c, then, otherwise) => {
            write!(f, "if ({c}) ")?;
            write_block(f, then, indent)?;
            if !otherwise.is_empty() {
                f.write_str(" else ")?;
                write_block(f, otherwise, indent)?;
            }
        }
    }
    f.write_str("\n")
}

impl Display for Stmt {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write_stmt(f, self, 0)
    }
}

impl Display for Program {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        self.body.iter().try_for_each(|s| write_stmt(f, s, 0))
    }
}
