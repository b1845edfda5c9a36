//! Debug information through promotion, as LLVM's `ConvertDebugDeclareToDebugValue` and
//! `DILocation::getMergedLocation` do it (llvm/lib/Transforms/Utils/Local.cpp,
//! llvm/lib/IR/DebugInfoMetadata.cpp):
//! - a `dbg.declare` (or LLVM <= 15's `dbg.addr`) of a promoted slot becomes a `dbg.value` of
//!   the stored value before each store — or of `undef` when the value does not cover the
//!   variable's fragment — and of each new phi right after the block's phis;
//! - the new `dbg.value`s sit at an unknown location in the declare's scope:
//!   `!DILocation(line: 0, scope: S, inlinedAt: I)`;
//! - a phi's own location merges the locations of the stores that reach it.
//!
//! Output keeps the function's form: `call @llvm.dbg.value` intrinsics or `#dbg_value`
//! records. Invariant: nothing here changes values; only debug instructions are added.

use super::edit::{make_dbg_value, DbgForm, DbgValueParts};
use llvm_ir::ir::datalayout::DataLayout;
use llvm_ir::ir::metadata::{self, Location, MdNodeId, MdReader};
use llvm_ir::ir::{DbgKind, Function, Inst, MdRef, Opcode, Type, Value};
use llvm_ir::util::fxhash::FxHashMap;

/// The metadata reader of one function with memos of what promotion asks it again and again
/// (a `-g` module merges the same pair of store locations at many phis, and every debug value
/// of a variable needs the variable's size and its declare's line-0 location).
pub struct DbgMd<'m> {
    /// The reader itself.
    pub reader: MdReader<'m>,
    /// What the function's new debug values share.
    pub parts: DbgValueParts,
    m: DbgMemo,
}

/// The memos of a [`DbgMd`]. A thread keeps them from function to function (emptied, so only
/// their tables' room is reused), except the type sizes, which hold for a whole module.
///
/// Invariant: the memos are keyed by node number (`!N`) and hold exactly what the uncached
/// computation returns for that node; references that are not plain numbers are not memoized.
/// `merged`, `line_zero` and `alloc_sizes` name the current function's own metadata and
/// types; `type_size` belongs to the module numbered `module` (0: none).
#[derive(Default)]
pub struct DbgMemo {
    module: u64,
    merged: FxHashMap<(u64, u64), Loc>,
    line_zero: FxHashMap<u32, MdRef>,
    var_size: FxHashMap<u32, Option<u64>>,
    /// Size in bits per debug type node (variables of one type share it).
    type_size: FxHashMap<u32, Option<u64>>,
    locations: FxHashMap<u32, Option<(MdNodeId, Location)>>,
    /// Per scope node: whether it is a subprogram, and its parent scope.
    scopes: FxHashMap<u32, (bool, Option<MdNodeId>)>,
    /// Per scope node: its enclosing subprogram.
    subprograms: FxHashMap<u32, Option<MdNodeId>>,
    /// Allocation size in bytes per type id of the function (`None`: not computed yet).
    alloc_sizes: Vec<Option<Option<u64>>>,
    /// A buffer for the scope chain `nearest_common_scope` walks (no contents kept).
    scope_walk: Vec<MdNodeId>,
    /// The function's own numbered locations (its instructions' `!dbg` and their inlined-at
    /// chains), by line, built at the first merge that makes a location: a merged location
    /// equal to one of them is that node, as LLVM's uniquing makes it.
    existing: Option<FxHashMap<u64, Vec<u32>>>,
}

impl DbgMemo {
    /// Empties the memos for a function of module `module` (type sizes survive when the
    /// module is the same known one).
    fn reset(&mut self, module: u64) {
        empty(&mut self.merged);
        empty(&mut self.line_zero);
        empty(&mut self.var_size);
        empty(&mut self.locations);
        empty(&mut self.scopes);
        empty(&mut self.subprograms);
        self.existing = None;
        self.alloc_sizes.clear();
        if module == 0 || module != self.module {
            empty(&mut self.type_size);
        }
        self.module = module;
    }
}

/// Empties `map`, keeping its room unless it is large: emptying a table costs time in
/// proportion to its room, which one large function must not impose on every later one.
fn empty<K, V>(map: &mut FxHashMap<K, V>) {
    const KEEP: usize = 1024;
    if map.capacity() > KEEP {
        *map = FxHashMap::default();
    } else {
        map.clear();
    }
}

impl<'m> DbgMd<'m> {
    /// A reader for a function of module `module` (its [`ModuleInfo::id`], 0 for none) with
    /// the memos `memo` of an earlier function, emptied.
    ///
    /// [`ModuleInfo::id`]: llvm_ir::ir::ModuleInfo::id
    pub fn with_memo(reader: MdReader<'m>, module: u64, mut memo: DbgMemo) -> DbgMd<'m> {
        memo.reset(module);
        DbgMd {
            reader,
            parts: DbgValueParts::default(),
            m: memo,
        }
    }

    /// The memos, for the next function.
    pub fn into_memo(self) -> DbgMemo {
        self.m
    }

    /// [`DataLayout::alloc_size`](llvm_ir::ir::datalayout::DataLayout::alloc_size) of `ty`,
    /// memoized per type (every debug value asks it for its value's and its slot's type).
    pub fn alloc_size(
        &mut self,
        func: &Function,
        dl: &llvm_ir::ir::datalayout::DataLayout,
        ty: Type,
    ) -> Option<u64> {
        let i = ty.index();
        if let Some(&Some(size)) = self.m.alloc_sizes.get(i) {
            return size;
        }
        let size = dl.alloc_size(&func.types, ty);
        if i >= self.m.alloc_sizes.len() {
            self.m.alloc_sizes.resize(i + 1, None);
        }
        self.m.alloc_sizes[i] = Some(size);
        size
    }

    /// [`MdReader::location`], memoized for `!N` references.
    fn location(&mut self, text: &[u8]) -> Option<(MdNodeId, Location)> {
        let Some(n) = metadata::node_number(text) else {
            return self.reader.location(text);
        };
        if let Some(l) = self.m.locations.get(&n) {
            return l.clone();
        }
        let l = self.reader.location(text);
        self.m.locations.insert(n, l.clone());
        l
    }

    /// The location node `id` names.
    fn location_of(&mut self, id: &MdNodeId) -> Option<(MdNodeId, Location)> {
        match id {
            MdNodeId::Num(_) => {
                let mut t = Vec::new();
                id.write(&mut t);
                self.location(&t)
            }
            MdNodeId::Inline(t) => self.reader.location(t),
        }
    }

    /// Whether `s` is a subprogram, and its parent scope (none at a subprogram).
    fn scope(&mut self, s: &MdNodeId) -> (bool, Option<MdNodeId>) {
        let uncached = |r: &MdReader<'_>| (r.is_subprogram(s), r.parent_scope(s));
        let MdNodeId::Num(n) = s else {
            return uncached(&self.reader);
        };
        if let Some(e) = self.m.scopes.get(n) {
            return e.clone();
        }
        let e = uncached(&self.reader);
        self.m.scopes.insert(*n, e.clone());
        e
    }

    /// The subprogram enclosing scope `s` (memoized for `!N` scopes).
    fn subprogram(&mut self, s: &MdNodeId) -> Option<MdNodeId> {
        let MdNodeId::Num(n) = s else {
            return self.subprogram_uncached(s);
        };
        if let Some(sp) = self.m.subprograms.get(n) {
            return sp.clone();
        }
        let sp = self.subprogram_uncached(s);
        self.m.subprograms.insert(*n, sp.clone());
        sp
    }

    fn subprogram_uncached(&mut self, s: &MdNodeId) -> Option<MdNodeId> {
        let mut cur = s.clone();
        for _ in 0..10_000 {
            let (sp, parent) = self.scope(&cur);
            if sp {
                return Some(cur);
            }
            cur = parent?;
        }
        None
    }

    fn variable_size(&mut self, var: &[u8]) -> Option<u64> {
        let Some(n) = metadata::node_number(var) else {
            return self.reader.variable_size(var);
        };
        if let Some(&size) = self.m.var_size.get(&n) {
            return size;
        }
        let size = match self.reader.variable_type(var) {
            Some(MdNodeId::Num(t)) => match self.m.type_size.get(&t) {
                Some(&size) => size,
                None => {
                    let size = self.reader.type_size(MdNodeId::Num(t));
                    self.m.type_size.insert(t, size);
                    size
                }
            },
            Some(ty) => self.reader.type_size(ty),
            None => None,
        };
        self.m.var_size.insert(n, size);
        size
    }
}

impl<'m> std::ops::Deref for DbgMd<'m> {
    type Target = MdReader<'m>;
    fn deref(&self) -> &MdReader<'m> {
        &self.reader
    }
}

/// A memo key for a location: `!N` of the input, or the function's new node `k`.
fn loc_key(func: &Function, r: MdRef) -> Option<u64> {
    match r {
        MdRef::New(k) => Some(1 << 32 | u64::from(k)),
        MdRef::Text(_) => metadata::node_number(func.md_text(r)).map(u64::from),
    }
}

/// A debug instruction that names a slot.
#[derive(Clone, Debug)]
pub struct DbgUser {
    /// The call or record.
    pub inst: Inst,
    /// Which intrinsic or record.
    pub kind: DbgKind,
    /// Reference text of the variable (`!12`).
    pub var: Vec<u8>,
    /// Text of the expression (`!DIExpression()` or `!7`).
    pub expr: Vec<u8>,
    /// Its location.
    pub loc: MdRef,
    /// Record or intrinsic form.
    pub form: DbgForm,
    /// What the conversions ask of `expr`, read once (every store of the slot asks again).
    shape: ExprShape,
}

/// The facts about a `!DIExpression` the conversions use.
#[derive(Clone, Copy, Debug)]
struct ExprShape {
    /// Exactly `DW_OP_deref`.
    is_deref: bool,
    /// Starts with `DW_OP_deref`.
    starts_with_deref: bool,
    /// The fragment's size in bits, if it has one.
    fragment_bits: Option<u64>,
}

impl ExprShape {
    fn of(expr: &[u8]) -> ExprShape {
        let ops = metadata::expression_ops(expr);
        ExprShape {
            is_deref: metadata::is_deref(&ops),
            starts_with_deref: metadata::starts_with_deref(&ops),
            fragment_bits: metadata::fragment(&ops).map(|f| f.1),
        }
    }
}

impl DbgUser {
    /// Reads the debug data of `inst`, if it is a debug instruction.
    pub fn of(func: &Function, md: &MdReader<'_>, inst: Inst) -> Option<DbgUser> {
        let d = func.dfg.dbg[inst]?;
        let expr_text = func.text(d.expr);
        let expr = match metadata::node_id(expr_text) {
            Some(MdNodeId::Num(_)) => md.resolve(expr_text).map_or(expr_text, |(_, t)| t),
            _ => expr_text,
        }
        .to_vec();
        Some(DbgUser {
            inst,
            kind: d.kind,
            var: func.text(d.var).to_vec(),
            shape: ExprShape::of(&expr),
            expr,
            loc: d.loc,
            form: if d.record {
                DbgForm::Record
            } else {
                DbgForm::Intrinsic
            },
        })
    }

    /// `dbg.declare` / `dbg.addr`: the slot is the variable's address.
    pub fn is_address_of(&self) -> bool {
        matches!(self.kind, DbgKind::Declare | DbgKind::Addr)
    }

    /// A `dbg.value`.
    pub fn is_value_of(&self) -> bool {
        self.kind == DbgKind::Value
    }

    fn ops(&self) -> Vec<&[u8]> {
        metadata::expression_ops(&self.expr)
    }

    /// The expression starts with `DW_OP_deref`.
    pub fn starts_with_deref(&self) -> bool {
        self.shape.starts_with_deref
    }
}

/// What the conversions need to know about a slot and the target.
#[derive(Clone, Copy)]
pub struct SlotInfo<'a> {
    /// The module's data layout.
    pub dl: &'a DataLayout,
    /// The slot's allocation size in bits (`None` for a dynamic element count).
    pub slot_bits: Option<u64>,
}

/// Whether a value of type `ty` covers the variable (or fragment) `user` describes
/// (LLVM's `valueCoversEntireFragment`: alloc size of the value against the fragment size,
/// else the variable's size, else — for a declare — the slot's allocation size).
pub fn covers(
    func: &Function,
    md: &mut DbgMd<'_>,
    ty: Type,
    user: &DbgUser,
    slot: SlotInfo<'_>,
) -> bool {
    let Some(value_bytes) = md.alloc_size(func, slot.dl, ty) else {
        return false;
    };
    let value_bits = value_bytes * 8;
    let fragment = user.shape.fragment_bits;
    if let Some(size) = fragment.or_else(|| md.variable_size(&user.var)) {
        return value_bits >= size;
    }
    if user.is_address_of() {
        if let Some(bits) = slot.slot_bits {
            return value_bits >= bits;
        }
    }
    false
}

/// The location of a debug value made from `user`: line 0 in its scope.
pub fn value_loc(func: &mut Function, md: &mut DbgMd<'_>, user: &DbgUser) -> MdRef {
    let text = func.md_text(user.loc);
    let n = metadata::node_number(text);
    if let Some(r) = n.and_then(|n| md.m.line_zero.get(&n)) {
        return *r;
    }
    let zero = md.location(text).map(|(_, l)| {
        Location {
            line: 0,
            column: 0,
            implicit: false,
            ..l
        }
        .to_text()
    });
    let r = match zero {
        Some(t) => func.add_new_md(t),
        None => user.loc,
    };
    if let Some(n) = n {
        md.m.line_zero.insert(n, r);
    }
    r
}

/// A debug value of `v` for `user`'s variable (with `expr`), inserted before `before`.
pub fn insert_value_before(
    func: &mut Function,
    md: &mut DbgMd<'_>,
    user: &DbgUser,
    v: Value,
    expr: &[u8],
    before: Inst,
) {
    let loc = value_loc(func, md, user);
    let i = make_dbg_value(func, &mut md.parts, user.form, v, &user.var, expr, loc);
    func.layout.insert_inst_before(i, before);
}

/// `ConvertDebugDeclareToDebugValue(user, store)`: before the store, a debug value of the
/// stored value — or of `undef` when the conversion is not sound.
pub fn convert_at_store(
    func: &mut Function,
    md: &mut DbgMd<'_>,
    user: &DbgUser,
    store: Inst,
    slot: SlotInfo<'_>,
) {
    let v = func.dfg.resolve(func.dfg.inst_values(store)[0]);
    let ty = func.dfg.value_type(v);
    let shape = user.shape;
    // LLVM 19 passes an address (a declare of just `DW_OP_deref`) through as is and refuses
    // other dereferences; LLVM 14 (typed pointers) only compares sizes.
    let can = if func.types.opaque_mode {
        shape.is_deref || (!shape.starts_with_deref && covers(func, md, ty, user, slot))
    } else {
        covers(func, md, ty, user, slot)
    };
    let v = if can { v } else { func.dfg.undef(ty) };
    insert_value_before(func, md, user, v, &user.expr, store);
}

/// `InsertDebugValueAtStoreLoc`: a `dbg.value` whose expression starts with a deref moves to
/// the stored value, without the deref.
pub fn move_to_store(func: &mut Function, md: &mut DbgMd<'_>, user: &DbgUser, store: Inst) {
    let v = func.dfg.resolve(func.dfg.inst_values(store)[0]);
    let ops = user.ops();
    let mut expr = b"!DIExpression(".to_vec();
    for (i, w) in ops.iter().skip(1).enumerate() {
        if i > 0 {
            expr.extend_from_slice(b", ");
        }
        expr.extend_from_slice(w);
    }
    expr.push(b')');
    insert_value_before(func, md, user, v, &expr, store);
}

/// The first place after a block's phis and EH pad where instructions may go (`None` for a
/// block whose first non-phi is a `catchswitch`).
pub fn first_insertion_point(func: &Function, block: llvm_ir::ir::Block) -> Option<Inst> {
    for i in func.layout.block_insts(block) {
        match func.dfg.opcode(i) {
            Opcode::Phi => continue,
            Opcode::CatchSwitch => return None,
            Opcode::LandingPad | Opcode::CatchPad | Opcode::CleanupPad => {
                return func.layout.next_inst(i);
            }
            _ => return Some(i),
        }
    }
    None
}

/// `ConvertDebugDeclareToDebugValue(user, phi)`: a debug value of the phi at the block's first
/// insertion point, when the phi's type covers the variable.
pub fn convert_at_phi(
    func: &mut Function,
    md: &mut DbgMd<'_>,
    user: &DbgUser,
    phi: Inst,
    slot: SlotInfo<'_>,
) {
    let r = func.dfg.insts[phi].result;
    let ty = func.dfg.value_type(r);
    if !covers(func, md, ty, user, slot) {
        return;
    }
    let block = func.layout.inst_block(phi).expect("placed phi");
    let Some(at) = first_insertion_point(func, block) else {
        return;
    };
    insert_value_before(func, md, user, r, &user.expr, at);
}

/// A location being tracked through promotion: the store's `!dbg`, or none.
pub type Loc = Option<MdRef>;

/// `DILocation::getMergedLocation(a, b)` as LLVM 19 computes it; `None` when either is none.
pub fn merge(func: &mut Function, md: &mut DbgMd<'_>, a: Loc, b: Loc) -> Loc {
    let (a, b) = (a?, b?);
    if a == b {
        return Some(a);
    }
    let key = loc_key(func, a).zip(loc_key(func, b));
    if let Some(r) = key.and_then(|k| md.m.merged.get(&k)) {
        return *r;
    }
    let r = merge_uncached(func, md, a, b);
    if let Some(k) = key {
        md.m.merged.insert(k, r);
    }
    r
}

fn merge_uncached(func: &mut Function, md: &mut DbgMd<'_>, a: MdRef, b: MdRef) -> Loc {
    let (ida, la) = read_loc(md, func.md_text(a))?;
    let (idb, lb) = read_loc(md, func.md_text(b))?;
    if ida == idb {
        return Some(a);
    }
    let merged = if func.types.opaque_mode {
        merge_locations(func, md, (&ida, &la), (&idb, &lb))
    } else {
        merge_locations_llvm14(&md.reader, &la, &lb)
    };
    if merged == la {
        return Some(a);
    }
    if merged == lb {
        return Some(b);
    }
    if let Some(n) = existing_node(func, md, &merged) {
        let mut t = Vec::new();
        MdNodeId::Num(n).write(&mut t);
        return Some(MdRef::Text(func.dfg.strings.add(&t)));
    }
    Some(func.add_new_md(merged.to_text()))
}

/// The numbered locations `func` refers to, and those of their inlined-at chains, by line.
fn existing_locations(func: &Function, md: &DbgMd<'_>) -> FxHashMap<u64, Vec<u32>> {
    let mut out: FxHashMap<u64, Vec<u32>> = FxHashMap::default();
    let dfg = &func.dfg;
    let mut prev = u32::MAX;
    for b in func.layout.blocks() {
        for i in func.layout.block_insts(b) {
            for &(kind, r) in dfg.inst_attachments(i) {
                let MdRef::Text(t) = r else { continue };
                let Some(n) = metadata::node_number(func.text(t)) else {
                    continue;
                };
                // Neighbours mostly share a location: skip repeats before reading kinds.
                if n == prev || func.text(kind) != b"dbg" {
                    continue;
                }
                prev = n;
                let mut next = Some(n);
                for _ in 0..64 {
                    let Some(n) = next else { break };
                    let Some(text) = numbered_text(md, n) else {
                        break;
                    };
                    let list = out.entry(location_line(text)).or_default();
                    if list.contains(&n) {
                        break;
                    }
                    list.push(n);
                    const AT: &[u8] = b"inlinedAt: !";
                    next = llvm_ir::util::bytes::find_sub(text, AT).and_then(|p| {
                        let d = &text[p + AT.len()..];
                        let k = d.iter().take(10).take_while(|c| c.is_ascii_digit()).count();
                        llvm_ir::lexical::parse_u32(&d[..k])
                    });
                }
            }
        }
    }
    out
}

/// The `line:` of a location's text as LLVM prints it (0 when it is written otherwise).
fn location_line(text: &[u8]) -> u64 {
    let Some(rest) = text.strip_prefix(b"!DILocation(line: ") else {
        return 0;
    };
    // The digits' value (an index key only: a value past u64 wraps, which only merges buckets).
    (rest.iter().take_while(|c| c.is_ascii_digit())).fold(0u64, |n, &c| {
        n.wrapping_mul(10).wrapping_add(u64::from(c - b'0'))
    })
}

/// The number of the function's existing location equal to `l`, if any. (A location without
/// a column is left to the module writer, which knows every such node of the module.)
fn existing_node(func: &Function, md: &mut DbgMd<'_>, l: &Location) -> Option<u32> {
    if l.column == 0 {
        return None;
    }
    if md.m.existing.is_none() {
        let index = existing_locations(func, md);
        md.m.existing = Some(index);
    }
    let text = l.to_text();
    let candidates = md.m.existing.as_ref()?.get(&location_line(&text))?;
    candidates
        .iter()
        .copied()
        .find(|&n| numbered_text(md, n) == Some(&text[..]))
}

/// The text of node `!n`.
fn numbered_text<'m>(md: &DbgMd<'m>, n: u32) -> Option<&'m [u8]> {
    md.reader.ctx?.metadata_text(md.reader.source, n)
}

/// The location a `!dbg` reference names, or the location a new node's text spells.
fn read_loc(md: &mut DbgMd<'_>, text: &[u8]) -> Option<(MdNodeId, Location)> {
    md.location(text)
        .or_else(|| Some((metadata::node_id(text)?, Location::parse(text)?)))
}

/// The inlined-at chain of a location (itself first).
fn chain(md: &mut DbgMd<'_>, id: &MdNodeId, l: &Location) -> Vec<(MdNodeId, Location)> {
    let mut out = vec![(id.clone(), l.clone())];
    while let Some(next) = out.last().and_then(|(_, l)| l.inlined_at.clone()) {
        match md.location_of(&next) {
            Some(p) if out.len() < 10_000 => out.push(p),
            _ => break,
        }
    }
    out
}

fn merge_locations(
    func: &Function,
    md: &mut DbgMd<'_>,
    a: (&MdNodeId, &Location),
    b: (&MdNodeId, &Location),
) -> Location {
    if a.1.inlined_at.is_none() && b.1.inlined_at.is_none() {
        // Neither is inlined (the common case): one level, merged if in one subprogram.
        return merge_pair(md, a, b, None).unwrap_or_else(|| unknown_in(a.1));
    }
    let al = chain(md, a.0, a.1);
    let bl = chain(md, b.0, b.1);
    let mut key = |l: &Location| (md.subprogram(&l.scope), l.inlined_at.clone());
    let akeys: Vec<_> = al.iter().map(|(_, x)| key(x)).collect();
    // The first location of B's chain whose (subprogram, inlinedAt) appears in A's chain.
    let mut start = None;
    for (j, (_, l)) in bl.iter().enumerate() {
        let k = key(l);
        if let Some(i) = akeys.iter().position(|x| *x == k) {
            start = Some((i, j));
            break;
        }
    }
    // From the matching level inwards, merge pairwise; each merged level is the inlinedAt of
    // the next one (written inline: it has no number of its own).
    let mut result: Option<Location> = None;
    if let Some((mut i, mut j)) = start {
        let mut inlined_at = al[i].1.inlined_at.clone();
        while let Some(m) = merge_pair(
            md,
            (&al[i].0, &al[i].1),
            (&bl[j].0, &bl[j].1),
            inlined_at.clone(),
        ) {
            inlined_at = Some(match existing_node(func, md, &m) {
                Some(n) => MdNodeId::Num(n),
                None => MdNodeId::Inline(m.to_text()),
            });
            result = Some(m);
            if i == 0 || j == 0 {
                break;
            }
            i -= 1;
            j -= 1;
        }
    }
    result.unwrap_or_else(|| unknown_in(a.1))
}

/// Line 0 in `l`'s scope, not inlined: what LLVM gives two locations it cannot merge.
fn unknown_in(l: &Location) -> Location {
    Location {
        line: 0,
        column: 0,
        scope: l.scope.clone(),
        inlined_at: None,
        implicit: false,
    }
}

/// LLVM 14's `getMergedLocation` (for typed-pointer modules, which LLVM 14 reads): line 0
/// in the nearest scope the two share, walking scopes up through inlined-at locations.
fn merge_locations_llvm14(md: &MdReader<'_>, a: &Location, b: &Location) -> Location {
    let walk = |l: &Location| -> Vec<(MdNodeId, Option<MdNodeId>)> {
        let mut out = Vec::new();
        let mut s = Some(l.scope.clone());
        let mut at = l.inlined_at.clone();
        while let Some(cur) = s {
            out.push((cur.clone(), at.clone()));
            if out.len() > 10_000 {
                break;
            }
            s = md.scope_of(&cur);
            if s.is_none() {
                if let Some(i) = at.take() {
                    let mut t = Vec::new();
                    i.write(&mut t);
                    if let Some((_, il)) = md.location(&t) {
                        s = Some(il.scope);
                        at = il.inlined_at;
                    }
                }
            }
        }
        out
    };
    let in_a = walk(a);
    let found = walk(b).into_iter().find(|x| in_a.contains(x));
    let (scope, inlined_at) = match found {
        Some((s, l)) if md.is_local_scope(&s) => (s, l),
        Some((_, l)) => (a.scope.clone(), l),
        None => (a.scope.clone(), None),
    };
    Location {
        line: 0,
        column: 0,
        scope,
        inlined_at,
        implicit: false,
    }
}

fn merge_pair(
    md: &mut DbgMd<'_>,
    a: (&MdNodeId, &Location),
    b: (&MdNodeId, &Location),
    inlined_at: Option<MdNodeId>,
) -> Option<Location> {
    let (l1, l2) = (a.1, b.1);
    if a.0 == b.0 {
        return Some(Location {
            inlined_at,
            implicit: false,
            ..l1.clone()
        });
    }
    // LLVM first requires both scopes to be in one subprogram, then takes their nearest
    // common scope. A common scope exists exactly when they are: both walks stop at the first
    // subprogram, so a shared scope has the same subprogram above it on both chains.
    let scope = nearest_common_scope(md, &l1.scope, &l2.scope)?;
    let same_line = l1.line == l2.line;
    Some(Location {
        line: if same_line { l1.line } else { 0 },
        column: if same_line && l1.column == l2.column {
            l1.column
        } else {
            0
        },
        scope,
        inlined_at,
        implicit: false,
    })
}

fn nearest_common_scope(md: &mut DbgMd<'_>, s1: &MdNodeId, s2: &MdNodeId) -> Option<MdNodeId> {
    let mut seen = std::mem::take(&mut md.m.scope_walk);
    seen.clear();
    let common = common_scope_in(md, &mut seen, s1, s2);
    md.m.scope_walk = seen;
    common
}

/// [`nearest_common_scope`] with `seen` (empty) to hold `s1`'s chain.
fn common_scope_in(
    md: &mut DbgMd<'_>,
    seen: &mut Vec<MdNodeId>,
    s1: &MdNodeId,
    s2: &MdNodeId,
) -> Option<MdNodeId> {
    let mut cur = Some(s1.clone());
    while let Some(s) = cur {
        let (sp, parent) = md.scope(&s);
        seen.push(s);
        if sp || seen.len() > 10_000 {
            break;
        }
        cur = parent;
    }
    let mut cur = Some(s2.clone());
    let mut steps = 0;
    while let Some(s) = cur {
        if seen.contains(&s) {
            return Some(s);
        }
        let (sp, parent) = md.scope(&s);
        if sp || steps > 10_000 {
            break;
        }
        steps += 1;
        cur = parent;
    }
    None
}
