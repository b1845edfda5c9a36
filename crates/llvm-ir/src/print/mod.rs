//! Writing a module back as LLVM IR text.
//!
//! The printer only reads the IR. Verbatim module items are written as read; each function is
//! written as its header template, `{`, its blocks and instructions, `}`. Unnamed values and
//! blocks are numbered afresh in LLVM's slot order ([`Numbering`]): unnamed parameters first,
//! then, block by block in layout order, the block itself (if unnamed) and each unnamed
//! instruction with a result. So a module whose instructions were added or removed still prints
//! `%0, %1, ...` in order, which is what LLVM's reader requires.
//!
//! Functions are printed into separate buffers, in parallel when asked, and joined in module
//! order: the output is the same whatever the thread count.

use crate::entity::SecondaryMap;
use crate::ir::{Block, Function, Inst, Item, MdRef, Module, Piece, Text, Value, ValueDef};
use crate::util::fxhash::FxHashMap;
pub use crate::lexical::{write_u32, write_u64};

pub mod names;

/// Marks a reference to a function's new metadata node `k` in printed function text until
/// the module numbers it: `MD_MARK`, `k` as 4 little-endian bytes, `MD_MARK_END`. The
/// printer never emits NUL otherwise (names and strings are escaped), so this is unambiguous.
const MD_MARK: &[u8] = b"\x00\x01MD";
const MD_MARK_END: &[u8] = b"\x01\x00";

fn write_new_md(out: &mut Vec<u8>, k: u32) {
    out.extend_from_slice(MD_MARK);
    out.extend_from_slice(&k.to_le_bytes());
    out.extend_from_slice(MD_MARK_END);
}

fn write_md_ref(func: &Function, r: MdRef, out: &mut Vec<u8>) {
    match r {
        MdRef::Text(t) => out.extend_from_slice(func.text(t)),
        MdRef::New(k) => write_new_md(out, k),
    }
}

/// The `%N` numbers of a function's unnamed values and blocks.
#[derive(Clone, Debug)]
pub struct Numbering {
    values: SecondaryMap<Value, u32>,
    blocks: SecondaryMap<Block, u32>,
}

impl Numbering {
    /// Numbers `func` in LLVM's slot order.
    pub fn compute(func: &Function) -> Self {
        let dfg = &func.dfg;
        let mut values = SecondaryMap::filled(dfg.values.len(), u32::MAX);
        let mut blocks = SecondaryMap::filled(dfg.blocks.len(), u32::MAX);
        let mut next = 0u32;
        for &p in &func.params {
            if dfg.values[p].name.is_none() {
                values[p] = next;
                next += 1;
            }
        }
        for b in func.layout.blocks() {
            if dfg.blocks[b].name.is_none() {
                blocks[b] = next;
                next += 1;
            }
            for i in func.layout.block_insts(b) {
                if let Some(r) = dfg.insts[i].result.expand() {
                    if dfg.values[r].name.is_none() {
                        values[r] = next;
                        next += 1;
                    }
                }
            }
        }
        Self { values, blocks }
    }

    /// Appends the reference spelling of `v` (`%x`, `%3`, `undef`, `42`, `@g`, ...).
    pub fn write_value(&self, func: &Function, v: Value, out: &mut Vec<u8>) {
        self.write_value_in(func, v, out, None)
    }

    /// [`Numbering::write_value`], rewriting `blockaddress` block numbers through `ba`.
    fn write_value_in(
        &self,
        func: &Function,
        v: Value,
        out: &mut Vec<u8>,
        ba: Option<&BlockAddresses>,
    ) {
        let d = &func.dfg.values[v];
        match d.def {
            ValueDef::Undef => out.extend_from_slice(b"undef"),
            ValueDef::Poison => out.extend_from_slice(b"poison"),
            ValueDef::Const(t) => match ba {
                Some(ba) => ba.write_const(func.text(t), out),
                None => out.extend_from_slice(func.text(t)),
            },
            ValueDef::Inst(_) | ValueDef::Param(_) => {
                out.push(b'%');
                if d.name.is_none() {
                    write_u32(out, self.values[v]);
                } else {
                    out.extend_from_slice(func.text(d.name));
                }
            }
        }
    }

    /// Appends `%label` for block `b`.
    pub fn write_block(&self, func: &Function, b: Block, out: &mut Vec<u8>) {
        out.push(b'%');
        self.write_block_name(func, b, out);
    }

    /// Appends the label of `b` without `%` (`entry`, `3`).
    pub fn write_block_name(&self, func: &Function, b: Block, out: &mut Vec<u8>) {
        let n = func.dfg.blocks[b].name;
        if n.is_none() {
            write_u32(out, self.blocks[b]);
        } else {
            out.extend_from_slice(func.text(n));
        }
    }

    /// The reference spelling of `v` as a `String`.
    pub fn value_ref(&self, func: &Function, v: Value) -> String {
        let mut out = Vec::new();
        self.write_value(func, v, &mut out);
        String::from_utf8_lossy(&out).into_owned()
    }

    /// `%label` of `b` as a `String`.
    pub fn block_ref(&self, func: &Function, b: Block) -> String {
        let mut out = Vec::new();
        self.write_block(func, b, &mut out);
        String::from_utf8_lossy(&out).into_owned()
    }

    /// One instruction as text (without indentation or newline), for messages.
    pub fn inst_text(&self, func: &Function, inst: Inst) -> String {
        let mut out = Vec::new();
        write_inst(func, self, inst, &mut out);
        String::from_utf8_lossy(&out).into_owned()
    }
}

/// Appends a template, filling holes from `values` / `blocks`.
fn write_pieces(
    func: &Function,
    num: &Numbering,
    pieces: &[Piece],
    values: &[Value],
    blocks: &[Block],
    out: &mut Vec<u8>,
    ba: Option<&BlockAddresses>,
) {
    for p in pieces {
        match *p {
            Piece::Text(t) => out.extend_from_slice(func.text(t)),
            Piece::Value(i) => {
                num.write_value_in(func, func.dfg.resolve(values[i as usize]), out, ba)
            }
            Piece::Block(i) => num.write_block(func, blocks[i as usize], out),
            Piece::NewMd(k) => write_new_md(out, k),
            Piece::Incoming => write_incoming(func, num, values, blocks, out, ba),
        }
    }
}

/// `[ v0, b0 ], [ v1, b1 ], ...` ([`Piece::Incoming`]).
fn write_incoming(
    func: &Function,
    num: &Numbering,
    values: &[Value],
    blocks: &[Block],
    out: &mut Vec<u8>,
    ba: Option<&BlockAddresses>,
) {
    for (k, (&v, &b)) in values.iter().zip(blocks).enumerate() {
        out.extend_from_slice(if k == 0 { b"[ " } else { b", [ " });
        num.write_value_in(func, func.dfg.resolve(v), out, ba);
        out.extend_from_slice(b", ");
        num.write_block(func, b, out);
        out.extend_from_slice(b" ]");
    }
}

/// Appends one instruction: `%r = ` (if it has a result), its template, its attachments.
fn write_inst(func: &Function, num: &Numbering, inst: Inst, out: &mut Vec<u8>) {
    write_inst_in(func, num, inst, out, None)
}

fn write_inst_in(
    func: &Function,
    num: &Numbering,
    inst: Inst,
    out: &mut Vec<u8>,
    ba: Option<&BlockAddresses>,
) {
    let dfg = &func.dfg;
    if let Some(r) = dfg.insts[inst].result.expand() {
        num.write_value(func, r, out);
        out.extend_from_slice(b" = ");
    }
    write_pieces(
        func,
        num,
        dfg.inst_pieces(inst),
        dfg.inst_values(inst),
        dfg.inst_blocks(inst),
        out,
        ba,
    );
    for &(kind, node) in dfg.inst_attachments(inst) {
        out.extend_from_slice(b", !");
        out.extend_from_slice(func.text(kind));
        out.push(b' ');
        write_md_ref(func, node, out);
    }
}

/// Appends one function definition.
pub fn print_function(func: &Function, out: &mut Vec<u8>) {
    print_function_in(func, out, None)
}

/// [`print_function`] within a module whose `blockaddress` references `ba` rewrites.
pub fn print_function_in(func: &Function, out: &mut Vec<u8>, ba: Option<&BlockAddresses>) {
    let num = Numbering::compute(func);
    write_pieces(func, &num, func.header_pieces(), &func.params, &[], out, ba);
    out.extend_from_slice(b" {\n");
    let entry = func.layout.entry_block();
    let preds = predecessors(func);
    for b in func.layout.blocks() {
        if Some(b) != entry || !func.dfg.blocks[b].name.is_none() {
            if Some(b) != entry {
                out.push(b'\n');
            }
            let line_start = out.len();
            num.write_block_name(func, b, out);
            out.push(b':');
            if Some(b) != entry {
                write_preds(func, &num, &preds[b], out, line_start);
            }
            out.push(b'\n');
        }
        for i in func.layout.block_insts(b) {
            // Debug records are indented further, as LLVM prints them.
            if func.dfg.insts[i].opcode == crate::ir::Opcode::DbgRecord {
                out.extend_from_slice(b"    ");
            } else {
                out.extend_from_slice(b"  ");
            }
            write_inst_in(func, &num, i, out, ba);
            out.push(b'\n');
        }
    }
    out.extend_from_slice(b"}\n");
}

/// Each block's predecessors as LLVM lists them: one entry per terminator edge, most recent
/// reference first (the reverse of layout order).
fn predecessors(func: &Function) -> SecondaryMap<Block, Vec<Block>> {
    let mut preds: SecondaryMap<Block, Vec<Block>> = SecondaryMap::new();
    for b in func.layout.blocks() {
        for &s in func.successors(b) {
            preds[s].push(b);
        }
    }
    for (_, v) in preds.iter_mut() {
        v.reverse();
    }
    preds
}

/// `; preds = %a, %b` (or `; No predecessors!`) padded to column 50, as LLVM comments labels.
fn write_preds(
    func: &Function,
    num: &Numbering,
    preds: &[Block],
    out: &mut Vec<u8>,
    line_start: usize,
) {
    let col = out.len() - line_start;
    let pad = if col < 50 { 50 - col } else { 1 };
    out.resize(out.len() + pad, b' ');
    if preds.is_empty() {
        out.extend_from_slice(b"; No predecessors!");
        return;
    }
    out.extend_from_slice(b"; preds = ");
    for (i, &p) in preds.iter().enumerate() {
        if i > 0 {
            out.extend_from_slice(b", ");
        }
        num.write_block(func, p, out);
    }
}

/// Writes `m` as LLVM IR text, printing functions on up to `threads` threads.
pub fn print_module(m: &Module, threads: usize) -> Vec<u8> {
    let funcs: Vec<&Function> = m.functions.values().collect();
    let ba = BlockAddresses::compute(m);
    let mut printed = print_parallel(&funcs, threads.max(1), ba.as_ref());
    let mut tail = ModuleTail::new(m);
    for (f, buf) in funcs.iter().zip(printed.iter_mut()) {
        tail.fix_function(f, buf);
    }
    let mut out = Vec::with_capacity(m.source.len() + printed.iter().map(Vec::len).sum::<usize>());
    for item in &m.items {
        match *item {
            Item::Text(t) => match &ba {
                Some(ba) => write_verbatim(&ba.rewrite(m.text(t)), &mut out),
                None => write_verbatim(m.text(t), &mut out),
            },
            Item::Metadata(t, id) => {
                write_verbatim(m.text(t), &mut out);
                tail.write_anchored(id, &mut out);
            }
            Item::Function(f) => out.extend_from_slice(&printed[f.index()]),
        }
    }
    tail.finish(&mut out);
    out
}

/// What passes add at module level, assembled in function order: numbers for new metadata
/// nodes (after the module's largest, deduplicated by text) and declarations of intrinsics the
/// module lacks. Invariant: numbering depends only on the order functions are fixed in.
pub struct ModuleTail<'m> {
    declared: Option<&'m crate::util::fxhash::FxHashSet<Box<[u8]>>>,
    next_md: u32,
    by_text: FxHashMap<Vec<u8>, u32>,
    /// New node definitions, each with the largest existing node it refers to (it is printed
    /// right after that node's definition, which is where LLVM's numbering would put it).
    defs: Vec<(Option<u32>, Vec<u8>)>,
    /// Per anchor, the indices in `defs` of the nodes not yet written there (so writing the
    /// module's metadata costs O(items + defs), not O(items × defs)).
    by_anchor: FxHashMap<u32, Vec<u32>>,
    anchor_of: FxHashMap<u32, Option<u32>>,
    decls: Vec<&'static str>,
}

impl<'m> ModuleTail<'m> {
    /// A tail for module `m`.
    pub fn new(m: &'m Module) -> Self {
        let ctx = m.info.as_deref();
        Self::with_context(ctx)
    }

    /// A tail for a module read with context `ctx` (`None`: built in Rust).
    pub fn with_context(ctx: Option<&'m crate::ir::module_info::ModuleInfo>) -> Self {
        Self {
            declared: ctx.map(|c| &c.declared),
            next_md: ctx.and_then(|c| c.max_metadata_id).map_or(0, |n| n + 1),
            by_text: FxHashMap::default(),
            defs: Vec::new(),
            by_anchor: FxHashMap::default(),
            anchor_of: FxHashMap::default(),
            decls: Vec::new(),
        }
    }

    /// Numbers `f`'s new metadata and rewrites the markers in its printed text `buf`.
    pub fn fix_function(&mut self, f: &Function, buf: &mut Vec<u8>) {
        self.fix_parts(&f.new_md, &f.needs_decls, buf)
    }

    /// [`ModuleTail::fix_function`] from a function's new metadata and needed declarations.
    pub fn fix_parts(
        &mut self,
        new_md: &[Vec<u8>],
        needs_decls: &[&'static str],
        buf: &mut Vec<u8>,
    ) {
        for d in needs_decls {
            let name = decl_name(d);
            let have = self.declared.is_some_and(|s| s.contains(name));
            if !have && !self.decls.contains(d) {
                self.decls.push(d);
            }
        }
        if new_md.is_empty() {
            return;
        }
        let mut local: Vec<Option<u32>> = vec![None; new_md.len()];
        let fixed = self.substitute(new_md, buf, &mut local);
        *buf = fixed;
    }

    /// `text` with every marker replaced by its number (numbering nodes as needed).
    fn substitute(
        &mut self,
        new_md: &[Vec<u8>],
        text: &[u8],
        local: &mut Vec<Option<u32>>,
    ) -> Vec<u8> {
        let mut out = Vec::with_capacity(text.len());
        let mut i = 0;
        while let Some(p) = find(&text[i..], MD_MARK) {
            out.extend_from_slice(&text[i..i + p]);
            let at = i + p + MD_MARK.len();
            let k = u32::from_le_bytes([text[at], text[at + 1], text[at + 2], text[at + 3]]);
            let n = self.number(new_md, k, local);
            out.push(b'!');
            out.extend_from_slice(n.to_string().as_bytes());
            i = at + 4 + MD_MARK_END.len();
        }
        out.extend_from_slice(&text[i..]);
        out
    }

    fn number(&mut self, new_md: &[Vec<u8>], k: u32, local: &mut Vec<Option<u32>>) -> u32 {
        if let Some(n) = local[k as usize] {
            return n;
        }
        let content = self.substitute(new_md, &new_md[k as usize], local);
        let n = match self.by_text.get(&content) {
            Some(&n) => n,
            None => {
                let n = self.next_md;
                self.next_md += 1;
                let anchor = self.anchor(&content);
                self.anchor_of.insert(n, anchor);
                let mut line = format!("!{n} = ").into_bytes();
                line.extend_from_slice(&content);
                line.push(b'\n');
                if let Some(a) = anchor {
                    let at = self.defs.len() as u32;
                    self.by_anchor.entry(a).or_default().push(at);
                }
                self.defs.push((anchor, line));
                self.by_text.insert(content, n);
                n
            }
        };
        local[k as usize] = Some(n);
        n
    }

    /// The largest existing node `content` refers to (through new nodes too).
    fn anchor(&self, content: &[u8]) -> Option<u32> {
        let mut best: Option<u32> = None;
        let mut i = 0;
        while i < content.len() {
            if content[i] == b'"' {
                i += 1;
                while i < content.len() && content[i] != b'"' {
                    i += 1;
                }
            } else if content[i] == b'!' {
                let d = content[i + 1..]
                    .iter()
                    .take_while(|c| c.is_ascii_digit())
                    .count();
                if d > 0 {
                    let n: u32 = std::str::from_utf8(&content[i + 1..i + 1 + d])
                        .ok()
                        .and_then(|s| s.parse().ok())
                        .unwrap_or(0);
                    let a = match self.anchor_of.get(&n) {
                        Some(&inner) => inner,
                        None => Some(n),
                    };
                    best = best.max(a);
                }
            }
            i += 1;
        }
        best
    }

    /// Writes the new nodes anchored at existing node `id`.
    pub fn write_anchored(&mut self, id: u32, out: &mut Vec<u8>) {
        let Some(at) = self.by_anchor.remove(&id) else {
            return;
        };
        for k in at {
            let line = &mut self.defs[k as usize].1;
            out.extend_from_slice(line);
            line.clear();
        }
    }

    /// Appends the declarations and metadata definitions.
    pub fn finish(self, out: &mut Vec<u8>) {
        if !self.decls.is_empty() {
            if !out.is_empty() && !out.ends_with(b"\n\n") {
                out.push(b'\n');
            }
            for d in &self.decls {
                out.extend_from_slice(d.as_bytes());
                out.push(b'\n');
            }
        }
        let rest: Vec<&Vec<u8>> = self
            .defs
            .iter()
            .map(|(_, l)| l)
            .filter(|l| !l.is_empty())
            .collect();
        if !rest.is_empty() {
            if !out.is_empty() && !out.ends_with(b"\n\n") {
                out.push(b'\n');
            }
            for l in rest {
                out.extend_from_slice(l);
            }
        }
    }
}

/// The global name (without `@`) a `declare ... @name(...)` line declares.
fn decl_name(d: &str) -> &[u8] {
    let at = d.find('@').map_or(0, |i| i + 1);
    let end = d[at..].find('(').map_or(d.len(), |i| at + i);
    &d.as_bytes()[at..end]
}

fn find(h: &[u8], n: &[u8]) -> Option<usize> {
    let first = n[0];
    let mut i = 0;
    while let Some(p) = h[i..].iter().position(|&c| c == first) {
        let at = i + p;
        if h[at..].starts_with(n) {
            return Some(at);
        }
        i = at + 1;
    }
    None
}

/// Where `blockaddress(@f, %N)` points after passes renumbered `f`'s blocks: for each
/// function whose input numbered blocks, input number → number it prints with now.
/// Invariant: only numeric block references change; named ones stay as written.
///
/// A streaming printer that does not know the numbering yet prints through
/// [`BlockAddresses::deferred`]: each constant with `blockaddress(` is written between marks
/// (`BA_MARK`, its length as 4 little-endian bytes, the text), which
/// [`BlockAddresses::resolve_marks`] rewrites once the numbering is known. Rewriting a marked
/// text later gives the bytes rewriting it while printing gives.
pub struct BlockAddresses {
    by_fn: FxHashMap<Vec<u8>, FxHashMap<u32, u32>>,
    deferred: bool,
}

/// One function's part of [`BlockAddresses`]: its key and its blocks' input → output numbers.
pub struct FunctionBlocks {
    key: Vec<u8>,
    map: FxHashMap<u32, u32>,
}

impl FunctionBlocks {
    /// The numbering `f` prints with now, for the blocks its input numbered (`None` when it
    /// numbered none: nothing to rewrite).
    pub fn of(f: &Function) -> Option<Self> {
        if f.input_block_numbers.is_empty() {
            return None;
        }
        let num = Numbering::compute(f);
        let map: FxHashMap<u32, u32> = f
            .input_block_numbers
            .iter()
            .filter(|(_, b)| f.layout.is_block_inserted(*b) && f.dfg.blocks[*b].name.is_none())
            .map(|&(n, b)| (n, num.blocks[b]))
            .collect();
        let mut key = vec![b'@'];
        key.extend_from_slice(f.text(f.name));
        let key = crate::ir::module_info::global_key(&key).into_owned();
        Some(Self { key, map })
    }
}

/// Marks a deferred `blockaddress` constant in printed text (see [`BlockAddresses`]).
const BA_MARK: &[u8] = b"\x00\x02BA";
const BA_KW: &[u8] = b"blockaddress(";

impl BlockAddresses {
    /// The map for `m`, or `None` when the module has no `blockaddress`.
    pub fn compute(m: &Module) -> Option<Self> {
        if !m.info.as_ref().is_some_and(|c| c.has_blockaddress) {
            return None;
        }
        Some(Self::from_functions(
            m.functions.values().filter_map(FunctionBlocks::of),
        ))
    }

    /// The map made of these functions' numberings.
    pub fn from_functions(fns: impl IntoIterator<Item = FunctionBlocks>) -> Self {
        let by_fn = fns.into_iter().map(|f| (f.key, f.map)).collect();
        Self {
            by_fn,
            deferred: false,
        }
    }

    /// A printer argument that marks `blockaddress` constants instead of rewriting them.
    pub fn deferred() -> Self {
        Self {
            by_fn: FxHashMap::default(),
            deferred: true,
        }
    }

    /// Whether `text` has `blockaddress(` (then [`BlockAddresses::rewrite`] may change it).
    pub fn mentioned(text: &[u8]) -> bool {
        find(text, BA_KW).is_some()
    }

    /// Whether printed text holds marks of [`BlockAddresses::deferred`].
    pub fn has_marks(text: &[u8]) -> bool {
        find(text, BA_MARK).is_some()
    }

    /// The keys (see [`crate::ir::module_info::global_key`]) of the functions `text` names
    /// right after `blockaddress(`, in order, repeats included; a superset of those
    /// [`BlockAddresses::rewrite`] looks up in the same text.
    pub fn targets(text: &[u8]) -> Vec<Vec<u8>> {
        let mut keys = Vec::new();
        let mut from = 0;
        while let Some(p) = find(&text[from..], BA_KW) {
            let (g_start, i) = named_function(text, from + p + BA_KW.len());
            if i > g_start + 1 {
                keys.push(crate::ir::module_info::global_key(&text[g_start..i]).into_owned());
            }
            from = i.max(from + p + 1);
        }
        keys
    }

    fn write_const(&self, text: &[u8], out: &mut Vec<u8>) {
        if !self.deferred {
            out.extend_from_slice(&self.rewrite(text));
        } else if find(text, BA_KW).is_some() && u32::try_from(text.len()).is_ok() {
            out.extend_from_slice(BA_MARK);
            out.extend_from_slice(&(text.len() as u32).to_le_bytes());
            out.extend_from_slice(text);
        } else {
            out.extend_from_slice(text);
        }
    }

    /// `text` (printed through [`BlockAddresses::deferred`]) with every marked constant
    /// rewritten by this map and the marks removed.
    pub fn resolve_marks(&self, text: &[u8]) -> Vec<u8> {
        let mut out = Vec::with_capacity(text.len());
        let mut i = 0;
        while let Some(p) = find(&text[i..], BA_MARK) {
            out.extend_from_slice(&text[i..i + p]);
            let at = i + p + BA_MARK.len();
            let Some(len) = text.get(at..at + 4) else {
                i += p;
                break;
            };
            let len = u32::from_le_bytes([len[0], len[1], len[2], len[3]]) as usize;
            let end = (at + 4 + len).min(text.len());
            out.extend_from_slice(&self.rewrite(&text[at + 4..end]));
            i = end;
        }
        out.extend_from_slice(&text[i..]);
        out
    }

    /// `text` with every `blockaddress(@f, %N)` renumbered.
    pub fn rewrite<'t>(&self, text: &'t [u8]) -> std::borrow::Cow<'t, [u8]> {
        let Some(mut at) = find(text, BA_KW) else {
            return std::borrow::Cow::Borrowed(text);
        };
        let mut out = Vec::with_capacity(text.len());
        let mut copied = 0;
        loop {
            let (g_start, mut i) = named_function(text, at + BA_KW.len());
            // `blockaddress(` inside a string or a comment names no function.
            if i <= g_start + 1 {
                match find(&text[i..], BA_KW) {
                    Some(p) => {
                        at = i + p;
                        continue;
                    }
                    None => break,
                }
            }
            let key = crate::ir::module_info::global_key(&text[g_start..i]).into_owned();
            while text
                .get(i)
                .is_some_and(|&c| c.is_ascii_whitespace() || c == b',')
            {
                i += 1;
            }
            if text.get(i) == Some(&b'%') {
                let d = text[i + 1..]
                    .iter()
                    .take_while(|c| c.is_ascii_digit())
                    .count();
                let n = std::str::from_utf8(&text[i + 1..i + 1 + d])
                    .ok()
                    .and_then(|s| s.parse::<u32>().ok());
                if let (Some(n), Some(map)) = (n, self.by_fn.get(&key)) {
                    if let Some(&cur) = map.get(&n) {
                        out.extend_from_slice(&text[copied..i + 1]);
                        out.extend_from_slice(cur.to_string().as_bytes());
                        copied = i + 1 + d;
                    }
                }
            }
            match find(&text[i..], BA_KW) {
                Some(p) => at = i + p,
                None => break,
            }
        }
        out.extend_from_slice(&text[copied..]);
        std::borrow::Cow::Owned(out)
    }
}

/// After `blockaddress(` at `i`: the span `[start, end)` of the `@f` it names (`end <=
/// start + 1` when none: no `@`, or a bare `@`).
fn named_function(text: &[u8], mut i: usize) -> (usize, usize) {
    while text.get(i).is_some_and(|c| c.is_ascii_whitespace()) {
        i += 1;
    }
    let g_start = i;
    if text.get(i) == Some(&b'@') {
        i += 1;
        if text.get(i) == Some(&b'"') {
            i = match text[i + 1..].iter().position(|&c| c == b'"') {
                Some(p) => i + p + 2,
                None => text.len(),
            };
        } else {
            while text
                .get(i)
                .is_some_and(|&c| c.is_ascii_alphanumeric() || b"-$._".contains(&c))
            {
                i += 1;
            }
        }
    }
    (g_start, i)
}

/// Appends verbatim text, ending it with a newline.
pub fn write_verbatim(text: &[u8], out: &mut Vec<u8>) {
    out.extend_from_slice(text);
    if !text.ends_with(b"\n") {
        out.push(b'\n');
    }
}

/// Prints each function into its own buffer, splitting the list into `threads` contiguous
/// chunks of similar total size.
fn print_parallel(
    funcs: &[&Function],
    threads: usize,
    ba: Option<&BlockAddresses>,
) -> Vec<Vec<u8>> {
    let one = |f: &Function| {
        let mut v = Vec::with_capacity(size_hint(f));
        print_function_in(f, &mut v, ba);
        v
    };
    if threads <= 1 || funcs.len() < 2 {
        return funcs.iter().map(|f| one(f)).collect();
    }
    let chunks = crate::util::parallel::balanced_chunks(funcs, threads, |f| f.dfg.insts.len() + 1);
    std::thread::scope(|s| {
        let handles: Vec<_> = chunks
            .into_iter()
            .map(|c| s.spawn(move || c.iter().map(|f| one(f)).collect::<Vec<_>>()))
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("printer thread panicked"))
            .collect()
    })
}

/// A generous guess of a function's printed size, to size its buffer once: pages of a
/// buffer never written are never touched, while one that must grow is copied and faulted
/// in again (on sqlite3 and on phi-heavy `gen_scale` output this bounds the text).
pub fn size_hint(f: &Function) -> usize {
    let d = &f.dfg;
    d.insts.len() * 32 + d.value_pool.len() * 16 + d.block_pool.len() * 10 + d.pieces.len() * 6 + 64
}

/// The text of `t` in `func` (convenience for other printers).
pub fn text_of(func: &Function, t: Text) -> String {
    String::from_utf8_lossy(func.text(t)).into_owned()
}
