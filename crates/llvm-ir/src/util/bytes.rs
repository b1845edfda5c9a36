//! Fast byte searches over the input buffer, eight bytes at a time ("SWAR": SIMD within a
//! register), in safe code.
//!
//! The module pass scans the whole input for a few bytes (brace matching of function bodies,
//! `blockaddress(`, `ptr`): a byte-at-a-time loop costs ~10 instructions a byte there, these
//! cost about one. Invariant: every function returns exactly what its naive byte loop
//! (given in its doc) returns; the tests check them against those loops.

const LO: u64 = 0x0101_0101_0101_0101;
const HI: u64 = 0x8080_8080_8080_8080;

/// A word with a bit set in the high bit of every byte of `w` equal to `b`. Only the lowest
/// set bit is exact (borrows may set higher bits spuriously), which is all we use.
#[inline(always)]
fn eq_mask(w: u64, b: u8) -> u64 {
    let x = w ^ (LO * b as u64);
    x.wrapping_sub(LO) & !x & HI
}

#[inline(always)]
fn word(c: &[u8]) -> u64 {
    u64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]])
}

/// The first index of any byte of `set` in `h`: `h.iter().position(|c| set.contains(c))`.
#[inline]
pub fn find_any<const N: usize>(h: &[u8], set: [u8; N]) -> Option<usize> {
    // Sixteen bytes a step (two words tested together), then eight, then one by one.
    let mut pairs = h.chunks_exact(16);
    let mut base = 0;
    for c in &mut pairs {
        let (a, b) = (word(&c[..8]), word(&c[8..]));
        let (mut ma, mut mb) = (0, 0);
        for s in set {
            ma |= eq_mask(a, s);
            mb |= eq_mask(b, s);
        }
        if ma | mb != 0 {
            // A mask is non-zero exactly when its word holds a match; its lowest bit is exact.
            let at = if ma != 0 {
                ma.trailing_zeros()
            } else {
                64 + mb.trailing_zeros()
            };
            return Some(base + (at / 8) as usize);
        }
        base += 16;
    }
    let mut chunks = pairs.remainder().chunks_exact(8);
    for c in &mut chunks {
        let w = word(c);
        let mut m = 0;
        for b in set {
            m |= eq_mask(w, b);
        }
        if m != 0 {
            return Some(base + (m.trailing_zeros() / 8) as usize);
        }
        base += 8;
    }
    chunks
        .remainder()
        .iter()
        .position(|c| set.contains(c))
        .map(|p| base + p)
}

/// The first index of `b` in `h`: `h.iter().position(|&c| c == b)`.
#[inline]
pub fn find_byte(h: &[u8], b: u8) -> Option<usize> {
    find_any(h, [b])
}

/// The first index at which `n` occurs in `h` (`n` non-empty):
/// `h.windows(n.len()).position(|w| w == n)`.
pub fn find_sub(h: &[u8], n: &[u8]) -> Option<usize> {
    // Scan for the needle's rarest-looking byte: its last one (often a punctuation mark or a
    // letter that ends a keyword), then compare the whole needle there.
    let k = n.len() - 1;
    let last = n[k];
    let mut i = k;
    while i < h.len() {
        let p = find_byte(&h[i..], last)?;
        let end = i + p + 1;
        if h[end - n.len()..end] == *n {
            return Some(end - n.len());
        }
        i = end;
    }
    None
}

/// [`find_sub`], scanning for the needle's byte `n[k]` (`k < n.len()`) instead of its last:
/// the same answer, faster when that byte is rarer in `h` (a `(` is everywhere in IR).
pub fn find_sub_at(h: &[u8], n: &[u8], k: usize) -> Option<usize> {
    let b = n[k];
    let mut i = k;
    while i < h.len() {
        let at = i + find_byte(&h[i..], b)?;
        let start = at - k;
        if h.get(start..start + n.len()) == Some(n) {
            return Some(start);
        }
        i = at + 1;
    }
    None
}

/// The first `blockaddress` keyword in `h` that opens a constant: the keyword, any ASCII
/// whitespace, then `(` (as LLVM's lexer reads it; the reader refuses a comment in between, so
/// every scan agrees with the parser). Returns the keyword's start and the index after the
/// `(`. Naive loop: try every start, in order.
pub fn find_blockaddress(h: &[u8]) -> Option<(usize, usize)> {
    const KW: &[u8] = b"blockaddress";
    let mut from = 0;
    while let Some(p) = find_sub_at(&h[from..], KW, 4) {
        let start = from + p;
        let mut i = start + KW.len();
        while h.get(i).is_some_and(|c| c.is_ascii_whitespace()) {
            i += 1;
        }
        if h.get(i) == Some(&b'(') {
            return Some((start, i + 1));
        }
        from = start + 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use ssa::testing::Rng;

    fn random(rng: &mut Rng, len: usize, alphabet: &[u8]) -> Vec<u8> {
        (0..len)
            .map(|_| alphabet[rng.below(alphabet.len() as u64) as usize])
            .collect()
    }

    #[test]
    fn searches_agree_with_naive_loops() {
        let mut rng = Rng::new(7);
        for round in 0..3000 {
            let len = (round % 70) as usize;
            let h = random(&mut rng, len, b"ab{}\";/\x80\xff(");
            let set = [b'{', b'}', b'"', b';', b'/'];
            assert_eq!(find_any(&h, set), h.iter().position(|c| set.contains(c)));
            for b in [b'a', b'(', 0x80, 0xff, 0x7f] {
                assert_eq!(find_byte(&h, b), h.iter().position(|&c| c == b));
            }
            for n in [&b"ab("[..], b"(", b"b{a", b"\x80\xff"] {
                let naive = h.windows(n.len()).position(|w| w == n);
                assert_eq!(find_sub(&h, n), naive, "{h:?} {n:?}");
                for k in 0..n.len() {
                    assert_eq!(find_sub_at(&h, n, k), naive, "{h:?} {n:?} {k}");
                }
            }
        }
    }

    #[test]
    fn blockaddress_is_found_with_whitespace_before_its_parenthesis() {
        assert_eq!(find_blockaddress(b"x blockaddress(@f"), Some((2, 15)));
        assert_eq!(find_blockaddress(b"blockaddress \n\t(@f"), Some((0, 16)));
        assert_eq!(find_blockaddress(b"@blockaddress_x(), blockaddress"), None);
        assert_eq!(
            find_blockaddress(b"blockaddress x blockaddress ("),
            Some((15, 29))
        );
    }
}
