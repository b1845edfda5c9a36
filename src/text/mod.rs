//! The textual form of LLVM IR: reading (`lexer`, `parser`) and writing (`printer`).
//!
//! [`parse`] turns `.ll` bytes into an [`crate::ir::Module`] or a [`ParseError`] carrying
//! `file:line:col` and a caret; [`print_module`] writes a module back in LLVM's conventions.

pub mod error;
pub mod lexer;
pub mod names;
pub mod parser;
pub mod printer;

pub use error::ParseError;
pub use parser::parse;
pub use printer::{print_function, print_module};
