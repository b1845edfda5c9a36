//! The hash maps of the IR, the reader and the passes: rustc's Fx hash (the `rustc-hash`
//! crate), one multiply and rotate per word. Not DoS-resistant, which is fine for
//! compiler-internal tables keyed by names and types from the input being read.
//!
//! Invariant: nothing in the workspace iterates a hash map to produce output, so the hasher
//! never affects what is printed; it only makes lookups on the hot paths (names, types) cheap.

use std::hash::Hasher;

pub use rustc_hash::{FxHashMap, FxHashSet, FxHasher};

/// The Fx hash of `bytes` (for tables that store their own hashes).
#[inline]
pub fn hash_bytes(bytes: &[u8]) -> u64 {
    let mut h = FxHasher::default();
    h.write(bytes);
    h.finish()
}

#[cfg(test)]
mod tests {
    #[test]
    fn equal_bytes_hash_equal_and_differ_otherwise() {
        assert_eq!(super::hash_bytes(b"abc"), super::hash_bytes(b"abc"));
        assert_ne!(super::hash_bytes(b"abc"), super::hash_bytes(b"abd"));
    }
}
