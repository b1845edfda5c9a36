//! Shared instruction templates: instructions that print the same way share one range of the
//! function's template pool.
//!
//! Templates are mostly alike: a clang `-O0` body repeats `load i32, ptr ` v0 `, align 4` and
//! `store i32 ` v0 `, ptr ` v1 `, align 4` thousands of times, each at its own place in the
//! input. The reader hashes what a template prints (its texts' bytes and its holes) and reuses
//! an existing pool range that prints the same. On a clang body this
//! stores a few hundred templates instead of one per instruction, which saves about a third of
//! the memory an instruction takes. Only large bodies share ([`SHARE_FROM`]): for the others
//! the hashing is not worth its time.
//!
//! Invariants: a shared range prints exactly what the instruction's own pieces would (texts
//! with the same bytes are interchangeable: the printer only copies them), so output is
//! unchanged; templates are immutable once made (edits push a new range, see
//! [`llvm_ir::ir::DataFlowGraph::push_pieces`]); the tables live only while one body is read.

use std::hash::Hasher;

use llvm_ir::ir::dfg::DataFlowGraph;
use llvm_ir::ir::instructions::{Piece, PoolRange};
use llvm_ir::ir::Text;
use llvm_ir::util::fxhash::{FxHashMap, FxHasher};

/// Bodies at least this long (in input bytes) share templates. Sharing costs the reader about
/// 7% more time; it pays only where a body's memory matters, which the driver's window of
/// bodies in flight makes true only for large ones.
pub(super) const SHARE_FROM: usize = 256 << 10;

/// The interning table of one body.
pub(super) struct Templates {
    /// Whether templates are shared in this body (else each gets its own range).
    enabled: bool,
    /// Hash of a template's printed content → the range holding it (the latest with that hash).
    ranges: FxHashMap<u64, PoolRange>,
}

impl Templates {
    /// The table for a body of `len` input bytes (sharing from [`SHARE_FROM`] on).
    pub(super) fn for_body(len: usize) -> Self {
        Templates {
            enabled: len >= SHARE_FROM,
            ranges: FxHashMap::default(),
        }
    }

    /// Whether this body shares templates (so its template pool stays small).
    pub(super) fn shares(&self) -> bool {
        self.enabled
    }

    /// The pool range for `pieces` (whose source texts are spans of `src`): when sharing is
    /// enabled, an existing one that prints the same; else a new one.
    pub(super) fn intern(
        &mut self,
        src: &[u8],
        pieces: &[Piece],
        dfg: &mut DataFlowGraph,
    ) -> PoolRange {
        if !self.enabled {
            return dfg.push_pieces(pieces);
        }
        let own = dfg.strings.bytes();
        let mut h = FxHasher::default();
        for &p in pieces {
            match p {
                Piece::Text(t) => {
                    let (n, w0, w1) = signature(t, src, own);
                    h.write_u64(n);
                    h.write_u64(w0);
                    h.write_u64(w1);
                }
                Piece::Value(i) => h.write_u64(1 << 32 | i as u64),
                Piece::Block(i) => h.write_u64(2 << 32 | i as u64),
                Piece::NewMd(i) => h.write_u64(3 << 32 | i as u64),
                Piece::Incoming => h.write_u64(4 << 32),
            }
        }
        let key = h.finish();
        if let Some(&r) = self.ranges.get(&key) {
            if same(&dfg.pieces[r.span()], pieces, src, own) {
                return r;
            }
        }
        let r = dfg.push_pieces(pieces);
        self.ranges.insert(key, r);
        r
    }
}

/// A text's length and its first and last eight bytes (zero-padded when shorter): equal
/// signatures mean equal bytes for texts of up to 16 bytes, which most texts between operands
/// are.
#[inline(always)]
fn signature(t: Text, src: &[u8], own: &[u8]) -> (u64, u64, u64) {
    let buf = if t.in_source() { src } else { own };
    let at = t.arena_offset();
    let n = t.len();
    if t.is_none() || n == 0 {
        return (0, 0, 0);
    }
    let load = |i: usize| match buf.get(i..i + 8) {
        Some(w) => u64::from_le_bytes([w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7]]),
        None => buf[i..buf.len().min(i + 8)]
            .iter()
            .rev()
            .fold(0, |w, &c| w << 8 | c as u64),
    };
    let w0 = if n >= 8 {
        load(at)
    } else {
        load(at) & ((1u64 << (8 * n)) - 1)
    };
    let w1 = if n > 8 { load(at + n - 8) } else { 0 };
    (n as u64, w0, w1)
}

/// Whether two templates print the same.
fn same(a: &[Piece], b: &[Piece], src: &[u8], own: &[u8]) -> bool {
    a.len() == b.len()
        && a.iter().zip(b).all(|(&x, &y)| match (x, y) {
            (Piece::Text(s), Piece::Text(t)) => {
                let (sig_s, sig_t) = (signature(s, src, own), signature(t, src, own));
                sig_s == sig_t && (s.len() <= 16 || s.resolve(src, own) == t.resolve(src, own))
            }
            _ => x == y,
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_text_same_range_other_text_new_range() {
        let src = b"load i32, ptr %a, align 4\nload i32, ptr %b, align 4\nload i64, ptr %c";
        let mut dfg = DataFlowGraph::new();
        let mut t = Templates::for_body(SHARE_FROM);
        let load = |s: usize, e: usize| {
            vec![
                Piece::Text(Text::source(s, s + 14)),
                Piece::Value(0),
                Piece::Text(Text::source(e, e + 9)),
            ]
        };
        let r1 = t.intern(src, &load(0, 16), &mut dfg);
        let r2 = t.intern(src, &load(26, 42), &mut dfg);
        assert_eq!(r1, r2);
        let other = [Piece::Text(Text::source(52, 66)), Piece::Value(0)];
        let r3 = t.intern(src, &other, &mut dfg);
        assert_ne!(r1, r3);
        assert_eq!(dfg.pieces.len(), 5);
    }
}
