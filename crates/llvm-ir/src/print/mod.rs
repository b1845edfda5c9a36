//! Writing functions as LLVM IR text.
//!
//! The printer only reads the IR. Each function is written as its header template, `{`, its
//! blocks and instructions, `}`. Unnamed values and blocks are numbered afresh in LLVM's slot
//! order ([`Numbering`]): unnamed parameters first, then, block by block in layout order, the
//! block itself (if unnamed) and each unnamed instruction with a result. So a module whose
//! instructions were added or removed still prints `%0, %1, ...` in order, which is what
//! LLVM's reader requires.
//!
//! Metadata nodes and attribute groups are numbered for the whole module, in the order LLVM
//! meets them, so a function printed for a module ([`print_for_module`]) keeps the input's
//! `!N` / `#N` and lists where they are ([`Printed::sites`]); the module writer
//! ([`crate::print::module_writer`]) puts the final numbers in when it joins the functions in
//! module order. Functions are printed into separate buffers, in parallel when asked: the
//! output is the same whatever the thread count.

use crate::entity::SecondaryMap;
use crate::ir::{Block, Function, Inst, MdRef, Module, Opcode, Piece, Text, Value, ValueDef};
pub use crate::lexical::{write_u32, write_u64};
use crate::util::fxhash::FxHashMap;

pub mod attr_slots;
pub mod md_slots;
pub mod module_writer;
pub mod names;
pub mod refs;
pub mod type_order;

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

/// What a numbered reference at a site of a printed function's text names (see
/// [`Printed::sites`]): read back from the text there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SiteRef {
    /// Input metadata node `!N`.
    Md(u32),
    /// The function's new node `k` ([`Function::new_md`]), written `!^k` until numbered.
    NewMd(u32),
    /// Input attribute group `#N`.
    Attr(u32),
}

impl SiteRef {
    /// The reference written at the start of `text`, and its length in bytes.
    #[inline]
    pub fn read(text: &[u8]) -> Option<(SiteRef, usize)> {
        let (kind, skip) = match text {
            [b'!', b'^', ..] => (1, 2),
            [b'!', ..] => (0, 1),
            [b'#', ..] => (2, 1),
            _ => return None,
        };
        // At most ten digits, read by hand (this runs once per site of every function).
        let (mut n, mut digits) = (0u64, 0);
        while let Some(&c) = text.get(skip + digits).filter(|c| c.is_ascii_digit()) {
            if digits == 10 {
                break;
            }
            n = n * 10 + u64::from(c - b'0');
            digits += 1;
        }
        let n = u32::try_from(n).ok().filter(|_| digits > 0)?;
        let r = match kind {
            0 => SiteRef::Md(n),
            1 => SiteRef::NewMd(n),
            _ => SiteRef::Attr(n),
        };
        Some((r, skip + digits))
    }
}

/// A function printed for the module writer: its text, where the numbered references in it
/// are, and the attribute group of its header (for the `; Function Attrs:` comment).
#[derive(Clone, Debug, Default)]
pub struct Printed {
    /// The text, `define ...` to `}` and a newline.
    pub text: Vec<u8>,
    /// The offsets in `text` of its numbered references, in order: the input's `!N` and `#N`,
    /// and `!^k` for new node `k` ([`SiteRef::read`] reads them back). Four bytes a site: a
    /// `-g` body has one or two a line.
    pub sites: Vec<u32>,
    /// The group `#N` of the header's function attributes.
    pub header_attr: Option<u32>,
    /// The named types the body meets first, in LLVM's `TypeFinder` order
    /// ([`crate::print::type_order::body_events`]).
    pub type_names: Vec<Box<[u8]>>,
}

/// Writes one function's text, noting references when `sites` is given. Without it, a node a
/// pass made is written inline (`!DILocation(...)`), which is valid where LLVM prints a number.
struct FnWriter<'f, 'o> {
    func: &'f Function,
    num: &'f Numbering,
    ba: Option<&'f BlockAddresses>,
    out: &'o mut Vec<u8>,
    sites: Option<&'o mut Vec<u32>>,
    /// The named types the body meets, gathered as instructions are printed.
    types: Option<crate::print::type_order::BodyTypes>,
}

impl FnWriter<'_, '_> {
    /// Appends `t`; with `scan`, notes the references in it.
    #[inline(always)]
    fn text(&mut self, t: &[u8], scan: bool) {
        let base = self.out.len();
        self.out.extend_from_slice(t);
        if scan {
            self.note_refs(base, t);
        }
    }

    /// Notes the references of `t`, just written at `base`.
    fn note_refs(&mut self, base: usize, t: &[u8]) {
        if let Some(sites) = self.sites.as_deref_mut() {
            crate::print::refs::for_each_ref(t, |r| sites.push((base + r.start) as u32));
        }
    }

    /// A node a pass made: a site, or the node inline.
    fn new_md(&mut self, k: u32) {
        match self.sites.as_deref_mut() {
            Some(sites) => {
                sites.push(self.out.len() as u32);
                self.out.extend_from_slice(b"!^");
                write_u32(self.out, k);
            }
            None => self.out.extend_from_slice(&self.func.new_md[k as usize]),
        }
    }

    fn md_ref(&mut self, r: MdRef) {
        match r {
            // Nearly always `!N`: one site at its start, no scan.
            MdRef::Text(t) => match self.func.text(t) {
                t @ [b'!', b'0'..=b'9', rest @ ..] if rest.iter().all(u8::is_ascii_digit) => {
                    if let Some(sites) = self.sites.as_deref_mut() {
                        sites.push(self.out.len() as u32);
                    }
                    self.out.extend_from_slice(t);
                }
                t => self.text(t, true),
            },
            MdRef::New(k) => self.new_md(k),
        }
    }

    fn value(&mut self, v: Value) {
        let func = self.func;
        let v = func.dfg.resolve(v);
        let d = &func.dfg.values[v];
        match d.def {
            // The common case, [`Numbering::write_value_in`]'s, kept inline.
            ValueDef::Inst(_) | ValueDef::Param(_) => {
                self.out.push(b'%');
                if d.name.is_none() {
                    write_u32(self.out, self.num.values[v]);
                } else {
                    self.out.extend_from_slice(func.text(d.name));
                }
            }
            ValueDef::Const(t) => {
                let t = func.text(t);
                match (t.first(), self.ba) {
                    // A metadata argument (`metadata !12`) holds references.
                    (Some(&b'!'), _) => self.text(t, true),
                    (_, Some(ba)) => ba.write_const(t, self.out),
                    (_, None) => self.out.extend_from_slice(t),
                }
            }
            _ => self.num.write_value_in(func, v, self.out, self.ba),
        }
    }

    /// A template, filling holes from `values` / `blocks`; `scan`: its texts may hold
    /// references (call sites, debug records, the header).
    fn pieces(&mut self, pieces: &[Piece], values: &[Value], blocks: &[Block], scan: bool) {
        let func = self.func;
        for p in pieces {
            match *p {
                Piece::Text(t) => self.text(func.text(t), scan),
                Piece::Value(i) => self.value(values[i as usize]),
                Piece::Block(i) => self.num.write_block(func, blocks[i as usize], self.out),
                Piece::NewMd(k) => self.new_md(k),
                Piece::Incoming => {
                    write_incoming(func, self.num, values, blocks, self.out, self.ba)
                }
            }
        }
    }

    /// `switch T %c, label %d [` and one case a line, as LLVM prints it whatever the input's
    /// spacing.
    fn switch(&mut self, inst: Inst) {
        let func = self.func;
        let (values, blocks) = (func.dfg.inst_values(inst), func.dfg.inst_blocks(inst));
        let ty = func.dfg.value_type(values[0]);
        let typed = |w: &mut Self, v: Value| {
            func.types.write(w.out, ty);
            w.out.push(b' ');
            w.value(v);
        };
        self.out.extend_from_slice(b"switch ");
        typed(self, values[0]);
        self.out.extend_from_slice(b", label ");
        self.num.write_block(func, blocks[0], self.out);
        self.out.extend_from_slice(b" [");
        for (&v, &b) in values[1..].iter().zip(&blocks[1..]) {
            self.out.extend_from_slice(b"\n    ");
            typed(self, v);
            self.out.extend_from_slice(b", label ");
            self.num.write_block(func, b, self.out);
        }
        self.out.extend_from_slice(b"\n  ]");
    }

    /// One instruction: `%r = ` (if it has a result), its template, its attachments.
    fn inst(&mut self, inst: Inst) {
        let dfg = &self.func.dfg;
        if let Some(r) = dfg.insts[inst].result.expand() {
            self.num.write_value(self.func, r, self.out);
            self.out.extend_from_slice(b" = ");
        }
        let opcode = dfg.insts[inst].opcode;
        if opcode == Opcode::Switch {
            self.switch(inst);
        } else {
            let scan = matches!(
                opcode,
                Opcode::Call | Opcode::Invoke | Opcode::CallBr | Opcode::DbgRecord
            );
            self.pieces(
                dfg.inst_pieces(inst),
                dfg.inst_values(inst),
                dfg.inst_blocks(inst),
                scan,
            );
        }
        for &(kind, node) in dfg.inst_attachments(inst) {
            self.out.extend_from_slice(b", !");
            self.out.extend_from_slice(self.func.text(kind));
            self.out.push(b' ');
            self.md_ref(node);
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

/// Appends one instruction (for messages: nodes passes made are written inline).
fn write_inst(func: &Function, num: &Numbering, inst: Inst, out: &mut Vec<u8>) {
    let mut w = FnWriter {
        func,
        num,
        ba: None,
        out,
        sites: None,
        types: None,
    };
    w.inst(inst);
}

/// Appends one function definition, as a module prints it but for numbered references, which
/// keep the input's numbers (nodes passes made are written inline).
pub fn print_function(func: &Function, out: &mut Vec<u8>) {
    let num = Numbering::compute(func);
    let mut w = FnWriter {
        func,
        num: &num,
        ba: None,
        out,
        sites: None,
        types: None,
    };
    write_body(&mut w);
}

/// Prints `func` for the module writer, within a module whose `blockaddress` references `ba`
/// rewrites.
pub fn print_for_module(func: &Function, ba: Option<&BlockAddresses>) -> Printed {
    let num = Numbering::compute(func);
    let mut p = Printed {
        text: Vec::with_capacity(size_hint(func)),
        ..Printed::default()
    };
    let mut w = FnWriter {
        func,
        num: &num,
        ba,
        out: &mut p.text,
        sites: Some(&mut p.sites),
        types: Some(Default::default()),
    };
    let in_header = write_body(&mut w);
    let types = w.types.take().map(|t| t.finish()).unwrap_or_default();
    p.header_attr =
        p.sites[..in_header]
            .iter()
            .find_map(|&at| match SiteRef::read(&p.text[at as usize..]) {
                Some((SiteRef::Attr(id), _)) => Some(id),
                _ => None,
            });
    p.type_names = types;
    p
}

/// The header, `{`, the blocks with their instructions, `}`. Returns how many sites the
/// header has.
fn write_body(w: &mut FnWriter<'_, '_>) -> usize {
    let func = w.func;
    let num = w.num;
    w.pieces(func.header_pieces(), &func.params, &[], true);
    let in_header = w.sites.as_ref().map_or(0, |s| s.len());
    w.out.extend_from_slice(b" {\n");
    let entry = func.layout.entry_block();
    let preds = predecessors(func);
    for b in func.layout.blocks() {
        if Some(b) != entry || !func.dfg.blocks[b].name.is_none() {
            if Some(b) != entry {
                w.out.push(b'\n');
            }
            let line_start = w.out.len();
            num.write_block_name(func, b, w.out);
            w.out.push(b':');
            if Some(b) != entry {
                write_preds(func, num, &preds[b], w.out, line_start);
            }
            w.out.push(b'\n');
        }
        for i in func.layout.block_insts(b) {
            // Debug records are indented further, as LLVM prints them.
            if func.dfg.insts[i].opcode == Opcode::DbgRecord {
                w.out.extend_from_slice(b"    ");
            } else {
                w.out.extend_from_slice(b"  ");
            }
            w.inst(i);
            if let Some(t) = w.types.as_mut() {
                t.inst(func, i);
            }
            w.out.push(b'\n');
        }
    }
    w.out.extend_from_slice(b"}\n");
    in_header
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

/// Writes `m` as LLVM IR text in opt's layout (see [`crate::print::module_writer`]),
/// printing functions on up to `threads` threads.
pub fn print_module(m: &Module, threads: crate::Threads) -> Vec<u8> {
    crate::print::module_writer::write_module(m, threads)
}

/// The first `blockaddress (` in `h`: where the keyword starts and the index after its `(`.
fn find_kw(h: &[u8]) -> Option<(usize, usize)> {
    crate::util::bytes::find_blockaddress(h)
}

/// The first index of a [`BA_MARK`] in `h` (scanning for its NUL, which IR text never holds).
fn find_mark(h: &[u8]) -> Option<usize> {
    crate::util::bytes::find_sub_at(h, BA_MARK, 0)
}

/// Where `blockaddress(@f, %N)` points after passes renumbered `f`'s blocks: for each
/// function whose input numbered blocks, input number → number it prints with now.
/// Invariant: only numeric block references change; named ones stay as written.
///
/// A streaming printer that does not know the numbering yet prints through
/// [`BlockAddresses::deferred`]: each constant with `blockaddress(` is written between marks
/// (`BA_MARK`, its length as 4 little-endian bytes, the text), which
/// [`BlockAddresses::resolve_printed`] rewrites once the numbering is known. Rewriting a marked
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
        find_kw(text).is_some()
    }

    /// Whether printed text holds marks of [`BlockAddresses::deferred`].
    pub fn has_marks(text: &[u8]) -> bool {
        find_mark(text).is_some()
    }

    /// The keys (see [`crate::ir::module_info::global_key`]) of the functions `text` names
    /// right after `blockaddress(`, in order, repeats included; a superset of those
    /// [`BlockAddresses::rewrite`] looks up in the same text.
    pub fn targets(text: &[u8]) -> Vec<Vec<u8>> {
        let mut keys = Vec::new();
        let mut from = 0;
        while let Some((p, open)) = find_kw(&text[from..]) {
            let (g_start, i) = named_function(text, from + open);
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
        } else if find_kw(text).is_some() && u32::try_from(text.len()).is_ok() {
            out.extend_from_slice(BA_MARK);
            out.extend_from_slice(&(text.len() as u32).to_le_bytes());
            out.extend_from_slice(text);
        } else {
            out.extend_from_slice(text);
        }
    }

    /// `p` (printed through [`BlockAddresses::deferred`] by [`print_for_module`]) with every
    /// marked constant rewritten and its sites moved by what the rewriting added or removed
    /// before them (no site lies inside a marked constant: constants hold no numbered
    /// references).
    pub fn resolve_printed(&self, p: &mut Printed) {
        let text = &p.text;
        let mut out = Vec::with_capacity(text.len());
        let mut site = 0;
        let mut i = 0;
        let shift = |sites: &mut [u32], site: &mut usize, upto: usize, delta: i64| {
            while *site < sites.len() && (sites[*site] as usize) < upto {
                sites[*site] = (sites[*site] as i64 + delta) as u32;
                *site += 1;
            }
        };
        while let Some(q) = find_mark(&text[i..]) {
            let delta = out.len() as i64 - i as i64;
            shift(&mut p.sites, &mut site, i + q, delta);
            out.extend_from_slice(&text[i..i + q]);
            let at = i + q + BA_MARK.len();
            let Some(len) = text.get(at..at + 4) else {
                i += q;
                break;
            };
            let len = u32::from_le_bytes([len[0], len[1], len[2], len[3]]) as usize;
            let end = (at + 4 + len).min(text.len());
            out.extend_from_slice(&self.rewrite(&text[at + 4..end]));
            i = end;
        }
        let delta = out.len() as i64 - i as i64;
        shift(&mut p.sites, &mut site, usize::MAX, delta);
        out.extend_from_slice(&text[i..]);
        p.text = out;
    }

    /// `text` with every `blockaddress(@f, %N)` renumbered.
    pub fn rewrite<'t>(&self, text: &'t [u8]) -> std::borrow::Cow<'t, [u8]> {
        let Some((_, mut open)) = find_kw(text) else {
            return std::borrow::Cow::Borrowed(text);
        };
        let mut out = Vec::with_capacity(text.len());
        let mut copied = 0;
        loop {
            let (g_start, mut i) = named_function(text, open);
            // `blockaddress(` inside a string or a comment names no function.
            if i <= g_start + 1 {
                match find_kw(&text[i..]) {
                    Some((_, o)) => {
                        open = i + o;
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
            match find_kw(&text[i..]) {
                Some((_, o)) => open = i + o,
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

/// Prints each function for the module writer, splitting the list into `threads` contiguous
/// chunks of similar total size.
pub(crate) fn print_parallel(
    funcs: &[&Function],
    threads: usize,
    ba: Option<&BlockAddresses>,
) -> Vec<Printed> {
    let one = |f: &Function| print_for_module(f, ba);
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
