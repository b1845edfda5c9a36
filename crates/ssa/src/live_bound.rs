//! A cheap superset of the blocks where a variable can be live on entry, for placing phis
//! without computing liveness block by block.
//!
//! Exact live-in sets can be quadratic in total: in a nest of N loops, the counter of loop k
//! is live in every block of the loops inside it, so N counters are live in `O(N²)` blocks,
//! although each needs a single phi. [`LiveBound`] instead answers "can the variable be live on
//! entry to `y`?" from the dominator tree alone, in `O(k log k)` for `k` definition and use
//! blocks, and renaming removes the few phis it lets through that turn out dead (see
//! [`crate::construct::rename`]).
//!
//! The bound. For an upward-exposed use in block `u` (a use before any definition in `u`), let
//! `dd(u)` be the deepest definition block that strictly dominates `u`. If the variable is live on
//! entry to `y`, some path from `y` reaches such a `u` through no definition block (except
//! possibly `y` itself). Every path from the entry to `u` crosses `dd(u)`; a path from the entry
//! to `y` that avoided `dd(u)`, followed by that definition-free path, would reach `u` without
//! it (the second part cannot contain `dd(u)`: it is a definition block other than `y`, and
//! `dd(u) ≠ u`). So `dd(u)` dominates `y`. Hence: **`y` is live-in only if some `dd(u)`
//! dominates it** — and if some `u` has no `dd(u)` (the entry's undefined value reaches it),
//! the bound is "everywhere".
//!
//! Invariants: the bound contains every live-in block (it may contain more); membership is a
//! binary search over disjoint DFS-number intervals of the dominator tree; unreachable blocks
//! are never in it (they have no DFS numbers), and unreachable definitions and uses are
//! ignored, as the iterated frontier ignores them.

use super::domtree::DomTree;
use super::idf::BlockSet;
use crate::Block;

/// The blocks dominated by some `dd(u)` (see the module docs), or every block.
#[derive(Clone, Debug, Default)]
pub struct LiveBound {
    /// Every block may be live-in.
    all: bool,
    /// Disjoint `[dfs_in, dfs_out]` intervals (dominator subtrees), sorted.
    subtrees: Vec<(u32, u32)>,
    /// Scratch of [`LiveBound::recompute`] (no meaning between computations).
    items: Vec<(u32, bool, u32)>,
    open: Vec<(u32, u32)>,
    found: Vec<(u32, u32)>,
}

impl LiveBound {
    /// The bound for a variable defined in `defs` and used before any definition in `uses`.
    pub fn compute(dt: &DomTree, defs: &[Block], uses: &[Block]) -> Self {
        let mut b = Self::default();
        b.recompute(dt, defs, uses);
        b
    }

    /// Makes this the bound [`LiveBound::compute`] gives, reusing its buffers.
    pub fn recompute(&mut self, dt: &DomTree, defs: &[Block], uses: &[Block]) {
        // Uses sort before definitions at the same position: a block's own definition does
        // not strictly dominate its upward-exposed use.
        let items = &mut self.items;
        items.clear();
        for (list, is_def) in [(uses, false), (defs, true)] {
            for &b in list {
                if let (Some(i), Some(o)) = (dt.dfs_in(b), dt.dfs_out(b)) {
                    items.push((i, is_def, o));
                }
            }
        }
        // Stable sorts: linear on the two runs that lists in layout order mostly give.
        items.sort();
        self.open.clear();
        self.found.clear();
        self.subtrees.clear();
        self.all = false;
        for &(i, is_def, o) in items.iter() {
            while self.open.last().is_some_and(|&(_, top_out)| top_out < i) {
                self.open.pop();
            }
            if is_def {
                self.open.push((i, o));
            } else {
                match self.open.last() {
                    Some(&dd) => self.found.push(dd),
                    None => {
                        self.all = true;
                        return;
                    }
                }
            }
        }
        self.found.sort();
        for &(i, o) in &self.found {
            // Subtrees nest or are disjoint: one starting inside the last is within it.
            if self
                .subtrees
                .last()
                .is_some_and(|&(_, last_out)| i <= last_out)
            {
                continue;
            }
            self.subtrees.push((i, o));
        }
    }

    /// Whether the bound is every block (some use can see the entry's undefined value).
    pub fn is_all(&self) -> bool {
        self.all
    }

    /// Whether a block with DFS entry number `dfs_in` may be live-in.
    fn contains_dfs(&self, dfs_in: u32) -> bool {
        if self.all {
            return true;
        }
        let k = self.subtrees.partition_point(|&(i, _)| i <= dfs_in);
        k > 0 && dfs_in <= self.subtrees[k - 1].1
    }
}

/// Blocks are looked up by their DFS number in the tree the bound was computed with.
pub struct LiveBoundIn<'a> {
    /// The bound.
    pub bound: &'a LiveBound,
    /// The dominator tree it was computed with.
    pub dt: &'a DomTree,
}

impl BlockSet for LiveBoundIn<'_> {
    #[inline]
    fn contains_block(&self, b: Block) -> bool {
        self.dt
            .dfs_in(b)
            .is_some_and(|i| self.bound.contains_dfs(i))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cfg::Cfg;
    use crate::liveness::LiveInCalculator;
    use crate::testing::Rng;
    use crate::testing::{below, random_graph};

    fn b(i: u32) -> Block {
        Block(i)
    }

    #[test]
    fn loop_counter_is_bounded_by_its_initialising_block() {
        // 0 -> 1 (pre) -> 2 (header) -> 3 (body) -> 2 ; 2 -> 4 (exit). Defined in 1 and 3,
        // used in 2 and 3 (before the definition): live only below 1.
        let cfg = Cfg::from_edges(
            5,
            b(0),
            &[
                (b(0), b(1)),
                (b(1), b(2)),
                (b(2), b(3)),
                (b(3), b(2)),
                (b(2), b(4)),
            ],
        );
        let dt = DomTree::compute(&cfg);
        let bound = LiveBound::compute(&dt, &[b(1), b(3)], &[b(2), b(3)]);
        let set = LiveBoundIn {
            bound: &bound,
            dt: &dt,
        };
        let got: Vec<u32> = (0..5).filter(|&i| set.contains_block(b(i))).collect();
        assert_eq!(got, vec![1, 2, 3, 4]);
        // A use no definition dominates lets the entry's value in: everywhere.
        let bound = LiveBound::compute(&dt, &[b(3)], &[b(2)]);
        assert!(bound.all);
    }

    #[test]
    fn contains_every_live_in_block_on_random_graphs() {
        crate::testing::property(500, |r| {
            let mut rng = r.clone();
            let seed = rng.next_u64();
            let n = 1 + below(&mut rng, 40);
            let g = random_graph(&mut rng, n, seed % 2 == 0).cfg();
            let dt = DomTree::compute(&g);
            let pick = |rng: &mut Rng, k: usize| -> Vec<Block> {
                (0..k).map(|_| Block::new(below(rng, n))).collect()
            };
            let k = below(&mut rng, 4);
            let defs = pick(&mut rng, k);
            let k = 1 + below(&mut rng, 4);
            let uses = pick(&mut rng, k);
            let mut calc = LiveInCalculator::new(&g);
            let mut order = Vec::new();
            let live = calc.compute(&defs, &uses, &mut order).clone();
            let bound = LiveBound::compute(&dt, &defs, &uses);
            let set = LiveBoundIn {
                bound: &bound,
                dt: &dt,
            };
            for y in 0..n {
                let y = Block::new(y);
                if dt.is_reachable(y) && live.contains_block(y) {
                    assert!(
                        set.contains_block(y),
                        "seed {seed}: {y:?} live but excluded"
                    );
                }
            }
        });
    }
}
