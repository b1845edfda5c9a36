//! LLVM types, interned once per module.
//!
//! A [`Type`] is a small copyable id into the module's [`TypeTable`]; two ids are equal exactly
//! when the types are structurally equal (named structs compare by name, as in LLVM). Invariants:
//! - every `Type` stored in the IR was returned by [`TypeTable::intern`] of the same module;
//! - [`TypeTable::display`] prints the type in LLVM's spelling, so printing a type that was
//!   read gives text LLVM reads as the same type;
//! - typed pointers (`i32*`, LLVM <= 14) and opaque pointers (`ptr`) are distinct types; a
//!   module uses one or the other ([`TypeTable::typed_pointers`] says which was seen).

use std::fmt::{self, Write};
use std::sync::atomic::{AtomicU32, Ordering::Relaxed};
use std::sync::Arc;

use crate::util::fxhash::FxHashMap;

use ssa::entity_impl;

/// An interned type.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Type(u32);
entity_impl!(Type, "type");

/// Floating-point kinds.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum FloatKind {
    /// `half`
    Half,
    /// `bfloat`
    BFloat,
    /// `float`
    Float,
    /// `double`
    Double,
    /// `x86_fp80`
    X86Fp80,
    /// `fp128`
    Fp128,
    /// `ppc_fp128`
    PpcFp128,
}

impl FloatKind {
    /// LLVM's keyword for the kind.
    pub fn keyword(self) -> &'static str {
        match self {
            FloatKind::Half => "half",
            FloatKind::BFloat => "bfloat",
            FloatKind::Float => "float",
            FloatKind::Double => "double",
            FloatKind::X86Fp80 => "x86_fp80",
            FloatKind::Fp128 => "fp128",
            FloatKind::PpcFp128 => "ppc_fp128",
        }
    }
    /// Storage size in bits (as LLVM's DataLayout sizes them, not counting padding).
    pub fn bits(self) -> u64 {
        match self {
            FloatKind::Half | FloatKind::BFloat => 16,
            FloatKind::Float => 32,
            FloatKind::Double => 64,
            FloatKind::X86Fp80 => 80,
            FloatKind::Fp128 | FloatKind::PpcFp128 => 128,
        }
    }
}

/// The structure of a type.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum TypeData {
    /// `void`
    Void,
    /// `label`
    Label,
    /// `metadata`
    Metadata,
    /// `token`
    Token,
    /// `x86_mmx`
    X86Mmx,
    /// `x86_amx`
    X86Amx,
    /// `iN`, `1 <= N < 2^23`
    Int(u32),
    /// A floating-point type.
    Float(FloatKind),
    /// Opaque pointer `ptr` / `ptr addrspace(N)`.
    Ptr {
        /// Address space.
        addrspace: u32,
    },
    /// Typed pointer `T*` / `T addrspace(N)*` (LLVM <= 14 spelling).
    TypedPtr {
        /// Pointee type.
        pointee: Type,
        /// Address space.
        addrspace: u32,
    },
    /// `[N x T]`
    Array {
        /// Element count.
        len: u64,
        /// Element type.
        elem: Type,
    },
    /// `<N x T>` or `<vscale x N x T>`
    Vector {
        /// Minimum element count.
        len: u64,
        /// Element type.
        elem: Type,
        /// `vscale x` form.
        scalable: bool,
    },
    /// Literal struct `{ T, ... }` or packed `<{ T, ... }>`.
    Struct {
        /// Field types.
        fields: Box<[Type]>,
        /// `<{ }>` form.
        packed: bool,
    },
    /// A named struct `%name` (its body, if any, is in [`TypeTable::named_body`]). The name is
    /// unescaped, without the `%`; printing quotes it again where LLVM would.
    Named(Box<[u8]>),
    /// `R (P, ...)`, possibly with `...`.
    Function {
        /// Return type.
        ret: Type,
        /// Parameter types.
        params: Box<[Type]>,
        /// Varargs.
        vararg: bool,
    },
    /// `target("name", T..., N...)`: kept as its exact text.
    TargetExt(Box<str>),
}

/// Ids of the types every table has from the start (so the parser's hot path never hashes them).
#[derive(Clone, Copy, Debug)]
pub struct CommonTypes {
    /// `void`
    pub void: Type,
    /// `label`
    pub label: Type,
    /// `metadata`
    pub metadata: Type,
    /// `token`
    pub token: Type,
    /// `i1`
    pub i1: Type,
    /// `i8`
    pub i8: Type,
    /// `i16`
    pub i16: Type,
    /// `i32`
    pub i32: Type,
    /// `i64`
    pub i64: Type,
    /// `ptr` (address space 0)
    pub ptr: Type,
    /// `float`
    pub float: Type,
    /// `double`
    pub double: Type,
}

/// A type interner: the module's table, or a function's overlay on it.
///
/// A function's table is made with [`TypeTable::child`]: ids below `base` are the parent's
/// (the module's, frozen in an `Arc`), ids from `base` up are the function's own. So a function
/// can intern new types without locks while functions are parsed and changed in parallel, and a
/// type of the module (a callee's signature, a global's type) means the same id in every
/// function. Invariant: an id at or above `base` is only meaningful in the table that made it;
/// types never move between functions (values never do).
#[derive(Clone, Debug)]
pub struct TypeTable {
    parent: Option<Arc<TypeTable>>,
    base: u32,
    data: Vec<TypeData>,
    map: FxHashMap<TypeData, Type>,
    /// Bodies of named types defined in this table: `None` for `opaque`. Names are unescaped.
    named: FxHashMap<Box<[u8]>, Option<Type>>,
    /// Named non-struct types (`%T = type i32`): a use of `%T` means the aliased type itself.
    aliases: FxHashMap<Box<[u8]>, Type>,
    typed_pointers: bool,
    /// The module spells pointers as `ptr`: typed spellings `T*` are read as `ptr` too, as
    /// LLVM 15+ reads them (set by the reader before parsing; see `text::parser`).
    pub opaque_mode: bool,
    common: CommonTypes,
    /// Facts learnt about this table's own types (see [`Memo`]), one entry per id of `data`.
    memo: Memo,
}

/// Facts about types that a table learns while it is used and never unlearns, one word per
/// type: whether the type is sized (a memo of the reader's `isSized` check, which looks
/// through named struct bodies: without it every `getelementptr` re-walked its source type)
/// and, for a named struct, its body (so resolving it does not hash its name again). Only
/// grows: a type found sized stays sized, and a defined body never changes.
///
/// Atomic, so that function tables reading bodies in parallel record facts about their shared
/// parent's types through `&`; relaxed, because a fact a racing reader misses is only
/// computed again.
#[derive(Default)]
struct Memo(Vec<AtomicU32>);

/// [`Memo`] bit: the type is sized. The other bits: the body's id + 1 (0: not known).
const MEMO_SIZED: u32 = 1 << 31;

impl Memo {
    #[inline]
    fn get(&self, i: usize) -> u32 {
        self.0.get(i).map_or(0, |a| a.load(Relaxed))
    }

    #[inline]
    fn add(&self, i: usize, bits: u32) {
        if let Some(a) = self.0.get(i) {
            a.fetch_or(bits, Relaxed);
        }
    }
}

impl Clone for Memo {
    fn clone(&self) -> Self {
        Memo(
            self.0
                .iter()
                .map(|a| AtomicU32::new(a.load(Relaxed)))
                .collect(),
        )
    }
}

impl fmt::Debug for Memo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Memo({} types)", self.0.len())
    }
}

impl Default for TypeTable {
    fn default() -> Self {
        Self::new()
    }
}

impl TypeTable {
    /// An empty module table (holding only the [`CommonTypes`]).
    pub fn new() -> Self {
        let placeholder = Type(0);
        let mut t = TypeTable {
            parent: None,
            base: 0,
            data: Vec::new(),
            map: FxHashMap::default(),
            named: FxHashMap::default(),
            aliases: FxHashMap::default(),
            typed_pointers: false,
            opaque_mode: true,
            memo: Memo::default(),
            common: CommonTypes {
                void: placeholder,
                label: placeholder,
                metadata: placeholder,
                token: placeholder,
                i1: placeholder,
                i8: placeholder,
                i16: placeholder,
                i32: placeholder,
                i64: placeholder,
                ptr: placeholder,
                float: placeholder,
                double: placeholder,
            },
        };
        t.common = CommonTypes {
            void: t.intern(TypeData::Void),
            label: t.intern(TypeData::Label),
            metadata: t.intern(TypeData::Metadata),
            token: t.intern(TypeData::Token),
            i1: t.intern(TypeData::Int(1)),
            i8: t.intern(TypeData::Int(8)),
            i16: t.intern(TypeData::Int(16)),
            i32: t.intern(TypeData::Int(32)),
            i64: t.intern(TypeData::Int(64)),
            ptr: t.intern(TypeData::Ptr { addrspace: 0 }),
            float: t.intern(TypeData::Float(FloatKind::Float)),
            double: t.intern(TypeData::Float(FloatKind::Double)),
        };
        t
    }

    /// A function's overlay on the frozen module table `parent`.
    pub fn child(parent: &Arc<TypeTable>) -> Self {
        TypeTable {
            base: parent.len() as u32,
            typed_pointers: parent.typed_pointers,
            opaque_mode: parent.opaque_mode,
            aliases: FxHashMap::default(),
            common: parent.common,
            parent: Some(parent.clone()),
            data: Vec::new(),
            map: FxHashMap::default(),
            named: FxHashMap::default(),
            memo: Memo::default(),
        }
    }

    /// The memo holding facts about `t` (the parent's for its ids) and `t`'s index in it.
    #[inline]
    fn memo_of(&self, t: Type) -> (&Memo, usize) {
        match &self.parent {
            Some(p) if t.0 < self.base => p.memo_of(t),
            _ => (&self.memo, (t.0 - self.base) as usize),
        }
    }

    /// Whether `t` was noted sized with [`TypeTable::note_sized`] (here or in the parent).
    #[inline]
    pub fn known_sized(&self, t: Type) -> bool {
        let (m, i) = self.memo_of(t);
        m.get(i) & MEMO_SIZED != 0
    }

    /// Remembers that `t` is sized (for every table sharing `t`: a parent's type is noted in
    /// the parent).
    pub fn note_sized(&mut self, t: Type) {
        let (m, i) = self.memo_of(t);
        m.add(i, MEMO_SIZED);
    }

    /// The types every table has.
    #[inline]
    pub fn common(&self) -> &CommonTypes {
        &self.common
    }

    /// The id of `data`, interning it if new.
    pub fn intern(&mut self, data: TypeData) -> Type {
        if let Some(t) = self.lookup(&data) {
            return t;
        }
        if matches!(data, TypeData::TypedPtr { .. }) {
            self.typed_pointers = true;
        }
        let t = Type(self.base + self.data.len() as u32);
        self.memo.0.push(AtomicU32::new(0));
        self.data.push(data.clone());
        self.map.insert(data, t);
        t
    }

    /// The id of `data` if it was interned already (here or in the parent).
    pub fn lookup(&self, data: &TypeData) -> Option<Type> {
        if let Some(p) = &self.parent {
            if let Some(t) = p.lookup(data) {
                return Some(t);
            }
        }
        self.map.get(data).copied()
    }

    /// The structure of `t`.
    #[inline]
    pub fn data(&self, t: Type) -> &TypeData {
        if t.0 < self.base {
            // A child table's parent holds every id below `base`.
            self.parent
                .as_ref()
                .expect("ids below base need a parent")
                .data(t)
        } else {
            &self.data[(t.0 - self.base) as usize]
        }
    }

    /// Number of ids in use (parent's included).
    pub fn len(&self) -> usize {
        self.base as usize + self.data.len()
    }

    /// Whether no type was interned (never true: the common types are always there).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether a typed pointer (`T*`) has been interned: the module uses LLVM <= 14 spelling.
    pub fn typed_pointers(&self) -> bool {
        self.typed_pointers
    }

    /// `void`
    pub fn void(&self) -> Type {
        self.common.void
    }
    /// `iN`
    pub fn int(&mut self, bits: u32) -> Type {
        match bits {
            1 => self.common.i1,
            8 => self.common.i8,
            16 => self.common.i16,
            32 => self.common.i32,
            64 => self.common.i64,
            _ => self.intern(TypeData::Int(bits)),
        }
    }
    /// `ptr` in address space 0.
    pub fn ptr(&self) -> Type {
        self.common.ptr
    }
    /// `label`
    pub fn label(&self) -> Type {
        self.common.label
    }
    /// `metadata`
    pub fn metadata(&self) -> Type {
        self.common.metadata
    }

    /// The function type `ret (params...)` (with `...` when `vararg`).
    pub fn function(&mut self, ret: Type, params: &[Type], vararg: bool) -> Type {
        self.intern(TypeData::Function {
            ret,
            params: params.into(),
            vararg,
        })
    }

    /// The pointer type to `pointee` in `addrspace`, in the module's pointer spelling.
    pub fn pointer_to(&mut self, pointee: Type, addrspace: u32) -> Type {
        if self.typed_pointers {
            self.intern(TypeData::TypedPtr { pointee, addrspace })
        } else if addrspace == 0 {
            self.common.ptr
        } else {
            self.intern(TypeData::Ptr { addrspace })
        }
    }

    /// The pointer type to `pointee` in `addrspace` as the input spells it: `ptr` in a module
    /// read in opaque mode (or built in Rust), `T*` in a typed-pointer module.
    pub fn pointer_to_spelled(&mut self, pointee: Type, addrspace: u32) -> Type {
        if self.opaque_mode {
            if addrspace == 0 {
                return self.common.ptr;
            }
            return self.intern(TypeData::Ptr { addrspace });
        }
        self.intern(TypeData::TypedPtr { pointee, addrspace })
    }

    /// Records the body of named type `%name` (`None`: opaque). Returns false if it already had one.
    pub fn define_named(&mut self, name: &[u8], body: Option<Type>) -> bool {
        match self.named_body(name) {
            Some(Some(_)) => false,
            _ => {
                self.named.insert(name.into(), body);
                true
            }
        }
    }

    /// The body of named type `%name`: `None` if undefined, `Some(None)` if opaque.
    pub fn named_body(&self, name: &[u8]) -> Option<Option<Type>> {
        if let Some(b) = self.named.get(name) {
            return Some(*b);
        }
        self.parent.as_ref().and_then(|p| p.named_body(name))
    }

    /// Records `%name = type T` for a non-struct `T`.
    pub fn define_alias(&mut self, name: &[u8], ty: Type) {
        self.aliases.insert(name.into(), ty);
    }

    /// The type `%name` stands for when it was defined as a non-struct type.
    pub fn alias(&self, name: &[u8]) -> Option<Type> {
        if let Some(&t) = self.aliases.get(name) {
            return Some(t);
        }
        self.parent.as_ref().and_then(|p| p.alias(name))
    }

    /// The body of `t` if it is a named type with a body, else `t` itself.
    pub fn resolve_named(&self, t: Type) -> Type {
        match self.data(t) {
            TypeData::Named(n) => {
                let (m, i) = self.memo_of(t);
                let known = m.get(i) & !MEMO_SIZED;
                if known != 0 {
                    return Type(known - 1);
                }
                match self.named_body(n).flatten() {
                    Some(body) => {
                        // A defined body never changes. (A parent's type is memoized in
                        // the parent only when this table defines no names of its own.)
                        let shared = t.0 >= self.base || self.named.is_empty();
                        if body.0 + 1 < MEMO_SIZED && shared {
                            m.add(i, body.0 + 1);
                        }
                        body
                    }
                    None => t,
                }
            }
            _ => t,
        }
    }

    /// Whether `t` is `void`.
    pub fn is_void(&self, t: Type) -> bool {
        t == self.common.void
    }
    /// Whether `t` is a pointer (typed or opaque).
    pub fn is_pointer(&self, t: Type) -> bool {
        matches!(
            self.data(t),
            TypeData::Ptr { .. } | TypeData::TypedPtr { .. }
        )
    }
    /// Whether `t` is `iN`.
    pub fn is_int(&self, t: Type) -> bool {
        matches!(self.data(t), TypeData::Int(_))
    }
    /// Whether `t` is first-class (can be an SSA value: not void, label, function or metadata).
    pub fn is_first_class(&self, t: Type) -> bool {
        !matches!(
            self.data(t),
            TypeData::Void | TypeData::Function { .. } | TypeData::Metadata | TypeData::Label
        )
    }
    /// Size in bits of a value of type `t` under LLVM's default layout with `ptr_bits`-bit
    /// pointers (see [`crate::ir::datalayout::DataLayout`] for a module's own layout).
    pub fn size_bits(&self, t: Type, ptr_bits: u64) -> Option<u64> {
        crate::ir::datalayout::DataLayout::with_ptr_bits(ptr_bits).size_bits(self, t)
    }

    /// Allocation size in bytes under LLVM's default layout with `ptr_bits`-bit pointers.
    pub fn alloc_size_bytes(&self, t: Type, ptr_bits: u64) -> Option<u64> {
        crate::ir::datalayout::DataLayout::with_ptr_bits(ptr_bits).alloc_size(self, t)
    }

    /// A printable view of `t` in LLVM spelling.
    pub fn display(&self, t: Type) -> DisplayType<'_> {
        DisplayType { table: self, ty: t }
    }

    /// Appends `t`'s LLVM spelling to `out`.
    pub fn write(&self, out: &mut Vec<u8>, t: Type) {
        let mut s = String::new();
        let _ = write!(s, "{}", self.display(t));
        out.extend_from_slice(s.as_bytes());
    }
}

/// See [`TypeTable::display`].
pub struct DisplayType<'a> {
    table: &'a TypeTable,
    ty: Type,
}

impl fmt::Display for DisplayType<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let t = self.table;
        let d = |ty| t.display(ty);
        match t.data(self.ty) {
            TypeData::Void => f.write_str("void"),
            TypeData::Label => f.write_str("label"),
            TypeData::Metadata => f.write_str("metadata"),
            TypeData::Token => f.write_str("token"),
            TypeData::X86Mmx => f.write_str("x86_mmx"),
            TypeData::X86Amx => f.write_str("x86_amx"),
            TypeData::Int(n) => write!(f, "i{n}"),
            TypeData::Float(k) => f.write_str(k.keyword()),
            TypeData::Ptr { addrspace: 0 } => f.write_str("ptr"),
            TypeData::Ptr { addrspace } => write!(f, "ptr addrspace({addrspace})"),
            TypeData::TypedPtr {
                pointee,
                addrspace: 0,
            } => write!(f, "{}*", d(*pointee)),
            TypeData::TypedPtr { pointee, addrspace } => {
                write!(f, "{} addrspace({addrspace})*", d(*pointee))
            }
            TypeData::Array { len, elem } => write!(f, "[{len} x {}]", d(*elem)),
            TypeData::Vector {
                len,
                elem,
                scalable,
            } => {
                write!(
                    f,
                    "<{}{len} x {}>",
                    if *scalable { "vscale x " } else { "" },
                    d(*elem)
                )
            }
            TypeData::Struct { fields, packed } => {
                f.write_str(if *packed { "<{" } else { "{" })?;
                for (i, &fl) in fields.iter().enumerate() {
                    f.write_str(if i == 0 { " " } else { ", " })?;
                    write!(f, "{}", d(fl))?;
                }
                f.write_str(match (fields.is_empty(), *packed) {
                    (true, false) => "}",
                    (true, true) => "}>",
                    (false, false) => " }",
                    (false, true) => " }>",
                })
            }
            TypeData::Named(n) => {
                let mut b = Vec::new();
                crate::print::names::write_name(&mut b, b'%', n);
                f.write_str(&String::from_utf8_lossy(&b))
            }
            TypeData::Function {
                ret,
                params,
                vararg,
            } => {
                write!(f, "{} (", d(*ret))?;
                for (i, &p) in params.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{}", d(p))?;
                }
                if *vararg {
                    f.write_str(if params.is_empty() { "..." } else { ", ..." })?;
                }
                f.write_str(")")
            }
            TypeData::TargetExt(s) => f.write_str(s),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interning_is_structural() {
        let mut t = TypeTable::new();
        let i32_ = t.int(32);
        let a = t.intern(TypeData::Array { len: 4, elem: i32_ });
        let b = t.intern(TypeData::Array {
            len: 4,
            elem: t.lookup(&TypeData::Int(32)).unwrap(),
        });
        assert_eq!(a, b);
        assert_eq!(t.display(a).to_string(), "[4 x i32]");
        assert!(!t.typed_pointers());
        let p = t.intern(TypeData::TypedPtr {
            pointee: a,
            addrspace: 0,
        });
        assert_eq!(t.display(p).to_string(), "[4 x i32]*");
        assert!(t.typed_pointers());
    }

    #[test]
    fn sizes_follow_natural_layout() {
        let mut t = TypeTable::new();
        let (i8_, i32_, i64_) = (t.int(8), t.int(32), t.int(64));
        let s = t.intern(TypeData::Struct {
            fields: vec![i8_, i64_, i32_].into(),
            packed: false,
        });
        // LLVM's default layout aligns i64 to 4 bytes (x86-64's datalayout says 8).
        assert_eq!(t.alloc_size_bytes(s, 64), Some(16));
        let p = t.intern(TypeData::Struct {
            fields: vec![i8_, i64_].into(),
            packed: true,
        });
        assert_eq!(t.alloc_size_bytes(p, 64), Some(9));
        assert_eq!(t.display(p).to_string(), "<{ i8, i64 }>");
        let i1 = t.int(1);
        assert_eq!(
            (t.size_bits(i1, 64), t.alloc_size_bytes(i1, 64)),
            (Some(1), Some(1))
        );
    }
}
