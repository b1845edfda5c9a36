//! The renaming walk, in linear time, with LLVM's results.
//!
//! LLVM's `RenamePass` walks the CFG depth-first from the entry: it follows a block's first
//! successor at once and stacks the others (each distinct successor once); on every edge
//! into a block with new phis it appends the current value of each phi's slot (once per
//! occurrence of the edge), and on a block's first visit it replaces loads by the current
//! value and stores update it. It copies every slot's value at every branch, which costs
//! `slots × branches`.
//!
//! Here, [`traverse`] replays that walk's *order* without values (the first visits form a
//! spanning tree in preorder; the edge events give each phi's operand order and the order
//! its debug location is merged in), and `run` pushes values down that tree once, undoing
//! a block's changes when its subtree is done. The value at the end of a block is the same
//! as LLVM's (it is the last definition on the tree path, which LLVM also uses), so the
//! phis, their operands and their order are the same — in `O(blocks + edges + uses)`, where
//! `uses` are the renamed slots' loads, stores and allocas (the walk visits only those, see
//! `Acting`; sorting them within each block adds a log factor of the block's share).
//!
//! With `prune`, the phis given are candidates (a superset of LLVM's pruned set, see
//! `analysis::live_bound`): a phi is kept when a load is replaced by it or a kept phi takes it
//! as an operand, which are exactly the phis at blocks where the slot is live on entry. The
//! rest are reported dead before any operand, location or debug value is attached to them,
//! so what the kept phis get is what LLVM's would.

use super::debug_info::{self, Loc};
use super::slots::{remove_store, replace_load, NewPhi, PhisByBlock, Slot};
use super::tags::ValueTags;
use super::Promoter;
use ssa::cfg::Cfg;
use llvm_ir::entity::{EntityRef, SecondaryMap};
use llvm_ir::ir::{Block, Inst, MdRef, Opcode, Value};
use llvm_ir::util::fxhash::FxHashMap;

/// LLVM's walk order: first visits (block, tree parent) in preorder, and edge events
/// `(pred, succ, occurrences)` into blocks that have new phis, in the order LLVM meets them.
#[derive(Default)]
pub struct Traversal {
    /// First visits in preorder, with the predecessor they came from.
    pub preorder: Vec<(Block, Option<Block>)>,
    /// Edges into phi blocks, in walk order.
    pub events: Vec<(Block, Block, u32)>,
}

/// Replays LLVM's renaming walk order from `entry`.
pub fn traverse(cfg: &Cfg, entry: Block, has_phis: impl Fn(Block) -> bool) -> Traversal {
    let mut out = Traversal {
        preorder: Vec::new(),
        events: Vec::new(),
    };
    traverse_into(cfg, entry, has_phis, &mut out, &mut TraverseWork::default());
    out
}

/// Scratch of [`traverse_into`] (no meaning between walks).
#[derive(Default)]
pub struct TraverseWork {
    visited: Vec<bool>,
    count: Vec<u32>,
    work: Vec<(Block, Option<Block>, u32)>,
}

/// [`traverse`] into `out`, reusing its buffers and `w`'s.
pub fn traverse_into(
    cfg: &Cfg,
    entry: Block,
    has_phis: impl Fn(Block) -> bool,
    out: &mut Traversal,
    w: &mut TraverseWork,
) {
    let n = cfg.num_block_ids();
    let visited = &mut w.visited;
    llvm_ir::util::refill(visited, n, false);
    let count = &mut w.count;
    llvm_ir::util::refill(count, n, 0);
    out.preorder.clear();
    out.preorder.reserve(cfg.num_reachable());
    out.events.clear();
    let work = &mut w.work;
    work.clear();
    work.push((entry, None, 0));
    while let Some((mut bb, mut pred, mut edges)) = work.pop() {
        loop {
            if let Some(p) = pred {
                if has_phis(bb) {
                    out.events.push((p, bb, edges));
                }
            }
            if visited[bb.index()] {
                break;
            }
            visited[bb.index()] = true;
            out.preorder.push((bb, pred));
            let succs = cfg.succs(bb);
            let Some(&first) = succs.first() else {
                break;
            };
            for &s in succs {
                count[s.index()] += 1;
            }
            // Other distinct successors, in order, go on the stack (with their edge count).
            for &s in &succs[1..] {
                let c = count[s.index()];
                if s != first && c != 0 {
                    work.push((s, Some(bb), c));
                    count[s.index()] = 0;
                }
            }
            edges = count[first.index()];
            for &s in succs {
                count[s.index()] = 0;
            }
            pred = Some(bb);
            bb = first;
        }
    }
}

/// Marks, in `on` (one entry per block id), the blocks on the last path of the walk: the last
/// block of the preorder and its ancestors in the walk's tree (a parent precedes its children
/// in the preorder, so one backward pass reaches every ancestor). Such a block's subtree runs
/// to the end of the preorder, so the walk never returns above it and never undoes what it
/// set there: its sets go unlogged (on a straight-line function, none is logged).
fn mark_last_path(t: &Traversal, n: usize, on: &mut Vec<bool>) {
    llvm_ir::util::refill(on, n, false);
    if let Some(&(last, _)) = t.preorder.last() {
        on[last.index()] = true;
    }
    for &(bb, parent) in t.preorder.iter().rev() {
        if let (true, Some(p)) = (on[bb.index()], parent) {
            on[p.index()] = true;
        }
    }
}

/// The renaming walk's buffers, kept from round to round and function to function (they
/// carry nothing between walks).
#[derive(Default)]
pub struct RenameBuffers {
    trav: Traversal,
    trav_work: TraverseWork,
    cur: Vec<Cur>,
    undo: Vec<(u32, Cur)>,
    used: Vec<bool>,
    ends: FxHashMap<(Block, Block), usize>,
    /// Each slot's value at the end of a predecessor of a phi block.
    end_vals: Vec<Value>,
    /// Their locations, beside `end_vals`, up to the last that is not `None` (entries past
    /// its end are `None`: without debug locations this stays empty).
    end_locs: Vec<Loc>,
    /// The new phi each end value is the result of (`NO_PHI` otherwise), beside `end_vals`:
    /// pruning (`live_phis`) reads only these, partly out of order (its stack follows chains
    /// of one slot's phis, a block apart), so a dense array of them, carrying the phis'
    /// blocks, misses the cache less.
    end_phis: Vec<PhiAt>,
    anc: Vec<(Block, usize)>,
    acting: Acting,
    work: Vec<PhiAt>,
    converted: SecondaryMap<Block, bool>,
}

/// The instructions the walk acts on, by block and in layout order within a block: the loads
/// and stores of the slots being renamed, and their allocas (a slot outside the entry block is
/// undefined again each time its alloca runs). Visiting only these, not every instruction of
/// every block, makes the walk cost the slots' uses rather than the function's size.
///
/// Invariant (after [`Acting::fill`]): `list[off[b]..off[b + 1]]` are block `b`'s, as
/// `(position in the block, instruction, slot)`, sorted by position.
#[derive(Default)]
struct Acting {
    off: Vec<u32>,
    list: Vec<(u32, Inst, u32)>,
    /// Each instruction's block and slot, in the order the slots list them (fill's scratch).
    blocks: Vec<(Block, Inst, u32)>,
    /// Per slot, how many of its loads and stores are listed (placed).
    placed: Vec<u32>,
}

impl Acting {
    fn fill(&mut self, p: &Promoter<'_, '_>, slots: &[Slot]) {
        let n = p.cfg().num_block_ids();
        llvm_ir::util::refill(&mut self.off, n + 2, 0);
        llvm_ir::util::refill(&mut self.placed, slots.len(), 0);
        self.blocks.clear();
        for (k, s) in slots.iter().enumerate().filter(|(_, s)| !s.dropped) {
            for &i in std::iter::once(&s.alloca).chain(&s.loads).chain(&s.stores) {
                // (All placed when the round's lists were made; an unplaced one has nothing
                // to rename, as the walk over blocks would not have met it.)
                let Some(b) = p.f.layout.inst_block(i) else {
                    continue;
                };
                self.blocks.push((b, i, k as u32));
                self.off[b.index() + 2] += 1;
                if i != s.alloca {
                    self.placed[k] += 1;
                }
            }
        }
        // Counts at off[b + 2] become starts at off[b + 1]; filling moves them to off[b].
        for k in 2..n + 2 {
            self.off[k] += self.off[k - 1];
        }
        llvm_ir::util::refill(&mut self.list, self.blocks.len(), (0, Inst::NONE, 0));
        for &(b, i, k) in &self.blocks {
            let at = &mut self.off[b.index() + 1];
            self.list[*at as usize] = (p.pos[i.index()], i, k);
            *at += 1;
        }
        self.off.pop();
        for b in 0..n {
            let r = self.off[b] as usize..self.off[b + 1] as usize;
            if r.len() > 1 {
                self.list[r].sort_unstable_by_key(|&(pos, _, _)| pos);
            }
        }
    }

    fn of(&self, b: Block) -> &[(u32, Inst, u32)] {
        &self.list[self.off[b.index()] as usize..self.off[b.index() + 1] as usize]
    }
}

/// A slot's state in the walk: its current value, the new phi that value is the result of
/// (`NO_PHI` for any other value), and its location.
#[derive(Clone, Copy)]
struct Cur {
    v: Value,
    phi: PhiAt,
    loc: Loc,
}

/// A new phi: its index, and its block.
#[derive(Clone, Copy, PartialEq, Eq)]
struct PhiAt {
    k: u32,
    block: Block,
}

const NO_PHI: PhiAt = PhiAt {
    k: u32::MAX,
    block: Block::NONE,
};

/// The walk's state: each slot's [`Cur`], and the undo log; which phis loads were replaced by.
struct State {
    cur: Vec<Cur>,
    undo: Vec<(u32, Cur)>,
    /// The phi (index) each new phi's result belongs to (with `prune`).
    phi_of: ValueTags,
    /// Phis some load was replaced by.
    used: Vec<bool>,
    /// Per slot, how many of its loads and stores the walk renamed.
    renamed: Vec<u32>,
    /// Whether [`State::set`] logs the value it replaces: not on the walk's last path (see
    /// [`mark_last_path`]).
    log: bool,
}

impl State {
    /// Sets the slot's value `v` (the result of new phi `phi`, or `NO_PHI`) and, if given,
    /// its location.
    fn set(&mut self, slot: u32, v: Value, phi: PhiAt, loc: Option<Loc>) {
        let c = &mut self.cur[slot as usize];
        if self.log {
            self.undo.push((slot, *c));
        }
        c.v = v;
        c.phi = phi;
        if let Some(l) = loc {
            c.loc = l;
        }
    }

    fn undo_to(&mut self, mark: usize) {
        while self.undo.len() > mark {
            let (s, c) = self.undo.pop().expect("non-empty");
            self.cur[s as usize] = c;
        }
    }
}

/// Renames every load and store of `slots` and fills the `phis`' incoming lists and locations.
/// With `prune`, only live phis get them; returns which phis are live (all without `prune`).
pub(crate) fn run(
    p: &mut Promoter<'_, '_>,
    slots: &[Slot],
    phis: &mut [NewPhi],
    by_block: &PhisByBlock,
    incoming: &mut Vec<(Value, Block)>,
    prune: bool,
) -> Renamed {
    let mut b = std::mem::take(&mut p.rename_buffers);
    b.acting.fill(p, slots);
    let entry = p.f.layout.entry_block().expect("non-empty function");
    traverse_into(
        p.cfg(),
        entry,
        |x| !by_block.of(x).is_empty(),
        &mut b.trav,
        &mut b.trav_work,
    );
    // The traversal's `visited` flags are free again: they now mark the last path.
    let last_path = &mut b.trav_work.visited;
    mark_last_path(&b.trav, p.cfg().num_block_ids(), last_path);
    let mut st = State {
        cur: std::mem::take(&mut b.cur),
        undo: std::mem::take(&mut b.undo),
        phi_of: std::mem::take(&mut p.phi_of),
        used: std::mem::take(&mut b.used),
        renamed: vec![0; slots.len()],
        log: true,
    };
    st.cur.clear();
    st.cur.extend(slots.iter().map(|s| Cur {
        v: p.f.dfg.undef(s.ty),
        phi: NO_PHI,
        loc: None,
    }));
    st.undo.clear();
    // Each phi, store and alloca sets a slot's value once per visit: room for them all.
    let sets = phis.len() + slots.iter().map(|s| s.stores.len() + 1).sum::<usize>();
    st.undo.reserve(sets);
    llvm_ir::util::refill(&mut st.used, phis.len(), !prune);
    if prune {
        for (k, ph) in phis.iter().enumerate() {
            st.phi_of.set(ph.value, k as u32);
        }
    }
    // Values (and locations) at the end of each predecessor of a phi block: room for one row
    // per predecessor of each (regrowing these, on a large function, copies tens of MB).
    b.ends.clear();
    b.end_vals.clear();
    b.end_locs.clear();
    b.end_phis.clear();
    let rows: usize = (0..by_block.num_blocks())
        .map(|x| {
            let x = Block::new(x);
            by_block.of(x).len() * p.cfg().distinct_preds(x).len()
        })
        .sum();
    b.end_vals.reserve(rows);
    b.end_phis.reserve(rows);
    b.anc.clear();
    for &(bb, parent) in &b.trav.preorder {
        while let Some(&(top, mark)) = b.anc.last() {
            if Some(top) == parent {
                break;
            }
            st.undo_to(mark);
            b.anc.pop();
        }
        let mark = st.undo.len();
        st.log = !b.trav_work.visited[bb.index()];
        for k in by_block.of(bb) {
            let ph = &phis[k];
            let at = PhiAt {
                k: k as u32,
                block: ph.block,
            };
            st.set(ph.slot, ph.value, at, None);
        }
        for &(_, i, k) in b.acting.of(bb) {
            rename_inst(p, slots, phis, &mut st, i, k);
        }
        for &s in p.cfg().distinct_succs(bb) {
            if by_block.of(s).is_empty() {
                continue;
            }
            b.ends.insert((s, bb), b.end_vals.len());
            for k in by_block.of(s) {
                let slot = phis[k].slot as usize;
                let c = st.cur[slot];
                b.end_vals.push(c.v);
                if c.loc.is_some() {
                    b.end_locs.resize(b.end_vals.len() - 1, None);
                    b.end_locs.push(c.loc);
                }
                b.end_phis.push(c.phi);
            }
        }
        b.anc.push((bb, mark));
    }
    let live = if prune {
        live_phis(p.cfg(), phis, by_block, &st, &mut b)
    } else {
        st.used.clone()
    };
    for ph in phis.iter() {
        st.phi_of.unset(ph.value);
    }
    p.phi_of = st.phi_of;
    (b.cur, b.undo, b.used) = (st.cur, st.undo, st.used);
    apply_events(p, slots, phis, incoming, &live, by_block, &mut b);
    let left = (st.renamed.iter().zip(&b.acting.placed))
        .map(|(r, n)| r < n)
        .collect();
    p.rename_buffers = b;
    Renamed { live, left }
}

/// What the walk did.
pub(crate) struct Renamed {
    /// Which phis are live (all without pruning).
    pub live: Vec<bool>,
    /// Per slot, whether some load or store was never reached (it is in unreachable code).
    pub left: Vec<bool>,
}

/// The phis a load was replaced by, and, transitively, the phis kept phis take as operands.
///
/// A sweep from the last phi to the first (blocks in descending id order), with a stack for
/// the phis it has passed: operands mostly come from earlier blocks, which the sweep reaches
/// later anyway, so most phis are only marked, and each block's end values are read together
/// (a stack alone would follow each chain of operands through every block, a cache miss per
/// step on large functions). Each live phi is processed once: by the sweep if it is marked
/// before the sweep reaches it, else from the stack.
fn live_phis(
    cfg: &Cfg,
    phis: &[NewPhi],
    by_block: &PhisByBlock,
    st: &State,
    b: &mut RenameBuffers,
) -> Vec<bool> {
    let mut live = st.used.clone();
    let mut work = std::mem::take(&mut b.work);
    work.clear();
    for k in (0..phis.len()).rev() {
        if !live[k] {
            continue;
        }
        let mut next = Some(PhiAt {
            k: k as u32,
            block: phis[k].block,
        });
        while let Some(at) = next {
            // (Its column in `end_vals`: its place among its block's phis.)
            let j = at.k as usize - by_block.of(at.block).start;
            for &pred in cfg.preds(at.block) {
                let Some(&off) = b.ends.get(&(at.block, pred)) else {
                    continue;
                };
                let q = b.end_phis[off + j];
                if q != NO_PHI && !live[q.k as usize] {
                    live[q.k as usize] = true;
                    if q.k as usize > k {
                        work.push(q);
                    }
                }
            }
            next = work.pop();
        }
    }
    b.work = work;
    live
}

/// Renames `i`, a load, store or alloca of slot `k`.
fn rename_inst(
    p: &mut Promoter<'_, '_>,
    slots: &[Slot],
    phis: &[NewPhi],
    st: &mut State,
    i: Inst,
    k: u32,
) {
    match p.f.dfg.opcode(i) {
        Opcode::Load => {
            let c = st.cur[k as usize];
            if c.phi != NO_PHI {
                st.used[c.phi.k as usize] = true;
            }
            replace_load(p, i, c.v);
            st.renamed[k as usize] += 1;
        }
        Opcode::Store => {
            let v = p.f.dfg.resolve(p.f.dfg.inst_values(i)[0]);
            let loc = store_loc(p, i);
            let phi = st.phi_of.get(v).map_or(NO_PHI, |q| PhiAt {
                k: q,
                block: phis[q as usize].block,
            });
            st.set(k, v, phi, Some(loc));
            remove_store(p, &slots[k as usize], i);
            st.renamed[k as usize] += 1;
        }
        Opcode::Alloca => {
            // A slot outside the entry block is undefined again each time its alloca runs.
            let u = p.f.dfg.undef(slots[k as usize].ty);
            st.set(k, u, NO_PHI, None);
        }
        _ => debug_assert!(
            false,
            "a slot's acting instructions are loads, stores and its alloca"
        ),
    }
}

/// A store's `!dbg` location.
fn store_loc(p: &Promoter<'_, '_>, store: Inst) -> Loc {
    p.f.dfg
        .inst_attachments(store)
        .iter()
        .find(|(k, _)| p.f.text(*k) == b"dbg")
        .map(|&(_, n)| n)
        .filter(|n: &MdRef| !n.is_none())
}

/// Appends incoming values in LLVM's order (each live phi's list is a range of `incoming`,
/// sized by its block's predecessors at its first edge), merges phi locations, and converts
/// declares at each phi block's first edge.
fn apply_events(
    p: &mut Promoter<'_, '_>,
    slots: &[Slot],
    phis: &mut [NewPhi],
    incoming: &mut Vec<(Value, Block)>,
    live: &[bool],
    by_block: &PhisByBlock,
    b: &mut RenameBuffers,
) {
    b.converted.clear();
    // Room for every live phi's incoming list (its block's predecessor count).
    let room: usize = (phis.iter().zip(live))
        .filter(|&(_, &l)| l)
        .map(|(ph, _)| p.cfg().preds(ph.block).len())
        .sum();
    incoming.reserve(room);
    for &(pred, succ, n) in &b.trav.events {
        let Some(&off) = b.ends.get(&(succ, pred)) else {
            continue;
        };
        for (j, k) in by_block.of(succ).enumerate() {
            if !live[k] {
                continue;
            }
            let v = b.end_vals[off + j];
            let loc = b.end_locs.get(off + j).copied().flatten();
            let ph = &phis[k];
            let first = ph.incoming.is_empty();
            let merged = if first {
                loc
            } else {
                let old = ph.loc;
                debug_info::merge(p.f, &mut p.md, old, loc)
            };
            let ph = &mut phis[k];
            if first {
                let start = incoming.len() as u32;
                let cap = p.cfg().preds(succ).len() as u32;
                incoming.resize(incoming.len() + cap as usize, (Value::NONE, Block::NONE));
                ph.incoming = start..start;
                ph.cap = cap;
            }
            ph.loc = merged;
            for _ in 0..n {
                debug_assert!(ph.incoming.len() < ph.cap as usize, "more edges than preds");
                incoming[ph.incoming.end as usize] = (v, pred);
                ph.incoming.end += 1;
            }
        }
        if !b.converted[succ] {
            b.converted[succ] = true;
            for k in by_block.of(succ).filter(|&k| live[k]) {
                let ph = &phis[k];
                let s = &slots[ph.slot as usize];
                for d in &s.dbg {
                    if d.is_address_of() && p.f.layout.is_inst_inserted(d.inst) {
                        let info = super::slots::slot_info(p, s);
                        debug_info::convert_at_phi(p.f, &mut p.md, d, ph.inst, info);
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn b(i: u32) -> Block {
        Block(i)
    }

    #[test]
    fn walk_order_follows_first_successor_then_stack() {
        // 0 -> 1, 2 ; 1 -> 3 ; 2 -> 3 ; 3 -> 1 (loop)
        let cfg = Cfg::from_edges(
            4,
            b(0),
            &[
                (b(0), b(1)),
                (b(0), b(2)),
                (b(1), b(3)),
                (b(2), b(3)),
                (b(3), b(1)),
            ],
        );
        let t = traverse(&cfg, b(0), |x| x == b(3) || x == b(1));
        let pre: Vec<u32> = t.preorder.iter().map(|(x, _)| x.0).collect();
        assert_eq!(pre, vec![0, 1, 3, 2]);
        let ev: Vec<(u32, u32)> = t.events.iter().map(|&(a, c, _)| (a.0, c.0)).collect();
        assert_eq!(ev, vec![(0, 1), (1, 3), (3, 1), (2, 3)]);
    }

    #[test]
    fn repeated_edges_count_and_are_visited_once() {
        let cfg = Cfg::from_edges(2, b(0), &[(b(0), b(1)), (b(0), b(1))]);
        let t = traverse(&cfg, b(0), |x| x == b(1));
        assert_eq!(t.events, vec![(b(0), b(1), 2)]);
    }
}
