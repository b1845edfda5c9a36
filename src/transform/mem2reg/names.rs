//! Names of new phis as LLVM gives them: `<slot name>.<version>` (so `%x.0`, or `%.0` for an
//! unnamed slot), made unique in the function's one namespace of values and blocks by
//! appending the function's running counter (`%.0`, `%.01`, `%.02`), as LLVM's
//! `ValueSymbolTable::makeUniqueName` does.
//!
//! Invariant: the table holds the unescaped names of every named value and block of the
//! function as it stands; names of instructions the pass deletes before it makes later phis
//! are removed first, so collisions are decided exactly as in LLVM.

use crate::ir::{Function, Text};
use crate::text::lexer::unescape;
use crate::util::fxhash::FxHashSet;

/// The function's names and uniquing counter.
pub struct NameTable {
    set: FxHashSet<Vec<u8>>,
    last_unique: u32,
}

/// The unescaped bytes of a name as written without its sigil (`x`, `"a b"`).
pub fn plain(written: &[u8]) -> Vec<u8> {
    if written.len() >= 2 && written[0] == b'"' {
        unescape(&written[1..written.len() - 1])
    } else {
        written.to_vec()
    }
}

impl NameTable {
    /// The names of `func`'s values and blocks.
    pub fn build(func: &Function) -> Self {
        let mut set = FxHashSet::default();
        for &p in &func.params {
            if let Some(n) = func.value_name(p) {
                set.insert(plain(n));
            }
        }
        for b in func.layout.blocks() {
            let bn = func.dfg.blocks[b].name;
            if !bn.is_none() {
                set.insert(plain(func.text(bn)));
            }
            for i in func.layout.block_insts(b) {
                let r = func.dfg.insts[i].result;
                if !r.is_none() {
                    if let Some(n) = func.value_name(r) {
                        set.insert(plain(n));
                    }
                }
            }
        }
        Self {
            set,
            last_unique: 0,
        }
    }

    /// Forgets a name (its value was deleted).
    pub fn remove(&mut self, written: &[u8]) {
        self.set.remove(&plain(written));
    }

    /// A fresh unique name from `base` (unescaped), recorded in the table.
    pub fn create(&mut self, base: &[u8]) -> Vec<u8> {
        if self.set.insert(base.to_vec()) {
            return base.to_vec();
        }
        loop {
            self.last_unique += 1;
            let mut cand = base.to_vec();
            cand.extend_from_slice(self.last_unique.to_string().as_bytes());
            if self.set.insert(cand.clone()) {
                return cand;
            }
        }
    }
}

/// Stores `name` (unescaped) in `func`'s arena in printable form (quoted when needed).
pub fn name_text(func: &mut Function, name: &[u8]) -> Text {
    let mut buf = Vec::with_capacity(name.len() + 3);
    crate::text::names::write_name(&mut buf, b'%', name);
    func.dfg.strings.add(&buf[1..])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uniquing_appends_a_running_counter() {
        let mut t = NameTable {
            set: FxHashSet::default(),
            last_unique: 0,
        };
        assert_eq!(t.create(b".0"), b".0");
        assert_eq!(t.create(b".0"), b".01");
        assert_eq!(t.create(b".0"), b".02");
        assert_eq!(t.create(b"x.0"), b"x.0");
        assert_eq!(t.create(b"x.0"), b"x.03");
        assert_eq!(plain(b"\"a\\20b\""), b"a b");
    }
}
