//! Tests of the dominator tree: literal graphs, and Semi-NCA / CHK / naive agreement plus
//! random-walk soundness on random CFGs.

use super::*;
use crate::testing::Rng;
use crate::testing::{b, below, cfg, random_graph};

fn idoms_of(g: &Cfg) -> Vec<Option<u32>> {
    let t = DomTree::compute(g);
    (0..g.num_block_ids())
        .map(|i| t.idom(Block::new(i)).map(|d| d.0))
        .collect()
}

#[test]
fn diamond() {
    let g = cfg(4, &[(0, 1), (0, 2), (1, 3), (2, 3)]);
    let t = DomTree::compute(&g);
    assert_eq!(idoms_of(&g), vec![None, Some(0), Some(0), Some(0)]);
    assert_eq!(t.children(b(0)), &[b(1), b(3), b(2)]);
    assert_eq!(t.depth(b(3)), Some(1));
    assert!(t.dominates(b(0), b(3)) && !t.dominates(b(1), b(3)));
    assert!(t.strictly_dominates(b(0), b(1)) && !t.strictly_dominates(b(1), b(1)));
    assert_eq!((t.dfs_in(b(0)), t.dfs_out(b(0))), (Some(0), Some(7)));
    assert_eq!((t.dfs_in(b(1)), t.dfs_out(b(1))), (Some(1), Some(2)));
    assert_eq!((t.dfs_in(b(2)), t.dfs_out(b(2))), (Some(5), Some(6)));
    assert_eq!(t.preorder(), &[b(0), b(1), b(3), b(2)]);
    assert_eq!(t.nearest_common_dominator(b(1), b(2)), Some(b(0)));
}

#[test]
fn natural_loop() {
    // 0 -> 1 (header) -> 2 (body) -> 1 ; 1 -> 3 (exit).
    let g = cfg(4, &[(0, 1), (1, 2), (2, 1), (1, 3)]);
    assert_eq!(idoms_of(&g), vec![None, Some(0), Some(1), Some(1)]);
    let t = DomTree::compute(&g);
    assert_eq!(t.depth(b(2)), Some(2));
    assert!(t.dominates(b(1), b(2)) && !t.dominates(b(2), b(1)));
}

#[test]
fn irreducible_loop() {
    // Two entries into the cycle 1 <-> 2: neither dominates the other.
    let g = cfg(4, &[(0, 1), (0, 2), (1, 2), (2, 1), (2, 3)]);
    assert_eq!(idoms_of(&g), vec![None, Some(0), Some(0), Some(2)]);
    assert_eq!(chk::idoms(&g), semi_nca::idoms(&g));
    assert_eq!(naive::idoms(&g), semi_nca::idoms(&g));
}

#[test]
fn self_loop_and_loop_to_entry() {
    let g = cfg(3, &[(0, 1), (1, 1), (1, 2), (2, 0)]);
    assert_eq!(idoms_of(&g), vec![None, Some(0), Some(1)]);
}

#[test]
fn unreachable_blocks_are_not_in_the_tree() {
    let g = cfg(4, &[(0, 1), (2, 1), (3, 3), (3, 2)]);
    let t = DomTree::compute(&g);
    assert_eq!(idoms_of(&g), vec![None, Some(0), None, None]);
    assert!(!t.is_reachable(b(2)) && t.depth(b(2)).is_none() && t.dfs_in(b(3)).is_none());
    assert!(t.children(b(3)).is_empty());
    // LLVM's convention: anything dominates an unreachable block, an unreachable block dominates
    // nothing reachable.
    assert!(t.dominates(b(1), b(2)) && !t.dominates(b(2), b(1)));
    assert!(t.dominates(b(2), b(2)) && !t.strictly_dominates(b(2), b(2)));
    assert_eq!(t.nearest_common_dominator(b(1), b(2)), None);
    assert_eq!(t.preorder(), &[b(0), b(1)]);
}

#[test]
fn repeated_edges_and_switch_duplicates() {
    // 0: br %c, %1, %1 ; 1: switch default %2, cases %3, %2, %3 ; 2 -> 3.
    let g = cfg(4, &[(0, 1), (0, 1), (1, 2), (1, 3), (1, 2), (1, 3), (2, 3)]);
    assert_eq!(idoms_of(&g), vec![None, Some(0), Some(1), Some(1)]);
    let t = DomTree::compute(&g);
    assert_eq!(t.children(b(1)), &[b(2), b(3)]);
}

#[test]
fn single_block_and_empty() {
    let g = cfg(1, &[]);
    let t = DomTree::compute(&g);
    assert_eq!(
        (t.root(), t.idom(b(0)), t.depth(b(0))),
        (Some(b(0)), None, Some(0))
    );
    let e = Cfg::from_edges(0, Block::NONE, &[]);
    let t = DomTree::compute(&e);
    assert_eq!(t.root(), None);
    assert!(t.preorder().is_empty());
}

/// Checks every structural invariant of `t` against `g` and the naive dominator sets.
fn check_tree(g: &Cfg, t: &DomTree, seed: u64) {
    let dom = naive::dominator_sets(g);
    let n = g.num_block_ids();
    for i in 0..n {
        let x = Block::new(i);
        assert_eq!(t.is_reachable(x), g.is_reachable(x), "seed {seed}");
        if let Some(d) = t.idom(x) {
            assert_eq!(t.depth(x), Some(t.depth(d).unwrap() + 1), "seed {seed}");
        }
        // Children are in CFG preorder.
        let pre: Vec<u32> = t
            .children(x)
            .iter()
            .map(|&c| g.preorder_number(c).unwrap())
            .collect();
        assert!(pre.windows(2).all(|w| w[0] < w[1]), "seed {seed}");
        for (j, dj) in dom.iter().enumerate() {
            let y = Block::new(j);
            let expect = !g.is_reachable(y) || x == y || dj.contains(x);
            assert_eq!(t.dominates(x, y), expect, "seed {seed}: {x} dom {y}");
        }
    }
}

/// Random walks from the entry: whenever a walk reaches a block, each of its dominators has
/// been visited on the way.
fn check_walks(g: &Cfg, t: &DomTree, rng: &mut Rng, seed: u64) {
    let Some(entry) = g.entry() else { return };
    let mut seen = vec![0u32; g.num_block_ids()];
    for walk in 1..=8u32 {
        let mut x = entry;
        for _ in 0..3 * g.num_block_ids() + 2 {
            seen[x.index()] = walk;
            let mut d = Some(x);
            while let Some(y) = d {
                assert_eq!(seen[y.index()], walk, "seed {seed}: {y} dominates {x}");
                d = t.idom(y);
            }
            let s = g.succs(x);
            if s.is_empty() {
                break;
            }
            x = s[below(rng, s.len())];
        }
    }
}

#[test]
fn random_graphs_all_three_agree() {
    crate::testing::property(500, |r| {
        let mut rng = r.clone();
        let seed = rng.next_u64();
        let n = 1 + below(&mut rng, 60);
        let rg = random_graph(&mut rng, n, seed % 2 == 0);
        let g = rg.cfg();
        let s = semi_nca::idoms(&g);
        assert_eq!(s, chk::idoms(&g), "seed {seed}: {rg:?}");
        assert_eq!(s, naive::idoms(&g), "seed {seed}: {rg:?}");
        let t = DomTree::from_idoms(&g, &s);
        check_tree(&g, &t, seed);
        check_walks(&g, &t, &mut rng, seed);
    });
}
