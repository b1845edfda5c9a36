//! The map from a function body's local names (`%x`, `%"a b"`, labels) to what they name,
//! built for bodies of millions of names.
//!
//! A general hash map keeps key and value in its buckets: at a few million names its table
//! is over a hundred megabytes touched at random, and a name costs a cache miss on the
//! control bytes and another on the bucket. Here the table holds one 8-byte word per slot (a
//! hash tag and an entry number), about a quarter of the room, and the keys and values sit
//! in a separate list in binding order. Code refers mostly to names bound shortly before, so
//! the entry a lookup lands on is usually still in cache. A definition's new name still lands
//! on a slot at random: the reader announces it ([`NameMap::prefetch`]) before reading the
//! instruction, so the miss overlaps that work; and a large slot table asks for huge pages
//! (`util::huge_pages`), so that the prefetch does not wait for a page walk either.
//!
//! Invariants: `slots.len()` is zero or a power of two, and more than a quarter of the slots
//! are empty (so every probe ends); a slot is 0 (empty) or `tag << 32 | (index + 1)` for the
//! entry `index`, where `tag` is the high half of the entry's key hash and the low bits of
//! that hash pick the probe's first slot; entries are never removed, each key is in at most
//! one entry, and iteration is in first-insertion order (so it never depends on hashing).
//! Entry numbers fit the word's low half: a body has fewer names than bytes, and the reader's
//! offsets are `u32`.

use std::borrow::Cow;

/// Names to values of type `V`; see the module documentation.
pub(super) struct NameMap<'a, V> {
    slots: Vec<u64>,
    entries: Vec<(Cow<'a, [u8]>, V)>,
}

impl<V> Default for NameMap<'_, V> {
    fn default() -> Self {
        NameMap {
            slots: Vec::new(),
            entries: Vec::new(),
        }
    }
}

/// The hash of a name, as the table uses it (a caller that looks up and then binds the same
/// name computes it once: see [`NameMap::get_hashed`], [`NameMap::insert_hashed`]).
pub(super) fn hash(key: &[u8]) -> u64 {
    llvm_ir::util::fxhash::hash_bytes(key)
}

/// The slot word of entry number `entry`, whose key hashes to `h`.
fn slot_word(h: u64, entry: usize) -> u64 {
    (h >> 32) << 32 | (entry as u64 + 1)
}

impl<'a, V> NameMap<'a, V> {
    /// Makes room for `n` names in all without growing the table.
    pub fn reserve(&mut self, n: usize) {
        self.entries.reserve(n.saturating_sub(self.entries.len()));
        let want = (n + n / 3 + 1).next_power_of_two();
        if want > self.slots.len() {
            self.rebuild(want);
        }
    }

    /// What `key` names.
    pub fn get(&self, key: &[u8]) -> Option<&V> {
        self.get_hashed(key, hash(key))
    }

    /// What `key`, whose [`hash`] is `h`, names.
    #[inline]
    pub fn get_hashed(&self, key: &[u8], h: u64) -> Option<&V> {
        if self.slots.is_empty() {
            return None;
        }
        let i = self.probe(key, h).ok()?;
        Some(&self.entries[i].1)
    }

    /// Starts loading the slot where a probe for the key of [`hash`] `h` begins, so that a
    /// lookup or binding of that key made a few hundred instructions later finds it in cache.
    /// A definition's name is new, so its probe lands on a slot at random in a table that may
    /// be tens of megabytes: the reader calls this when it meets `%name =` and binds the name
    /// after reading the instruction (with the same hash), which hides the cache miss.
    #[inline]
    pub fn prefetch(&self, h: u64) {
        if self.slots.is_empty() {
            return;
        }
        let slot = self.slots[h as usize & (self.slots.len() - 1)..].as_ptr();
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `_mm_prefetch` only hints the cache: it reads nothing the program can
        // observe, writes nothing and never faults, whatever the address (this one is inside
        // `slots` anyway). Its one requirement, the `sse` target feature, is part of every
        // x86_64 target. It pays: gen_scale.py chain N = 4000 / 16000 read their bodies in
        // 0.47 / 2.05 s with it, 0.54 / 2.44 s without (`--time-passes --threads 1`, `read
        // bodies`, median of 5 alternating runs).
        unsafe {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            _mm_prefetch::<_MM_HINT_T0>(slot.cast());
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = slot;
    }

    /// Binds `key` to `value`; returns what it named before.
    pub fn insert(&mut self, key: Cow<'a, [u8]>, value: V) -> Option<V> {
        let h = hash(&key);
        self.insert_hashed(key, h, value)
    }

    /// Binds `key`, whose [`hash`] is `h`, to `value`; returns what it named before.
    pub fn insert_hashed(&mut self, key: Cow<'a, [u8]>, h: u64, value: V) -> Option<V> {
        match self.find(&key, h) {
            Ok(i) => Some(std::mem::replace(&mut self.entries[i].1, value)),
            Err(slot) => {
                self.slots[slot] = slot_word(h, self.entries.len());
                self.entries.push((key, value));
                if (self.entries.len() + 1) * 4 > self.slots.len() * 3 {
                    self.rebuild(self.slots.len() * 2);
                }
                None
            }
        }
    }

    /// Every name and its value, in the order the names were first bound.
    pub fn iter(&self) -> impl Iterator<Item = (&Cow<'a, [u8]>, &V)> {
        self.entries.iter().map(|(k, v)| (k, v))
    }

    /// `Ok(entry)` holding `key` (of hash `h`), or `Err(slot)`: the empty slot where it goes.
    fn find(&mut self, key: &[u8], h: u64) -> Result<usize, usize> {
        if self.slots.is_empty() {
            self.rebuild(16);
        }
        self.probe(key, h)
    }

    fn probe(&self, key: &[u8], h: u64) -> Result<usize, usize> {
        let mask = self.slots.len() - 1;
        let tag = h >> 32;
        let mut s = h as usize & mask;
        loop {
            let w = self.slots[s];
            if w == 0 {
                return Err(s);
            }
            if w >> 32 == tag {
                let i = (w as u32 - 1) as usize;
                if *self.entries[i].0 == *key {
                    return Ok(i);
                }
            }
            s = (s + 1) & mask;
        }
    }

    /// Re-files every entry in a table of `size` slots (a power of two).
    fn rebuild(&mut self, size: usize) {
        self.slots = vec![0; size];
        // Fresh zeroed pages, not yet touched: ask for huge ones (see `util::huge_pages`).
        llvm_ir::util::huge_pages::advise(&mut self.slots);
        let mask = size - 1;
        for (i, (k, _)) in self.entries.iter().enumerate() {
            let h = hash(k);
            let mut s = h as usize & mask;
            while self.slots[s] != 0 {
                s = (s + 1) & mask;
            }
            self.slots[s] = slot_word(h, i);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binds_rebinds_and_finds_across_growth() {
        let keys: Vec<Vec<u8>> = (0..5000)
            .map(|i| format!("v{}.{}", i % 97, i).into_bytes())
            .collect();
        let mut m: NameMap<'_, usize> = NameMap::default();
        for (i, k) in keys.iter().enumerate() {
            assert_eq!(m.insert(Cow::Borrowed(k), i), None);
        }
        assert_eq!(m.insert(Cow::Owned(b"v3.3".to_vec()), 7), Some(3));
        assert_eq!(m.get(b"v3.3"), Some(&7));
        assert_eq!(m.get(b"v4.4"), Some(&4));
        assert_eq!(m.get(b"v4.5"), None);
        assert_eq!(m.get(b""), None);
        let order: Vec<usize> = m.iter().map(|(_, &v)| v).take(5).collect();
        assert_eq!(order, [0, 1, 2, 7, 4]);
        assert_eq!(m.iter().count(), keys.len());
    }

    #[test]
    fn reserve_keeps_what_is_there() {
        let mut m: NameMap<'_, u32> = NameMap::default();
        m.insert(Cow::Borrowed(b"a"), 1);
        m.insert(Cow::Borrowed(b"b"), 2);
        m.reserve(100_000);
        assert_eq!(
            (m.get(b"a"), m.get(b"b"), m.get(b"c")),
            (Some(&1), Some(&2), None)
        );
        m.insert(Cow::Borrowed(b""), 3);
        assert_eq!(m.get(b""), Some(&3));
    }
}
