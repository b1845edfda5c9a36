//! Small, independent CFG analyses: reverse postorder, dominators, irreducibility.
//!
//! They exist so this crate can check SSA form ([`crate::verify_ssa`]) and place values in
//! the SSA generator *without* the `ssa` library under test: an independent implementation is
//! what makes the cross-check worth anything. Dominators use the iterative algorithm of Cooper,
//! Harvey and Kennedy (*A Simple, Fast Dominance Algorithm*, 2001) over reverse postorder.
//!
//! Invariants: only blocks reachable from the entry take part (unreachable blocks have no
//! dominator and dominate nothing); edges to out-of-range blocks are ignored, so every function
//! works on unverified input; all traversals are iterative, so deep CFGs cannot overflow the
//! stack; results depend only on the function, never on hashing.

use crate::ir::{Block, Function};

/// The blocks reachable from the entry, in reverse postorder of a depth-first search that
/// visits successors in edge order. Empty for a function without blocks.
pub fn reverse_postorder(f: &Function) -> Vec<Block> {
    let n = f.blocks.len();
    if n == 0 {
        return Vec::new();
    }
    let succs: Vec<Vec<Block>> = f.block_ids().map(|b| f.successors(b)).collect();
    let mut visited = vec![false; n];
    let mut post = Vec::with_capacity(n);
    let mut stack = vec![(Function::ENTRY, 0usize)];
    visited[0] = true;
    while let Some((b, i)) = stack.last_mut() {
        let b = *b;
        if let Some(&s) = succs[b.index()].get(*i) {
            *i += 1;
            if !visited[s.index()] {
                visited[s.index()] = true;
                stack.push((s, 0));
            }
        } else {
            post.push(b);
            stack.pop();
        }
    }
    post.reverse();
    post
}

/// The dominator tree of the blocks reachable from the entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DomTree {
    /// Immediate dominator per block; the entry maps to itself, unreachable blocks to `None`.
    idom: Vec<Option<Block>>,
    /// Position in reverse postorder, `usize::MAX` for unreachable blocks.
    rpo_index: Vec<usize>,
}

impl DomTree {
    /// Computes the dominator tree of `f`.
    pub fn compute(f: &Function) -> DomTree {
        let n = f.blocks.len();
        let rpo = reverse_postorder(f);
        let mut rpo_index = vec![usize::MAX; n];
        for (i, b) in rpo.iter().enumerate() {
            rpo_index[b.index()] = i;
        }
        let preds = f.pred_edges();
        let mut idom: Vec<Option<Block>> = vec![None; n];
        if let Some(&entry) = rpo.first() {
            idom[entry.index()] = Some(entry);
        }
        let mut changed = true;
        while changed {
            changed = false;
            for &b in rpo.iter().skip(1) {
                let mut new_idom = None;
                for &p in &preds[b.index()] {
                    if idom[p.index()].is_none() {
                        continue;
                    }
                    new_idom = Some(match new_idom {
                        None => p,
                        Some(q) => intersect(&idom, &rpo_index, p, q),
                    });
                }
                if new_idom.is_some() && idom[b.index()] != new_idom {
                    idom[b.index()] = new_idom;
                    changed = true;
                }
            }
        }
        DomTree { idom, rpo_index }
    }

    /// True if `b` is reachable from the entry.
    pub fn is_reachable(&self, b: Block) -> bool {
        self.idom.get(b.index()).is_some_and(Option::is_some)
    }

    /// The immediate dominator of `b`; `None` for the entry and for unreachable blocks.
    pub fn idom(&self, b: Block) -> Option<Block> {
        let d = self.idom.get(b.index()).copied().flatten()?;
        (d != b).then_some(d)
    }

    /// True if every path from the entry to `b` goes through `a` (reflexive). False when
    /// either block is unreachable.
    pub fn dominates(&self, a: Block, b: Block) -> bool {
        if !self.is_reachable(a) || !self.is_reachable(b) {
            return false;
        }
        let mut cur = b;
        loop {
            if cur == a {
                return true;
            }
            match self.idom(cur) {
                Some(up) => cur = up,
                None => return false,
            }
        }
    }

    /// The position of `b` in reverse postorder, if reachable.
    pub fn rpo_index(&self, b: Block) -> Option<usize> {
        self.rpo_index
            .get(b.index())
            .copied()
            .filter(|&i| i != usize::MAX)
    }
}

/// The nearest common dominator of `a` and `b` (both already processed).
fn intersect(idom: &[Option<Block>], rpo_index: &[usize], mut a: Block, mut b: Block) -> Block {
    while a != b {
        while rpo_index[a.index()] > rpo_index[b.index()] {
            a = idom[a.index()].unwrap_or(a);
        }
        while rpo_index[b.index()] > rpo_index[a.index()] {
            b = idom[b.index()].unwrap_or(b);
        }
    }
    a
}

/// True if the reachable CFG has an irreducible loop: a cycle entered at two different
/// blocks. Tested as: some edge `u → v` retreating in a depth-first search (v is on the DFS
/// stack) whose target does not dominate its source.
pub fn has_irreducible_loop(f: &Function) -> bool {
    let n = f.blocks.len();
    if n == 0 {
        return false;
    }
    let dom = DomTree::compute(f);
    let succs: Vec<Vec<Block>> = f.block_ids().map(|b| f.successors(b)).collect();
    let mut state = vec![0u8; n]; // 0 new, 1 on stack, 2 done
    let mut stack = vec![(Function::ENTRY, 0usize)];
    state[0] = 1;
    while let Some((b, i)) = stack.last_mut() {
        let b = *b;
        let Some(&s) = succs[b.index()].get(*i) else {
            state[b.index()] = 2;
            stack.pop();
            continue;
        };
        *i += 1;
        match state[s.index()] {
            0 => {
                state[s.index()] = 1;
                stack.push((s, 0));
            }
            1 if !dom.dominates(s, b) => return true,
            _ => {}
        }
    }
    false
}

/// The parallel copy an edge performs: what its target's merges (block parameters, then phis)
/// receive when control flows along it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EdgeCopies {
    /// The edge's source block.
    pub from: Block,
    /// The edge's position among `from`'s successors (see [`Function::successors`]).
    pub slot: usize,
    /// The edge's target block.
    pub to: Block,
    /// `(destination, source)` pairs, all performed at once.
    pub copies: Vec<(crate::Temp, crate::Operand)>,
}

/// Every edge with its parallel copy, in (source, slot) order; edges into blocks without
/// merges have empty copies. For a phi, the `k`-th edge from a predecessor takes the phi's
/// `k`-th argument naming it; missing arguments (malformed IR) are skipped.
pub fn edge_copies(f: &Function) -> Vec<EdgeCopies> {
    use crate::ir::Inst;
    let mut out = Vec::new();
    for from in f.block_ids() {
        let Some(term) = &f.blocks[from.index()].term else {
            continue;
        };
        let mut seen: Vec<Block> = Vec::new();
        for (slot, target) in term.targets().into_iter().enumerate() {
            let Some(data) = f.block(target.block) else {
                continue;
            };
            let k = seen.iter().filter(|&&b| b == target.block).count();
            seen.push(target.block);
            let mut copies: Vec<_> = data
                .params
                .iter()
                .copied()
                .zip(target.args.iter().copied())
                .collect();
            for inst in &data.insts {
                let Inst::Phi { dst, args } = inst else {
                    continue;
                };
                let mine = args.iter().filter(|(p, _)| *p == from).nth(k);
                copies.extend(mine.map(|&(_, v)| (*dst, v)));
            }
            out.push(EdgeCopies {
                from,
                slot,
                to: target.block,
                copies,
            });
        }
    }
    out
}
