//! Names of new phis as LLVM gives them: `<slot name>.<version>` (so `%x.0`, or `%.0` for an
//! unnamed slot), made unique in the function's one namespace of values and blocks by
//! appending the function's running counter (`%.0`, `%.01`, `%.02`), as LLVM's
//! `ValueSymbolTable::makeUniqueName` does.
//!
//! Invariant: the table holds the unescaped names of every named value and block of the
//! function as it stands; names of instructions the pass deletes before it makes later phis
//! are removed first, so collisions are decided exactly as in LLVM.
//!
//! Deferred naming: mem2reg places candidate phis first and learns only after renaming which
//! of them LLVM would have made (the live ones). While a [`NameTable::defer_phi`] journal is
//! open, removals are recorded in order with the phis' places among them, and
//! [`NameTable::replay`] later performs them, naming the surviving phis at their places — the
//! same sequence of removals and creations LLVM performs, so the same names.
//!
//! Plain names: when none of a replay's names `<slot>.<version>` is in the table, the slots'
//! names are distinct and not empty, and every removal it replays removes a name the table
//! holds, that sequence would take every one of them as it is: no name is made unique, and
//! the removals cannot change that. The replay then takes
//! them without entering them one by one into the table (a table of a million names is
//! looked up at random, past the caches): it remembers, per slot name, how many versions it
//! handed out, and every later lookup and removal consults that record too. Whether any of
//! them is in the table is answered per slot, not per name: the table also keeps, for every
//! name of the form `<base>.<digits>` it has held, the least such version per base (a
//! superset of what it holds, so a "maybe" only sends the replay down the general path).

use llvm_ir::ir::{Function, Text};
use llvm_ir::lexical::unescape;
use llvm_ir::util::fxhash::FxHashMap;

/// The function's names and uniquing counter.
///
/// Names are kept as 64-bit hashes with counts (a multiset), so building the table for a
/// function of a million named values allocates nothing per name. Removing a name lowers only
/// its own hash's count, so a name in use is never thought free; two different names with
/// the same hash (odds about 2⁻⁶⁴ per pair) would only make a new name skip a free spelling.
pub struct NameTable {
    set: FxHashMap<u64, u32>,
    last_unique: u32,
    /// Open journal of deferred events (see the module docs).
    journal: Option<Vec<Deferred>>,
    /// Names taken outside `set` (see the module docs): for each slot name `b` here with
    /// count `n`, the names `b.0` up to `b.(n-1)`, none of them in `set`.
    plain: FxHashMap<Vec<u8>, u32>,
    /// For each base `b` (its hash) of a name `b.v` (`v` as `write_u32` writes it) ever
    /// entered into `set`, the least such `v`. Removals leave it: it only ever says too much.
    dotted: FxHashMap<u64, u32>,
}

/// A kept candidate phi in a replay: its number, slot and version.
struct Kept {
    k: u32,
    slot: u32,
    v: u32,
}

/// A deferred event.
enum Deferred {
    /// A name freed (its hash).
    Free(u64),
    /// The points where candidate phis `first..first + count` would be named, in that order
    /// (one entry per run: a round defers its phis numbered one after another, so a function
    /// of a million phis keeps a few entries, not a million).
    Phis { first: u32, count: u32 },
}

/// The phis of `journal` in order.
fn deferred_phis(journal: &[Deferred]) -> impl Iterator<Item = u32> + '_ {
    journal.iter().flat_map(|e| match *e {
        Deferred::Phis { first, count } => first..first + count,
        Deferred::Free(_) => 0..0,
    })
}

/// The unescaped bytes of a name as written without its sigil (`x`, `"a b"`).
pub fn plain(written: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    plain_into(written, &mut out);
    out
}

/// [`plain`], appended to `out`.
pub fn plain_into(written: &[u8], out: &mut Vec<u8>) {
    if written.len() >= 2 && written[0] == b'"' {
        out.extend_from_slice(&unescape(&written[1..written.len() - 1]));
    } else {
        out.extend_from_slice(written);
    }
}

impl NameTable {
    /// The names of `func`'s values and blocks.
    pub fn build(func: &Function) -> Self {
        let mut set: FxHashMap<u64, u32> = FxHashMap::default();
        let mut dotted: FxHashMap<u64, u32> = FxHashMap::default();
        let mut add = |written: &[u8]| {
            let name = unquoted(written);
            *set.entry(hash(&name)).or_insert(0) += 1;
            note_dotted(&mut dotted, &name);
        };
        for &p in &func.params {
            if let Some(n) = func.value_name(p) {
                add(n);
            }
        }
        for b in func.layout.blocks() {
            let bn = func.dfg.blocks[b].name;
            if !bn.is_none() {
                add(func.text(bn));
            }
            for i in func.layout.block_insts(b) {
                let r = func.dfg.insts[i].result;
                if !r.is_none() {
                    if let Some(n) = func.value_name(r) {
                        add(n);
                    }
                }
            }
        }
        Self {
            set,
            last_unique: 0,
            journal: None,
            plain: FxHashMap::default(),
            dotted,
        }
    }

    /// Forgets a name (its value was deleted); recorded instead while a journal is open.
    pub fn remove(&mut self, written: &[u8]) {
        let h = written_hash(written);
        match &mut self.journal {
            Some(j) => j.push(Deferred::Free(h)),
            None => {
                if !self.plain.is_empty() {
                    let name = plain(written);
                    if let Some((base, _)) = self.in_plain(&name) {
                        self.materialize(base);
                    }
                }
                self.free(h)
            }
        }
    }

    /// The slot name and version of `name` if it is one of the plain names (`b.v`, `v` below
    /// `b`'s count, written as [`write_u32`](llvm_ir::lexical::write_u32) writes it).
    fn in_plain<'n>(&self, name: &'n [u8]) -> Option<(&'n [u8], u32)> {
        if self.plain.is_empty() {
            return None;
        }
        let (base, v) = split_versioned(name)?;
        (v < *self.plain.get(base)?).then_some((base, v))
    }

    /// Enters slot name `base`'s plain names into the table.
    fn materialize(&mut self, base: &[u8]) {
        if let Some(n) = self.plain.remove(base) {
            self.enter_versions(base, n);
        }
    }

    /// Enters every plain name into the table.
    fn materialize_all(&mut self) {
        for (base, n) in std::mem::take(&mut self.plain) {
            self.enter_versions(&base, n);
        }
    }

    /// Enters `base.0` up to `base.(n-1)` into the table.
    fn enter_versions(&mut self, base: &[u8], n: u32) {
        if n > 0 {
            self.dotted.insert(hash(base), 0);
        }
        let mut buf = Vec::new();
        for v in 0..n {
            buf.clear();
            write_versioned(&mut buf, base, v);
            *self.set.entry(hash(&buf)).or_insert(0) += 1;
        }
    }

    fn free(&mut self, h: u64) {
        if let Some(c) = self.set.get_mut(&h) {
            *c -= 1;
            if *c == 0 {
                self.set.remove(&h);
            }
        }
    }

    /// Records `name` (unescaped) if free.
    fn take(&mut self, name: &[u8]) -> bool {
        let h = hash(name);
        if self.set.contains_key(&h) || self.in_plain(name).is_some() {
            return false;
        }
        self.set.insert(h, 1);
        note_dotted(&mut self.dotted, name);
        true
    }

    /// Records the place where candidate phi `k` is made, opening the journal if needed.
    pub fn defer_phi(&mut self, k: u32) {
        let journal = self.journal.get_or_insert_with(Vec::new);
        match journal.last_mut() {
            Some(Deferred::Phis { first, count }) if *first + *count == k => *count += 1,
            _ => journal.push(Deferred::Phis { first: k, count: 1 }),
        }
    }

    /// Closes the journal: performs its removals in order and, at each candidate phi's place,
    /// asks `kept(k)` for the phi's slot (its number, below `slots`, and name) and version
    /// (`None`: the phi is not kept), makes `<slot name>.<version>` unique and hands it to
    /// `named(k, name)`.
    pub fn replay(
        &mut self,
        bases: &[&[u8]],
        mut kept: impl FnMut(u32) -> Option<(u32, u32)>,
        mut named: impl FnMut(u32, &[u8]),
    ) {
        let journal = self.journal.take().unwrap_or_default();
        let mut phis: Vec<Kept> = Vec::with_capacity(deferred_phis(&journal).count());
        phis.extend(
            deferred_phis(&journal).filter_map(|k| kept(k).map(|(slot, v)| Kept { k, slot, v })),
        );
        let mut buf = Vec::new();
        let plain = match self.frees_present(&journal) {
            true => self.all_plain(bases, &phis),
            false => None,
        };
        if let Some(counts) = plain {
            for e in &journal {
                if let Deferred::Free(h) = *e {
                    self.free(h);
                }
            }
            for p in &phis {
                buf.clear();
                write_versioned(&mut buf, bases[p.slot as usize], p.v);
                named(p.k, &buf);
            }
            self.plain.extend(counts);
            return;
        }
        self.materialize_all();
        // Room for every candidate (most are kept), not one regrowth after another.
        self.set.reserve(phis.len());
        let mut next = phis.iter();
        for ev in journal {
            let (first, count) = match ev {
                Deferred::Free(h) => {
                    self.free(h);
                    continue;
                }
                Deferred::Phis { first, count } => (first, count),
            };
            for k in first..first + count {
                let Some(p) = next.as_slice().first().filter(|p| p.k == k) else {
                    continue;
                };
                next.next();
                buf.clear();
                write_versioned(&mut buf, bases[p.slot as usize], p.v);
                self.make_unique(&mut buf);
                named(k, &buf);
            }
        }
    }

    /// Whether every removal in `journal` removes a name the table holds now (so none can
    /// remove a name the replay makes).
    fn frees_present(&self, journal: &[Deferred]) -> bool {
        let mut freed: FxHashMap<u64, u32> = FxHashMap::default();
        journal.iter().all(|e| match *e {
            Deferred::Free(h) => {
                let n = freed.entry(h).or_insert(0);
                *n += 1;
                self.set.get(&h).is_some_and(|&c| c >= *n)
            }
            Deferred::Phis { .. } => true,
        })
    }

    /// Whether replaying `phis` (of the slots named in `bases`) would take every name as it
    /// is (see the module docs): no plain names yet, slot names distinct and not empty, each
    /// slot's versions counting up from 0, and none of the names in the table. If so, the
    /// count of versions per slot name.
    fn all_plain(&self, bases: &[&[u8]], phis: &[Kept]) -> Option<Vec<(Vec<u8>, u32)>> {
        if !self.plain.is_empty() || phis.is_empty() {
            return None;
        }
        let mut next = vec![0u32; bases.len()];
        for p in phis {
            let n = next.get_mut(p.slot as usize)?;
            if *n != p.v {
                return None;
            }
            *n += 1;
        }
        // Per slot: its name not empty, and none of its versions (below its count) possibly
        // in the table.
        let mut counts: Vec<(Vec<u8>, u32)> = Vec::new();
        for (&base, &n) in bases.iter().zip(&next).filter(|(_, &n)| n != 0) {
            let taken = self.dotted.get(&hash(base)).is_some_and(|&least| least < n);
            if base.is_empty() || taken {
                return None;
            }
            counts.push((base.to_vec(), n));
        }
        // The slots' names: distinct?
        let mut names: Vec<&[u8]> = counts.iter().map(|c| &c.0[..]).collect();
        names.sort_unstable();
        names.windows(2).all(|w| w[0] != w[1]).then_some(counts)
    }

    /// A fresh unique name from `base` (unescaped), recorded in the table.
    pub fn create(&mut self, base: &[u8]) -> Vec<u8> {
        let mut name = base.to_vec();
        self.make_unique(&mut name);
        name
    }

    /// Turns the base name in `name` into a fresh unique name, recorded in the table.
    pub fn make_unique(&mut self, name: &mut Vec<u8>) {
        if self.take(name) {
            return;
        }
        let len = name.len();
        loop {
            self.last_unique += 1;
            name.truncate(len);
            llvm_ir::lexical::write_u32(name, self.last_unique);
            if self.take(name) {
                return;
            }
        }
    }
}

/// If `name` (unescaped) is `<base>.<v>` (`v` as `write_u32` writes it: no leading zero),
/// lowers `dotted[hash(base)]` to `v`.
fn note_dotted(dotted: &mut FxHashMap<u64, u32>, name: &[u8]) {
    if let Some((base, v)) = split_versioned(name) {
        let least = dotted.entry(hash(base)).or_insert(v);
        *least = (*least).min(v);
    }
}

/// `name` as `<base>.<v>`, if it is one with `v` written as `write_u32` writes it (no
/// leading zero).
fn split_versioned(name: &[u8]) -> Option<(&[u8], u32)> {
    let dot = name.iter().rposition(|&c| c == b'.')?;
    let (base, digits) = (&name[..dot], &name[dot + 1..]);
    let v = llvm_ir::lexical::parse_u32(digits)?;
    (digits[0] != b'0' || digits.len() == 1).then_some((base, v))
}

/// `<base>.<v>`.
pub fn write_versioned(out: &mut Vec<u8>, base: &[u8], v: u32) {
    out.extend_from_slice(base);
    out.push(b'.');
    llvm_ir::lexical::write_u32(out, v);
}

/// A 64-bit hash of an unescaped name (FNV-1a, then a SplitMix64 finaliser to spread it).
fn hash(name: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in name {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h ^= h >> 30;
    h = h.wrapping_mul(0xbf58_476d_1ce4_e5b9);
    h ^= h >> 27;
    h = h.wrapping_mul(0x94d0_49bb_1331_11eb);
    h ^ (h >> 31)
}

/// [`hash`] of a name as written (quoted names are unescaped first).
fn written_hash(written: &[u8]) -> u64 {
    hash(&unquoted(written))
}

/// A name as written, unescaped if it is quoted (borrowed otherwise).
fn unquoted(written: &[u8]) -> std::borrow::Cow<'_, [u8]> {
    if written.first() == Some(&b'"') {
        std::borrow::Cow::Owned(plain(written))
    } else {
        std::borrow::Cow::Borrowed(written)
    }
}

/// Stores `name` (unescaped) in `func`'s arena in printable form (quoted when needed).
pub fn name_text(func: &mut Function, name: &[u8]) -> Text {
    func.dfg
        .strings
        .add_with(|b| llvm_ir::print::names::write_name_body(b, name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uniquing_appends_a_running_counter() {
        let mut t = NameTable {
            set: FxHashMap::default(),
            last_unique: 0,
            journal: None,
            plain: FxHashMap::default(),
            dotted: FxHashMap::default(),
        };
        assert_eq!(t.create(b".0"), b".0");
        assert_eq!(t.create(b".0"), b".01");
        assert_eq!(t.create(b".0"), b".02");
        assert_eq!(t.create(b"x.0"), b"x.0");
        assert_eq!(t.create(b"x.0"), b"x.03");
        assert_eq!(plain(b"\"a\\20b\""), b"a b");
    }

    #[test]
    fn replay_names_kept_phis_where_they_were_placed() {
        let mut t = NameTable {
            set: [(hash(b"x.0"), 1), (hash(b"y"), 1)].into_iter().collect(),
            last_unique: 0,
            journal: None,
            plain: FxHashMap::default(),
            dotted: [(hash(b"x"), 0)].into_iter().collect(),
        };
        t.defer_phi(0);
        t.remove(b"x.0");
        t.defer_phi(1);
        t.defer_phi(2);
        // Phi 0 was placed while `x.0` still existed; phi 1 is dropped, so phi 2 is next.
        let mut got = Vec::new();
        t.replay(
            &[b"x"],
            |k| (k != 1).then_some((0, 0)),
            |k, name| got.push((k, name.to_vec())),
        );
        assert_eq!(got, vec![(0, b"x.01".to_vec()), (2, b"x.0".to_vec())]);
        t.remove(b"y");
        assert_eq!(t.create(b"y"), b"y");
    }

    /// The sequential algorithm over real strings: the oracle for plain names.
    struct Oracle {
        names: Vec<Vec<u8>>,
        last_unique: u32,
    }

    impl Oracle {
        fn create(&mut self, base: &[u8]) -> Vec<u8> {
            let mut name = base.to_vec();
            while self.names.contains(&name) {
                self.last_unique += 1;
                name = base.to_vec();
                llvm_ir::lexical::write_u32(&mut name, self.last_unique);
            }
            self.names.push(name.clone());
            name
        }
        fn remove(&mut self, name: &[u8]) {
            if let Some(i) = self.names.iter().position(|n| n == name) {
                self.names.swap_remove(i);
            }
        }
    }

    #[test]
    fn plain_names_agree_with_the_sequential_algorithm() {
        let pool: [&[u8]; 8] = [b"x", b"y", b"x.1", b"", b"x.0", b"y.1", b"x.10", b"z"];
        let slots: [&[u8]; 4] = [b"x", b"y", b"x.1", b""];
        let mut fast = 0;
        for seed in 0..1000 {
            let mut rng = ssa::testing::Rng::new(seed);
            let initial: Vec<&[u8]> = (0..rng.below(4))
                .map(|_| pool[rng.below(8) as usize])
                .collect();
            let mut oracle = Oracle {
                names: initial.iter().map(|n| n.to_vec()).collect(),
                last_unique: 0,
            };
            let mut t = NameTable {
                set: FxHashMap::default(),
                last_unique: 0,
                journal: None,
                plain: FxHashMap::default(),
                dotted: FxHashMap::default(),
            };
            for n in &initial {
                *t.set.entry(hash(n)).or_insert(0) += 1;
                note_dotted(&mut t.dotted, n);
            }
            // A round: removals of initial names among candidate phis of some slots.
            let nslots = 1 + rng.below(if seed % 2 == 0 { 2 } else { 4 }) as usize;
            let mut events = Vec::new();
            for k in 0..rng.below(12) as u32 {
                if rng.below(4) == 0 && !initial.is_empty() {
                    let n = initial[rng.below(initial.len() as u64) as usize];
                    t.remove(n);
                    events.push(Err(n));
                }
                t.defer_phi(k);
                events.push(Ok((k, rng.below(nslots as u64) as u32, rng.below(3) != 0)));
            }
            let mut want = Vec::new();
            let mut version = [0u32; 4];
            for e in &events {
                match *e {
                    Err(n) => oracle.remove(n),
                    Ok((k, s, true)) => {
                        let mut base = Vec::new();
                        write_versioned(&mut base, slots[s as usize], version[s as usize]);
                        version[s as usize] += 1;
                        want.push((k, oracle.create(&base)));
                    }
                    Ok(_) => {}
                }
            }
            let mut got = Vec::new();
            let mut version = [0u32; 4];
            let live: Vec<(u32, bool)> = events
                .iter()
                .filter_map(|e| e.ok())
                .map(|(_, s, l)| (s, l))
                .collect();
            t.replay(
                &slots,
                |k| {
                    let (s, l) = live[k as usize];
                    l.then(|| {
                        version[s as usize] += 1;
                        (s, version[s as usize] - 1)
                    })
                },
                |k, name| got.push((k, name.to_vec())),
            );
            assert_eq!(got, want, "seed {seed}");
            fast += usize::from(!t.plain.is_empty());
            // Later lookups and removals see the names the replay took.
            for _ in 0..6 {
                let n = pool[rng.below(8) as usize];
                let mut probe = Vec::new();
                match rng.below(2) {
                    0 => write_versioned(&mut probe, n, rng.below(3) as u32),
                    _ => probe.extend_from_slice(n),
                }
                if rng.below(2) == 0 {
                    assert_eq!(t.create(&probe), oracle.create(&probe), "seed {seed}");
                } else {
                    t.remove(&probe);
                    oracle.remove(&probe);
                }
            }
        }
        // Both ways were taken: the plain path and the table.
        assert!((100..900).contains(&fast), "{fast}");
    }
}
