//! Whether a constant `getelementptr` expression cannot be poison: the question the fold of
//! `phi(c, undef)` asks (see `simplify`). LLVM answers "maybe" for every `inbounds` GEP (its
//! flag can make poison); this file answers "never" for the common constant clang writes,
//! `getelementptr inbounds ([3 x i32], ptr @g, i64 0, i64 2)`, by checking its bounds:
//!
//! - the base is a global variable `@g` (or, with typed pointers, a bitcast of one) that
//!   cannot be null (not `extern_weak`), and the source type is one the module already has
//!   (it was read with the constant);
//! - every index is an integer literal, none negative (struct indices name a field);
//! - the byte offset they give is at most `@g`'s allocation size.
//!
//! With no negative index the partial offsets only grow, so each step of the address
//! computation stays inside `@g` or one past its end, and
//! neither `inbounds`, `nusw` nor `nuw` can give poison (LangRef, "getelementptr"). A plain
//! GEP of literals on such a global is never poison either. Anything else (vector indices,
//! `inrange`, nested expressions, unknown types): "maybe", as LLVM.
//!
//! Invariant: only reads the constant's text, the module's globals and the data layout.

use llvm_ir::ir::datalayout::DataLayout;
use llvm_ir::ir::metadata::trim;
use llvm_ir::ir::module_info::{GlobalKind, ModuleInfo};
use llvm_ir::ir::types::{Type, TypeData, TypeTable};
use llvm_ir::lexical::int_literal_value;
use llvm_ir::lexical::keyword_type;

/// Whether the constant `text` (a `getelementptr` expression) is certainly not poison.
pub(super) fn not_poison(
    text: &[u8],
    ctx: Option<&ModuleInfo>,
    types: &TypeTable,
    dl: &DataLayout,
) -> bool {
    let (Some(ctx), Some(gep)) = (ctx, Gep::read(text)) else {
        return false;
    };
    let Some(g) = ctx.global(gep.base) else {
        return false;
    };
    if g.kind != GlobalKind::Variable || g.extern_weak {
        return false;
    }
    let src_ty = TypeText::read(gep.src_ty, types);
    let (Some(src_ty), Some(size)) = (src_ty, dl.alloc_size(types, g.value_ty)) else {
        return false;
    };
    offset(&gep.indices, src_ty, types, dl).is_some_and(|off| off <= size)
}

/// The parts of `getelementptr [flags] (T, ptr @g, idx...)` this check needs.
struct Gep<'t> {
    src_ty: &'t [u8],
    base: &'t [u8],
    indices: Vec<u64>,
}

impl<'t> Gep<'t> {
    /// Reads the expression; `None` for any form other than literals on a global.
    fn read(text: &'t [u8]) -> Option<Gep<'t>> {
        let mut rest = trim(text.strip_prefix(b"getelementptr")?);
        // Flags: all harmless once the bounds hold; `inrange` is not handled.
        loop {
            let word = rest.split(|c| !c.is_ascii_alphabetic()).next()?;
            match word {
                b"inbounds" | b"nuw" | b"nusw" => rest = trim(&rest[word.len()..]),
                _ => break,
            }
        }
        let body = rest.strip_prefix(b"(")?.strip_suffix(b")")?;
        let mut parts = split_top_level(body);
        let src_ty = trim(parts.next()?);
        let base = global_operand(trim(parts.next()?))?;
        let mut indices = Vec::new();
        for part in parts {
            let mut words = trim(part).split(|&c| c == b' ');
            let ty = words.next()?;
            let value = words.next()?;
            if !ty.starts_with(b"i") || words.next().is_some() {
                return None;
            }
            indices.push(u64::try_from(int_literal_value(value)?).ok()?);
        }
        Some(Gep {
            src_ty,
            base,
            indices,
        })
    }
}

/// The global a GEP's base operand names: `ptr @g`, `T* @g`, or (typed pointers, where a
/// global of another type needs a cast) `T* bitcast (U* @g to T*)`, which keeps the address.
fn global_operand(base: &[u8]) -> Option<&[u8]> {
    let value = match llvm_ir::util::bytes::find_sub(base, b"bitcast (") {
        Some(k) => {
            let inner = base[k + b"bitcast (".len()..].strip_suffix(b")")?;
            let to = llvm_ir::util::bytes::find_sub(inner, b" to ")?;
            &inner[..to]
        }
        None => base,
    };
    let name = trim(value).rsplit(|&c| c == b' ').next()?;
    name.starts_with(b"@").then_some(name)
}

/// The comma-separated parts of `body` at nesting depth 0 (brackets, braces, angles, parens).
fn split_top_level(body: &[u8]) -> impl Iterator<Item = &[u8]> {
    let mut depth = 0i32;
    body.split(move |&c| {
        match c {
            b'[' | b'{' | b'<' | b'(' => depth += 1,
            b']' | b'}' | b'>' | b')' => depth -= 1,
            _ => {}
        }
        c == b',' && depth == 0
    })
}

/// The byte offset `indices` select from a pointer to `ty` (`None` for a vector or another
/// type the offset cannot be computed through, or a struct index past its fields).
fn offset(indices: &[u64], ty: Type, types: &TypeTable, dl: &DataLayout) -> Option<u64> {
    let (&first, rest) = indices.split_first()?;
    let mut off = first.checked_mul(dl.alloc_size(types, ty)?)?;
    let mut cur = ty;
    for &i in rest {
        let t = types.resolve_named(cur);
        match types.data(t) {
            TypeData::Array { elem, .. } => {
                off = off.checked_add(i.checked_mul(dl.alloc_size(types, *elem)?)?)?;
                cur = *elem;
            }
            TypeData::Struct { fields, .. } => {
                let k = usize::try_from(i).ok()?;
                off = off.checked_add(dl.field_offset(types, t, k)?)?;
                cur = *fields.get(k)?;
            }
            _ => return None,
        }
    }
    Some(off)
}

/// A type's text read back into the type table's existing types (nothing is interned: a
/// type the table lacks, or a form not read here, gives `None`).
struct TypeText<'t, 'y> {
    s: &'t [u8],
    i: usize,
    types: &'y TypeTable,
}

impl<'t> TypeText<'t, '_> {
    fn read(s: &'t [u8], types: &TypeTable) -> Option<Type> {
        let mut r = TypeText { s, i: 0, types };
        let t = r.ty(0)?;
        r.skip_ws();
        (r.i == s.len()).then_some(t)
    }

    fn skip_ws(&mut self) {
        while self.s.get(self.i).is_some_and(u8::is_ascii_whitespace) {
            self.i += 1;
        }
    }

    fn eat(&mut self, tok: &[u8]) -> bool {
        self.skip_ws();
        let hit = self.s[self.i..].starts_with(tok);
        if hit {
            self.i += tok.len();
        }
        hit
    }

    /// A run of name characters (`i32`, `x`, `%struct.S0` without its `%`).
    fn word(&mut self) -> &'t [u8] {
        self.skip_ws();
        let (s, start) = (self.s, self.i);
        while s
            .get(self.i)
            .is_some_and(|&c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.' | b'$' | b'-'))
        {
            self.i += 1;
        }
        &s[start..self.i]
    }

    fn ty(&mut self, depth: u32) -> Option<Type> {
        if depth > 64 {
            return None;
        }
        let data = if self.eat(b"[") {
            let len = std::str::from_utf8(self.word()).ok()?.parse().ok()?;
            if self.word() != b"x" {
                return None;
            }
            let elem = self.ty(depth + 1)?;
            self.eat(b"]").then_some(TypeData::Array { len, elem })?
        } else if self.eat(b"<{") {
            self.fields(b"}>", true, depth)?
        } else if self.eat(b"{") {
            self.fields(b"}", false, depth)?
        } else if self.eat(b"%") {
            let name = self.word();
            return self.types.lookup(&TypeData::Named(name.into()));
        } else {
            match self.word() {
                b"ptr" => return Some(self.types.ptr()),
                w if w.len() > 1 && w[0] == b'i' => {
                    TypeData::Int(std::str::from_utf8(&w[1..]).ok()?.parse().ok()?)
                }
                w => keyword_type(w)?,
            }
        };
        // A typed pointer (`T*`) is not read: the base's `@g` is what the bounds use.
        self.skip_ws();
        if self.s.get(self.i) == Some(&b'*') {
            return None;
        }
        self.types.lookup(&data)
    }

    fn fields(&mut self, close: &[u8], packed: bool, depth: u32) -> Option<TypeData> {
        let mut fields = Vec::new();
        if !self.eat(close) {
            loop {
                fields.push(self.ty(depth + 1)?);
                if self.eat(close) {
                    break;
                }
                if !self.eat(b",") {
                    return None;
                }
            }
        }
        Some(TypeData::Struct {
            fields: fields.into(),
            packed,
        })
    }
}
