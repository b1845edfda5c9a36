//! Everything at once on a CFG 100,000 blocks deep: no recursion anywhere, and the fast
//! algorithms agree with their oracles.

use ssa::domtree::{chk, semi_nca, DomTree};
use ssa::frontier::DominanceFrontiers;
use ssa::idf::{idf_worklist, IdfCalculator};
use ssa::liveness::LiveInCalculator;
use ssa::testing::deep_edges;
use ssa::{Block, Cfg};

const N: usize = 100_000;

#[test]
fn hundred_thousand_blocks_deep() {
    let edges = deep_edges(N);
    let g = Cfg::from_edges(N, Block(0), &edges);
    assert_eq!(g.num_reachable(), N - 10);
    let dt = DomTree::compute(&g);
    assert_eq!(chk::idoms(&g), semi_nca::idoms(&g));
    let last = Block::new(N - 11);
    assert!(dt.depth(last).unwrap() >= (N as u32 - 11) / 2);
    assert!(dt.dominates(Block(0), last) && !dt.dominates(last, Block(0)));
    assert!(!dt.is_reachable(Block::new(N - 1)));

    let df = DominanceFrontiers::compute(&g, &dt);
    assert!(df.total_len() < 4 * N);
    let defs: Vec<Block> = (0..N).step_by(10).map(Block::new).collect();
    let mut calc = IdfCalculator::new(&g, &dt);
    let mut phis = Vec::new();
    calc.compute(&defs, &mut phis);
    assert_eq!(phis, idf_worklist(&g, &df, &defs, None));
    assert!(!phis.is_empty());

    // A slot stored in the entry and loaded at the end is live into every other block.
    let mut live = LiveInCalculator::new(&g);
    let mut blocks = Vec::new();
    live.compute(&[Block(0)], &[last], &mut blocks);
    assert_eq!(blocks.len(), N - 1);
    let set = live.compute(&[Block(0)], &[last], &mut blocks);
    // Storing at the end too: the only join it reaches is the two-block loop around it.
    calc.compute_pruned(&[Block(0), last], set, &mut phis);
    assert_eq!(phis, vec![Block::new(N - 12)]);
}
