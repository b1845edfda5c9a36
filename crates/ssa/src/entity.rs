//! Entity references and the maps that hold their data, after Cranelift's `cranelift-entity`.
//!
//! An entity (a value, an instruction, a block, a type, ...) is a `u32` newtype. Invariants:
//! - only a [`PrimaryMap`] hands out ids: `push` returns the next dense index, so every id of a
//!   kind that exists is `< map.len()`;
//! - side data lives in a [`SecondaryMap`], keyed by id, which grows on demand and answers a
//!   default for ids it has never seen, so analyses never need to pre-size it exactly;
//! - [`EntitySet`] is a dense bitset over ids.
//!
//! Nothing here hashes, so iteration order is always id order and output is deterministic.

use std::marker::PhantomData;
use std::ops::{Index, IndexMut};

/// A dense `u32` index usable as a map key.
pub trait EntityRef: Copy + Eq + Ord + std::fmt::Debug {
    /// The entity with index `i`.
    fn new(i: usize) -> Self;
    /// This entity's index.
    fn index(self) -> usize;
}

/// Declares `$name` as an entity: a `u32` newtype with a `$prefix`-led `Display`.
#[macro_export]
macro_rules! entity_impl {
    ($name:ident, $prefix:expr) => {
        impl $crate::entity::EntityRef for $name {
            #[inline]
            fn new(i: usize) -> Self {
                debug_assert!(i < u32::MAX as usize);
                $name(i as u32)
            }
            #[inline]
            fn index(self) -> usize {
                self.0 as usize
            }
        }
        #[allow(dead_code)]
        impl $name {
            /// The entity with index `i` (as `EntityRef::new`, without importing the trait).
            #[inline]
            pub fn new(i: usize) -> Self {
                <Self as $crate::entity::EntityRef>::new(i)
            }
            /// This entity's index (as `EntityRef::index`).
            #[inline]
            pub fn index(self) -> usize {
                self.0 as usize
            }
            /// A placeholder that is never a valid entity (`u32::MAX`).
            pub const NONE: $name = $name(u32::MAX);
            /// Whether this is [`Self::NONE`].
            #[inline]
            pub fn is_none(self) -> bool {
                self.0 == u32::MAX
            }
            /// The entity as `Option`, `None` for [`Self::NONE`].
            #[inline]
            pub fn expand(self) -> Option<$name> {
                if self.is_none() {
                    None
                } else {
                    Some(self)
                }
            }
            /// The raw index.
            #[inline]
            pub fn as_u32(self) -> u32 {
                self.0
            }
        }
        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                write!(f, concat!($prefix, "{}"), self.0)
            }
        }
    };
}

/// The map that owns entities of kind `K`: ids are handed out densely by [`PrimaryMap::push`].
#[derive(Clone, Debug)]
pub struct PrimaryMap<K: EntityRef, V> {
    elems: Vec<V>,
    _k: PhantomData<K>,
}

impl<K: EntityRef, V> Default for PrimaryMap<K, V> {
    fn default() -> Self {
        Self::new()
    }
}

impl<K: EntityRef, V> PrimaryMap<K, V> {
    /// An empty map.
    pub fn new() -> Self {
        Self {
            elems: Vec::new(),
            _k: PhantomData,
        }
    }
    /// An empty map with room for `n` entities.
    pub fn with_capacity(n: usize) -> Self {
        Self {
            elems: Vec::with_capacity(n),
            _k: PhantomData,
        }
    }
    /// Makes room for `n` more entities.
    pub fn reserve(&mut self, n: usize) {
        self.elems.reserve(n);
    }
    /// Adds `v` and returns its new id.
    #[inline]
    pub fn push(&mut self, v: V) -> K {
        let k = K::new(self.elems.len());
        self.elems.push(v);
        k
    }
    /// The id the next `push` will return.
    pub fn next_key(&self) -> K {
        K::new(self.elems.len())
    }
    /// Number of entities.
    #[inline]
    pub fn len(&self) -> usize {
        self.elems.len()
    }
    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.elems.is_empty()
    }
    /// Whether `k` names an entity of this map.
    #[inline]
    pub fn is_valid(&self, k: K) -> bool {
        k.index() < self.elems.len()
    }
    /// The data of `k`, if it exists.
    pub fn get(&self, k: K) -> Option<&V> {
        self.elems.get(k.index())
    }
    /// All ids, in order.
    pub fn keys(&self) -> impl DoubleEndedIterator<Item = K> + ExactSizeIterator {
        (0..self.elems.len()).map(K::new)
    }
    /// All data, in id order.
    pub fn values(&self) -> std::slice::Iter<'_, V> {
        self.elems.iter()
    }
    /// `(id, data)` pairs, in id order.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = (K, &V)> + ExactSizeIterator {
        self.elems.iter().enumerate().map(|(i, v)| (K::new(i), v))
    }
    /// Mutable `(id, data)` pairs, in id order.
    pub fn iter_mut(&mut self) -> impl Iterator<Item = (K, &mut V)> {
        self.elems
            .iter_mut()
            .enumerate()
            .map(|(i, v)| (K::new(i), v))
    }
}

impl<K: EntityRef, V> Index<K> for PrimaryMap<K, V> {
    type Output = V;
    #[inline]
    fn index(&self, k: K) -> &V {
        &self.elems[k.index()]
    }
}

impl<K: EntityRef, V> IndexMut<K> for PrimaryMap<K, V> {
    #[inline]
    fn index_mut(&mut self, k: K) -> &mut V {
        &mut self.elems[k.index()]
    }
}

/// Side data keyed by entity, with a default for ids never written.
#[derive(Clone, Debug)]
pub struct SecondaryMap<K: EntityRef, V: Clone> {
    elems: Vec<V>,
    default: V,
    _k: PhantomData<K>,
}

impl<K: EntityRef, V: Clone + Default> Default for SecondaryMap<K, V> {
    fn default() -> Self {
        Self::new()
    }
}

impl<K: EntityRef, V: Clone + Default> SecondaryMap<K, V> {
    /// An empty map whose default is `V::default()`.
    pub fn new() -> Self {
        Self::with_default(V::default())
    }
    /// A map pre-sized for `n` entities, all default.
    pub fn with_capacity(n: usize) -> Self {
        let mut m = Self::new();
        m.elems.resize(n, V::default());
        m
    }
}

impl<K: EntityRef, V: Clone> SecondaryMap<K, V> {
    /// An empty map answering `default` for unwritten ids.
    pub fn with_default(default: V) -> Self {
        Self {
            elems: Vec::new(),
            default,
            _k: PhantomData,
        }
    }
    /// A map sized for `n` entities, all `default`.
    pub fn filled(n: usize, default: V) -> Self {
        Self {
            elems: vec![default.clone(); n],
            default,
            _k: PhantomData,
        }
    }
    /// Number of slots materialised (not the number of entities).
    pub fn len(&self) -> usize {
        self.elems.len()
    }
    /// The materialised slots, indexed by id (ids beyond hold the default).
    pub fn as_mut_slice(&mut self) -> &mut [V] {
        &mut self.elems
    }
    /// Whether no slot is materialised.
    pub fn is_empty(&self) -> bool {
        self.elems.is_empty()
    }
    /// Resets every slot to the default.
    pub fn clear(&mut self) {
        self.elems.clear();
    }
    /// Materialises slots up to id `n - 1` at once (so writes below `n` never grow the map).
    pub fn materialize(&mut self, n: usize) {
        if self.elems.len() < n {
            self.elems.resize(n, self.default.clone());
        }
    }
    /// The value of `k` (the default if never written).
    #[inline]
    pub fn get(&self, k: K) -> &V {
        self.elems.get(k.index()).unwrap_or(&self.default)
    }
    /// Materialised `(id, data)` pairs, in id order.
    pub fn iter(&self) -> impl Iterator<Item = (K, &V)> {
        self.elems.iter().enumerate().map(|(i, v)| (K::new(i), v))
    }

    /// Materialised `(id, data)` pairs for editing, in id order.
    pub fn iter_mut(&mut self) -> impl Iterator<Item = (K, &mut V)> {
        self.elems
            .iter_mut()
            .enumerate()
            .map(|(i, v)| (K::new(i), v))
    }
}

impl<K: EntityRef, V: Clone> Index<K> for SecondaryMap<K, V> {
    type Output = V;
    #[inline]
    fn index(&self, k: K) -> &V {
        self.get(k)
    }
}

impl<K: EntityRef, V: Clone> IndexMut<K> for SecondaryMap<K, V> {
    #[inline]
    fn index_mut(&mut self, k: K) -> &mut V {
        let i = k.index();
        if i >= self.elems.len() {
            self.elems.resize(i + 1, self.default.clone());
        }
        &mut self.elems[i]
    }
}

/// A dense set of entities (a bitset over ids).
#[derive(Clone, Debug, Default)]
pub struct EntitySet<K: EntityRef> {
    words: Vec<u64>,
    _k: PhantomData<K>,
}

impl<K: EntityRef> EntitySet<K> {
    /// An empty set.
    pub fn new() -> Self {
        Self {
            words: Vec::new(),
            _k: PhantomData,
        }
    }
    /// An empty set with room for ids below `n`.
    pub fn with_capacity(n: usize) -> Self {
        Self {
            words: vec![0; n.div_ceil(64)],
            _k: PhantomData,
        }
    }
    /// Whether `k` is in the set.
    #[inline]
    pub fn contains(&self, k: K) -> bool {
        let i = k.index();
        self.words
            .get(i / 64)
            .is_some_and(|w| w & (1 << (i % 64)) != 0)
    }
    /// Adds `k`; returns whether it was new.
    #[inline]
    pub fn insert(&mut self, k: K) -> bool {
        let i = k.index();
        if i / 64 >= self.words.len() {
            self.words.resize(i / 64 + 1, 0);
        }
        let w = &mut self.words[i / 64];
        let bit = 1u64 << (i % 64);
        let new = *w & bit == 0;
        *w |= bit;
        new
    }
    /// Removes `k`; returns whether it was present.
    #[inline]
    pub fn remove(&mut self, k: K) -> bool {
        let i = k.index();
        match self.words.get_mut(i / 64) {
            Some(w) => {
                let bit = 1u64 << (i % 64);
                let had = *w & bit != 0;
                *w &= !bit;
                had
            }
            None => false,
        }
    }
    /// Empties the set, keeping its memory.
    pub fn clear(&mut self) {
        self.words.iter_mut().for_each(|w| *w = 0);
    }
    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.words.iter().all(|&w| w == 0)
    }
    /// Members in increasing id order.
    pub fn iter(&self) -> impl Iterator<Item = K> + '_ {
        self.words.iter().enumerate().flat_map(|(wi, &w)| {
            let mut w = w;
            std::iter::from_fn(move || {
                if w == 0 {
                    return None;
                }
                let b = w.trailing_zeros() as usize;
                w &= w - 1;
                Some(K::new(wi * 64 + b))
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
    struct E(u32);
    entity_impl!(E, "e");

    #[test]
    fn primary_hands_out_dense_ids() {
        let mut m: PrimaryMap<E, &str> = PrimaryMap::new();
        assert_eq!(m.push("a"), E(0));
        assert_eq!(m.push("b"), E(1));
        assert_eq!(m[E(1)], "b");
        assert_eq!(m.keys().collect::<Vec<_>>(), vec![E(0), E(1)]);
        assert!(E::NONE.is_none() && E::NONE.expand().is_none());
        assert_eq!(E(3).to_string(), "e3");
    }

    #[test]
    fn secondary_defaults_and_grows() {
        let mut s: SecondaryMap<E, u8> = SecondaryMap::with_default(7);
        assert_eq!(s[E(10)], 7);
        s[E(2)] = 1;
        assert_eq!((s[E(0)], s[E(2)], s.len()), (7, 1, 3));
    }

    #[test]
    fn set_iterates_in_order() {
        let mut s: EntitySet<E> = EntitySet::new();
        for i in [130, 3, 64, 3] {
            s.insert(E(i));
        }
        assert_eq!(s.iter().collect::<Vec<_>>(), vec![E(3), E(64), E(130)]);
        assert!(s.remove(E(64)) && !s.remove(E(64)) && !s.contains(E(64)));
    }
}
