//! Type rules shared by constant expressions and instructions: which casts are valid
//! (`CastInst::castIsValid`), the type a `getelementptr` yields, the type at an
//! `extractvalue` index path, and the result type of comparisons.
//!
//! Invariant: these functions only read the type table and intern the result types they
//! return; errors are LLVM's messages, positioned by the caller.

use crate::ir::types::{Type, TypeData, TypeTable};
use crate::util::fxhash::FxHashSet;

/// The cast opcodes by keyword.
pub fn is_cast_keyword(w: &[u8]) -> bool {
    matches!(
        w,
        b"trunc"
            | b"zext"
            | b"sext"
            | b"fptrunc"
            | b"fpext"
            | b"uitofp"
            | b"sitofp"
            | b"fptoui"
            | b"fptosi"
            | b"inttoptr"
            | b"ptrtoint"
            | b"bitcast"
            | b"addrspacecast"
    )
}

/// (scalar type, vector length and scalability) of `t`.
fn scalar_of(types: &TypeTable, t: Type) -> (Type, Option<(u64, bool)>) {
    match types.data(t) {
        TypeData::Vector {
            len,
            elem,
            scalable,
        } => (*elem, Some((*len, *scalable))),
        _ => (t, None),
    }
}

fn int_bits(types: &TypeTable, t: Type) -> Option<u32> {
    match types.data(t) {
        TypeData::Int(n) => Some(*n),
        _ => None,
    }
}

fn float_bits(types: &TypeTable, t: Type) -> Option<u64> {
    match types.data(t) {
        TypeData::Float(k) => Some(k.bits()),
        _ => None,
    }
}

fn addrspace(types: &TypeTable, t: Type) -> Option<u32> {
    match types.data(t) {
        TypeData::Ptr { addrspace } | TypeData::TypedPtr { addrspace, .. } => Some(*addrspace),
        _ => None,
    }
}

/// Whether `op` may cast `src` to `dst` (LLVM's `castIsValid`).
pub fn cast_valid(types: &TypeTable, op: &[u8], src: Type, dst: Type, ptr_bits: u64) -> bool {
    let (s, sv) = scalar_of(types, src);
    let (d, dv) = scalar_of(types, dst);
    if op != b"bitcast" && sv != dv {
        return false;
    }
    match op {
        b"trunc" => matches!((int_bits(types, s), int_bits(types, d)), (Some(a), Some(b)) if a > b),
        b"zext" | b"sext" => {
            matches!((int_bits(types, s), int_bits(types, d)), (Some(a), Some(b)) if a < b)
        }
        b"fptrunc" => {
            matches!((float_bits(types, s), float_bits(types, d)), (Some(a), Some(b)) if a > b)
        }
        b"fpext" => {
            matches!((float_bits(types, s), float_bits(types, d)), (Some(a), Some(b)) if a < b)
        }
        b"uitofp" | b"sitofp" => int_bits(types, s).is_some() && float_bits(types, d).is_some(),
        b"fptoui" | b"fptosi" => float_bits(types, s).is_some() && int_bits(types, d).is_some(),
        b"ptrtoint" => addrspace(types, s).is_some() && int_bits(types, d).is_some(),
        b"inttoptr" => int_bits(types, s).is_some() && addrspace(types, d).is_some(),
        b"addrspacecast" => {
            matches!((addrspace(types, s), addrspace(types, d)), (Some(a), Some(b)) if a != b || types.typed_pointers())
        }
        b"bitcast" => bitcast_valid(types, src, dst, ptr_bits),
        _ => false,
    }
}

fn bitcast_valid(types: &TypeTable, src: Type, dst: Type, ptr_bits: u64) -> bool {
    let first_class_non_agg = |t: Type| {
        !matches!(
            types.data(t),
            TypeData::Struct { .. }
                | TypeData::Array { .. }
                | TypeData::Named(_)
                | TypeData::Void
                | TypeData::Label
                | TypeData::Metadata
                | TypeData::Function { .. }
                | TypeData::Token
        )
    };
    if !first_class_non_agg(src) || !first_class_non_agg(dst) {
        return false;
    }
    let (s, sv) = scalar_of(types, src);
    let (d, dv) = scalar_of(types, dst);
    let (sp, dp) = (addrspace(types, s), addrspace(types, d));
    if sp.is_some() || dp.is_some() {
        // Pointers (or vectors of pointers) cast only to pointers of the same address space
        // and vector length.
        return sp.is_some() && dp.is_some() && sp == dp && sv == dv;
    }
    if matches!(sv, Some((_, true))) || matches!(dv, Some((_, true))) {
        return sv.map(|v| v.1) == dv.map(|v| v.1)
            && types
                .size_bits(s, ptr_bits)
                .zip(types.size_bits(d, ptr_bits))
                .map(|(a, b)| a * sv.unwrap().0 == b * dv.unwrap().0)
                == Some(true);
    }
    match (
        types.size_bits(src, ptr_bits),
        types.size_bits(dst, ptr_bits),
    ) {
        (Some(a), Some(b)) => a == b && a > 0,
        _ => false,
    }
}

/// The type reached by the `getelementptr` indices after the first, from `src_elem`.
/// `consts[i]` is the value of index `i` when it is a literal (needed for struct fields).
pub fn gep_indexed_type(
    types: &TypeTable,
    src_elem: Type,
    consts: &[Option<i128>],
) -> Result<Type, &'static str> {
    let mut cur = src_elem;
    for c in consts.iter().skip(1) {
        let body = types.resolve_named(cur);
        cur = match types.data(body) {
            TypeData::Struct { fields, .. } => {
                let i = c.ok_or("invalid getelementptr indices")?;
                if i < 0 || i as usize >= fields.len() {
                    return Err("invalid getelementptr indices");
                }
                fields[i as usize]
            }
            TypeData::Array { elem, .. } | TypeData::Vector { elem, .. } => *elem,
            _ => return Err("invalid getelementptr indices"),
        };
    }
    Ok(cur)
}

/// The result type of `getelementptr src_elem, base, indices...`: a pointer (in `base`'s
/// address space) to the indexed type, or a vector of them when `vector_len` is set.
pub fn gep_result(
    types: &mut TypeTable,
    src_elem: Type,
    base: Type,
    consts: &[Option<i128>],
    vector_len: Option<(u64, bool)>,
) -> Result<Type, &'static str> {
    let (base_scalar, _) = scalar_of(types, base);
    let space = addrspace(types, base_scalar).ok_or("base of getelementptr must be a pointer")?;
    if let TypeData::TypedPtr { pointee, .. } = types.data(base_scalar) {
        if *pointee != src_elem {
            return Err("explicit pointee type doesn't match operand's pointee type");
        }
    }
    if !types_sized(types, src_elem) {
        return Err("base element of getelementptr must be sized");
    }
    let indexed = gep_indexed_type(types, src_elem, consts)?;
    let ptr = match types.data(base_scalar) {
        TypeData::TypedPtr { .. } => types.intern(TypeData::TypedPtr {
            pointee: indexed,
            addrspace: space,
        }),
        _ => base_scalar,
    };
    Ok(match vector_len {
        Some((len, scalable)) => types.intern(TypeData::Vector {
            len,
            elem: ptr,
            scalable,
        }),
        None => ptr,
    })
}

/// Whether `t` has a size (functions, labels, opaque structs and `void` do not), as LLVM's
/// `Type::isSized`: a named struct is sized when its body is, and one that contains itself is
/// not. Each named type is looked into once per call (`%T2 = type { %T1, %T1 }` chains stay
/// linear): `open` holds those being looked into, `sized` those found sized.
/// Results are memoized in the table ([`TypeTable::known_sized`]).
pub fn types_sized(types: &mut TypeTable, t: Type) -> bool {
    if types.known_sized(t) {
        return true;
    }
    let mut seen = (FxHashSet::default(), FxHashSet::default());
    let r = sized_in(types, t, &mut seen);
    if r {
        types.note_sized(t);
    }
    // A named type found sized inside `t` is sized on its own too: a walk that met a type
    // still open (a cycle) answered "unsized" all the way up.
    for n in seen.1 {
        types.note_sized(n);
    }
    r
}

fn sized_in(types: &TypeTable, t: Type, seen: &mut (FxHashSet<Type>, FxHashSet<Type>)) -> bool {
    match types.data(t) {
        TypeData::Void
        | TypeData::Label
        | TypeData::Metadata
        | TypeData::Function { .. }
        | TypeData::Token => false,
        TypeData::Named(_) if types.known_sized(t) => true,
        TypeData::Named(n) => {
            let Some(Some(body)) = types.named_body(n) else {
                return false;
            };
            if seen.1.contains(&t) {
                return true;
            }
            if !seen.0.insert(t) {
                return false;
            }
            let r = sized_in(types, body, seen);
            seen.0.remove(&t);
            if r {
                seen.1.insert(t);
            }
            r
        }
        TypeData::Struct { fields, .. } => fields.iter().all(|&f| sized_in(types, f, seen)),
        TypeData::Array { elem, .. } | TypeData::Vector { elem, .. } => {
            sized_in(types, *elem, seen)
        }
        _ => true,
    }
}

/// The type at `indices` inside aggregate `agg` (`extractvalue`/`insertvalue`).
pub fn aggregate_index_type(
    types: &TypeTable,
    agg: Type,
    indices: &[u64],
) -> Result<Type, &'static str> {
    if indices.is_empty() {
        return Err("expected index");
    }
    let mut cur = agg;
    for &i in indices {
        let body = types.resolve_named(cur);
        cur = match types.data(body) {
            TypeData::Struct { fields, .. } => *fields
                .get(i as usize)
                .ok_or("invalid indices for extractvalue")?,
            TypeData::Array { len, elem } if i < *len => *elem,
            TypeData::Array { .. } => return Err("invalid indices for extractvalue"),
            _ => return Err("extractvalue operand must be aggregate type"),
        };
    }
    Ok(cur)
}

/// `i1`, or `<N x i1>` for a vector operand type.
pub fn cmp_result(types: &mut TypeTable, operand: Type) -> Type {
    let i1 = types.common().i1;
    match *types.data(operand) {
        TypeData::Vector { len, scalable, .. } => types.intern(TypeData::Vector {
            len,
            elem: i1,
            scalable,
        }),
        _ => i1,
    }
}

/// Vector length of `t` if it is a vector.
pub fn vector_len(types: &TypeTable, t: Type) -> Option<(u64, bool)> {
    scalar_of(types, t).1
}

/// Whether `t` is an integer or a vector of integers.
pub fn is_int_or_int_vector(types: &TypeTable, t: Type) -> bool {
    int_bits(types, scalar_of(types, t).0).is_some()
}

/// Whether `t` is a float or a vector of floats.
pub fn is_fp_or_fp_vector(types: &TypeTable, t: Type) -> bool {
    float_bits(types, scalar_of(types, t).0).is_some()
}

/// Whether `t` is a pointer or a vector of pointers.
pub fn is_ptr_or_ptr_vector(types: &TypeTable, t: Type) -> bool {
    addrspace(types, scalar_of(types, t).0).is_some()
}
