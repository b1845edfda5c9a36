//! Byte spans: how the IR refers to text without copying it.
//!
//! The IR borrows names, attribute lists, metadata and the literal parts of instructions from the
//! input buffer instead of copying them. A [`Text`] is `(start, len)` into one of two byte arenas:
//! - the *source*: the module's input, shared read-only by all functions (`Arc<[u8]>`);
//! - the *owner's own* arena: text made after parsing (new names, new instructions), kept by the
//!   function (or, for module-level text, the module) that made it, so functions can be changed
//!   in parallel without sharing a growing buffer.
//!
//! Bit 31 of `start` says which. Invariant: a `Text` is only resolved against the arenas of the
//! function or module that holds it.

/// A span of bytes in the source or in the owner's own arena.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Text {
    start: u32,
    len: u32,
}

const OWN: u32 = 1 << 31;

impl Text {
    /// The empty text.
    pub const EMPTY: Text = Text { start: 0, len: 0 };
    /// "No text" (an unnamed value, a missing piece): distinct from every real span.
    pub const NONE: Text = Text {
        start: u32::MAX,
        len: 0,
    };

    /// A span of the source buffer.
    #[inline]
    pub fn source(start: usize, end: usize) -> Text {
        debug_assert!(
            end >= start && end < OWN as usize,
            "source larger than 2 GiB"
        );
        Text {
            start: start as u32,
            len: (end - start) as u32,
        }
    }
    /// Whether this is [`Text::NONE`].
    #[inline]
    pub fn is_none(self) -> bool {
        self.start == u32::MAX
    }
    /// Length in bytes.
    #[inline]
    pub fn len(self) -> usize {
        self.len as usize
    }
    /// Whether the span is empty (or NONE).
    #[inline]
    pub fn is_empty(self) -> bool {
        self.len == 0
    }
    /// Whether the span lives in the source buffer.
    #[inline]
    pub fn in_source(self) -> bool {
        self.start & OWN == 0
    }
    /// The sub-span `[k, k + len)` of this span (same arena).
    pub fn sub(self, k: usize, len: usize) -> Text {
        debug_assert!(k + len <= self.len as usize);
        Text {
            start: self.start + k as u32,
            len: len as u32,
        }
    }

    /// Start offset in the source buffer (meaningful when [`Text::in_source`]).
    pub fn source_offset(self) -> usize {
        self.start as usize
    }
    /// Start offset in the span's own arena (the source, or the owner's arena).
    #[inline]
    pub fn arena_offset(self) -> usize {
        (self.start & !OWN) as usize
    }
    /// The bytes this span names, given the two arenas.
    #[inline]
    pub fn resolve<'a>(self, source: &'a [u8], own: &'a [u8]) -> &'a [u8] {
        if self.is_none() {
            return b"";
        }
        let (buf, s) = if self.start & OWN == 0 {
            (source, self.start)
        } else {
            (own, self.start & !OWN)
        };
        &buf[s as usize..s as usize + self.len as usize]
    }
}

/// An owner's own text arena, appended to and never shrunk.
#[derive(Clone, Debug, Default)]
pub struct TextArena {
    bytes: Vec<u8>,
}

/// The room an arena takes on its first addition: a pass that adds text to a function adds
/// many short pieces (names, debug values), which would otherwise grow it from 8 bytes up.
const FIRST_ROOM: usize = 1024;

impl TextArena {
    /// Makes room for `n` more bytes.
    pub fn reserve(&mut self, n: usize) {
        self.bytes.reserve(n);
    }

    /// Makes room on the first addition (see [`FIRST_ROOM`]).
    #[inline]
    fn room(&mut self) {
        if self.bytes.capacity() == 0 {
            self.bytes.reserve(FIRST_ROOM);
        }
    }

    /// Copies `s` into the arena and returns its span.
    pub fn add(&mut self, s: &[u8]) -> Text {
        self.room();
        let start = self.bytes.len();
        assert!(
            start + s.len() < OWN as usize,
            "text arena larger than 2 GiB"
        );
        self.bytes.extend_from_slice(s);
        Text {
            start: start as u32 | OWN,
            len: s.len() as u32,
        }
    }
    /// Stores the bytes `write` appends (no intermediate buffer).
    pub fn add_with(&mut self, write: impl FnOnce(&mut Vec<u8>)) -> Text {
        self.room();
        let start = self.bytes.len();
        write(&mut self.bytes);
        let len = self.bytes.len() - start;
        assert!(start + len < OWN as usize, "text arena larger than 2 GiB");
        Text {
            start: start as u32 | OWN,
            len: len as u32,
        }
    }

    /// The arena's bytes (to pass to [`Text::resolve`]).
    #[inline]
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }
    /// Extends `t` (which must be the most recent addition) by `s`.
    pub fn extend_last(&mut self, t: Text, s: &[u8]) -> Text {
        debug_assert!(
            !t.in_source() && (t.start & !OWN) as usize + t.len as usize == self.bytes.len()
        );
        self.bytes.extend_from_slice(s);
        Text {
            start: t.start,
            len: t.len + s.len() as u32,
        }
    }
    /// Whether `t` ends exactly at the arena's end (so [`TextArena::extend_last`] applies).
    pub fn is_last(&self, t: Text) -> bool {
        !t.is_none()
            && !t.in_source()
            && (t.start & !OWN) as usize + t.len as usize == self.bytes.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_resolve_against_their_arena() {
        let src = b"define i32 @f";
        let mut own = TextArena::default();
        let a = Text::source(7, 10);
        let b = own.add(b"x.0");
        let b2 = own.extend_last(b, b"1");
        assert_eq!(a.resolve(src, own.bytes()), b"i32");
        assert_eq!(b2.resolve(src, own.bytes()), b"x.01");
        assert!(a.in_source() && !b.in_source());
        assert_eq!(Text::NONE.resolve(src, own.bytes()), b"");
    }
}
