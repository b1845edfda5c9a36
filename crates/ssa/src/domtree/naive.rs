//! The dominance oracle: dominator *sets* by iterative data flow (Allen–Cocke; the `dominators`
//! function of tinyoptimizer's blog), `Dom(entry) = {entry}`, `Dom(b) = {b} ∪ ⋂ Dom(p)` over
//! reachable predecessors `p`, iterated to the greatest fixpoint; then `idom(b)` is the strict
//! dominator of `b` that all other strict dominators dominate (the one with the largest set).
//!
//! Straight from the definition and deliberately simple: `O(V²)` memory and `O(V² E / 64)` time.
//! For tests only (small graphs); never used by passes.

use crate::cfg::Cfg;
use crate::entity::EntitySet;
use crate::Block;

/// `Dom(b)` for every block index (empty for unreachable blocks).
pub fn dominator_sets(cfg: &Cfg) -> Vec<EntitySet<Block>> {
    let n = cfg.num_block_ids();
    let rpo = cfg.reverse_postorder();
    let mut all = EntitySet::with_capacity(n);
    for &b in rpo {
        all.insert(b);
    }
    let mut dom: Vec<EntitySet<Block>> = vec![EntitySet::new(); n];
    for (i, &b) in rpo.iter().enumerate() {
        if i == 0 {
            dom[b.index()].insert(b);
        } else {
            dom[b.index()] = all.clone();
        }
    }
    let mut changed = true;
    while changed {
        changed = false;
        for &b in rpo.iter().skip(1) {
            let mut new: Option<EntitySet<Block>> = None;
            for &p in cfg.preds(b) {
                if !cfg.is_reachable(p) {
                    continue;
                }
                new = Some(match new {
                    None => dom[p.index()].clone(),
                    Some(s) => intersect(&s, &dom[p.index()]),
                });
            }
            let mut new = new.expect("a reachable block has a reachable predecessor");
            new.insert(b);
            if !same(&new, &dom[b.index()]) {
                dom[b.index()] = new;
                changed = true;
            }
        }
    }
    dom
}

/// Immediate dominator per block index (`NONE` for the entry and for unreachable blocks).
pub fn idoms(cfg: &Cfg) -> Vec<Block> {
    let dom = dominator_sets(cfg);
    let size = |b: Block| dom[b.index()].iter().count();
    let mut result = vec![Block::NONE; cfg.num_block_ids()];
    for &b in cfg.reverse_postorder().iter().skip(1) {
        result[b.index()] = dom[b.index()]
            .iter()
            .filter(|&d| d != b)
            .max_by_key(|&d| size(d))
            .expect("a non-entry reachable block has a strict dominator");
    }
    result
}

fn intersect(a: &EntitySet<Block>, b: &EntitySet<Block>) -> EntitySet<Block> {
    let mut out = EntitySet::new();
    for x in a.iter().filter(|&x| b.contains(x)) {
        out.insert(x);
    }
    out
}

fn same(a: &EntitySet<Block>, b: &EntitySet<Block>) -> bool {
    a.iter().eq(b.iter())
}
