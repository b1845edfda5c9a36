//! # llvm-reader — LLVM IR text into `llvm-ir` modules
//!
//! [`parse`] turns `.ll` bytes into an [`llvm_ir::ir::Module`] or a [`ParseError`] carrying
//! `file:line:col` and a caret, with the message LLVM's own reader gives for the same input.
//! Reading is a byte lexer ([`lexer`]) and a two-pass parser ([`parser`]): the module level
//! first, then every function body, in parallel. The IR does not know this crate: printing
//! (`llvm_ir::print`) works on modules built in Rust as well as on modules read here.
#![warn(missing_docs)]

pub mod error;
pub mod lexer;
pub mod parser;

pub use error::ParseError;
pub use parser::{parse, parse_with, Threads};
