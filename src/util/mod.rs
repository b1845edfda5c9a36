//! Small shared helpers with no LLVM knowledge: a fast non-cryptographic hasher, fast byte
//! searches, a seeded PRNG for tests.

pub mod bytes;
pub mod fxhash;
pub mod rng;
