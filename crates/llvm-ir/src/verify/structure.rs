//! Block structure and phi entries (phase 2 of the verifier).
//!
//! - the entry block has no predecessors (LLVM: "Entry block to function must not have
//!   predecessors!"); no block is empty; the last instruction is a terminator and no other is;
//! - phis come first, and nothing but phis comes before the first non-phi; an EH pad is the
//!   first non-phi instruction (debug records do not count);
//! - each phi has exactly one entry per incoming edge: the multiset of its incoming blocks equals
//!   the multiset of predecessor edges (an edge repeated in a terminator, as in
//!   `br i1 %c, label %x, label %x`, needs two entries), and entries for the same predecessor
//!   carry the same value.
//!
//! The phi check is linear: the predecessor lists of all blocks are gathered once per function
//! (only if it has phis: one pass over the terminators, no CFG or dominator tree); per block,
//! the multiplicity of each predecessor is stamped into a dense array once; per phi, entry
//! counts are stamped into another and compared against it, so a phi costs
//! O(entries + distinct predecessors) and nothing is sorted.

use super::{Cx, ErrorKind, Reporter};
use crate::ir::{Block, Function, Inst, Opcode, Value, ValueDef};

/// The entry block is no terminator's successor (a scan of the terminators: no CFG needed).
pub(crate) fn check_entry(cx: &Cx<'_>, rep: &mut Reporter<'_>) {
    let func = cx.func;
    let Some(entry) = func.layout.entry_block() else {
        return;
    };
    let mut from: Vec<Block> = Vec::new();
    for b in func.layout.blocks() {
        if func.successors(b).contains(&entry) {
            from.push(b);
        }
    }
    if !from.is_empty() {
        let names: Vec<String> = from.iter().map(|&p| rep.block(p)).collect();
        let msg = format!(
            "Entry block to function must not have predecessors! (edges from {})",
            names.join(", ")
        );
        rep.at_block(ErrorKind::EntryHasPredecessors, entry, msg);
    }
}

/// Emptiness and terminator checks for block `b` as a whole.
pub(crate) fn check_block(cx: &Cx<'_>, rep: &mut Reporter<'_>, b: Block) {
    match cx.func.layout.last_inst(b) {
        None => {
            let msg = "empty block: a block needs at least a terminator".to_string();
            rep.at_block(ErrorKind::EmptyBlock, b, msg);
        }
        Some(last) if !cx.func.dfg.opcode(last).is_terminator() => {
            let msg = "Basic Block does not have terminator! (its last instruction is not one)";
            rep.at_inst(ErrorKind::NoTerminator, b, last, msg.to_string());
        }
        Some(_) => {}
    }
}

/// What has been seen so far in the block being walked.
#[derive(Default)]
pub(crate) struct HeadState {
    /// A non-phi instruction (debug records included).
    non_phi: bool,
    /// A non-phi instruction other than a debug record.
    real: bool,
}

/// Position rules for instruction `i` of block `b`: phis first, EH pads next, terminators last.
pub(crate) fn check_position(
    cx: &Cx<'_>,
    rep: &mut Reporter<'_>,
    b: Block,
    i: Inst,
    head: &mut HeadState,
) {
    let op = cx.func.dfg.opcode(i);
    if op == Opcode::Phi {
        if head.non_phi {
            let msg = "PHI nodes not grouped at top of basic block!".to_string();
            rep.at_inst(ErrorKind::PhiNotAtHead, b, i, msg);
        }
    } else {
        head.non_phi = true;
        if op.is_eh_pad() && head.real {
            let msg = format!(
                "{} is not the first non-PHI instruction in the block",
                op.keyword()
            );
            rep.at_inst(ErrorKind::EhPadNotFirst, b, i, msg);
        }
        if op != Opcode::DbgRecord {
            head.real = true;
        }
    }
    if op.is_terminator() && cx.func.layout.next_inst(i).is_some() {
        let msg = "Terminator found in the middle of a basic block!".to_string();
        rep.at_inst(ErrorKind::TerminatorInMiddle, b, i, msg);
    }
}

/// Checks phi entries against predecessor edges; dense scratch reset by stamps, reused across
/// functions (stamps only grow, so old entries never match).
#[derive(Default)]
pub(crate) struct PhiChecker {
    /// Predecessors of every block, with multiplicity, by predecessor layout position (made
    /// on the first phi).
    preds: Option<Preds>,
    /// Predecessor multiplicity of each block for the current block (valid where stamped).
    need: Vec<u32>,
    need_stamp: Vec<u32>,
    block_stamp: u32,
    /// The block `need` describes.
    ready: Option<Block>,
    /// Entry count, first value and "conflict reported" per incoming block for the current phi.
    have: Vec<u32>,
    first: Vec<Value>,
    have_stamp: Vec<u32>,
    conflict_stamp: Vec<u32>,
    /// Incoming blocks already compared for the current phi.
    compared_stamp: Vec<u32>,
    phi_stamp: u32,
}

impl PhiChecker {
    /// Readies the scratch for `func` (its arrays grow on its first phi).
    pub(crate) fn prepare(&mut self, _func: &Function) {
        self.preds = None;
        self.ready = None;
    }

    /// Grows the arrays to `n` block ids (new entries carry stamp 0, never a live one).
    fn grow(&mut self, n: usize) {
        if self.need.len() >= n {
            return;
        }
        self.need.resize(n, 0);
        self.need_stamp.resize(n, 0);
        self.have.resize(n, 0);
        self.first.resize(n, Value::NONE);
        self.have_stamp.resize(n, 0);
        self.conflict_stamp.resize(n, 0);
        self.compared_stamp.resize(n, 0);
    }

    /// Forgets the previous block (its predecessor counts are made on the first phi).
    pub(crate) fn start_block(&mut self, _cx: &Cx<'_>, _b: Block) {
        self.ready = None;
    }

    fn count_preds(&mut self, cx: &Cx<'_>, b: Block) {
        if self.ready == Some(b) {
            return;
        }
        self.block_stamp += 1;
        self.grow(cx.func.dfg.blocks.len());
        let preds = self.preds.get_or_insert_with(|| Preds::compute(cx.func));
        for &p in preds.of(b) {
            let k = p.index();
            if self.need_stamp[k] != self.block_stamp {
                self.need_stamp[k] = self.block_stamp;
                self.need[k] = 0;
            }
            self.need[k] += 1;
        }
        self.ready = Some(b);
    }

    fn need_of(&self, p: Block) -> u32 {
        let k = p.index();
        if self.need_stamp[k] == self.block_stamp {
            self.need[k]
        } else {
            0
        }
    }

    /// Checks phi `i` of block `b`.
    pub(crate) fn check_phi(&mut self, cx: &Cx<'_>, rep: &mut Reporter<'_>, b: Block, i: Inst) {
        let dfg = &cx.func.dfg;
        let (vals, blocks) = (dfg.inst_values(i), dfg.inst_blocks(i));
        if vals.len() != blocks.len() {
            let msg = format!(
                "phi has {} incoming values but {} incoming blocks",
                vals.len(),
                blocks.len()
            );
            rep.at_inst(ErrorKind::OperandCount, b, i, msg);
            return;
        }
        self.count_preds(cx, b);
        self.phi_stamp += 1;
        let ps = self.phi_stamp;
        for (&v, &pb) in vals.iter().zip(blocks) {
            let (k, v) = (pb.index(), dfg.resolve(v));
            if self.have_stamp[k] != ps {
                self.have_stamp[k] = ps;
                self.have[k] = 0;
                self.first[k] = v;
            } else if !same_value(cx.func, self.first[k], v) && self.conflict_stamp[k] != ps {
                self.conflict_stamp[k] = ps;
                let (a, c, blk) = (rep.value(self.first[k]), rep.value(v), rep.block(pb));
                let msg = format!(
                    "PHI node has multiple entries for the same basic block with different \
                     incoming values! ({blk}: {a} and {c})"
                );
                rep.at_inst(ErrorKind::PhiConflict, b, i, msg);
            }
            self.have[k] += 1;
        }
        self.compare(cx, rep, b, i);
    }

    /// Compares the stamped entry counts of the current phi with the predecessor counts.
    fn compare(&mut self, cx: &Cx<'_>, rep: &mut Reporter<'_>, b: Block, i: Inst) {
        let ps = self.phi_stamp;
        let blocks = cx.func.dfg.inst_blocks(i);
        let preds = self.preds.as_ref().expect("counted before").of(b);
        let mut ok = blocks.len() == preds.len();
        let mut details: Vec<String> = Vec::new();
        // Each distinct incoming block once.
        for &pb in blocks {
            let k = pb.index();
            if self.compared_stamp[k] == ps {
                continue;
            }
            self.compared_stamp[k] = ps;
            let (have, need) = (self.have[k], self.need_of(pb));
            if have != need {
                ok = false;
                details.push(describe(rep, pb, have, need));
            }
        }
        for (k, &p) in preds.iter().enumerate() {
            if k > 0 && preds[k - 1] == p {
                continue;
            }
            if self.have_stamp[p.index()] != ps {
                ok = false;
                details.push(format!("no entry for predecessor {}", rep.block(p)));
            }
        }
        if !ok {
            let msg = format!(
                "PHINode should have one entry for each predecessor of its parent basic block! \
                 ({}, {}{}{})",
                count(blocks.len(), "entry", "entries"),
                count(preds.len(), "predecessor edge", "predecessor edges"),
                if details.is_empty() { "" } else { "; " },
                details.join("; ")
            );
            rep.at_inst(ErrorKind::PhiEntries, b, i, msg);
        }
    }
}

/// Predecessor lists of all blocks (CSR), one entry per edge, in layout order of the
/// predecessor (so the occurrences of one predecessor are adjacent).
struct Preds {
    off: Vec<u32>,
    list: Vec<Block>,
}

impl Preds {
    fn compute(func: &Function) -> Self {
        let n = func.dfg.blocks.len();
        let mut off = vec![0u32; n + 1];
        for b in func.layout.blocks() {
            for &s in func.successors(b) {
                off[s.index() + 1] += 1;
            }
        }
        for k in 0..n {
            off[k + 1] += off[k];
        }
        let mut fill: Vec<u32> = off[..n].to_vec();
        let mut list = vec![Block::NONE; off[n] as usize];
        for b in func.layout.blocks() {
            for &s in func.successors(b) {
                list[fill[s.index()] as usize] = b;
                fill[s.index()] += 1;
            }
        }
        Self { off, list }
    }

    fn of(&self, b: Block) -> &[Block] {
        &self.list[self.off[b.index()] as usize..self.off[b.index() + 1] as usize]
    }
}

fn describe(rep: &mut Reporter<'_>, pb: Block, have: u32, need: u32) -> String {
    let name = rep.block(pb);
    if need == 0 {
        format!("{name} is not a predecessor")
    } else {
        format!(
            "{} for {name}, which branches here {}",
            count(have as usize, "entry", "entries"),
            count(need as usize, "time", "times")
        )
    }
}

/// `1 entry`, `2 entries`.
fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// Whether `a` and `b` are the same value as LLVM sees it: the same id, or equal constants
/// (LLVM uniques constants; here each occurrence is its own value).
pub(crate) fn same_value(func: &Function, a: Value, b: Value) -> bool {
    if a == b {
        return true;
    }
    let (da, db) = (&func.dfg.values[a], &func.dfg.values[b]);
    if da.ty != db.ty {
        return false;
    }
    match (da.def, db.def) {
        (ValueDef::Undef, ValueDef::Undef) | (ValueDef::Poison, ValueDef::Poison) => true,
        (ValueDef::Const(x), ValueDef::Const(y)) => func.text(x) == func.text(y),
        _ => false,
    }
}
