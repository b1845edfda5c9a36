//! # mem2reg — SSA construction and destruction on LLVM IR text, in pure Rust
//!
//! ```text
//! .ll bytes ─► text::parse ─► ir::Module ─► pipeline (passes) ─► text::print ─► .ll bytes
//!                                 │              │
//!                                 │     analysis (cfg, domtree, frontier, idf, liveness)
//!                                 │     transform (mem2reg, phi_elim, reg2mem)
//!                                 └──── verify (after passes; always in tests)
//! ```
//! One direction: the parser builds the IR, passes change it through the IR's API, the printer
//! only reads it. Analyses never write into the IR.
#![warn(missing_docs)]

pub mod analysis;
pub mod driver;
pub mod entity;
pub mod ir;
pub mod pipeline;
pub mod text;
pub mod transform;
pub mod util;
pub mod verify;
