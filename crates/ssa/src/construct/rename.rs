//! Renaming: the walk that gives every use its reaching definition and every phi its incoming
//! values, in time linear in the function.
//!
//! The classic renaming pass (Cytron et al. 1991; LLVM's `RenamePass`) walks the CFG keeping a
//! stack of values per variable, or copies every variable's current value at every branch:
//! `variables × branches`, which is quadratic on deep loop nests. Here the walk's *order* is
//! recorded first ([`super::walk`]: a spanning tree in preorder plus the edge events into phi
//! blocks), then values are pushed down that tree once, and a block's changes are undone from a
//! log when its subtree is done. The value at the end of a block is the last definition on its
//! tree path — the value LLVM's walk has there — so the phis, their incoming values and their
//! order are LLVM's, in `O(blocks + edges + events)`.
//!
//! The caller (a [`Renamer`]) owns the values: the engine asks it for the value of each
//! definition when the walk reaches it, tells it the value reaching each use, and may carry a
//! location with each definition (merged at phis in the order LLVM merges debug locations).
//!
//! With `prune`, the phis given are candidates (a superset of the pruned set, see
//! [`crate::live_bound`]): a phi is kept when a use reads it or a kept phi takes it as an
//! operand, which are exactly the phis at blocks where the variable is live on entry. The rest
//! are reported dead before any incoming value or location is attached to them.
//!
//! Invariants: events of a block are visited in position order; `left[v]` tells whether some
//! use or definition of `v` was never reached (it is in unreachable code); nothing depends on
//! hash-map iteration order.

use std::ops::Range;

use crate::util::PairMap;

use super::walk::{mark_last_path, traverse_into, Traversal, TraverseWork};
use super::Var;
use crate::cfg::Cfg;
use crate::Block;

/// What an event does to its variable.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Access {
    /// Reads the variable.
    Use,
    /// Assigns the variable.
    Def,
    /// Makes the variable undefined from here on (a declaration inside a loop, the end of a
    /// lifetime).
    Kill,
}

/// One access of a variable in a block: the variable, what is done, and the caller's id for it
/// (an instruction number, say), handed back in the [`Renamer`] calls.
#[derive(Clone, Copy, Debug)]
pub struct Event {
    /// The variable.
    pub var: Var,
    /// What the event does.
    pub access: Access,
    /// The caller's id of the event.
    pub id: u32,
}

/// The events of every block, in position order (CSR arrays, filled in any order).
///
/// Invariant (after [`BlockEvents::finish`]): `list[off[b]..off[b + 1]]` are block `b`'s
/// events, sorted by position; `counts[v]` is the number of uses and definitions of `v`.
#[derive(Default)]
pub struct BlockEvents {
    off: Vec<u32>,
    list: Vec<(u32, Event)>,
    staged: Vec<(Block, u32, Event)>,
    counts: Vec<u32>,
}

impl BlockEvents {
    /// Starts a new list for variables `0..num_vars`.
    pub fn begin(&mut self, num_vars: usize) {
        self.staged.clear();
        crate::util::refill(&mut self.counts, num_vars, 0);
    }

    /// Adds `e` at position `pos` of block `b` (positions order a block's events).
    #[inline]
    pub fn push(&mut self, b: Block, pos: u32, e: Event) {
        if e.access != Access::Kill {
            self.counts[e.var.index()] += 1;
        }
        self.staged.push((b, pos, e));
    }

    /// Sorts the events into blocks (block ids below `num_block_ids`).
    pub fn finish(&mut self, num_block_ids: usize) {
        let n = num_block_ids;
        crate::util::refill(&mut self.off, n + 2, 0);
        for &(b, _, _) in &self.staged {
            self.off[b.index() + 2] += 1;
        }
        // Counts at off[b + 2] become starts at off[b + 1]; filling moves them to off[b].
        for k in 2..n + 2 {
            self.off[k] += self.off[k - 1];
        }
        let dummy = Event {
            var: Var(0),
            access: Access::Kill,
            id: 0,
        };
        crate::util::refill(&mut self.list, self.staged.len(), (0, dummy));
        for &(b, pos, e) in &self.staged {
            let at = &mut self.off[b.index() + 1];
            self.list[*at as usize] = (pos, e);
            *at += 1;
        }
        self.off.pop();
        for b in 0..n {
            let r = self.off[b] as usize..self.off[b + 1] as usize;
            if r.len() > 1 {
                self.list[r].sort_unstable_by_key(|&(pos, _)| pos);
            }
        }
    }

    /// Block `b`'s events, with their positions, in order.
    #[inline]
    pub fn of(&self, b: Block) -> &[(u32, Event)] {
        match self.off.get(b.index() + 1) {
            Some(&end) => &self.list[self.off[b.index()] as usize..end as usize],
            None => &[],
        }
    }

    /// The number of uses and definitions of `v` listed.
    pub fn count(&self, v: Var) -> u32 {
        self.counts[v.index()]
    }
}

/// The phis of each block: `of(b)` is block `b`'s range of the phi list (phis numbered block
/// by block, blocks in id order), empty for blocks without phis.
#[derive(Clone, Debug, Default)]
pub struct PhisByBlock {
    off: Vec<u32>,
}

impl PhisByBlock {
    /// The ranges for phis in blocks `blocks` (one entry per phi, in any order), over block ids
    /// below `num_block_ids`; also returns, for each given phi, its index in the block-ordered
    /// list (phis of one block keep their given order).
    pub fn build(
        num_block_ids: usize,
        blocks: impl Iterator<Item = Block> + Clone,
    ) -> (Self, Vec<u32>) {
        let n = num_block_ids;
        let mut off = vec![0u32; n + 1];
        for b in blocks.clone() {
            off[b.index() + 1] += 1;
        }
        for b in 0..n {
            off[b + 1] += off[b];
        }
        let mut next = off[..n].to_vec();
        let index = blocks
            .map(|b| {
                let k = next[b.index()];
                next[b.index()] += 1;
                k
            })
            .collect();
        (Self { off }, index)
    }

    /// The ranges from per-block phi counts already in block order: `off[b]..off[b + 1]`.
    pub fn from_offsets(off: Vec<u32>) -> Self {
        Self { off }
    }

    /// The number of block ids covered (blocks from this id on have no phis).
    pub fn num_blocks(&self) -> usize {
        self.off.len().saturating_sub(1)
    }

    /// The number of phis.
    pub fn len(&self) -> usize {
        self.off.last().copied().unwrap_or(0) as usize
    }

    /// Whether there are no phis.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Block `b`'s phis (indices into the phi list).
    #[inline]
    pub fn of(&self, b: Block) -> Range<usize> {
        match self.off.get(b.index() + 1) {
            Some(&end) => self.off[b.index()] as usize..end as usize,
            None => 0..0,
        }
    }
}

/// A definition, as the caller sees it when the walk reaches it.
#[derive(Clone, Copy, Debug)]
pub struct Def<V, L> {
    /// The value assigned.
    pub value: V,
    /// The phi (index) whose result the value is, if it is one of the phis being placed.
    pub phi: Option<u32>,
    /// Its location, carried to the phis it reaches.
    pub loc: L,
}

/// A phi as the walk needs it.
#[derive(Clone, Copy, Debug)]
pub struct PhiInfo<V> {
    /// Its variable.
    pub var: Var,
    /// Its block.
    pub block: Block,
    /// Its result.
    pub value: V,
}

/// The caller's side of renaming: its values, its uses and definitions.
pub trait Renamer {
    /// A value of the caller's IR.
    type Value: Copy;
    /// What a definition carries to the phis it reaches (a debug location); `()` for nothing.
    /// The default value means "no location".
    type Loc: Copy + Default + PartialEq;

    /// The value of `var` where it is undefined (at the entry, after a kill).
    fn undefined(&mut self, var: Var) -> Self::Value;

    /// Phi `k` of the phi list.
    fn phi(&self, k: usize) -> PhiInfo<Self::Value>;

    /// The use `id` of `var` reads `value`.
    fn use_reaches(&mut self, id: u32, var: Var, value: Self::Value);

    /// The definition `id` of `var`, reached now.
    fn definition(&mut self, id: u32, var: Var) -> Def<Self::Value, Self::Loc>;

    /// The location of a phi that has `old` and is reached by `new` as well.
    fn merge(&mut self, old: Self::Loc, _new: Self::Loc) -> Self::Loc {
        old
    }

    /// The walk crossed its first edge into `block`, whose live phis (the `live` ones of
    /// `phis`) have just received their first incoming values.
    fn first_edge_into(&mut self, _block: Block, _phis: Range<usize>, _live: &[bool]) {}
}

/// Each phi's incoming values, in the order the walk appends them: the range of phi `k` in
/// [`Incoming::list`] is `ranges[k]` (empty for a dead phi, or one the walk never reached).
#[derive(Clone, Debug)]
pub struct Incoming<V, L> {
    /// `(value, predecessor)` pairs, one per edge.
    pub list: Vec<(V, Block)>,
    /// Per phi, its range of `list`.
    pub ranges: Vec<Range<u32>>,
    /// Per phi, its merged location, up to the last phi whose location is not the default:
    /// phis past its end have the default (without locations it stays empty, so a function
    /// with a million phis and no debug information spends nothing on them). Read it with
    /// [`Incoming::loc`].
    pub locs: Vec<L>,
}

impl<V, L: Copy + Default> Incoming<V, L> {
    /// Phi `k`'s merged location (the default when it has none).
    #[inline]
    pub fn loc(&self, k: usize) -> L {
        self.locs.get(k).copied().unwrap_or_default()
    }
}

/// Sets `locs[k]` to `loc` in a list whose missing tail is the default: grows it only for a
/// location that is not the default.
fn set_loc<L: Copy + Default + PartialEq>(locs: &mut Vec<L>, k: usize, loc: L) {
    if let Some(l) = locs.get_mut(k) {
        *l = loc;
    } else if loc != L::default() {
        locs.resize(k, L::default());
        locs.push(loc);
    }
}

impl<V, L> Default for Incoming<V, L> {
    fn default() -> Self {
        Self {
            list: Vec::new(),
            ranges: Vec::new(),
            locs: Vec::new(),
        }
    }
}

impl<V, L> Incoming<V, L> {
    /// Phi `k`'s incoming pairs.
    #[inline]
    pub fn of(&self, k: usize) -> &[(V, Block)] {
        let r = &self.ranges[k];
        &self.list[r.start as usize..r.end as usize]
    }
}

/// What the walk found besides the incoming values.
#[derive(Clone, Debug)]
pub struct Renamed {
    /// Which phis are live (all of them without pruning).
    pub live: Vec<bool>,
    /// Per variable, whether some use or definition was never reached (unreachable code).
    pub left: Vec<bool>,
}

/// A variable's state in the walk: its current value, the phi that value is the result of
/// (`NO_PHI` for any other value), and its location.
#[derive(Clone, Copy)]
struct Cur<V, L> {
    v: V,
    phi: PhiAt,
    loc: L,
}

/// A phi: its index, and its block.
#[derive(Clone, Copy, PartialEq, Eq)]
struct PhiAt {
    k: u32,
    block: Block,
}

const NO_PHI: PhiAt = PhiAt {
    k: u32::MAX,
    block: Block::NONE,
};

/// The walk's buffers, kept from round to round and function to function (they carry nothing
/// between walks).
pub struct RenameBuffers<V, L> {
    trav: Traversal,
    trav_work: TraverseWork,
    cur: Vec<Cur<V, L>>,
    /// The undo log: a variable and the value and phi it had.
    undo: Vec<(u32, V, PhiAt)>,
    /// The locations of the log's entries whose location is not the default: entry index
    /// and location, in log order (on a function without debug information it stays empty,
    /// and a log entry costs 16 bytes with a 4-byte value).
    undo_locs: Vec<(u32, L)>,
    used: Vec<bool>,
    renamed: Vec<u32>,
    /// Per edge `pred -> succ` into a phi block (key [`ends_key`]): its row in `end_vals`.
    ends: PairMap<usize>,
    /// Each variable's value at the end of a predecessor of a phi block.
    end_vals: Vec<V>,
    /// Their locations, beside `end_vals`, up to the last that is not the default (entries
    /// past its end are the default: without locations this stays empty).
    end_locs: Vec<L>,
    /// The phi each end value is the result of (`NO_PHI` otherwise), beside `end_vals`:
    /// pruning reads only these, partly out of order, so a dense array of them, carrying the
    /// phis' blocks, misses the cache less.
    end_phis: Vec<PhiAt>,
    anc: Vec<(Block, usize)>,
    work: Vec<PhiAt>,
    reached: Vec<bool>,
}

impl<V, L> Default for RenameBuffers<V, L> {
    fn default() -> Self {
        Self {
            trav: Traversal::default(),
            trav_work: TraverseWork::default(),
            cur: Vec::new(),
            undo: Vec::new(),
            undo_locs: Vec::new(),
            used: Vec::new(),
            renamed: Vec::new(),
            ends: PairMap::default(),
            end_vals: Vec::new(),
            end_locs: Vec::new(),
            end_phis: Vec::new(),
            anc: Vec::new(),
            work: Vec::new(),
            reached: Vec::new(),
        }
    }
}

/// The walk's state: each variable's [`Cur`], and the undo log; which phis uses read.
struct State<'b, V, L> {
    cur: &'b mut Vec<Cur<V, L>>,
    undo: &'b mut Vec<(u32, V, PhiAt)>,
    undo_locs: &'b mut Vec<(u32, L)>,
    used: &'b mut Vec<bool>,
    renamed: &'b mut Vec<u32>,
    /// Whether [`State::set`] logs the value it replaces: not on the walk's last path (see
    /// [`mark_last_path`]).
    log: bool,
}

impl<V: Copy, L: Copy + Default + PartialEq> State<'_, V, L> {
    /// Sets the variable's value `v` (the result of phi `phi`, or `NO_PHI`) and, if given,
    /// its location.
    #[inline]
    fn set(&mut self, var: u32, v: V, phi: PhiAt, loc: Option<L>) {
        let c = &mut self.cur[var as usize];
        if self.log {
            if c.loc != L::default() {
                self.undo_locs.push((self.undo.len() as u32, c.loc));
            }
            self.undo.push((var, c.v, c.phi));
        }
        c.v = v;
        c.phi = phi;
        if let Some(l) = loc {
            c.loc = l;
        }
    }

    fn undo_to(&mut self, mark: usize) {
        while self.undo.len() > mark {
            let (s, v, phi) = self.undo.pop().expect("non-empty");
            let at = self.undo.len() as u32;
            let loc = match self.undo_locs.last() {
                Some(&(i, l)) if i == at => {
                    self.undo_locs.pop();
                    l
                }
                _ => L::default(),
            };
            self.cur[s as usize] = Cur { v, phi, loc };
        }
    }
}

/// What a walk reads: the CFG and its entry, the events, the phis.
pub struct Walk<'a> {
    /// The CFG.
    pub cfg: &'a Cfg,
    /// The entry block.
    pub entry: Block,
    /// The events of the variables being renamed.
    pub events: &'a BlockEvents,
    /// The phis, by block.
    pub phis: &'a PhisByBlock,
    /// The number of variables.
    pub num_vars: usize,
    /// Whether the phis are candidates to prune (see the module docs).
    pub prune: bool,
}

/// Renames every event of `w` through `host`, and fills `out` with the live phis' incoming
/// values and locations; returns which phis are live and which variables were left
/// unrenamed somewhere (see the module docs).
pub fn rename<H: Renamer>(
    w: &Walk<'_>,
    host: &mut H,
    b: &mut RenameBuffers<H::Value, H::Loc>,
    out: &mut Incoming<H::Value, H::Loc>,
) -> Renamed {
    let (cfg, by_block) = (w.cfg, w.phis);
    let nphis = by_block.len();
    traverse_into(
        cfg,
        w.entry,
        |x| !by_block.of(x).is_empty(),
        &mut b.trav,
        &mut b.trav_work,
    );
    // The traversal's `visited` flags are free again: they now mark the last path.
    mark_last_path(&b.trav, cfg.num_block_ids(), &mut b.trav_work.visited);
    b.cur.clear();
    for v in 0..w.num_vars {
        let u = host.undefined(Var(v as u32));
        b.cur.push(Cur {
            v: u,
            phi: NO_PHI,
            loc: H::Loc::default(),
        });
    }
    b.undo.clear();
    b.undo_locs.clear();
    // Each phi, definition and kill sets a variable once per visit: room for them all.
    b.undo.reserve(nphis + w.events.list.len());
    crate::util::refill(&mut b.used, nphis, !w.prune);
    crate::util::refill(&mut b.renamed, w.num_vars, 0);
    walk_tree(w, host, b);
    let live = if w.prune {
        live_phis(cfg, by_block, host, b)
    } else {
        b.used.clone()
    };
    apply_events(w, host, &live, b, out);
    let left = (0..w.num_vars)
        .map(|v| b.renamed[v] < w.events.count(Var(v as u32)))
        .collect();
    Renamed { live, left }
}

/// Pushes values down the walk's tree, undoing a subtree's changes when it is done; records
/// every variable's value at the end of each predecessor of a phi block.
fn walk_tree<H: Renamer>(w: &Walk<'_>, host: &mut H, b: &mut RenameBuffers<H::Value, H::Loc>) {
    let (cfg, by_block) = (w.cfg, w.phis);
    b.ends.clear();
    b.end_vals.clear();
    b.end_locs.clear();
    b.end_phis.clear();
    // Values (and locations) at the end of each predecessor of a phi block: room for one row
    // per predecessor of each (regrowing these, on a large function, copies tens of MB).
    let rows: usize = (0..by_block.num_blocks())
        .map(|x| {
            let x = Block::new(x);
            by_block.of(x).len() * cfg.distinct_preds(x).len()
        })
        .sum();
    b.end_vals.reserve(rows);
    b.end_phis.reserve(rows);
    b.anc.clear();
    let mut st = State {
        cur: &mut b.cur,
        undo: &mut b.undo,
        undo_locs: &mut b.undo_locs,
        used: &mut b.used,
        renamed: &mut b.renamed,
        log: true,
    };
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
            let ph = host.phi(k);
            let at = PhiAt {
                k: k as u32,
                block: bb,
            };
            st.set(ph.var.0, ph.value, at, None);
        }
        for &(_, e) in w.events.of(bb) {
            visit(host, &mut st, e);
        }
        for &s in cfg.distinct_succs(bb) {
            if by_block.of(s).is_empty() {
                continue;
            }
            b.ends.insert(ends_key(s, bb), b.end_vals.len());
            for k in by_block.of(s) {
                let c = st.cur[host.phi(k).var.index()];
                b.end_vals.push(c.v);
                if c.loc != H::Loc::default() {
                    b.end_locs.resize(b.end_vals.len() - 1, H::Loc::default());
                    b.end_locs.push(c.loc);
                }
                b.end_phis.push(c.phi);
            }
        }
        b.anc.push((bb, mark));
    }
}

/// The key of the edge `pred -> succ` in `RenameBuffers::ends`: successor-major, so the
/// edges into one block (a switch's cases into its loop header) sit together.
#[inline]
fn ends_key(succ: Block, pred: Block) -> u64 {
    crate::util::pair(succ.0, pred.0)
}

/// One event.
#[inline]
fn visit<H: Renamer>(host: &mut H, st: &mut State<'_, H::Value, H::Loc>, e: Event) {
    let var = e.var.0;
    match e.access {
        Access::Use => {
            let c = st.cur[var as usize];
            if c.phi != NO_PHI {
                st.used[c.phi.k as usize] = true;
            }
            host.use_reaches(e.id, e.var, c.v);
            st.renamed[var as usize] += 1;
        }
        Access::Def => {
            let d = host.definition(e.id, e.var);
            let phi = d.phi.map_or(NO_PHI, |q| PhiAt {
                k: q,
                block: host.phi(q as usize).block,
            });
            st.set(var, d.value, phi, Some(d.loc));
            st.renamed[var as usize] += 1;
        }
        Access::Kill => {
            let u = host.undefined(e.var);
            st.set(var, u, NO_PHI, None);
        }
    }
}

/// The phis a use read, and, transitively, the phis live phis take as operands.
///
/// A sweep from the last phi to the first (blocks in descending id order), with a stack for
/// the phis it has passed: operands mostly come from earlier blocks, which the sweep reaches
/// later anyway, so most phis are only marked, and each block's end values are read together
/// (a stack alone would follow each chain of operands through every block, a cache miss per
/// step on large functions). Each live phi is processed once: by the sweep if it is marked
/// before the sweep reaches it, else from the stack.
fn live_phis<H: Renamer>(
    cfg: &Cfg,
    by_block: &PhisByBlock,
    host: &H,
    b: &mut RenameBuffers<H::Value, H::Loc>,
) -> Vec<bool> {
    let mut live = b.used.clone();
    let mut work = std::mem::take(&mut b.work);
    work.clear();
    for k in (0..live.len()).rev() {
        if !live[k] {
            continue;
        }
        let mut next = Some(PhiAt {
            k: k as u32,
            block: host.phi(k).block,
        });
        while let Some(at) = next {
            // (Its column in `end_vals`: its place among its block's phis.)
            let j = at.k as usize - by_block.of(at.block).start;
            for &pred in cfg.preds(at.block) {
                let Some(&off) = b.ends.get(&ends_key(at.block, pred)) else {
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

/// Appends incoming values in the walk's order (each live phi's list is a range of
/// `out.list`, sized by its block's predecessors at its first edge), merges phi locations, and
/// tells the host of each phi block's first edge.
fn apply_events<H: Renamer>(
    w: &Walk<'_>,
    host: &mut H,
    live: &[bool],
    b: &mut RenameBuffers<H::Value, H::Loc>,
    out: &mut Incoming<H::Value, H::Loc>,
) {
    let (cfg, by_block) = (w.cfg, w.phis);
    let nphis = live.len();
    out.list.clear();
    out.ranges.clear();
    out.ranges.resize(nphis, 0..0);
    out.locs.clear();
    crate::util::refill(&mut b.reached, cfg.num_block_ids(), false);
    // Room for every live phi's incoming list (its block's predecessor count).
    let mut room = 0;
    for x in 0..by_block.num_blocks() {
        let r = by_block.of(Block::new(x));
        let n = live[r.clone()].iter().filter(|&&l| l).count();
        room += n * cfg.preds(Block::new(x)).len();
    }
    out.list.reserve(room);
    for &(pred, succ, n) in &b.trav.events {
        let Some(&off) = b.ends.get(&ends_key(succ, pred)) else {
            continue;
        };
        let first_edge = !b.reached[succ.index()];
        for (j, k) in by_block.of(succ).enumerate() {
            if !live[k] {
                continue;
            }
            let v = b.end_vals[off + j];
            let loc = b.end_locs.get(off + j).copied().unwrap_or_default();
            if first_edge {
                // Its room: one slot per predecessor edge, filled as edges are met.
                let start = out.list.len() as u32;
                let cap = cfg.preds(succ).len();
                out.list.resize(out.list.len() + cap, (v, pred));
                out.ranges[k] = start..start;
                set_loc(&mut out.locs, k, loc);
            } else {
                let merged = host.merge(out.loc(k), loc);
                set_loc(&mut out.locs, k, merged);
            }
            let r = &mut out.ranges[k];
            for _ in 0..n {
                out.list[r.end as usize] = (v, pred);
                r.end += 1;
            }
        }
        if first_edge {
            b.reached[succ.index()] = true;
            host.first_edge_into(succ, by_block.of(succ), live);
        }
    }
}
