//! while-lang's integration tests, one module per area, linked into one test binary (one
//! link instead of one per file: the suite's build time). Each module's own `//!` says
//! what it checks.

mod eval;
mod parse;
mod props;
mod ssa;
mod ssa_front;
