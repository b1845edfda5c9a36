//! # mem2reg-passes — mem2reg, phi elimination and reg2mem on `llvm-ir` modules
//!
//! The passes are adapters: the algorithms (dominators, frontiers, phi placement, renaming,
//! parallel copies) live in the IR-agnostic `ssa` crate; here they meet LLVM IR (slots,
//! loads, stores, debug info, names, opt's exact output).
#![warn(missing_docs)]

pub mod analysis;
pub mod pipeline;
pub mod transform;

#[cfg(test)]
mod testing;
