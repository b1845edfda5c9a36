//! Which section of opt's layout a module-level entity belongs to, and small text helpers.
//!
//! LLVM prints a module in this order, whatever order the input had: `source_filename`,
//! `target datalayout`, `target triple`; module asm; named types; comdats (a blank line
//! before each); global variables; aliases; ifuncs; functions, declarations among them in
//! module order (a blank line before each); attribute groups; named metadata; metadata
//! nodes. Sections are separated by a blank line. Invariant: [`classify`] looks only at how an
//! entity's text starts (and, for `@x = ...`, at the keyword that says what it defines).

/// A module-level entity's section, in LLVM's printing order.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub enum Kind {
    /// `source_filename = "..."`.
    SourceFilename,
    /// `target datalayout = "..."`.
    DataLayout,
    /// `target triple = "..."`.
    Triple,
    /// `module asm "..."`.
    Asm,
    /// `%T = type ...`.
    Type,
    /// `$c = comdat ...`.
    Comdat,
    /// `@g = ... global|constant ...`.
    Global,
    /// `@a = ... alias ...`.
    Alias,
    /// `@i = ... ifunc ...`.
    IFunc,
    /// `declare ...` (definitions are not text entities).
    Declare,
    /// `uselistorder ...`: opt prints none without `-preserve-ll-uselistorder`.
    UseList,
    /// `attributes #N = { ... }`.
    Attributes,
    /// `!name = !{...}`.
    Named,
    /// `!N = ...`.
    MdDef,
    /// Anything else (summary entries, `deplibs`): written last, as read.
    Other,
}

/// The section of entity text `t`.
pub fn classify(t: &[u8]) -> Kind {
    let starts = |p: &[u8]| t.starts_with(p);
    match t.first() {
        Some(b'@') => global_kind(t),
        Some(b'%') => Kind::Type,
        Some(b'$') => Kind::Comdat,
        Some(b'!') if t.get(1).is_some_and(u8::is_ascii_digit) => Kind::MdDef,
        Some(b'!') => Kind::Named,
        _ if starts(b"declare") => Kind::Declare,
        _ if starts(b"attributes") => Kind::Attributes,
        _ if starts(b"source_filename") => Kind::SourceFilename,
        _ if starts(b"target datalayout") => Kind::DataLayout,
        _ if starts(b"target triple") => Kind::Triple,
        _ if starts(b"module asm") => Kind::Asm,
        _ if starts(b"uselistorder") => Kind::UseList,
        _ => Kind::Other,
    }
}

/// `@x = [linkage ...] (global|constant|alias|ifunc) ...`: the first of those keywords.
fn global_kind(t: &[u8]) -> Kind {
    let Some(eq) = t.iter().position(|&c| c == b'=') else {
        return Kind::Global;
    };
    // The name may be quoted and hold `=`: start after the name.
    let eq = if t.get(1) == Some(&b'"') {
        match t[2..].iter().position(|&c| c == b'"') {
            Some(q) => t[q + 3..]
                .iter()
                .position(|&c| c == b'=')
                .map_or(eq, |e| q + 3 + e),
            None => eq,
        }
    } else {
        eq
    };
    for w in t[eq + 1..].split(|c| c.is_ascii_whitespace() || *c == b'(') {
        match w {
            b"global" | b"constant" => return Kind::Global,
            b"alias" => return Kind::Alias,
            b"ifunc" => return Kind::IFunc,
            _ if w
                .first()
                .is_some_and(|c| !c.is_ascii_alphanumeric() && *c != b'_') =>
            {
                return Kind::Global
            }
            _ => {}
        }
    }
    Kind::Global
}

/// The unescaped name a `%name = type ...` entity defines.
pub fn type_name(t: &[u8]) -> Box<[u8]> {
    let end = if t.get(1) == Some(&b'"') {
        t[2..]
            .iter()
            .position(|&c| c == b'"')
            .map_or(t.len(), |q| q + 3)
    } else {
        t.iter()
            .position(|c| c.is_ascii_whitespace() || *c == b'=')
            .unwrap_or(t.len())
    };
    crate::print::names::name_key(&t[..end]).into_owned().into()
}

/// `s` as LLVM's `printEscapedString` writes it: `\` doubled, printable ASCII but `"` as is,
/// every other byte as `\XX` (upper-case hex).
pub fn escape_into(s: &[u8], out: &mut Vec<u8>) {
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

/// The global name (without `@`) a `declare ... @name(...)` line declares.
pub fn decl_name(d: &str) -> &[u8] {
    let at = d.find('@').map_or(0, |i| i + 1);
    let end = d[at..].find('(').map_or(d.len(), |i| at + i);
    &d.as_bytes()[at..end]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entities_fall_into_llvms_sections() {
        assert_eq!(classify(b"@x = global i32 0"), Kind::Global);
        assert_eq!(
            classify(b"@x = internal constant [5 x i8] c\"alias\""),
            Kind::Global
        );
        assert_eq!(classify(b"@a = hidden alias i32, ptr @x"), Kind::Alias);
        assert_eq!(classify(b"@\"a=b\" = ifunc void (), ptr @r"), Kind::IFunc);
        assert_eq!(classify(b"@g = external global i32"), Kind::Global);
        assert_eq!(classify(b"%struct.S = type { i32 }"), Kind::Type);
        assert_eq!(classify(b"!llvm.ident = !{!0}"), Kind::Named);
        assert_eq!(classify(b"!0 = !{}"), Kind::MdDef);
        assert_eq!(classify(b"target triple = \"x\""), Kind::Triple);
        assert_eq!(&*type_name(b"%\"struct.a b\" = type opaque"), b"struct.a b");
        assert_eq!(&*type_name(b"%struct.S = type { i32 }"), b"struct.S");
        let mut out = Vec::new();
        escape_into(b"we\"ird\\x\t.ll", &mut out);
        assert_eq!(out, b"we\\22ird\\\\x\\09.ll");
        assert_eq!(
            decl_name("declare void @llvm.dbg.value(metadata)"),
            b"llvm.dbg.value"
        );
    }
}
