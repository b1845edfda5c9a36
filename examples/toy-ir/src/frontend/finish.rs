//! The last step of [`super::FunctionBuilder::finish`]: the SSA builder is done, so the merges
//! left are known. Rewrites every use of a removed merge (and of [`super::UNDEFINED`]) in one
//! pass over the instructions, then writes the merges left as phis or block parameters, with
//! their arguments.
//!
//! The record's buffers stay with the builder (cleared, for the next function); only the
//! function is handed out.
//!
//! Invariants: linear in the function (a removed merge's replacement is looked up in a dense
//! table, chains of replacements are shortened once); merges of a block keep their creation
//! order; the argument of an edge is the merge's operand for that edge (operands come in the
//! order edges were reported, which is the order of [`super::Ir::edges`]); nothing here panics,
//! even on an inconsistent record (a missing operand reads 0).

use super::{Ir, Merge, Merges, UNDEFINED};
use crate::ir::{Block, Function, Inst, Operand, Term};

/// Turns the record into the finished function.
pub(super) fn write(ir: &mut Ir, merges: Merges) -> Function {
    shorten_replacements(ir);
    let mut bufs = std::mem::take(&mut ir.bufs);
    let f = write_with(ir, merges, &mut bufs);
    ir.bufs = bufs;
    f
}

/// The buffers of [`write`], kept in the builder between functions (cleared, not freed).
#[derive(Default)]
pub(super) struct Buffers {
    /// The merges left, by block.
    live: ByBlock,
    /// The indices of the merges left, in creation order.
    live_merges: Vec<u32>,
    /// The edges, by target block.
    into: ByBlock,
    /// The position of each edge among the edges into its target.
    k_of: Vec<u32>,
    /// Replacement chains being shortened.
    path: Vec<usize>,
}

fn write_with(ir: &mut Ir, merges: Merges, bufs: &mut Buffers) -> Function {
    let resolve = Resolver {
        merges: &ir.merges,
        merge_of: &ir.merge_of,
    };
    if ir.merges.iter().any(|m| m.replaced.is_some()) || ir.undefined_used {
        for data in &mut ir.func.blocks {
            data.insts
                .iter_mut()
                .for_each(|i| rewrite_inst(i, &resolve));
            if let Some(t) = &mut data.term {
                rewrite_term(t, &resolve);
            }
        }
    }
    if ir.merges.iter().all(|m| m.replaced.is_some()) {
        return std::mem::take(&mut ir.func);
    }
    let n = ir.func.blocks.len();
    let Buffers {
        live,
        live_merges,
        into,
        k_of,
        ..
    } = bufs;
    live_merges.clear();
    live_merges
        .extend((0..ir.merges.len() as u32).filter(|&k| ir.merges[k as usize].replaced.is_none()));
    let live_merges: &[u32] = live_merges;
    live.fill(n, live_merges.iter().map(|&k| ir.merges[k as usize].block));
    into.fill(n, ir.edges.iter().map(|e| e.to));
    k_of.clear();
    k_of.resize(ir.edges.len(), 0);
    for b in 0..n {
        for (k, &e) in into.of(b).iter().enumerate() {
            k_of[e as usize] = k as u32;
        }
    }
    let live_merge = |i: u32| &ir.merges[live_merges[i as usize] as usize];
    let operands = &ir.operands;
    let operand = |m: &Merge, k: u32| {
        let i = m.ops.0 as usize + k as usize;
        let v = (i < m.ops.1 as usize).then(|| ir.ops[i]);
        v.map_or(Operand::Imm(0), |v| resolve.get(v.unpack(operands)))
    };
    let mut func = std::mem::take(&mut ir.func);
    match merges {
        Merges::Phis => {
            for b in 0..n {
                let mine = live.of(b);
                if mine.is_empty() {
                    continue;
                }
                let edges = into.of(b);
                let phis = mine.iter().map(|&i| {
                    let m = live_merge(i);
                    let args = (edges.iter().enumerate())
                        .map(|(k, &e)| (ir.edges[e as usize].from, operand(m, k as u32)))
                        .collect();
                    Inst::Phi { dst: m.temp, args }
                });
                let phis: Vec<Inst> = phis.collect();
                func.blocks[b].insts.splice(0..0, phis);
            }
        }
        Merges::BlockParams => {
            for b in 0..n {
                let params = live.of(b).iter().map(|&i| live_merge(i).temp);
                func.blocks[b].params.extend(params);
            }
            let mut e = 0;
            while e < ir.edges.len() {
                let from = ir.edges[e].from;
                let run = ir.edges[e..].iter().take_while(|x| x.from == from).count();
                let Some(term) = func.blocks[from.index()].term.as_mut() else {
                    e += run;
                    continue;
                };
                for (i, edge) in ir.edges[e..e + run].iter().enumerate() {
                    let Some(t) = term.target_mut(edge.slot as usize) else {
                        continue;
                    };
                    let params = live.of(edge.to.index());
                    t.args.reserve_exact(params.len());
                    for &j in params {
                        t.args.push(operand(live_merge(j), k_of[e + i]));
                    }
                }
                e += run;
            }
        }
    }
    func
}

/// Items grouped by block, each group in the input's order (a counting sort).
#[derive(Default)]
struct ByBlock {
    /// Group `b` is `items[start[b]..start[b + 1]]`.
    start: Vec<u32>,
    /// Indices into the input.
    items: Vec<u32>,
    /// Where the next item of each group goes, while filling.
    fill: Vec<u32>,
}

impl ByBlock {
    fn of(&self, b: usize) -> &[u32] {
        &self.items[self.start[b] as usize..self.start[b + 1] as usize]
    }

    /// Groups the input's indices by their block (blocks below `n`; others are left out),
    /// reusing the buffers.
    fn fill(&mut self, n: usize, blocks: impl Iterator<Item = Block> + Clone) {
        let start = &mut self.start;
        start.clear();
        start.resize(n + 1, 0);
        for b in blocks.clone().filter(|b| b.index() < n) {
            start[b.index() + 1] += 1;
        }
        for b in 0..n {
            start[b + 1] += start[b];
        }
        self.fill.clear();
        self.fill.extend_from_slice(start);
        self.items.clear();
        self.items.resize(start[n] as usize, 0);
        for (i, b) in blocks.enumerate().filter(|(_, b)| b.index() < n) {
            self.items[self.fill[b.index()] as usize] = i as u32;
            self.fill[b.index()] += 1;
        }
    }
}

/// Points every removed merge straight at its final replacement (never a removed merge),
/// with [`UNDEFINED`] as 0. A cycle of replacements (which the SSA builder never makes) reads 0.
fn shorten_replacements(ir: &mut Ir) {
    let mut path = std::mem::take(&mut ir.bufs.path);
    for k in 0..ir.merges.len() {
        let Some(mut v) = ir.merges[k].replaced else {
            continue;
        };
        path.clear();
        path.push(k);
        loop {
            let next = (v.temp())
                .and_then(|t| ir.merge_of.get(t.index()))
                .and_then(|&j| ir.merges.get(j as usize).map(|m| (j as usize, m.replaced)));
            match next {
                Some((j, Some(w))) if path.len() <= ir.merges.len() => {
                    path.push(j);
                    v = w;
                }
                Some((_, Some(_))) => {
                    v = Operand::Imm(0);
                    break;
                }
                _ => break,
            }
        }
        if v == Operand::Temp(UNDEFINED) {
            v = Operand::Imm(0);
        }
        for &j in &path {
            ir.merges[j].replaced = Some(v);
        }
    }
    ir.bufs.path = path;
}

/// Maps an operand to what it stands for after removals.
struct Resolver<'a> {
    merges: &'a [Merge],
    merge_of: &'a [u32],
}

impl Resolver<'_> {
    fn get(&self, v: Operand) -> Operand {
        let Operand::Temp(t) = v else {
            return v;
        };
        if t == UNDEFINED {
            return Operand::Imm(0);
        }
        let m = (self.merge_of.get(t.index())).and_then(|&k| self.merges.get(k as usize));
        m.and_then(|m| m.replaced).unwrap_or(v)
    }
}

fn rewrite_inst(inst: &mut Inst, r: &Resolver) {
    let fix = |o: &mut Operand| *o = r.get(*o);
    match inst {
        Inst::Const { .. } | Inst::Read { .. } => {}
        Inst::Binary { a, b, .. } => {
            fix(a);
            fix(b);
        }
        Inst::Write { src, .. } | Inst::Copy { src, .. } | Inst::Print { src } => fix(src),
        Inst::Phi { args, .. } => args.iter_mut().for_each(|(_, v)| fix(v)),
    }
}

fn rewrite_term(term: &mut Term, r: &Resolver) {
    let fix = |o: &mut Operand| *o = r.get(*o);
    match term {
        Term::Jump(_) => {}
        Term::Branch { cond, .. } => fix(cond),
        Term::Switch { value, .. } => fix(value),
        Term::Return(v) => fix(v),
    }
}
