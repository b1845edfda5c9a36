//! Transforms: SSA construction and destruction.

pub mod debugify;
pub mod edges;
pub mod mem2reg;
pub mod phi_elim;
pub mod reg2mem;
