//! [`Builder::finish`]'s graph and its resolution of pending phis by the whole-function
//! construction ([`build_read`]).
//!
//! Every table here lives in [`Resolve`], kept in the builder between functions and cleared,
//! not freed (as Cranelift's `FunctionBuilderContext`); the graph is recomputed in place.
//! Tables are dense, indexed by block, variable or phi number; grouping is by counting sort, so
//! the result depends only on the calls made.

use super::{Builder, PhiKey, Sink, State, NO_PHI};
use crate::cfg::Cfg;
use crate::construct::build::{build_read, Read, Scratch};
use crate::construct::{Access, Options, PhiId, Value, Var};
use crate::graph::Graph;
use crate::Block;

/// The buffers of the resolution (see the module docs).
pub(super) struct Resolve<V> {
    /// The graph of the last function (taken by [`Builder::finish`], then given back).
    pub(super) cfg: Cfg,
    /// Successor lists in one array: block `b`'s are `succ[succ_start[b]..succ_start[b + 1]]`.
    succ_start: Vec<u32>,
    succ: Vec<Block>,
    /// Where the next item of each group goes, while grouping.
    fill: Vec<u32>,
    /// Phis and definitions grouped by block (counting sorts).
    phi_start: Vec<u32>,
    phis_by: Vec<u32>,
    def_start: Vec<u32>,
    defs_by: Vec<u32>,
    /// The recorded accesses, as the whole-function construction reads them.
    read: Read<V>,
    /// Pending phis grouped by block.
    pend_start: Vec<u32>,
    pend_by: Vec<u32>,
    /// Per variable: the pending phi of the block being looked at, or [`NO_PHI`].
    var_slot: Vec<u32>,
    /// Per variable: whether it has a pending phi (only those variables are resolved: the
    /// others' accesses cannot change a pending phi, since variables are independent).
    pending_var: Vec<bool>,
    /// Per phi of the construction: the builder's phi and its value.
    phi_val: Vec<(u32, V)>,
    /// Per block: the operand of the phi being converted on the edge from it.
    by_pred: Vec<Option<Value<V>>>,
    /// The whole-function construction's tables.
    build: Scratch<V>,
}

impl<V> Default for Resolve<V> {
    fn default() -> Self {
        Resolve {
            cfg: Cfg::default(),
            succ_start: Vec::new(),
            succ: Vec::new(),
            fill: Vec::new(),
            phi_start: Vec::new(),
            phis_by: Vec::new(),
            def_start: Vec::new(),
            defs_by: Vec::new(),
            read: Read {
                acc: Vec::new(),
                block: Vec::new(),
            },
            pend_start: Vec::new(),
            pend_by: Vec::new(),
            var_slot: Vec::new(),
            pending_var: Vec::new(),
            phi_val: Vec::new(),
            by_pred: Vec::new(),
            build: Scratch::default(),
        }
    }
}

/// Groups `0..len` by `block_of` over blocks `0..n` (a counting sort, each group in index
/// order): group `b` is `items[start[b]..start[b + 1]]`.
fn group(
    n: usize,
    len: usize,
    block_of: impl Fn(usize) -> usize,
    start: &mut Vec<u32>,
    items: &mut Vec<u32>,
    fill: &mut Vec<u32>,
) {
    start.clear();
    start.resize(n + 1, 0);
    for i in 0..len {
        start[block_of(i) + 1] += 1;
    }
    for b in 0..n {
        start[b + 1] += start[b];
    }
    fill.clear();
    fill.extend_from_slice(start);
    items.clear();
    items.resize(len, 0);
    for i in 0..len {
        let b = block_of(i);
        items[fill[b] as usize] = i as u32;
        fill[b] += 1;
    }
}

impl<V: PhiKey> Builder<V> {
    /// Recomputes `rs.cfg` as the graph of the blocks and edges added.
    pub(super) fn compute_cfg(&self, rs: &mut Resolve<V>) {
        // Successor lists in one array (a counting sort of the edges by source; each list in
        // the order of its targets' ids).
        let n = self.blocks.len();
        let start = &mut rs.succ_start;
        start.clear();
        start.resize(n + 1, 0);
        for e in &self.edges {
            start[e.from.index() + 1] += 1;
        }
        for b in 0..n {
            start[b + 1] += start[b];
        }
        rs.fill.clear();
        rs.fill.extend_from_slice(start);
        rs.succ.clear();
        rs.succ.resize(self.edges.len(), Block(0));
        for b in 0..n {
            for p in self.preds(Block::new(b)) {
                rs.succ[rs.fill[p.index()] as usize] = Block::new(b);
                rs.fill[p.index()] += 1;
            }
        }
        let g = Succs {
            start: &rs.succ_start,
            succ: &rs.succ,
        };
        rs.cfg.recompute(&g).expect("edges were checked when added");
    }

    /// Resolves every pending phi by the whole-function construction over what the builder
    /// recorded: per block, its complete phis (definitions at its start), its pending phis
    /// (uses at its start) and its last definition of each variable.
    /// The phis it gives operands to, and the users of the pending phis it replaces, go onto
    /// `work` (to be looked at for triviality).
    pub(super) fn resolve_pending<S: Sink<Value = V>>(
        &mut self,
        rs: &mut Resolve<V>,
        sink: &mut S,
        work: &mut Vec<u32>,
    ) {
        self.record(rs);
        let opts = Options {
            fold_trivial: false,
            ..Options::default()
        };
        let cfg = std::mem::take(&mut rs.cfg);
        let ssa = build_read(cfg, &rs.read, self.num_vars as usize, &opts, &mut rs.build);
        self.phi_values(rs, ssa.phis(), sink);
        let conv = |this: &Self, sink: &mut S, phi_val: &[(u32, V)], v: Value<V>| match v {
            Value::Def(x) => this.resolve(x),
            Value::Phi(q) => phi_val[q.index()].1,
            Value::Undefined(var) => sink.undefined(var),
        };
        rs.by_pred.clear();
        rs.by_pred.resize(self.blocks.len(), None);
        for (i, p) in ssa.phis().iter().enumerate() {
            let id = PhiId(i as u32);
            for (&q, &v) in ssa.preds(p.block).iter().zip(ssa.operands(id)) {
                rs.by_pred[q.index()] = Some(v);
            }
            let start = self.ops.len();
            let mut e = self.blocks[p.block.index()].first;
            // Runs of one operand are converted once.
            let mut prev: Option<(Value<V>, V)> = None;
            while let Some(q) = self.next_pred(&mut e) {
                let raw = rs.by_pred[q.index()].unwrap_or(Value::Undefined(p.var));
                let v = match prev {
                    Some((r, done)) if r == raw => done,
                    _ => conv(self, sink, &rs.phi_val, raw),
                };
                prev = Some((raw, v));
                self.ops.push(v);
            }
            for &q in ssa.preds(p.block) {
                rs.by_pred[q.index()] = None;
            }
            let k = rs.phi_val[i].0;
            self.set_operands(k, start, sink);
            work.push(k);
        }
        for &(k, v) in ssa.uses() {
            if self.phis[k as usize].state == State::Pending {
                let by = conv(self, sink, &rs.phi_val, v);
                self.push_users(k, work);
                self.remove(k, by, sink);
            }
        }
        self.pending.clear();
        rs.cfg = ssa.cfg;
    }

    /// The values of the construction's phis (`phis`, grouped by block): a pending phi where
    /// it has one (found in a table by variable, filled per block), else a new phi.
    fn phi_values<S: Sink<Value = V>>(
        &mut self,
        rs: &mut Resolve<V>,
        phis: &[crate::construct::Phi],
        sink: &mut S,
    ) {
        let n = self.blocks.len();
        let pending = &self.pending;
        let block_of = |i: usize| self.phis[pending[i] as usize].block.index();
        group(
            n,
            pending.len(),
            block_of,
            &mut rs.pend_start,
            &mut rs.pend_by,
            &mut rs.fill,
        );
        rs.var_slot.clear();
        rs.var_slot.resize(self.num_vars as usize, NO_PHI);
        rs.phi_val.clear();
        let mut cur = Block::NONE;
        for p in phis {
            if p.block != cur {
                self.slot_pending(rs, cur, NO_PHI);
                cur = p.block;
                self.slot_pending(rs, cur, 0);
            }
            rs.phi_val.push(match rs.var_slot[p.var.index()] {
                NO_PHI => {
                    let v = self.new_phi(p.var, p.block, State::Complete, sink);
                    (self.phis.len() as u32 - 1, v)
                }
                k => (k, self.phis[k as usize].value),
            });
        }
        self.slot_pending(rs, cur, NO_PHI);
    }

    /// Writes block `b`'s pending phis into `var_slot` (`fill == 0`), or clears their slots.
    fn slot_pending(&self, rs: &mut Resolve<V>, b: Block, fill: u32) {
        let Some(r) = rs.pend_start.get(b.index()..b.index() + 2) else {
            return;
        };
        for &i in &rs.pend_by[r[0] as usize..r[1] as usize] {
            let k = self.pending[i as usize];
            let var = self.phis[k as usize].var;
            rs.var_slot[var.index()] = if fill == NO_PHI { NO_PHI } else { k };
        }
    }

    /// Fills `rs.read`: the recorded accesses of the variables with pending phis, block by
    /// block.
    fn record(&self, rs: &mut Resolve<V>) {
        let n = self.blocks.len();
        let (phis, defs) = (&self.phis, &self.defs);
        let pending_var = &mut rs.pending_var;
        pending_var.clear();
        pending_var.resize(self.num_vars as usize, false);
        for &k in &self.pending {
            pending_var[phis[k as usize].var.index()] = true;
        }
        let phi_block = |k: usize| phis[k].block.index();
        group(
            n,
            phis.len(),
            phi_block,
            &mut rs.phi_start,
            &mut rs.phis_by,
            &mut rs.fill,
        );
        let def_block = |i: usize| defs[i].0.index();
        group(
            n,
            defs.len(),
            def_block,
            &mut rs.def_start,
            &mut rs.defs_by,
            &mut rs.fill,
        );
        let r = &mut rs.read;
        r.acc.clear();
        r.block.clear();
        r.acc.reserve(phis.len() + defs.len());
        for b in 0..n {
            let in_b = rs.phi_start[b] as usize..rs.phi_start[b + 1] as usize;
            for &k in &rs.phis_by[in_b] {
                let ph = &phis[k as usize];
                if !pending_var[ph.var.index()] {
                    continue;
                }
                match ph.state {
                    State::Complete => r.acc.push(Access::Def(ph.var, ph.value)),
                    State::Pending => r.acc.push(Access::UseInto(ph.var, k, ph.value)),
                    _ => {}
                }
            }
            let in_b = rs.def_start[b] as usize..rs.def_start[b + 1] as usize;
            for &i in &rs.defs_by[in_b] {
                let (_, var, v): (Block, Var, V) = defs[i as usize];
                if pending_var[var.index()] {
                    r.acc.push(Access::Def(var, self.resolve(v)));
                }
            }
            r.block.resize(r.acc.len(), Block::new(b));
        }
    }
}

/// The builder's graph for [`Cfg::recompute`]: block `b`'s successors are
/// `succ[start[b]..start[b + 1]]`.
struct Succs<'a> {
    start: &'a [u32],
    succ: &'a [Block],
}

impl Graph for Succs<'_> {
    fn num_blocks(&self) -> usize {
        self.start.len() - 1
    }

    fn entry(&self) -> Option<Block> {
        (self.start.len() > 1).then_some(Block(0))
    }

    fn successors(&self, b: Block) -> impl Iterator<Item = Block> + '_ {
        let r = self.start[b.index()] as usize..self.start[b.index() + 1] as usize;
        self.succ[r].iter().copied()
    }
}
