//! The target's data layout (`target datalayout = "..."`): sizes and alignments of types, as
//! LLVM's `DataLayout` computes them.
//!
//! Used where the output must say what LLVM would (`load i32, ptr %p` with no alignment reads
//! as `align 4`, and opt prints it), and where promotion compares sizes (a debug variable's
//! fragment against the stored value). Invariant: with no datalayout string, the defaults are
//! LLVM's (`i64` aligned to 4 bytes for ABI and 8 preferred, structs preferring 8, pointers 64
//! bits), so a module without one is laid out as LLVM lays it out.

use super::types::{Type, TypeData, TypeTable};
use crate::util::fxhash::{FxHashMap, FxHashSet};

/// One `(bit width, ABI alignment, preferred alignment)` entry, alignments in bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Entry {
    bits: u32,
    abi: u64,
    pref: u64,
}

/// A pointer specification for one address space.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct PtrSpec {
    space: u32,
    bits: u64,
    abi: u64,
    pref: u64,
}

/// A parsed data layout.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DataLayout {
    ints: Vec<Entry>,
    floats: Vec<Entry>,
    vectors: Vec<Entry>,
    ptrs: Vec<PtrSpec>,
    struct_abi: u64,
    struct_pref: u64,
    /// Address space of `alloca` results (`A<n>`).
    pub alloca_space: u32,
}

impl Default for DataLayout {
    fn default() -> Self {
        let e = |bits, abi, pref| Entry { bits, abi, pref };
        Self {
            ints: vec![
                e(1, 1, 1),
                e(8, 1, 1),
                e(16, 2, 2),
                e(32, 4, 4),
                e(64, 4, 8),
            ],
            floats: vec![e(16, 2, 2), e(32, 4, 4), e(64, 8, 8), e(128, 16, 16)],
            vectors: vec![e(64, 8, 8), e(128, 16, 16)],
            ptrs: vec![PtrSpec {
                space: 0,
                bits: 64,
                abi: 8,
                pref: 8,
            }],
            struct_abi: 1,
            struct_pref: 8,
            alloca_space: 0,
        }
    }
}

fn num(s: &str) -> Option<u64> {
    s.parse().ok()
}

fn set(list: &mut Vec<Entry>, e: Entry) {
    match list.binary_search_by_key(&e.bits, |x| x.bits) {
        Ok(i) => list[i] = e,
        Err(i) => list.insert(i, e),
    }
}

impl DataLayout {
    /// Parses a datalayout string; unknown or malformed specifications are ignored (the reader
    /// does not judge them; LLVM's own verifier would).
    pub fn parse(s: &str) -> Self {
        let mut dl = DataLayout::default();
        for spec in s.split('-') {
            let (head, rest) = spec.split_at(spec.chars().next().map_or(0, |c| c.len_utf8()));
            let parts: Vec<&str> = rest.split(':').collect();
            match head {
                "i" | "f" | "v" => {
                    let (Some(bits), Some(abi)) =
                        (num(parts[0]), parts.get(1).and_then(|x| num(x)))
                    else {
                        continue;
                    };
                    let pref = parts.get(2).and_then(|x| num(x)).unwrap_or(abi);
                    let e = Entry {
                        bits: bits as u32,
                        abi: (abi / 8).max(1),
                        pref: (pref / 8).max(1),
                    };
                    let list = match head {
                        "i" => &mut dl.ints,
                        "f" => &mut dl.floats,
                        _ => &mut dl.vectors,
                    };
                    set(list, e);
                }
                "p" => {
                    let space = num(parts[0]).unwrap_or(0) as u32;
                    let (Some(bits), Some(abi)) = (
                        parts.get(1).and_then(|x| num(x)),
                        parts.get(2).and_then(|x| num(x)),
                    ) else {
                        continue;
                    };
                    let pref = parts.get(3).and_then(|x| num(x)).unwrap_or(abi);
                    let p = PtrSpec {
                        space,
                        bits,
                        abi: (abi / 8).max(1),
                        pref: (pref / 8).max(1),
                    };
                    match dl.ptrs.iter_mut().find(|x| x.space == space) {
                        Some(x) => *x = p,
                        None => dl.ptrs.push(p),
                    }
                }
                "a" => {
                    let abi = parts.get(1).and_then(|x| num(x)).unwrap_or(0);
                    let pref = parts.get(2).and_then(|x| num(x)).unwrap_or(abi);
                    dl.struct_abi = (abi / 8).max(1);
                    dl.struct_pref = (pref / 8).max(1);
                }
                "A" => dl.alloca_space = num(rest).unwrap_or(0) as u32,
                _ => {}
            }
        }
        dl
    }

    /// LLVM's default layout with `bits`-bit pointers.
    pub fn with_ptr_bits(bits: u64) -> Self {
        let mut dl = DataLayout::default();
        dl.ptrs[0].bits = bits;
        dl.ptrs[0].abi = (bits / 8).max(1);
        dl.ptrs[0].pref = (bits / 8).max(1);
        dl
    }

    fn ptr(&self, space: u32) -> PtrSpec {
        self.ptrs
            .iter()
            .find(|p| p.space == space)
            .or_else(|| self.ptrs.iter().find(|p| p.space == 0))
            .copied()
            .unwrap_or(PtrSpec {
                space,
                bits: 64,
                abi: 8,
                pref: 8,
            })
    }

    /// Pointer size in bits in address space 0.
    pub fn ptr_bits(&self) -> u64 {
        self.ptr(0).bits
    }

    /// Size in bits (`getTypeSizeInBits`); `None` for unsized types (also a named struct that
    /// contains itself, which LLVM's reader calls unsized).
    pub fn size_bits(&self, types: &TypeTable, t: Type) -> Option<u64> {
        self.size_in(types, t, &mut Walk::default())
    }

    /// Store size in bytes (size rounded up to whole bytes).
    pub fn store_size(&self, types: &TypeTable, t: Type) -> Option<u64> {
        Some(self.size_bits(types, t)?.div_ceil(8))
    }

    /// Allocation size in bytes (store size rounded up to the ABI alignment).
    pub fn alloc_size(&self, types: &TypeTable, t: Type) -> Option<u64> {
        let (bits, abi) = self.size_abi(types, t, &mut Walk::default())?;
        round_up(bits.div_ceil(8), abi)
    }

    /// ABI alignment in bytes.
    pub fn abi_align(&self, types: &TypeTable, t: Type) -> Option<u64> {
        self.align_in(types, t, true, &mut Walk::default())
    }

    /// Preferred alignment in bytes (what an `alloca` without `align` gets).
    pub fn pref_align(&self, types: &TypeTable, t: Type) -> Option<u64> {
        self.align_in(types, t, false, &mut Walk::default())
    }

    /// Byte offset of field `k` of struct type `t` (named or literal; LLVM's
    /// `StructLayout::getElementOffset`); `None` if `t` is no sized struct or has no field `k`.
    pub fn field_offset(&self, types: &TypeTable, t: Type, k: usize) -> Option<u64> {
        let TypeData::Struct { fields, packed } = types.data(types.resolve_named(t)) else {
            return None;
        };
        let open = &mut Walk::default();
        Some(self.struct_layout(types, fields, *packed, Some(k), open)?.0)
    }

    // The walks below visit each level of a type once (a 100,000-deep nest is linear, not
    // exponential), remember each named type's layout (`%T2 = type { %T1, %T1 }` chains stay
    // linear too), and end with `None` on a named struct that contains itself.

    /// The body of named type `t` unless it is unsized or already open.
    fn enter_named(types: &TypeTable, t: Type, open: &mut Walk) -> Option<Type> {
        let b = types.resolve_named(t);
        if b == t || !open.open.insert(t) {
            return None;
        }
        Some(b)
    }

    fn size_in(&self, types: &TypeTable, t: Type, open: &mut Walk) -> Option<u64> {
        Some(match types.data(t) {
            TypeData::Int(n) => *n as u64,
            TypeData::Float(k) => k.bits(),
            TypeData::Ptr { addrspace } | TypeData::TypedPtr { addrspace, .. } => {
                self.ptr(*addrspace).bits
            }
            TypeData::X86Mmx => 64,
            TypeData::X86Amx => 8192,
            TypeData::Array { .. } | TypeData::Struct { .. } => self.size_abi(types, t, open)?.0,
            TypeData::Vector { len, elem, .. } => {
                len.checked_mul(self.size_in(types, *elem, open)?)?
            }
            TypeData::Named(_) => {
                let b = Self::enter_named(types, t, open)?;
                let r = self.size_in(types, b, open);
                open.open.remove(&t);
                return r;
            }
            _ => return None,
        })
    }

    /// (size in bits, ABI alignment in bytes) in one walk.
    fn size_abi(&self, types: &TypeTable, t: Type, open: &mut Walk) -> Option<(u64, u64)> {
        match types.data(t) {
            TypeData::Array { len, elem } => {
                let (bits, abi) = self.size_abi(types, *elem, open)?;
                let alloc = round_up(bits.div_ceil(8), abi)?;
                Some((len.checked_mul(alloc)?.checked_mul(8)?, abi))
            }
            TypeData::Struct { fields, packed } => {
                let (bytes, align) = self.struct_layout(types, fields, *packed, None, open)?;
                let abi = if *packed {
                    1
                } else {
                    self.struct_abi.max(align)
                };
                Some((bytes.checked_mul(8)?, abi))
            }
            TypeData::Named(_) => {
                if let Some(&r) = open.done.get(&t) {
                    return r;
                }
                let b = Self::enter_named(types, t, open)?;
                let r = self.size_abi(types, b, open);
                open.open.remove(&t);
                open.done.insert(t, r);
                r
            }
            _ => Some((
                self.size_in(types, t, open)?,
                self.align_in(types, t, true, open)?,
            )),
        }
    }

    fn align_in(&self, types: &TypeTable, t: Type, abi: bool, open: &mut Walk) -> Option<u64> {
        let pick = |e: &Entry| if abi { e.abi } else { e.pref };
        Some(match types.data(t) {
            TypeData::Int(n) => {
                let i = self.ints.partition_point(|e| e.bits < *n);
                let e = self.ints.get(i).or_else(|| self.ints.last())?;
                pick(e)
            }
            TypeData::Float(k) => {
                let bits = k.bits() as u32;
                match self.floats.iter().find(|e| e.bits == bits) {
                    Some(e) => pick(e),
                    None => (bits as u64 / 8).next_power_of_two(),
                }
            }
            TypeData::Ptr { addrspace } | TypeData::TypedPtr { addrspace, .. } => {
                let p = self.ptr(*addrspace);
                if abi {
                    p.abi
                } else {
                    p.pref
                }
            }
            TypeData::Vector { .. } => {
                let bits = self.size_in(types, t, open)?;
                match self.vectors.iter().find(|e| e.bits as u64 == bits) {
                    Some(e) => pick(e),
                    None => bits.div_ceil(8).checked_next_power_of_two()?.max(1),
                }
            }
            TypeData::Array { elem, .. } => self.align_in(types, *elem, abi, open)?,
            TypeData::Struct { fields, packed } => {
                if *packed && abi {
                    1
                } else {
                    let layout = self.struct_layout(types, fields, *packed, None, open)?.1;
                    let base = if abi {
                        self.struct_abi
                    } else {
                        self.struct_pref
                    };
                    base.max(layout)
                }
            }
            TypeData::Named(_) => {
                let b = Self::enter_named(types, t, open)?;
                let r = self.align_in(types, b, abi, open);
                open.open.remove(&t);
                r?
            }
            TypeData::X86Mmx => 8,
            TypeData::X86Amx => 64,
            _ => return None,
        })
    }

    /// (size in bytes, ABI alignment) of a struct.
    /// Lays `fields` out in order: the struct's (size, alignment) in bytes, or with `stop`
    /// = `Some(k)` the offset of field `k` (and the alignment so far; `None` if there is no
    /// field `k`).
    fn struct_layout(
        &self,
        types: &TypeTable,
        fields: &[Type],
        packed: bool,
        stop: Option<usize>,
        open: &mut Walk,
    ) -> Option<(u64, u64)> {
        let (mut off, mut align) = (0u64, 1u64);
        for (i, &f) in fields.iter().enumerate() {
            let (bits, fa) = self.size_abi(types, f, open)?;
            let a = if packed { 1 } else { fa };
            off = round_up(off, a)?;
            if stop == Some(i) {
                return Some((off, align));
            }
            off = off.checked_add(round_up(bits.div_ceil(8), fa)?)?;
            align = align.max(a);
        }
        match stop {
            Some(_) => None,
            None => Some((round_up(off, align)?, align)),
        }
    }
}

/// The state of one walk over a type: named types being walked, and layouts already known.
#[derive(Default)]
struct Walk {
    open: FxHashSet<Type>,
    done: FxHashMap<Type, Option<(u64, u64)>>,
}

/// `n` rounded up to a multiple of `a` (`None` on overflow).
fn round_up(n: u64, a: u64) -> Option<u64> {
    n.div_ceil(a.max(1)).checked_mul(a.max(1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::types::{FloatKind, TypeData};

    #[test]
    fn defaults_and_x86_64_match_llvm() {
        let mut t = TypeTable::new();
        let (i8t, i64t) = (t.int(8), t.int(64));
        let i128t = t.int(128);
        let s = t.intern(TypeData::Struct {
            fields: vec![i8t, i64t].into(),
            packed: false,
        });
        let f80 = t.intern(TypeData::Float(FloatKind::X86Fp80));
        let d = DataLayout::default();
        assert_eq!(
            (d.abi_align(&t, i64t), d.pref_align(&t, i64t)),
            (Some(4), Some(8))
        );
        assert_eq!(
            (d.abi_align(&t, s), d.pref_align(&t, s)),
            (Some(4), Some(8))
        );
        assert_eq!(d.abi_align(&t, i128t), Some(4));
        assert_eq!(d.abi_align(&t, f80), Some(16));
        let x = DataLayout::parse(
            "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128",
        );
        assert_eq!(x.abi_align(&t, i128t), Some(16));
        assert_eq!(x.alloc_size(&t, s), Some(16));
        assert_eq!(x.alloc_size(&t, f80), Some(16));
        let p32 = DataLayout::parse("e-p:32:32-A5");
        assert_eq!((p32.ptr_bits(), p32.alloca_space), (32, 5));
    }
}
