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
    let live = by_block(
        n,
        ir.merges
            .iter()
            .filter(|m| m.replaced.is_none())
            .map(|m| m.block),
    );
    let live_merges: Vec<&Merge> = ir.merges.iter().filter(|m| m.replaced.is_none()).collect();
    let into = by_block(n, ir.edges.iter().map(|e| e.to));
    // The position of each edge among the edges into its target.
    let mut k_of = vec![0u32; ir.edges.len()];
    for b in 0..n {
        let start = into.start[b];
        for (k, &e) in into.items[start as usize..into.start[b + 1] as usize]
            .iter()
            .enumerate()
        {
            k_of[e as usize] = k as u32;
        }
    }
    let operand = |m: &Merge, k: u32| {
        let i = m.ops.0 as usize + k as usize;
        let v = (i < m.ops.1 as usize).then(|| ir.ops[i]);
        v.map_or(Operand::Imm(0), |v| resolve.get(v))
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
                    let m = live_merges[i as usize];
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
                let params = live.of(b).iter().map(|&i| live_merges[i as usize].temp);
                func.blocks[b].params.extend(params);
            }
            let mut e = 0;
            while e < ir.edges.len() {
                let from = ir.edges[e].from;
                let run = ir.edges[e..].iter().take_while(|x| x.from == from).count();
                let term = func.blocks[from.index()].term.as_mut();
                let mut targets = term.map(Term::targets_mut).unwrap_or_default();
                for (i, edge) in ir.edges[e..e + run].iter().enumerate() {
                    let Some(t) = targets.get_mut(edge.slot as usize) else {
                        continue;
                    };
                    for &j in live.of(edge.to.index()) {
                        t.args.push(operand(live_merges[j as usize], k_of[e + i]));
                    }
                }
                e += run;
            }
        }
    }
    func
}

/// Items grouped by block, each group in the input's order (a counting sort).
struct ByBlock {
    /// Group `b` is `items[start[b]..start[b + 1]]`.
    start: Vec<u32>,
    /// Indices into the input.
    items: Vec<u32>,
}

impl ByBlock {
    fn of(&self, b: usize) -> &[u32] {
        &self.items[self.start[b] as usize..self.start[b + 1] as usize]
    }
}

/// Groups the input's indices by their block (blocks below `n`; others are left out).
fn by_block(n: usize, blocks: impl Iterator<Item = Block> + Clone) -> ByBlock {
    let mut start = vec![0u32; n + 1];
    for b in blocks.clone().filter(|b| b.index() < n) {
        start[b.index() + 1] += 1;
    }
    for b in 0..n {
        start[b + 1] += start[b];
    }
    let mut fill = start.clone();
    let mut items = vec![0u32; start[n] as usize];
    for (i, b) in blocks.enumerate().filter(|(_, b)| b.index() < n) {
        items[fill[b.index()] as usize] = i as u32;
        fill[b.index()] += 1;
    }
    ByBlock { start, items }
}

/// Points every removed merge straight at its final replacement (never a removed merge),
/// with [`UNDEFINED`] as 0. A cycle of replacements (which the SSA builder never makes) reads 0.
fn shorten_replacements(ir: &mut Ir) {
    let mut path = Vec::new();
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
