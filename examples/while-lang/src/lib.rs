//! # while-lang — a small while-language, the second front end for testing mem2reg's SSA
//!
//! ```text
//! source ─► lexer ─► parser ─► ast::Program ─► eval (tree walking, fuel) ─► Outcome
//!                                   │   ▲                                      ║ equal
//!                                   │   └── gen (random programs)              ║
//!                                   ├──► compile (naive, Read/Write) ─► toy_ir::run ─► Outcome
//!                                   └──► compile_ssa (SSA, phis / block params) ─► toy_ir::run
//! ```
//!
//! The language: integer variables (implicitly declared, 0 before their first assignment),
//! expressions with `+ - * / %`, comparisons, `&& || !`, unary `-` and parentheses, and the
//! statements `x = e;`, `if (e) { } else { }`, `while (e) { }`, `break;`, `continue;`,
//! `print e;` and `return e;`. A program is one function body; falling off its end returns 0.
//!
//! ```
//! let src = "i = 0; while (i < 3) { i = i + 1; if (i == 2) { continue; } print i; } return i;";
//! let program = while_lang::parse(src).unwrap();
//! let by_tree = while_lang::eval(&program, 1_000).unwrap();
//! assert_eq!((by_tree.trace.clone(), by_tree.result), (vec![1, 3], Some(3)));
//! let by_ir = toy_ir::run(&while_lang::compile(&program).unwrap(), &[], 1_000).unwrap();
//! assert_eq!(by_ir, by_tree);
//! ```
//!
//! Deep nesting: every recursive walk is bounded by [`ast::MAX_DEPTH`] (256 levels, a nesting
//! limit rather than iteration); the parser rejects deeper input with a positioned error (its
//! expression parser uses explicit stacks, so no number of parentheses reaches the stack), and
//! the evaluator and compiler return errors on deeper hand-built trees. Fuel is counted as
//! documented in [`mod@eval`] so that compiled programs give identical outcomes. No `unsafe`;
//! no panics on bad input.
//!
//! The SSA front end ([`compile_ssa`], in [`ssa_compile`]) emits toy-ir in SSA form directly,
//! with toy-ir's function builder over the `ssa` library's on-the-fly construction: no
//! `read`/`write`, phis or block parameters as the caller chooses, blocks sealed as early as the
//! program's structure allows. Its output runs like [`eval()`] too:
//!
//! ```
//! let src = "i = 0; while (i < 3) { i = i + 1; print i; } return i;";
//! let program = while_lang::parse(src).unwrap();
//! let f = while_lang::compile_ssa(&program, toy_ir::Merges::BlockParams).unwrap();
//! toy_ir::verify_ssa(&f).unwrap();
//! assert_eq!(toy_ir::run(&f, &[], 1_000).unwrap(), while_lang::eval(&program, 1_000).unwrap());
//! ```

#![warn(missing_docs)]
#![forbid(unsafe_code)]

pub mod ast;
pub mod compile;
pub mod eval;
pub mod gen;
pub mod lexer;
pub mod parser;
pub mod printer;
pub mod ssa_compile;

pub use ast::{BinaryOp, Expr, Program, Stmt, UnaryOp, MAX_DEPTH};
pub use compile::{compile, CompileError};
pub use eval::{eval, EvalError, Outcome};
pub use lexer::ParseError;
pub use parser::parse;
pub use ssa_compile::{compile_ssa, SsaCompileError};
