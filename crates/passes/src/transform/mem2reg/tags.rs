//! [`ValueTags`]: a value-indexed table of `u32` tags that a thread keeps from function to
//! function, so that tagging a few values (a round's new phis) costs what is tagged
//! and not the size of the function.
//!
//! Invariant: between uses every entry is untagged. A user tags values with
//! [`ValueTags::set`] and untags exactly those with [`ValueTags::unset`] before it returns;
//! the table then only grows, to the largest value id seen.

use llvm_ir::ir::Value;

const NONE: u32 = u32::MAX;

/// Tags per value id (see the module docs).
#[derive(Default)]
pub struct ValueTags {
    tags: Vec<u32>,
}

impl ValueTags {
    /// Tags `v` with `t` (which must not be `u32::MAX`).
    pub fn set(&mut self, v: Value, t: u32) {
        debug_assert_ne!(t, NONE);
        let i = v.index();
        if i >= self.tags.len() {
            self.tags.resize(i + 1 + i / 4, NONE);
        }
        self.tags[i] = t;
    }

    /// The tag of `v`, if it has one.
    #[inline]
    pub fn get(&self, v: Value) -> Option<u32> {
        self.tags.get(v.index()).copied().filter(|&t| t != NONE)
    }

    /// Removes `v`'s tag.
    pub fn unset(&mut self, v: Value) {
        if let Some(t) = self.tags.get_mut(v.index()) {
            *t = NONE;
        }
    }

    /// Whether no value is tagged (the invariant between uses; checked in debug builds).
    pub fn is_clear(&self) -> bool {
        self.tags.iter().all(|&t| t == NONE)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_get_unset() {
        let mut t = ValueTags::default();
        assert_eq!(t.get(Value(5)), None);
        t.set(Value(5), 7);
        t.set(Value(0), 0);
        assert_eq!(
            (t.get(Value(5)), t.get(Value(0)), t.get(Value(1))),
            (Some(7), Some(0), None)
        );
        t.unset(Value(5));
        t.unset(Value(0));
        t.unset(Value(99));
        assert!(t.is_clear() && t.get(Value(5)).is_none());
    }
}
