//! [`build`]: the whole-function construction, from reported accesses to an [`Ssa`].
//!
//! Steps: read the graph and the accesses (checked), choose the variables to promote
//! ([`Options::max_promoted`]), place each one's phis ([`super::place`]), apply the phi-copy
//! budget, rename ([`super::rename`], with a host that records each use's value), order each
//! phi's operands by predecessor, fold trivial phis ([`super::fold`]) and, if asked, redundant
//! phi cycles ([`super::cycles`]), and number what is left.
//!
//! Invariants: the result depends only on the function and the options; every step is linear
//! in the function's blocks, edges and accesses (placement and the budget's sort add log
//! factors).

use rustc_hash::FxHashMap;

use super::cycles::{remove_redundant_cycles, Cycles};
use super::fold::{fold_trivial_phis, Folder};
use super::place::{Method, Placer, PlacerBuffers};
use super::rename::{
    self, Access as Ev, BlockEvents, Def, Event, Incoming, PhiInfo, PhisByBlock, RenameBuffers,
    Renamer, Walk,
};
use super::{Access, BuildError, Options, Phi, PhiId, Ssa, Stats, Value, Var, Variables};
use crate::cfg::Cfg;
use crate::domtree::DomTree;
use crate::Block;

/// Puts `f` in SSA form (see the [module docs](super)).
pub fn build<F: Variables>(f: &F, opts: &Options) -> Result<Ssa<F::Value>, BuildError> {
    let cfg = Cfg::new(f)?;
    let nv = f.num_vars();
    let mut r = Read {
        acc: Vec::new(),
        block: Vec::new(),
    };
    if let Some(entry) = cfg.entry() {
        if !cfg.preds(entry).is_empty() {
            return Err(BuildError::EntryHasPredecessors { entry });
        }
        r = read(f, &cfg, nv)?;
    }
    Ok(build_read(cfg, &r, nv, opts, &mut Scratch::default()))
}

/// The working tables of [`build_read`], kept by a caller that builds many functions (the
/// on-the-fly builder's `finish`) so that each build reuses them instead of allocating:
/// they carry nothing from one build to the next.
pub(super) struct Scratch<V> {
    dt: DomTree,
    placer: PlacerBuffers,
    /// [`place_all`]'s rows of accesses per variable, their starts, and the candidates.
    rows: Vec<(Block, u32, bool)>,
    start: Vec<u32>,
    fill: Vec<u32>,
    blocks: Vec<Block>,
    cands: Vec<(Var, Block)>,
    events: BlockEvents,
    rename: RenameBuffers<Value<V>, ()>,
    incoming: Incoming<Value<V>, ()>,
    use_val: Vec<Value<V>>,
    alias: FxHashMap<V, Value<V>>,
}

impl<V> Default for Scratch<V> {
    fn default() -> Self {
        Scratch {
            dt: DomTree::default(),
            placer: PlacerBuffers::default(),
            rows: Vec::new(),
            start: Vec::new(),
            fill: Vec::new(),
            blocks: Vec::new(),
            cands: Vec::new(),
            events: BlockEvents::default(),
            rename: RenameBuffers::default(),
            incoming: Incoming::default(),
            use_val: Vec::new(),
            alias: FxHashMap::default(),
        }
    }
}

/// [`build`] on accesses already read and checked (`r`, grouped by block in layout order) over
/// variables `0..nv`, for a CFG whose entry has no predecessors; `sc`'s tables are reused.
pub(super) fn build_read<V: Copy + Eq + std::hash::Hash>(
    cfg: Cfg,
    r: &Read<V>,
    nv: usize,
    opts: &Options,
    sc: &mut Scratch<V>,
) -> Ssa<V> {
    let promoted = choose(r, nv, opts.max_promoted);
    sc.dt.recompute(&cfg);
    let method = match (opts.method, opts.phi_copy_budget) {
        (Method::Bounded, Some(_)) => Method::Exact,
        (m, _) => m,
    };
    let mut cands = std::mem::take(&mut sc.cands);
    place_all(&cfg, r, &promoted, method, sc, &mut cands);
    let promoted = apply_budget(&cfg, &mut cands, promoted, opts.phi_copy_budget);
    let (by_block, index) = PhisByBlock::build(cfg.num_block_ids(), cands.iter().map(|c| c.1));
    let mut phis = vec![
        Phi {
            var: Var(0),
            block: Block(0)
        };
        cands.len()
    ];
    for (c, &k) in cands.iter().zip(&index) {
        phis[k as usize] = Phi {
            var: c.0,
            block: c.1,
        };
    }
    cands.clear();
    sc.cands = cands;
    let mut use_val = std::mem::take(&mut sc.use_val);
    use_val.clear();
    use_val.extend(r.acc.iter().map(|a| Value::Undefined(a.var())));
    let mut alias = std::mem::take(&mut sc.alias);
    alias.clear();
    let mut host = Host {
        acc: &r.acc,
        phis: &phis,
        use_val,
        alias,
    };
    events(r, &promoted, cfg.num_block_ids(), &mut sc.events);
    let entry = cfg.entry().unwrap_or(Block(0));
    let walk = Walk {
        cfg: &cfg,
        entry,
        events: &sc.events,
        phis: &by_block,
        num_vars: nv,
        prune: method == Method::Bounded,
    };
    let renamed = match cfg.entry() {
        Some(_) => rename::rename(&walk, &mut host, &mut sc.rename, &mut sc.incoming),
        None => rename::Renamed {
            live: Vec::new(),
            left: vec![false; nv],
        },
    };
    let Host { use_val, alias, .. } = host;
    sc.alias = alias;
    let mut out = Numbered::from_walk(&cfg, &phis, &renamed.live, &sc.incoming);
    let mut uses: Vec<(u32, Value<V>)> = (r.acc.iter().enumerate())
        .filter(|(_, a)| {
            promoted[a.var().index()] && matches!(a, Access::Use(..) | Access::UseInto(..))
        })
        .map(|(i, a)| (use_id(a), out.renumber(use_val[i])))
        .collect();
    sc.use_val = use_val;
    let placed = out.phis.len();
    if opts.fold_trivial {
        out.fold(&cfg, &mut uses, opts.remove_cycles);
    }
    let stats = Stats {
        promoted: promoted.iter().filter(|&&p| p).count(),
        phis_placed: placed,
        phis_folded: placed - out.phis.len(),
    };
    Ssa {
        cfg,
        phis: out.phis,
        op_start: out.op_start,
        operands: out.operands,
        uses,
        promoted,
        stats,
    }
}

/// The accesses as read: all of them in report order (blocks in layout order), and each one's
/// block.
pub(super) struct Read<V> {
    pub(super) acc: Vec<Access<V>>,
    pub(super) block: Vec<Block>,
}

fn read<F: Variables>(f: &F, cfg: &Cfg, nv: usize) -> Result<Read<F::Value>, BuildError> {
    let mut r = Read {
        acc: Vec::new(),
        block: Vec::new(),
    };
    for &b in cfg.blocks() {
        let start = r.acc.len();
        f.accesses(b, &mut r.acc);
        if r.acc.len() >= u32::MAX as usize {
            return Err(BuildError::TooLarge);
        }
        if let Some(a) = r.acc[start..].iter().find(|a| a.var().index() >= nv) {
            return Err(BuildError::VarOutOfRange {
                block: b,
                var: a.var(),
            });
        }
        r.block.resize(r.acc.len(), b);
    }
    Ok(r)
}

/// Which variables to promote: all, or the `max` with the most accesses
/// ([`super::place::most_accessed`]).
fn choose<V>(r: &Read<V>, nv: usize, max: Option<usize>) -> Vec<bool> {
    let Some(max) = max.filter(|&m| m < nv) else {
        return vec![true; nv];
    };
    let mut count = vec![0u32; nv];
    for a in &r.acc {
        count[a.var().index()] += 1;
    }
    super::place::most_accessed(&count, max)
}

/// Each promoted variable's phi blocks, as `(variable, block)` in variable order.
/// Places every promoted variable's phis: `(variable, block)` candidates into `cands`.
fn place_all<V>(
    cfg: &Cfg,
    r: &Read<V>,
    promoted: &[bool],
    method: Method,
    sc: &mut Scratch<V>,
    cands: &mut Vec<(Var, Block)>,
) {
    // Each variable's accesses, as rows of access indices (one pass to count, one to fill).
    let nv = promoted.len();
    let (start, fill, rows) = (&mut sc.start, &mut sc.fill, &mut sc.rows);
    crate::util::refill(start, nv + 1, 0);
    for a in &r.acc {
        start[a.var().index() + 1] += 1;
    }
    for v in 0..nv {
        start[v + 1] += start[v];
    }
    fill.clear();
    fill.extend_from_slice(start);
    // Each row holds what placement reads of an access (its block, index, and whether it
    // defines), so rows are read in order, never the accesses at random.
    crate::util::refill(rows, r.acc.len(), (Block(0), 0u32, false));
    for (i, a) in r.acc.iter().enumerate() {
        let v = a.var().index();
        let def = matches!(a, Access::Def(..) | Access::Kill(_));
        rows[fill[v] as usize] = (r.block[i], i as u32, def);
        fill[v] += 1;
    }
    let mut placer = Placer::with_buffers(cfg, &sc.dt, std::mem::take(&mut sc.placer));
    let blocks = &mut sc.blocks;
    cands.clear();
    for v in (0..nv).filter(|&v| promoted[v]) {
        let row = &rows[start[v] as usize..start[v + 1] as usize];
        let at = |&(b, i, _): &(Block, u32, bool)| (b, i);
        placer.gather(
            row.iter().filter(|a| a.2).map(at),
            row.iter().filter(|a| !a.2).map(at),
        );
        placer.place(method, blocks);
        cands.extend(blocks.iter().map(|&b| (Var(v as u32), b)));
    }
    sc.placer = placer.into_buffers();
}

/// The phi-copy budget ([`super::place::over_budget`]): returns the final promoted set;
/// removes the dropped variables' phis from `cands`.
fn apply_budget(
    cfg: &Cfg,
    cands: &mut Vec<(Var, Block)>,
    mut promoted: Vec<bool>,
    limit: Option<u64>,
) -> Vec<bool> {
    let Some(limit) = limit else {
        return promoted;
    };
    let mut cost = vec![0u64; promoted.len()];
    for &(v, b) in cands.iter() {
        cost[v.index()] += cfg.preds(b).len() as u64;
    }
    for v in super::place::over_budget(&cost, limit) {
        promoted[v] = false;
    }
    cands.retain(|&(v, _)| promoted[v.index()]);
    promoted
}

/// The promoted variables' events, by block, into `ev`.
fn events<V>(r: &Read<V>, promoted: &[bool], num_block_ids: usize, ev: &mut BlockEvents) {
    ev.begin(promoted.len());
    for (i, a) in r.acc.iter().enumerate() {
        let var = a.var();
        if !promoted[var.index()] {
            continue;
        }
        let access = match a {
            Access::Def(..) => Ev::Def,
            Access::Use(..) | Access::UseInto(..) => Ev::Use,
            Access::Kill(_) => Ev::Kill,
        };
        let e = Event {
            var,
            access,
            id: i as u32,
        };
        ev.push(r.block[i], i as u32, e);
    }
    ev.finish(num_block_ids);
}

fn use_id<V>(a: &Access<V>) -> u32 {
    match *a {
        Access::Use(_, id) | Access::UseInto(_, id, _) => id,
        _ => unreachable!("only uses have ids"),
    }
}

/// The renaming host: records each use's value; resolves definitions of temporaries that
/// uses read into.
struct Host<'a, V> {
    acc: &'a [Access<V>],
    phis: &'a [Phi],
    use_val: Vec<Value<V>>,
    alias: FxHashMap<V, Value<V>>,
}

impl<V: Copy + Eq + std::hash::Hash> Renamer for Host<'_, V> {
    type Value = Value<V>;
    type Loc = ();

    fn undefined(&mut self, var: Var) -> Value<V> {
        Value::Undefined(var)
    }

    fn phi(&self, k: usize) -> PhiInfo<Value<V>> {
        let p = self.phis[k];
        PhiInfo {
            var: p.var,
            block: p.block,
            value: Value::Phi(PhiId(k as u32)),
        }
    }

    fn use_reaches(&mut self, id: u32, _var: Var, value: Value<V>) {
        self.use_val[id as usize] = value;
        if let Access::UseInto(_, _, t) = self.acc[id as usize] {
            self.alias.insert(t, value);
        }
    }

    fn definition(&mut self, id: u32, _var: Var) -> Def<Value<V>, ()> {
        let Access::Def(_, x) = self.acc[id as usize] else {
            unreachable!("definition events are definitions");
        };
        let value = self.alias.get(&x).copied().unwrap_or(Value::Def(x));
        let phi = match value {
            Value::Phi(p) => Some(p.0),
            _ => None,
        };
        Def {
            value,
            phi,
            loc: (),
        }
    }
}

/// Phis numbered densely, each with its operands in predecessor order.
struct Numbered<V> {
    phis: Vec<Phi>,
    op_start: Vec<u32>,
    operands: Vec<Value<V>>,
    /// The dense number of each phi of the walk (`u32::MAX`: dead).
    new_id: Vec<u32>,
}

impl<V: Copy + Eq> Numbered<V> {
    /// The live phis of the walk, operands ordered as their block's predecessors (an edge from
    /// a predecessor the walk never reached carries `Undefined`).
    fn from_walk(cfg: &Cfg, phis: &[Phi], live: &[bool], inc: &Incoming<Value<V>, ()>) -> Self {
        let mut new_id = vec![u32::MAX; phis.len()];
        let mut out = Numbered {
            phis: Vec::new(),
            op_start: vec![0],
            operands: Vec::new(),
            new_id: Vec::new(),
        };
        for k in (0..phis.len()).filter(|&k| live[k]) {
            new_id[k] = out.phis.len() as u32;
            out.phis.push(phis[k]);
        }
        out.new_id = new_id;
        let mut by_pred: Vec<Option<Value<V>>> = vec![None; cfg.num_block_ids()];
        for k in (0..phis.len()).filter(|&k| live[k]) {
            let p = phis[k];
            for &(v, pred) in inc.of(k) {
                by_pred[pred.index()] = Some(v);
            }
            for &pred in cfg.preds(p.block) {
                let v = by_pred[pred.index()].unwrap_or(Value::Undefined(p.var));
                let v = out.renumber(v);
                out.operands.push(v);
            }
            for &(_, pred) in inc.of(k) {
                by_pred[pred.index()] = None;
            }
            out.op_start.push(out.operands.len() as u32);
        }
        out
    }

    /// `v` with phis renumbered densely.
    fn renumber(&self, v: Value<V>) -> Value<V> {
        match v {
            Value::Phi(p) => Value::Phi(PhiId(self.new_id[p.index()])),
            v => v,
        }
    }

    /// Folds trivial phis, then numbers the rest densely again (in `self` and `uses`).
    fn fold(&mut self, cfg: &Cfg, uses: &mut [(u32, Value<V>)], cycles: bool) {
        let n = self.phis.len();
        let mut t = Trivial {
            n: self,
            cfg,
            fwd: vec![None; n],
        };
        let mut alive = fold_trivial_phis(n, &mut t);
        if cycles {
            let left: Vec<u32> = (0..n as u32).filter(|&k| alive[k as usize]).collect();
            let mut r = Redundant {
                t: &mut t,
                alive: &mut alive,
            };
            remove_redundant_cycles(&left, &mut r);
        }
        let fwd = t.fwd;
        let resolve = |mut v: Value<V>| {
            while let Value::Phi(p) = v {
                match fwd[p.index()] {
                    Some(w) => v = w,
                    None => break,
                }
            }
            v
        };
        let mut new_id = vec![u32::MAX; n];
        for (next, k) in (0..n).filter(|&k| alive[k]).enumerate() {
            new_id[k] = next as u32;
        }
        let final_id = |v: Value<V>| match resolve(v) {
            Value::Phi(p) => Value::Phi(PhiId(new_id[p.index()])),
            v => v,
        };
        let (mut phis, mut op_start, mut operands) = (Vec::new(), vec![0u32], Vec::new());
        for k in (0..n).filter(|&k| alive[k]) {
            phis.push(self.phis[k]);
            let r = self.op_start[k] as usize..self.op_start[k + 1] as usize;
            operands.extend(self.operands[r].iter().map(|&v| final_id(v)));
            op_start.push(operands.len() as u32);
        }
        for u in uses.iter_mut() {
            u.1 = final_id(u.1);
        }
        (self.phis, self.op_start, self.operands) = (phis, op_start, operands);
    }
}

/// The phis [`Trivial`] left, for [`remove_redundant_cycles`]: operands resolved through the
/// folds, every undefined value as one (as [`Trivial`] counts them; a phi replaced by it gets
/// its own variable's), edges from unreachable predecessors left out.
struct Redundant<'t, 'a, V> {
    t: &'t mut Trivial<'a, V>,
    alive: &'t mut [bool],
}

impl<V: Copy + Eq> Cycles for Redundant<'_, '_, V> {
    type Value = Value<V>;

    fn phi(&self, v: Value<V>) -> Option<u32> {
        match v {
            Value::Phi(p) if self.alive[p.index()] => Some(p.0),
            _ => None,
        }
    }

    fn operands(&self, k: u32, f: impl FnMut(Value<V>)) {
        self.t
            .counted_ops(k as usize, Value::Undefined(Var(0)))
            .for_each(f);
    }

    fn replace(&mut self, group: &[u32], by: Option<Value<V>>) {
        for &k in group {
            let var = self.t.n.phis[k as usize].var;
            self.t.fwd[k as usize] = Some(match by {
                Some(Value::Undefined(_)) | None => Value::Undefined(var),
                Some(v) => v,
            });
            self.alive[k as usize] = false;
        }
    }
}

/// The plain rule for trivial phis (Braun et al.): all operands, ignoring the phi itself and
/// edges from unreachable predecessors (which never run), are one value; a phi of only itself
/// stands for `Undefined`.
struct Trivial<'a, V> {
    n: &'a Numbered<V>,
    cfg: &'a Cfg,
    fwd: Vec<Option<Value<V>>>,
}

impl<V: Copy + Eq> Trivial<'_, V> {
    fn resolve(&self, mut v: Value<V>) -> Value<V> {
        while let Value::Phi(p) = v {
            match self.fwd[p.index()] {
                Some(w) => v = w,
                None => break,
            }
        }
        v
    }

    fn ops(&self, k: usize) -> &[Value<V>] {
        &self.n.operands[self.n.op_start[k] as usize..self.n.op_start[k + 1] as usize]
    }

    /// Phi `k`'s operands that count: resolved, from reachable predecessors (edges from the
    /// others never run), every undefined value as `undef`.
    fn counted_ops(&self, k: usize, undef: Value<V>) -> impl Iterator<Item = Value<V>> + '_ {
        let preds = self.cfg.preds(self.n.phis[k].block);
        (self.ops(k).iter().zip(preds))
            .filter(|(_, &p)| self.cfg.is_reachable(p))
            .map(move |(&o, _)| match self.resolve(o) {
                Value::Undefined(_) => undef,
                o => o,
            })
    }
}

impl<V: Copy + Eq> Folder for Trivial<'_, V> {
    fn operand_phis(&self, k: usize, mut f: impl FnMut(u32)) {
        for &o in self.ops(k) {
            if let Value::Phi(q) = self.resolve(o) {
                f(q.0);
            }
        }
    }

    fn try_fold(&mut self, k: usize) -> Option<Option<u32>> {
        let me = Value::Phi(PhiId(k as u32));
        let mut same = None;
        // Undefined is one value whichever variable it comes from (a copy of an undefined
        // variable into another is undefined too).
        let undef = Value::Undefined(self.n.phis[k].var);
        for o in self.counted_ops(k, undef) {
            if o == me || Some(o) == same {
                continue;
            }
            if same.is_some() {
                return None;
            }
            same = Some(o);
        }
        let v = same.unwrap_or(Value::Undefined(self.n.phis[k].var));
        self.fwd[k] = Some(v);
        Some(match v {
            Value::Phi(q) => Some(q.0),
            _ => None,
        })
    }
}
