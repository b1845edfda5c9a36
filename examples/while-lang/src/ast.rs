//! The abstract syntax tree of the while-language.
//!
//! A [`Program`] is one function body: a list of statements over implicitly declared integer
//! variables (0 before their first assignment). The tree carries no source positions, so two
//! programs are equal exactly when they have the same structure; that is what the
//! print/parse round trip checks.
//!
//! # Nesting depth
//! The *depth* of a statement at the top level is 1; a statement in the body of an `if` or a
//! `while` at depth `d` has depth `d + 1`; the root of a statement's expression has the
//! statement's depth plus 1, and an operand has its operator's depth plus 1. Every recursive
//! walk in this crate (parser, printer, evaluator, compiler) recurses at most once per level,
//! and [`MAX_DEPTH`] bounds the levels: the parser rejects deeper input with an error, the
//! evaluator and compiler return an error on deeper hand-built trees.

use std::collections::BTreeSet;

/// The deepest nesting accepted (see the module doc). Unoptimised builds use up to about
/// 4 KiB of stack per level in the parser and 2 KiB in the evaluator and compiler, so 256
/// levels fit in a 2 MiB thread (the default for spawned threads and tests) with room to spare;
/// a test checks every walk at this depth on such a thread.
pub const MAX_DEPTH: u32 = 256;

/// A binary operator. Arithmetic wraps and never traps (`x / 0 == 0`, `x % 0 == 0`), with the
/// semantics of the toy-ir operator [`BinaryOp::to_ir`] names; `&&` and `||` give 0 or 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinaryOp {
    /// `||` (short-circuit; expressions have no side effects, so only the value matters).
    Or,
    /// `&&`.
    And,
    /// `==`.
    Eq,
    /// `!=`.
    Ne,
    /// `<`.
    Lt,
    /// `<=`.
    Le,
    /// `>`.
    Gt,
    /// `>=`.
    Ge,
    /// `+`.
    Add,
    /// `-`.
    Sub,
    /// `*`.
    Mul,
    /// `/`.
    Div,
    /// `%`.
    Rem,
}

impl BinaryOp {
    /// Every operator.
    pub const ALL: [BinaryOp; 13] = [
        BinaryOp::Or,
        BinaryOp::And,
        BinaryOp::Eq,
        BinaryOp::Ne,
        BinaryOp::Lt,
        BinaryOp::Le,
        BinaryOp::Gt,
        BinaryOp::Ge,
        BinaryOp::Add,
        BinaryOp::Sub,
        BinaryOp::Mul,
        BinaryOp::Div,
        BinaryOp::Rem,
    ];

    /// Binding strength, higher binds tighter; all binary operators are left-associative.
    /// `||` 1, `&&` 2, `== !=` 3, `< <= > >=` 4, `+ -` 5, `* / %` 6 (unary operators bind
    /// tighter than all of them).
    pub fn precedence(self) -> u8 {
        match self {
            BinaryOp::Or => 1,
            BinaryOp::And => 2,
            BinaryOp::Eq | BinaryOp::Ne => 3,
            BinaryOp::Lt | BinaryOp::Le | BinaryOp::Gt | BinaryOp::Ge => 4,
            BinaryOp::Add | BinaryOp::Sub => 5,
            BinaryOp::Mul | BinaryOp::Div | BinaryOp::Rem => 6,
        }
    }

    /// The operator's source spelling.
    pub fn symbol(self) -> &'static str {
        match self {
            BinaryOp::Or => "||",
            BinaryOp::And => "&&",
            BinaryOp::Eq => "==",
            BinaryOp::Ne => "!=",
            BinaryOp::Lt => "<",
            BinaryOp::Le => "<=",
            BinaryOp::Gt => ">",
            BinaryOp::Ge => ">=",
            BinaryOp::Add => "+",
            BinaryOp::Sub => "-",
            BinaryOp::Mul => "*",
            BinaryOp::Div => "/",
            BinaryOp::Rem => "%",
        }
    }

    /// The toy-ir operator with the same semantics; `None` for `&&` and `||`.
    pub fn to_ir(self) -> Option<toy_ir::BinOp> {
        use toy_ir::BinOp as B;
        Some(match self {
            BinaryOp::Or | BinaryOp::And => return None,
            BinaryOp::Eq => B::Eq,
            BinaryOp::Ne => B::Ne,
            BinaryOp::Lt => B::Lt,
            BinaryOp::Le => B::Le,
            BinaryOp::Gt => B::Gt,
            BinaryOp::Ge => B::Ge,
            BinaryOp::Add => B::Add,
            BinaryOp::Sub => B::Sub,
            BinaryOp::Mul => B::Mul,
            BinaryOp::Div => B::Div,
            BinaryOp::Rem => B::Rem,
        })
    }

    /// Applies the operator.
    pub fn eval(self, a: i64, b: i64) -> i64 {
        match self.to_ir() {
            Some(op) => op.eval(a, b),
            None if self == BinaryOp::And => i64::from(a != 0 && b != 0),
            None => i64::from(a != 0 || b != 0),
        }
    }
}

/// A unary operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnaryOp {
    /// `-e`: wrapping negation.
    Neg,
    /// `!e`: 1 if `e == 0`, else 0.
    Not,
}

impl UnaryOp {
    /// Applies the operator.
    pub fn eval(self, v: i64) -> i64 {
        match self {
            UnaryOp::Neg => v.wrapping_neg(),
            UnaryOp::Not => i64::from(v == 0),
        }
    }
}

/// An expression. Expressions have no side effects and always terminate.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Expr {
    /// An integer literal (negative ones come from `-` directly before a literal).
    Num(i64),
    /// A variable's current value.
    Var(String),
    /// A unary operation.
    Unary(UnaryOp, Box<Expr>),
    /// A binary operation.
    Binary(BinaryOp, Box<Expr>, Box<Expr>),
}

/// A statement.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Stmt {
    /// `x = e;`
    Assign(String, Expr),
    /// `if (cond) { then } else { otherwise }`; an absent `else` is an empty `otherwise`.
    If(Expr, Vec<Stmt>, Vec<Stmt>),
    /// `while (cond) { body }`
    While(Expr, Vec<Stmt>),
    /// `break;` (only inside a loop).
    Break,
    /// `continue;` (only inside a loop).
    Continue,
    /// `print e;`
    Print(Expr),
    /// `return e;`
    Return(Expr),
}

/// A whole program: one function body. Falling off its end returns 0.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Program {
    /// The statements, in order.
    pub body: Vec<Stmt>,
}

impl Program {
    /// Every variable name, in order of first occurrence in the source text (for `x = e;`,
    /// `x` before `e`). The naive compiler maps the `i`-th name to `toy_ir::Var(i)`.
    pub fn variables(&self) -> Vec<&str> {
        let mut names = Vec::new();
        let mut seen = BTreeSet::new();
        let mut stack: Vec<Node> = self.body.iter().rev().map(Node::Stmt).collect();
        while let Some(node) = stack.pop() {
            let name = node.push_children(&mut stack);
            if let Some(name) = name.filter(|n| seen.insert(*n)) {
                names.push(name);
            }
        }
        names
    }
}

/// A node of an explicit-stack pre-order walk.
enum Node<'a> {
    Stmt(&'a Stmt),
    Expr(&'a Expr),
}

impl<'a> Node<'a> {
    /// Pushes the children (in reverse, so they pop in source order); returns the variable
    /// named by the node itself, if any.
    fn push_children(&self, stack: &mut Vec<Node<'a>>) -> Option<&'a str> {
        let block = |stack: &mut Vec<Node<'a>>, b: &'a [Stmt]| {
            stack.extend(b.iter().rev().map(Node::Stmt));
        };
        match *self {
            Node::Stmt(Stmt::Assign(x, e)) => {
                stack.push(Node::Expr(e));
                return Some(x);
            }
            Node::Stmt(Stmt::If(c, t, e)) => {
                block(stack, e);
                block(stack, t);
                stack.push(Node::Expr(c));
            }
            Node::Stmt(Stmt::While(c, b)) => {
                block(stack, b);
                stack.push(Node::Expr(c));
            }
            Node::Stmt(Stmt::Print(e) | Stmt::Return(e)) => stack.push(Node::Expr(e)),
            Node::Stmt(Stmt::Break | Stmt::Continue) | Node::Expr(Expr::Num(_)) => {}
            Node::Expr(Expr::Var(x)) => return Some(x),
            Node::Expr(Expr::Unary(_, e)) => stack.push(Node::Expr(e)),
            Node::Expr(Expr::Binary(_, a, b)) => {
                stack.push(Node::Expr(b));
                stack.push(Node::Expr(a));
            }
        }
        None
    }
}
