//! Out of SSA for any IR.

pub mod parallel_copy;
