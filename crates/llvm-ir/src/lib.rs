//! # llvm-ir — LLVM IR in memory, printed as `opt` prints it, and verified
//!
//! (front page to write)
#![warn(missing_docs)]

pub use ssa::entity;

pub mod ir;
pub mod lexical;
pub mod print;
pub mod util;
pub mod verify;

pub use util::parallel::Threads;
