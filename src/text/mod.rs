//! The textual form of LLVM IR: reading (`lexer`, `parser`) and writing (`printer`).
//!
//! [`parse`] turns `.ll` bytes into an [`crate::ir::Module`] or a [`ParseError`] carrying
//! `file:line:col` and a caret; [`print_module`] writes a module back in LLVM's conventions.

pub mod attr_slots;
pub mod error;
pub mod lexer;
pub mod md_slots;
pub mod module_writer;
pub mod names;
pub mod parser;
pub mod printer;
pub mod refs;
pub mod type_order;

pub use error::ParseError;
pub use parser::parse;
pub use printer::{print_function, print_module};
