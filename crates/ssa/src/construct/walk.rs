//! The order renaming walks a function in: a depth-first search from the entry that follows a
//! block's first successor at once and stacks the others (each distinct successor once), as
//! LLVM's `PromoteMemToReg::RenamePass` does.
//!
//! [`traverse_into`] records the walk's first visits (a spanning tree, in preorder, with each
//! block's tree parent) and its *edge events*: every time the walk crosses an edge
//! `pred -> succ` into a block that has phis, with the edge's multiplicity. The events give
//! each phi's incoming values in the order LLVM appends them. Renaming along this spanning tree
//! is correct because a block without a phi for a variable has one reaching definition whichever
//! path reaches it, and a dominating block is always visited before the blocks it dominates.
//!
//! Invariants: the walk is iterative (graphs 100,000 blocks deep are fine); it visits every
//! block reachable from the entry once; its cost is `O(blocks + edges)`.

use crate::cfg::Cfg;
use crate::Block;

/// The walk's order: first visits `(block, tree parent)` in preorder, and edge events
/// `(pred, succ, occurrences)` into blocks that have phis, in the order the walk meets them.
#[derive(Default, Clone, Debug)]
pub struct Traversal {
    /// First visits in preorder, with the predecessor they came from.
    pub preorder: Vec<(Block, Option<Block>)>,
    /// Edges into phi blocks, in walk order, with their multiplicity.
    pub events: Vec<(Block, Block, u32)>,
}

/// Scratch of [`traverse_into`] (no meaning between walks).
#[derive(Default)]
pub struct TraverseWork {
    pub(crate) visited: Vec<bool>,
    count: Vec<u32>,
    work: Vec<(Block, Option<Block>, u32)>,
}

/// The walk from `entry` (see the module docs); `has_phis` says which blocks have phis.
pub fn traverse(cfg: &Cfg, entry: Block, has_phis: impl Fn(Block) -> bool) -> Traversal {
    let mut out = Traversal::default();
    traverse_into(cfg, entry, has_phis, &mut out, &mut TraverseWork::default());
    out
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
    crate::util::refill(visited, n, false);
    let count = &mut w.count;
    crate::util::refill(count, n, 0);
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
/// set there: renaming need not log its changes (on a straight-line function, none is logged).
pub fn mark_last_path(t: &Traversal, n: usize, on: &mut Vec<bool>) {
    crate::util::refill(on, n, false);
    if let Some(&(last, _)) = t.preorder.last() {
        on[last.index()] = true;
    }
    for &(bb, parent) in t.preorder.iter().rev() {
        if let (true, Some(p)) = (on[bb.index()], parent) {
            on[p.index()] = true;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::b;

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
        let mut on = Vec::new();
        mark_last_path(&t, 4, &mut on);
        // The last block visited is 2, a child of 0.
        assert_eq!(on, vec![true, false, true, false]);
    }

    #[test]
    fn repeated_edges_count_and_are_visited_once() {
        let cfg = Cfg::from_edges(2, b(0), &[(b(0), b(1)), (b(0), b(1))]);
        let t = traverse(&cfg, b(0), |x| x == b(1));
        assert_eq!(t.events, vec![(b(0), b(1), 2)]);
    }
}
