//! Byte-level scans of the raw source, made before or beside tokenizing: which pointer
//! syntax a module spells (`ptr` or typed `i32*`), whether it is bitcode rather than text,
//! and where a function body ends (brace matching that skips strings and comments, so the
//! module pass can read bodies later and in parallel).
//!
//! Invariant: these never fail; a scan that meets malformed text gives an answer the real
//! reader then contradicts with a located error.

/// Whether the module spells pointers `ptr` anywhere (then typed spellings read as `ptr`).
/// A cheap scan for the keyword; a false positive only makes the reader accept typed
/// spellings as `ptr`, which LLVM 15+ does too.
pub fn uses_opaque_pointers(src: &[u8]) -> bool {
    let mut i = 0;
    while let Some(p) = find(&src[i..], b"ptr") {
        let at = i + p;
        let before = if at == 0 { b' ' } else { src[at - 1] };
        let after = src.get(at + 3).copied().unwrap_or(b' ');
        let ident = |c: u8| {
            c.is_ascii_alphanumeric()
                || matches!(c, b'_' | b'.' | b'$' | b'-' | b'%' | b'@' | b'"' | b'\\')
        };
        if !ident(before) && !ident(after) && !in_string_or_comment(src, at) {
            return true;
        }
        i = at + 3;
    }
    false
}

/// Whether offset `at` is inside a quoted string or a `;` comment of its line (`c"Bad ptr
/// map"` must not switch a typed-pointer module to `ptr`). LLVM never prints a raw newline
/// inside a string, so quotes are counted from the line's start.
fn in_string_or_comment(src: &[u8], at: usize) -> bool {
    let line = src[..at]
        .iter()
        .rposition(|&c| c == b'\n')
        .map_or(0, |p| p + 1);
    let mut quoted = false;
    for &c in &src[line..at] {
        match c {
            b'"' => quoted = !quoted,
            b';' if !quoted => return true,
            _ => {}
        }
    }
    quoted
}

/// Whether a `*` appears outside comments and strings (only typed pointers spell one).
pub fn spells_typed_pointers(src: &[u8]) -> bool {
    let mut i = 0;
    while i < src.len() {
        match src[i] {
            b'*' => return true,
            b'"' => match src[i + 1..].iter().position(|&c| c == b'"') {
                Some(p) => i += p + 1,
                None => return false,
            },
            b';' => match src[i..].iter().position(|&c| c == b'\n') {
                Some(p) => i += p,
                None => return false,
            },
            b'/' if src.get(i + 1) == Some(&b'*') => {
                let rest = &crate::lexer::strip_comments(&src[i..]);
                return spells_typed_pointers(rest);
            }
            _ => {}
        }
        i += 1;
    }
    false
}

fn find(h: &[u8], n: &[u8]) -> Option<usize> {
    llvm_ir::util::bytes::find_sub(h, n)
}

/// Whether `src` starts with a bitcode magic number: raw (`BC 0xC0DE`) or in the wrapper
/// Apple's tools write (`0x0B17C0DE`, little-endian).
pub fn is_bitcode(src: &[u8]) -> bool {
    src.starts_with(b"BC\xC0\xDE") || src.starts_with(b"\xDE\xC0\x17\x0B")
}

/// The offset just after the `}` matching the `{` at `open`, skipping strings and comments
/// (the end of input if there is none: the body reader then reports where it breaks), and
/// whether the body uses `blockaddress(` outside them.
pub fn skip_body(src: &[u8], open: usize) -> (usize, bool) {
    use llvm_ir::util::bytes::{find_any, find_byte};
    const KEYWORD: &[u8] = b"blockaddress";
    let mut depth = 0usize;
    let mut i = open;
    let mut blockaddress = false;
    // Only these bytes matter; the scan jumps from one to the next.
    while let Some(p) = find_any(&src[i..], [b'{', b'}', b'"', b';', b'/', b'(']) {
        i += p;
        match src[i] {
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    return (i + 1, blockaddress);
                }
            }
            b'(' => blockaddress |= src[..i].trim_ascii_end().ends_with(KEYWORD),
            b'"' => match find_byte(&src[i + 1..], b'"') {
                Some(p) => i += p + 1,
                None => return (src.len(), blockaddress),
            },
            b';' => match find_any(&src[i..], [b'\n', b'\r']) {
                Some(p) => i += p,
                None => return (src.len(), blockaddress),
            },
            b'/' if src.get(i + 1) == Some(&b'*') => {
                i = skip_c_comment(src, i);
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    (src.len(), blockaddress)
}

/// The offset after the nested `/* */` comment starting at `i` (the end if unterminated).
fn skip_c_comment(src: &[u8], mut i: usize) -> usize {
    let mut d = 0usize;
    while i < src.len() {
        if src[i] == b'/' && src.get(i + 1) == Some(&b'*') {
            d += 1;
            i += 2;
            continue;
        }
        if src[i] == b'*' && src.get(i + 1) == Some(&b'/') {
            d -= 1;
            i += 2;
            if d == 0 {
                break;
            }
            continue;
        }
        i += 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn body_skipping_ignores_braces_in_strings_and_comments() {
        let s = b"define void @f() { ; }\n call void asm \"}\", \"\"() /* } */ ret void }\nrest";
        let open = s.iter().position(|&c| c == b'{').unwrap();
        let (end, _) = skip_body(s, open);
        assert_eq!(&s[end..], b"\nrest");
    }

    #[test]
    fn body_skipping_notes_blockaddress_outside_strings_and_comments() {
        let body = |s: &[u8]| skip_body(s, 0);
        assert_eq!(body(b"{ ret ptr blockaddress(@f, %b) }"), (32, true));
        assert!(!body(b"{ ; blockaddress(\n call void asm \"blockaddress(\", \"\"() }").1);
        assert!(!body(b"{ call void @blockaddress_like() }").1);
        assert!(body(b"{ ret ptr blockaddress \n (@f, %b) }").1);
    }

    #[test]
    fn opaque_pointer_detection() {
        assert!(uses_opaque_pointers(b"define ptr @f()"));
        assert!(!uses_opaque_pointers(b"define i8* @ptr(i32* %ptr.x)"));
        assert!(!uses_opaque_pointers(
            b"@s = constant [9 x i8] c\"a ptr b\\00\" ; ptr\n; ptr\n"
        ));
        assert!(uses_opaque_pointers(
            b"@s = constant [1 x i8] c\"\\00\" ; x\n@p = global ptr null"
        ));
        assert!(spells_typed_pointers(b"; x\ndeclare i8* @f()"));
        assert!(!spells_typed_pointers(
            b"; a*b\n@s = global [2 x i8] c\"*\\00\" /* * */"
        ));
    }
}
