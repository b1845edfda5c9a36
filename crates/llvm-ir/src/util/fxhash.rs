//! The Fx hash (as in rustc and Firefox): one multiply and rotate per word. Not DoS-resistant,
//! which is fine for compiler-internal tables keyed by names and types from the input being read.
//!
//! Invariant: nothing in this crate iterates a hash map to produce output, so the hasher never
//! affects what is printed; it only makes lookups on the hot paths (names, types) cheap.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

/// The Fx hasher.
#[derive(Clone, Copy, Default)]
pub struct FxHasher {
    hash: u64,
}

const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

impl FxHasher {
    #[inline]
    fn add(&mut self, w: u64) {
        self.hash = (self.hash.rotate_left(5) ^ w).wrapping_mul(SEED);
    }
}

impl Hasher for FxHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            self.add(u64::from_le_bytes([
                c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7],
            ]));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut buf = [0u8; 8];
            buf[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(buf) ^ (rest.len() as u64) << 59);
        }
    }
    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.add(i as u64);
    }
    #[inline]
    fn write_u32(&mut self, i: u32) {
        self.add(i as u64);
    }
    #[inline]
    fn write_u64(&mut self, i: u64) {
        self.add(i);
    }
    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }
    #[inline]
    fn finish(&self) -> u64 {
        // The product's low bits ignore its inputs' high bits, and hashbrown takes the bucket
        // from the low bits: rotate the well-mixed high bits down (as rustc-hash 2 does), or
        // keys differing only late in a word (`v5.1234`, `v5.1235`) all share a bucket.
        self.hash.rotate_left(26)
    }
}

/// The Fx hash of a byte string: `write` then `finish` (no length prefix, unlike what
/// `Hash for [u8]` feeds a hasher; `write` already tells lengths apart).
#[inline]
pub fn hash_bytes(bytes: &[u8]) -> u64 {
    let mut h = FxHasher::default();
    h.write(bytes);
    h.finish()
}

/// A `HashMap` using [`FxHasher`].
pub type FxHashMap<K, V> = HashMap<K, V, BuildHasherDefault<FxHasher>>;
/// A `HashSet` using [`FxHasher`].
pub type FxHashSet<K> = HashSet<K, BuildHasherDefault<FxHasher>>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distinguishes_lengths_and_contents() {
        let h = hash_bytes;
        assert_ne!(h(b"a"), h(b"a\0"));
        // Keys differing only in a word's last byte must differ in the low bits too.
        let low = |b: &[u8]| h(b) & 0xffff;
        assert_ne!(low(b"v5.1234"), low(b"v5.1235"));
        assert_ne!(h(b"x.0"), h(b"x.1"));
        let mut m: FxHashMap<&[u8], u32> = FxHashMap::default();
        m.insert(b"entry", 1);
        assert_eq!(m.get(&b"entry"[..]), Some(&1));
    }
}
