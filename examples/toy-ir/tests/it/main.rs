//! toy-ir's integration tests, one module per area, linked into one test binary (one
//! link instead of one per file: the suite's build time). Each module's own `//!` says
//! what it checks.

mod builder_calls;
mod construct;
mod construct_props;
mod destruct;
mod frontend;
mod gen;
mod interp;
mod ir;
mod on_the_fly_props;
mod text;
mod verify;
