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

use crate::entity::{EntityRef, SecondaryMap};
use crate::ir::{Block, Function, Inst, Item, Module, Piece, Text, Value, ValueDef};

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
        let d = &func.dfg.values[v];
        match d.def {
            ValueDef::Undef => out.extend_from_slice(b"undef"),
            ValueDef::Poison => out.extend_from_slice(b"poison"),
            ValueDef::Const(t) => out.extend_from_slice(func.text(t)),
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

/// Appends the decimal digits of `n`.
#[inline]
fn write_u32(out: &mut Vec<u8>, mut n: u32) {
    let mut buf = [0u8; 10];
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.extend_from_slice(&buf[i..]);
}

/// Appends a template, filling holes from `values` / `blocks`.
fn write_pieces(
    func: &Function,
    num: &Numbering,
    pieces: &[Piece],
    values: &[Value],
    blocks: &[Block],
    out: &mut Vec<u8>,
) {
    for p in pieces {
        match *p {
            Piece::Text(t) => out.extend_from_slice(func.text(t)),
            Piece::Value(i) => num.write_value(func, func.dfg.resolve(values[i as usize]), out),
            Piece::Block(i) => num.write_block(func, blocks[i as usize], out),
        }
    }
}

/// Appends one instruction: `%r = ` (if it has a result), its template, its attachments.
fn write_inst(func: &Function, num: &Numbering, inst: Inst, out: &mut Vec<u8>) {
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
    );
    for &(kind, node) in dfg.inst_attachments(inst) {
        out.extend_from_slice(b", !");
        out.extend_from_slice(func.text(kind));
        out.push(b' ');
        out.extend_from_slice(func.text(node));
    }
}

/// Appends one function definition.
pub fn print_function(func: &Function, out: &mut Vec<u8>) {
    let num = Numbering::compute(func);
    write_pieces(func, &num, func.header_pieces(), &func.params, &[], out);
    out.extend_from_slice(b" {\n");
    let entry = func.layout.entry_block();
    for b in func.layout.blocks() {
        if Some(b) != entry || !func.dfg.blocks[b].name.is_none() {
            if Some(b) != entry {
                out.push(b'\n');
            }
            num.write_block_name(func, b, out);
            out.extend_from_slice(b":\n");
        }
        for i in func.layout.block_insts(b) {
            out.extend_from_slice(b"  ");
            write_inst(func, &num, i, out);
            out.push(b'\n');
        }
    }
    out.extend_from_slice(b"}\n");
}

/// Writes `m` as LLVM IR text, printing functions on up to `threads` threads.
pub fn print_module(m: &Module, threads: usize) -> Vec<u8> {
    let funcs: Vec<&Function> = m.functions.values().collect();
    let printed = print_parallel(&funcs, threads.max(1));
    let mut out = Vec::with_capacity(m.source.len() + printed.iter().map(Vec::len).sum::<usize>());
    for item in &m.items {
        match *item {
            Item::Text(t) => write_verbatim(m.text(t), &mut out),
            Item::Function(f) => out.extend_from_slice(&printed[f.index()]),
        }
    }
    out
}

/// Appends verbatim text, ending it with a newline.
fn write_verbatim(text: &[u8], out: &mut Vec<u8>) {
    out.extend_from_slice(text);
    if !text.ends_with(b"\n") {
        out.push(b'\n');
    }
}

/// Prints each function into its own buffer, splitting the list into `threads` contiguous
/// chunks of similar total size.
fn print_parallel(funcs: &[&Function], threads: usize) -> Vec<Vec<u8>> {
    let one = |f: &Function| {
        let mut v = Vec::with_capacity(estimate(f));
        print_function(f, &mut v);
        v
    };
    if threads <= 1 || funcs.len() < 2 {
        return funcs.iter().map(|f| one(f)).collect();
    }
    let chunks = crate::pipeline::balanced_chunks(funcs, threads, |f| f.dfg.insts.len() + 1);
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

/// A guess of a function's printed size, to size its buffer once.
fn estimate(f: &Function) -> usize {
    f.dfg.insts.len() * 40 + 64
}

/// The text of `t` in `func` (convenience for other printers).
pub fn text_of(func: &Function, t: Text) -> String {
    String::from_utf8_lossy(func.text(t)).into_owned()
}
