//! LLVM's spelling of names: when a name needs quotes, how it is escaped, and how a written
//! name (`%x`, `%"a b"`, `@"\01f"`) maps back to its bytes.
//!
//! Invariant: `write_name(prefix, unescape_name(written))` reads back as the same name.

use crate::lexical::unescape;

/// Appends `prefix` and `name` as LLVM prints it: bare when every byte is `[-a-zA-Z._0-9]`
/// except a leading digit, otherwise quoted with `\XX` escapes for unprintable bytes, `"`
/// and `\`.
pub fn write_name(out: &mut Vec<u8>, prefix: u8, name: &[u8]) {
    out.push(prefix);
    write_name_body(out, name);
}

/// [`write_name`] without the sigil.
pub fn write_name_body(out: &mut Vec<u8>, name: &[u8]) {
    let needs_quotes = name.is_empty()
        || name[0].is_ascii_digit()
        || name
            .iter()
            .any(|&c| !(c.is_ascii_alphanumeric() || matches!(c, b'-' | b'.' | b'_')));
    if !needs_quotes {
        out.extend_from_slice(name);
        return;
    }
    out.push(b'"');
    write_escaped(out, name);
    out.push(b'"');
}

/// Appends `s` with LLVM's string escapes (`printEscapedString`).
pub fn write_escaped(out: &mut Vec<u8>, s: &[u8]) {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    for &c in s {
        if c == b'\\' {
            out.extend_from_slice(b"\\\\");
        } else if (0x20..0x7f).contains(&c) && c != b'"' {
            out.push(c);
        } else {
            out.extend_from_slice(&[b'\\', HEX[(c >> 4) as usize], HEX[(c & 15) as usize]]);
        }
    }
}

/// The bytes of a written name without its sigil: `%x` → `x`, `%"a\20b"` → `a b`.
pub fn unescape_name(written: &[u8]) -> Vec<u8> {
    let body = &written[1..];
    match body.first() {
        Some(b'"') if body.len() >= 2 => unescape(&body[1..body.len() - 1]),
        _ => body.to_vec(),
    }
}

/// The written form without its sigil, borrowed when it needs no unescaping.
pub fn name_key(written: &[u8]) -> std::borrow::Cow<'_, [u8]> {
    let body = &written[1..];
    match body.first() {
        Some(b'"') if body.len() >= 2 => {
            let inner = &body[1..body.len() - 1];
            if inner.contains(&b'\\') {
                std::borrow::Cow::Owned(unescape(inner))
            } else {
                std::borrow::Cow::Borrowed(inner)
            }
        }
        _ => std::borrow::Cow::Borrowed(body),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoting_follows_llvm() {
        let w = |n: &[u8]| {
            let mut v = Vec::new();
            write_name(&mut v, b'%', n);
            String::from_utf8(v).unwrap()
        };
        assert_eq!(w(b"x.0"), "%x.0");
        assert_eq!(w(b"0x"), "%\"0x\"");
        assert_eq!(w(b"a b"), "%\"a b\"");
        assert_eq!(w(b"q\"\\\x01"), "%\"q\\22\\\\\\01\"");
        assert_eq!(unescape_name(b"%\"a\\20b\""), b"a b");
        assert_eq!(&*name_key(b"@\"plain\""), b"plain");
        assert_eq!(&*name_key(b"%x"), b"x");
    }
}
