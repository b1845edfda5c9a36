//! Small shared helpers with no LLVM knowledge: a fast non-cryptographic hasher.

pub mod fxhash;
pub mod rng;
