//! The order opt prints named types in: the order LLVM's `TypeFinder` (llvm/lib/IR/
//! TypeFinder.cpp) first meets them, which the printer's `printTypeIdentities` follows. Types
//! nothing uses any more are not printed.
//!
//! `TypeFinder` walks the module in this order: global variables (value type, then the
//! initializer's constants), aliases (value type, aliasee), ifuncs (value type), then each
//! function, declarations too (its function type, its type attributes, then, instruction by
//! instruction: the result type, the constants among the operands in operand order, a
//! `getelementptr`'s source type, an `alloca`'s allocated type, a call's type attributes,
//! and a debug record's location constants). From each type it meets it walks the types
//! inside (fields, elements, pointee, return and parameter types) depth first, marking a type
//! when it pushes it ([`TypeWalk`]). Constants are walked through their operands, except
//! globals and instructions, whose types are met where they are defined.
//!
//! The module level's starting types come from the reader
//! ([`crate::ir::module_info::TypeRoots`]); a function body's are listed by the printer
//! as it prints it ([`body_events`]), as the names of the named types it meets first, in
//! order. Invariant: merging those lists in module order ([`ModuleTypes`]) gives
//! `TypeFinder`'s order, because the set of types met so far is closed under "inside": a
//! type met earlier already brought every type inside it.

use crate::ir::types::{Type, TypeData, TypeTable};
use crate::ir::{Function, Inst, Opcode, Value, ValueDef};
use crate::util::fxhash::FxHashSet;

/// `TypeFinder::incorporateType` over one table: the named types met, in order.
#[derive(Default)]
pub struct TypeWalk {
    seen: Vec<u64>,
    stack: Vec<Type>,
    subs: Vec<Type>,
}

impl TypeWalk {
    /// Makes room for marks of `n` types (so marking seldom grows the set).
    #[inline]
    fn reserve(&mut self, n: usize) {
        let words = n.div_ceil(64);
        if self.seen.len() < words {
            self.seen.resize(words, 0);
        }
    }

    #[inline]
    fn mark(&mut self, t: Type) -> bool {
        let i = crate::entity::EntityRef::index(t);
        let (w, b) = (i / 64, 1u64 << (i % 64));
        if w >= self.seen.len() {
            self.seen.resize(w + 1, 0);
        }
        let new = self.seen[w] & b == 0;
        self.seen[w] |= b;
        new
    }

    /// Meets `t`: calls `named` with the name of every named type first met through it.
    #[inline]
    pub fn root(&mut self, types: &TypeTable, t: Type, named: &mut impl FnMut(&[u8])) {
        // Most calls meet a type met before: that test stays inline at the caller.
        if t.is_none() || !self.mark(t) {
            return;
        }
        self.walk_from(types, t, named);
    }

    /// The walk from `t`, just marked.
    fn walk_from(&mut self, types: &TypeTable, t: Type, named: &mut impl FnMut(&[u8])) {
        self.stack.push(t);
        while let Some(ty) = self.stack.pop() {
            if let TypeData::Named(n) = types.data(ty) {
                named(n);
            }
            let mut subs = std::mem::take(&mut self.subs);
            subtypes(types, ty, &mut subs);
            for &s in subs.iter().rev() {
                if self.mark(s) {
                    self.stack.push(s);
                }
            }
            self.subs = subs;
        }
    }
}

/// The types directly inside `t`, in LLVM's `Type::subtypes` order.
fn subtypes(types: &TypeTable, t: Type, out: &mut Vec<Type>) {
    out.clear();
    match types.data(t) {
        TypeData::TypedPtr { pointee, .. } => out.push(*pointee),
        TypeData::Array { elem, .. } | TypeData::Vector { elem, .. } => out.push(*elem),
        TypeData::Struct { fields, .. } => out.extend_from_slice(fields),
        TypeData::Function { ret, params, .. } => {
            out.push(*ret);
            out.extend_from_slice(params);
        }
        TypeData::Named(_) => {
            let body = types.resolve_named(t);
            if let TypeData::Struct { fields, .. } = types.data(body) {
                if body != t {
                    out.extend_from_slice(fields);
                }
            }
        }
        _ => {}
    }
}

/// The unescaped name of a `%name` / `%"name"` token whose name starts at `at`, and its end.
fn name_token(text: &[u8], at: usize) -> (Vec<u8>, usize) {
    if text.get(at) == Some(&b'"') {
        let end = match crate::util::bytes::find_byte(&text[at + 1..], b'"') {
            Some(q) => at + q + 2,
            None => return (Vec::new(), text.len()),
        };
        let name = crate::print::names::name_key(&text[at - 1..end]).into_owned();
        return (name, end);
    }
    let len = text[at..]
        .iter()
        .take_while(|&&c| c.is_ascii_alphanumeric() || b"-$._".contains(&c))
        .count();
    (text[at..at + len].to_vec(), at + len)
}

/// The types of a call's type attributes (`byval(%struct.S)`, `sret(...)`, `elementtype(...)`)
/// that are named types, in order.
fn attr_names(text: &[u8], mut f: impl FnMut(&[u8])) {
    const ATTRS: [&[u8]; 6] = [
        b"byval(",
        b"byref(",
        b"sret(",
        b"inalloca(",
        b"preallocated(",
        b"elementtype(",
    ];
    let mut i = 0;
    while let Some(p) = crate::util::bytes::find_sub(&text[i..], b"(%") {
        let at = i + p;
        if ATTRS.iter().any(|a| text[..at + 1].ends_with(a)) {
            let (name, _) = name_token(text, at + 2);
            if !name.is_empty() {
                f(&name);
            }
        }
        i = at + 2;
    }
}

/// The named types `func`'s body meets first, in `TypeFinder`'s order (its header's types are
/// the module reader's: [`crate::ir::module_info::TypeRoots`]).
pub fn body_events(func: &Function) -> Vec<Box<[u8]>> {
    let mut b = BodyTypes::default();
    for block in func.layout.blocks() {
        for i in func.layout.block_insts(block) {
            b.inst(func, i);
        }
    }
    b.finish()
}

/// [`body_events`] instruction by instruction (the printer feeds it as it prints, while the
/// instruction is at hand).
///
/// A name is listed once: the walk meets each type once and a table interns each named type
/// once, so only names read from call attributes (not walked) are checked against the list.
#[derive(Default)]
pub struct BodyTypes {
    walk: TypeWalk,
    out: Vec<Box<[u8]>>,
    /// Some name came from a call's attributes (then the walk's names are checked too).
    from_attrs: bool,
}

impl BodyTypes {
    /// Meets instruction `i`'s types.
    pub fn inst(&mut self, func: &Function, i: Inst) {
        self.walk.reserve(func.types.len());
        let (out, from_attrs) = (&mut self.out, self.from_attrs);
        inst_events(func, i, &mut self.walk, &mut |n: &[u8]| {
            if !from_attrs || !out.iter().any(|o| **o == *n) {
                out.push(n.into());
            }
        });
        if func.type_attrs && is_call(func.dfg.insts[i].opcode) {
            self.attr_events(func, i);
        }
    }

    /// The named types of call `i`'s type attributes not listed yet.
    fn attr_events(&mut self, func: &Function, i: Inst) {
        let (out, from_attrs) = (&mut self.out, &mut self.from_attrs);
        for p in func.dfg.inst_pieces(i) {
            if let crate::ir::Piece::Text(t) = *p {
                attr_names(func.text(t), |n| {
                    if !out.iter().any(|o| **o == *n) {
                        *from_attrs = true;
                        out.push(n.into());
                    }
                });
            }
        }
    }

    /// The named types met, in order.
    pub fn finish(self) -> Vec<Box<[u8]>> {
        self.out
    }
}

/// Whether `op` is a call (its callee is LLVM's last operand; its text may hold type
/// attributes).
fn is_call(op: Opcode) -> bool {
    matches!(op, Opcode::Call | Opcode::Invoke | Opcode::CallBr)
}

/// One instruction's walked types (its call attributes' types are [`attr_names`]').
fn inst_events(func: &Function, i: Inst, walk: &mut TypeWalk, push: &mut impl FnMut(&[u8])) {
    let types = &func.types;
    let dfg = &func.dfg;
    let data = &dfg.insts[i];
    if let Some(r) = data.result.expand() {
        walk.root(types, dfg.values[r].ty, push);
    }
    let values = dfg.inst_values(i);
    let call = is_call(data.opcode);
    // LLVM keeps a call's callee as its last operand.
    let (first, rest) = match (call, values.split_first()) {
        (true, Some((callee, args))) => (args, std::slice::from_ref(callee)),
        _ => (values, &[][..]),
    };
    for &v in first {
        operand_events(func, dfg.resolve(v), walk, push);
    }
    for &v in rest {
        operand_events(func, dfg.resolve(v), walk, push);
    }
    if matches!(data.opcode, Opcode::GetElementPtr | Opcode::Alloca) {
        walk.root(types, data.aux_ty, push);
    }
}

/// A constant operand's types (globals, arguments and instructions have none here).
#[inline]
fn operand_events(func: &Function, v: Value, walk: &mut TypeWalk, push: &mut impl FnMut(&[u8])) {
    let d = &func.dfg.values[v];
    match d.def {
        ValueDef::Inst(_) | ValueDef::Param(_) => {}
        ValueDef::Undef | ValueDef::Poison => walk.root(&func.types, d.ty, push),
        // With opaque pointers a global's type (`ptr`) holds no named type: its text need not
        // be read (it is scattered over the input).
        ValueDef::Const(_) if func.types.opaque_mode && func.const_roots.is_empty() => {
            walk.root(&func.types, d.ty, push)
        }
        ValueDef::Const(t) => {
            let first = func.text(t).first().copied().unwrap_or(b'0');
            if first == b'@' {
                return;
            }
            let compound =
                !(first.is_ascii_digit() || first == b'-') && !func.const_roots.is_empty();
            match func.const_roots.get(&v).filter(|_| compound) {
                Some(roots) => {
                    for &r in roots.iter() {
                        walk.root(&func.types, r, push);
                    }
                }
                None => walk.root(&func.types, d.ty, push),
            }
        }
    }
}

/// The order of the module's named types, merged from the module level and the bodies.
pub struct ModuleTypes<'a> {
    types: &'a TypeTable,
    walk: TypeWalk,
    order: Vec<Box<[u8]>>,
    met: FxHashSet<Box<[u8]>>,
}

impl<'a> ModuleTypes<'a> {
    /// An empty order over the module's table `types`.
    pub fn new(types: &'a TypeTable) -> Self {
        Self {
            types,
            walk: TypeWalk::default(),
            order: Vec::new(),
            met: FxHashSet::default(),
        }
    }

    fn add(order: &mut Vec<Box<[u8]>>, met: &mut FxHashSet<Box<[u8]>>, n: &[u8]) {
        if !met.contains(n) {
            met.insert(n.into());
            order.push(n.into());
        }
    }

    /// Meets module-level types.
    pub fn roots(&mut self, roots: &[Type]) {
        let (order, met) = (&mut self.order, &mut self.met);
        for &t in roots {
            self.walk
                .root(self.types, t, &mut |n| Self::add(order, met, n));
        }
    }

    /// Meets a body's named types (as [`body_events`] lists them).
    pub fn names(&mut self, names: &[Box<[u8]>]) {
        for n in names {
            Self::add(&mut self.order, &mut self.met, n);
        }
    }

    /// The names, in order.
    pub fn order(&self) -> &[Box<[u8]>] {
        &self.order
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn attributes_name_types_in_order() {
        let mut got = Vec::new();
        attr_names(
            b"call void @f(ptr byval(%struct.S) align 8 %1, ptr sret(%\"x y\") %2)",
            |n| got.push(String::from_utf8(n.to_vec()).unwrap()),
        );
        assert_eq!(got, ["struct.S", "x y"]);
    }

    #[test]
    fn walk_marks_on_push_and_names_in_order() {
        let mut t = TypeTable::new();
        let i32t = t.int(32);
        let b = t.intern(TypeData::Named(b"B".to_vec().into()));
        let body_b = t.intern(TypeData::Struct {
            fields: vec![i32t].into(),
            packed: false,
        });
        t.define_named(b"B", Some(body_b));
        let a = t.intern(TypeData::Named(b"A".to_vec().into()));
        let arr = t.intern(TypeData::Array { len: 2, elem: b });
        let body_a = t.intern(TypeData::Struct {
            fields: vec![arr, b].into(),
            packed: false,
        });
        t.define_named(b"A", Some(body_a));
        let mut walk = TypeWalk::default();
        let mut names = Vec::new();
        walk.root(&t, a, &mut |n| names.push(n.to_vec()));
        walk.root(&t, b, &mut |n| names.push(n.to_vec()));
        assert_eq!(names, [b"A".to_vec(), b"B".to_vec()]);
    }
}
