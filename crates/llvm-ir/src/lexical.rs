//! Lexical helpers shared by the reader, the printer and the passes: numbers and escapes as
//! LLVM writes them, integer literals, and the keyword types.
//!
//! Invariant: these only read bytes (no module state); each undoes exactly what the printer
//! writes.

use crate::ir::types::{FloatKind, TypeData};

/// Parses decimal digits as `u32`, `None` on overflow or empty input.
pub fn parse_u32(s: &[u8]) -> Option<u32> {
    if s.is_empty() {
        return None;
    }
    let mut n: u32 = 0;
    for &c in s {
        if !c.is_ascii_digit() {
            return None;
        }
        n = n.checked_mul(10)?.checked_add((c - b'0') as u32)?;
    }
    Some(n)
}

/// Undoes LLVM's `\xx` and `\\` escapes in a quoted name or string body.
pub fn unescape(s: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(s.len());
    let mut i = 0;
    while i < s.len() {
        if s[i] == b'\\' {
            if s.get(i + 1) == Some(&b'\\') {
                out.push(b'\\');
                i += 2;
                continue;
            }
            if i + 2 < s.len() && s[i + 1].is_ascii_hexdigit() && s[i + 2].is_ascii_hexdigit() {
                out.push(hex(s[i + 1]) * 16 + hex(s[i + 2]));
                i += 3;
                continue;
            }
        }
        out.push(s[i]);
        i += 1;
    }
    out
}

/// The value of the hexadecimal digit `c` (for a byte that is not one, meaningless).
#[inline]
pub fn hex(c: u8) -> u8 {
    match c {
        b'0'..=b'9' => c - b'0',
        b'a'..=b'f' => c - b'a' + 10,
        _ => c - b'A' + 10,
    }
}

/// Parses decimal digits as `u64`.
pub fn parse_u64(s: &[u8]) -> Option<u64> {
    if s.is_empty() {
        return None;
    }
    let mut n: u64 = 0;
    for &c in s {
        if !c.is_ascii_digit() {
            return None;
        }
        n = n.checked_mul(10)?.checked_add((c - b'0') as u64)?;
    }
    Some(n)
}

/// The integer value of a plain integer literal's text (`-3`, `42`, `u0x1F`, `true`).
pub fn int_literal_value(text: &[u8]) -> Option<i128> {
    match text {
        b"true" => return Some(1),
        b"false" => return Some(0),
        _ => {}
    }
    if text.len() > 3 && (text[0] == b'u' || text[0] == b's') && &text[1..3] == b"0x" {
        let mut v: i128 = 0;
        for &c in &text[3..] {
            v = v
                .checked_mul(16)?
                .checked_add((c as char).to_digit(16)? as i128)?;
        }
        return Some(v);
    }
    std::str::from_utf8(text).ok()?.parse::<i128>().ok()
}

/// The type named by a type keyword, if `word` is one (`ptr` is handled by the caller).
pub fn keyword_type(word: &[u8]) -> Option<TypeData> {
    Some(match word {
        b"void" => TypeData::Void,
        b"half" => TypeData::Float(FloatKind::Half),
        b"bfloat" => TypeData::Float(FloatKind::BFloat),
        b"float" => TypeData::Float(FloatKind::Float),
        b"double" => TypeData::Float(FloatKind::Double),
        b"x86_fp80" => TypeData::Float(FloatKind::X86Fp80),
        b"fp128" => TypeData::Float(FloatKind::Fp128),
        b"ppc_fp128" => TypeData::Float(FloatKind::PpcFp128),
        b"label" => TypeData::Label,
        b"metadata" => TypeData::Metadata,
        b"x86_mmx" => TypeData::X86Mmx,
        b"x86_amx" => TypeData::X86Amx,
        b"token" => TypeData::Token,
        _ => return None,
    })
}

/// Appends the decimal digits of `n` (two at a time: value and metadata numbers are written
/// for nearly every line).
#[inline]
pub fn write_u32(out: &mut Vec<u8>, mut n: u32) {
    const PAIRS: &[u8; 200] = b"\
        0001020304050607080910111213141516171819202122232425262728293031\
        3233343536373839404142434445464748495051525354555657585960616263\
        6465666768697071727374757677787980818283848586878889909192939495\
        96979899";
    let mut buf = [0u8; 10];
    let mut i = buf.len();
    while n >= 100 {
        let r = (n % 100) as usize * 2;
        n /= 100;
        i -= 2;
        buf[i] = PAIRS[r];
        buf[i + 1] = PAIRS[r + 1];
    }
    if n >= 10 {
        let r = n as usize * 2;
        i -= 2;
        buf[i] = PAIRS[r];
        buf[i + 1] = PAIRS[r + 1];
    } else {
        i -= 1;
        buf[i] = b'0' + n as u8;
    }
    out.extend_from_slice(&buf[i..]);
}

/// Appends the decimal digits of `n`.
#[inline]
pub fn write_u64(out: &mut Vec<u8>, n: u64) {
    if let Ok(small) = u32::try_from(n) {
        return write_u32(out, small);
    }
    let mut buf = [0u8; 20];
    let mut i = buf.len();
    let mut n = n;
    loop {
        i -= 1;
        buf[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.extend_from_slice(&buf[i..]);
}
