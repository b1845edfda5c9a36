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

use crate::ir::{Function, Text};
use crate::text::lexer::unescape;
use crate::util::fxhash::FxHashMap;

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
}

/// A deferred event.
enum Deferred {
    /// A name freed (its hash).
    Free(u64),
    /// The point where candidate phi number `k` would be named.
    Phi(u32),
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
        let mut add = |written: &[u8]| *set.entry(written_hash(written)).or_insert(0) += 1;
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
        }
    }

    /// Forgets a name (its value was deleted); recorded instead while a journal is open.
    pub fn remove(&mut self, written: &[u8]) {
        let h = written_hash(written);
        match &mut self.journal {
            Some(j) => j.push(Deferred::Free(h)),
            None => self.free(h),
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
        if self.set.contains_key(&h) {
            return false;
        }
        self.set.insert(h, 1);
        true
    }

    /// Records the place where candidate phi `k` is made, opening the journal if needed.
    pub fn defer_phi(&mut self, k: u32) {
        self.journal
            .get_or_insert_with(Vec::new)
            .push(Deferred::Phi(k));
    }

    /// Closes the journal: performs its removals in order and, at each candidate phi's place,
    /// asks `base(k, buf)` to write the phi's base name into `buf` (false: the phi is not
    /// kept), makes it unique and hands it to `named(k, name)`.
    pub fn replay(
        &mut self,
        mut base: impl FnMut(u32, &mut Vec<u8>) -> bool,
        mut named: impl FnMut(u32, &[u8]),
    ) {
        let mut buf = Vec::new();
        let journal = self.journal.take().unwrap_or_default();
        // Room for every candidate (most are kept), not one regrowth after another.
        let phis = journal
            .iter()
            .filter(|e| matches!(e, Deferred::Phi(_)))
            .count();
        self.set.reserve(phis);
        for ev in journal {
            match ev {
                Deferred::Free(h) => self.free(h),
                Deferred::Phi(k) => {
                    buf.clear();
                    if base(k, &mut buf) {
                        self.make_unique(&mut buf);
                        named(k, &buf);
                    }
                }
            }
        }
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
            crate::text::printer::write_u32(name, self.last_unique);
            if self.take(name) {
                return;
            }
        }
    }
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
    if written.first() == Some(&b'"') {
        hash(&plain(written))
    } else {
        hash(written)
    }
}

/// Stores `name` (unescaped) in `func`'s arena in printable form (quoted when needed).
pub fn name_text(func: &mut Function, name: &[u8]) -> Text {
    func.dfg
        .strings
        .add_with(|b| crate::text::names::write_name_body(b, name))
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
        };
        t.defer_phi(0);
        t.remove(b"x.0");
        t.defer_phi(1);
        t.defer_phi(2);
        // Phi 0 was placed while `x.0` still existed; phi 1 is dropped, so phi 2 is next.
        let mut got = Vec::new();
        t.replay(
            |k, buf| {
                buf.extend_from_slice(b"x.0");
                k != 1
            },
            |k, name| got.push((k, name.to_vec())),
        );
        assert_eq!(got, vec![(0, b"x.01".to_vec()), (2, b"x.0".to_vec())]);
        t.remove(b"y");
        assert_eq!(t.create(b"y"), b"y");
    }
}
