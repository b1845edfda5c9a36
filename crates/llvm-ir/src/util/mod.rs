//! Small shared helpers with no LLVM knowledge: a fast non-cryptographic hasher, fast byte
//! searches, thread counts and work chunks, huge pages for a large table, glibc's mmap threshold.

pub mod bytes;
pub mod fxhash;
pub mod huge_pages;
pub mod malloc;
pub mod parallel;

pub use ssa::util::refill;
