//! ssa's integration tests, one module per area, linked into one test binary (one
//! link instead of one per file: the suite's build time). Each module's own `//!` says
//! what it checks.

mod bad_input;
mod deep;
