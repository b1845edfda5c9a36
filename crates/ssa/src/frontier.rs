//! Dominance frontiers, by the Cooper–Harvey–Kennedy "runner" walk (`dominance_frontiers` in
//! tinyoptimizer's blog, the edge loop of a compiler course's SSA lab): for every CFG edge `p -> b`
//! with `p` reachable, walk `runner` from `p` up the dominator tree until it reaches `idom(b)`,
//! adding `b` to `DF(runner)` at each step. `DF(x) = { y | x dominates a predecessor of y, x does
//! not strictly dominate y }`.
//!
//! Invariants of [`DominanceFrontiers`]:
//! - each join block is added to a frontier once: a per-block stamp (`last[runner] == b`) stops a
//!   walk where an earlier walk for the same `b` already passed, so the total work is
//!   `O(E + Σ|DF|)`;
//! - stored as one CSR array (no allocation per block); each `DF(x)` is sorted by layout
//!   position (join blocks are visited in layout order and bucketed stably: no comparison sort);
//! - only reachable blocks have (and are in) frontiers; the entry block can be in a frontier when
//!   it has predecessors (possible in edge-list graphs, not in LLVM IR), since the walk from a
//!   predecessor of the entry climbs to the root.
//!
//! [`naive_frontiers`] computes the sets straight from the definition: the tests' oracle.

use super::cfg::Cfg;
use super::domtree::DomTree;
use crate::Block;

/// The dominance frontier of every block (see the module docs).
#[derive(Clone, Debug)]
pub struct DominanceFrontiers {
    off: Vec<u32>,
    blocks: Vec<Block>,
}

impl DominanceFrontiers {
    /// The frontiers of every block of `cfg`, whose dominator tree is `dt`.
    pub fn compute(cfg: &Cfg, dt: &DomTree) -> Self {
        let n = cfg.num_block_ids();
        let mut last = vec![Block::NONE; n];
        // (runner, join) pairs, joins in layout order.
        let mut pairs: Vec<(Block, Block)> = Vec::new();
        for &b in cfg.blocks() {
            if !dt.is_reachable(b) {
                continue;
            }
            let stop = dt.idom(b);
            for &p in cfg.distinct_preds(b) {
                if !dt.is_reachable(p) {
                    continue;
                }
                let mut runner = Some(p);
                while let Some(r) = runner {
                    if Some(r) == stop || last[r.index()] == b {
                        break;
                    }
                    last[r.index()] = b;
                    pairs.push((r, b));
                    runner = dt.idom(r);
                }
            }
        }
        Self::from_pairs(n, &pairs)
    }

    /// Buckets `(x, y)` pairs (`y ∈ DF(x)`) by `x`, keeping their order.
    fn from_pairs(n: usize, pairs: &[(Block, Block)]) -> Self {
        let mut off = vec![0u32; n + 1];
        for &(x, _) in pairs {
            off[x.index() + 1] += 1;
        }
        for i in 0..n {
            off[i + 1] += off[i];
        }
        let mut pos: Vec<u32> = off[..n].to_vec();
        let mut blocks = vec![Block::NONE; pairs.len()];
        for &(x, y) in pairs {
            blocks[pos[x.index()] as usize] = y;
            pos[x.index()] += 1;
        }
        Self { off, blocks }
    }

    /// `DF(b)`, sorted by layout position.
    #[inline]
    pub fn frontier(&self, b: Block) -> &[Block] {
        let i = b.index();
        match self.off.get(i + 1) {
            Some(&end) => &self.blocks[self.off[i] as usize..end as usize],
            None => &[],
        }
    }

    /// `Σ |DF(b)|` over all blocks.
    pub fn total_len(&self) -> usize {
        self.blocks.len()
    }
}

/// The frontiers from the definition — `y ∈ DF(x)` iff `x` dominates some reachable predecessor
/// of `y` and does not strictly dominate `y` — each sorted by layout position. `O(V · E)`; the
/// tests' oracle.
pub fn naive_frontiers(cfg: &Cfg, dt: &DomTree) -> Vec<Vec<Block>> {
    let n = cfg.num_block_ids();
    let mut df = vec![Vec::new(); n];
    for &x in cfg.blocks() {
        if !dt.is_reachable(x) {
            continue;
        }
        for &y in cfg.blocks() {
            let hit = dt.is_reachable(y)
                && !dt.strictly_dominates(x, y)
                && cfg
                    .preds(y)
                    .iter()
                    .any(|&p| dt.is_reachable(p) && dt.dominates(x, p));
            if hit {
                df[x.index()].push(y);
            }
        }
    }
    df
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{b, below, cfg, random_graph};

    fn frontiers(n: usize, edges: &[(u32, u32)]) -> Vec<Vec<u32>> {
        let g = cfg(n, edges);
        let dt = DomTree::compute(&g);
        let df = DominanceFrontiers::compute(&g, &dt);
        (0..n)
            .map(|i| df.frontier(b(i as u32)).iter().map(|x| x.0).collect())
            .collect()
    }

    #[test]
    fn diamond() {
        let df = frontiers(4, &[(0, 1), (0, 2), (1, 3), (2, 3)]);
        assert_eq!(df, vec![vec![], vec![3], vec![3], vec![]]);
    }

    #[test]
    fn loop_header_is_in_its_own_frontier() {
        // 0 -> 1 -> 2 -> 1 ; 2 -> 3.
        let df = frontiers(4, &[(0, 1), (1, 2), (2, 1), (2, 3)]);
        assert_eq!(df, vec![vec![], vec![1], vec![1], vec![]]);
    }

    #[test]
    fn self_loop() {
        let df = frontiers(3, &[(0, 1), (1, 1), (1, 2)]);
        assert_eq!(df, vec![vec![], vec![1], vec![]]);
    }

    #[test]
    fn repeated_edges_count_once() {
        // 0: br %1, %2 ; 1: switch to 3, 3, 3 ; 2 -> 3 twice.
        let df = frontiers(4, &[(0, 1), (0, 2), (1, 3), (1, 3), (1, 3), (2, 3), (2, 3)]);
        assert_eq!(df, vec![vec![], vec![3], vec![3], vec![]]);
    }

    #[test]
    fn irreducible_and_unreachable() {
        // 0 -> 1, 2 ; 1 <-> 2 ; 2 -> 3 ; 4 (unreachable) -> 3.
        let df = frontiers(5, &[(0, 1), (0, 2), (1, 2), (2, 1), (2, 3), (4, 3)]);
        assert_eq!(df, vec![vec![], vec![2], vec![1], vec![], vec![]]);
    }

    #[test]
    fn edge_back_to_entry() {
        // 0 -> 1 -> 0: the entry is in its own frontier and in 1's.
        let df = frontiers(2, &[(0, 1), (1, 0)]);
        assert_eq!(df, vec![vec![0], vec![0]]);
    }

    #[test]
    fn nested_join_sorted_by_layout() {
        // 0 -> 1, 4 ; 1 -> 2, 3 ; 2 -> 3 ; 3 -> 4: DF(1) = {4}, DF(2) = {3}, DF(3) = {4}.
        let df = frontiers(5, &[(0, 1), (0, 4), (1, 2), (1, 3), (2, 3), (3, 4)]);
        assert_eq!(df, vec![vec![], vec![4], vec![3], vec![4], vec![]]);
        let df = frontiers(4, &[(0, 1), (1, 3), (1, 2), (2, 1), (3, 1), (3, 2)]);
        assert_eq!(df[3], vec![1, 2]);
    }

    #[test]
    fn random_graphs_match_the_definition() {
        crate::testing::property(500, |r| {
            let mut rng = r.clone();
            let seed = rng.next_u64();
            let n = 1 + below(&mut rng, 60);
            let rg = random_graph(&mut rng, n, seed % 3 != 0);
            let g = rg.cfg();
            let dt = DomTree::compute(&g);
            let df = DominanceFrontiers::compute(&g, &dt);
            let oracle = naive_frontiers(&g, &dt);
            for (i, want) in oracle.iter().enumerate() {
                assert_eq!(df.frontier(Block::new(i)), &want[..], "seed {seed}: {rg:?}");
            }
            assert_eq!(df.total_len(), oracle.iter().map(Vec::len).sum::<usize>());
        });
    }
}
