//! Control-flow analyses: read-only facts about a function's CFG that mem2reg and phi
//! elimination are built on. Analyses never write into the IR; each is a snapshot computed from a
//! [`cfg::Cfg`], which is itself a snapshot of a [`crate::ir::Function`].
//!
//! ```text
//! Function ─► Cfg ─► DomTree ─┬─► DominanceFrontiers ─► idf_worklist (oracle)
//!   (cfg)    (succs/preds,    ├─► IdfCalculator (Sreedhar–Gao, pruned by LiveInCalculator)
//!             RPO, DFS)       └─► print<domtree>, print<domfrontier>
//! Function + Cfg ─► ValueLiveness (per-value live-in / live-out blocks)
//! ```
//!
//! | file | what | after |
//! |------|------|-------|
//! | [`cfg`](mod@cfg) | successors / predecessors with multiplicity (CSR), reachability, RPO | — |
//! | [`postorder`] | the iterative depth-first search behind every order | LLVM `po_iterator` |
//! | [`domtree`] | [`domtree::DomTree`] by Semi-NCA; CHK and naive as checks | Georgiadis; Cooper–Harvey–Kennedy (seed 03) |
//! | [`frontier`] | dominance frontiers by the runner walk | CHK (seeds 03, 05) |
//! | [`idf`] | iterated frontiers with a depth-keyed priority queue | Sreedhar–Gao, LLVM `IDFCalculator` |
//! | [`live_bound`] | a superset of slot live-in blocks from dominance alone, `O(k log k)` | (ours; proof in the module) |
//! | [`liveness`] | slot live-in blocks; per-value SSA liveness | LLVM `ComputeLiveInBlocks` (seed 04); Brandner et al. |
//! | [`marks`] | block sets with O(1) reset, for per-variable work | — |
//! | [`placement`] | bound + pruned IDF per slot, shared by slots with equal def/use blocks | — |
//! | [`print`](mod@print) | `opt-19`'s `print<domtree>` / `print<domfrontier>` text | LLVM |
//! | [`dot`] | Graphviz files of the CFG and the dominator tree (`dot-cfg`, `dot-dom`) | LLVM |
//! | [`slot_phis`] | the `analyses` pass: all of the above for every slot, nothing changed (benchmarks) | — |
//!
//! Shared invariants: per-block data is a dense array indexed by `Block` id (over the function's
//! whole block id space, whether or not a block is in the layout); adjacency is stored as flat
//! CSR arrays; nothing iterates a hash map to decide a result, so every output is a function of
//! the input alone; nothing recurses, so CFGs 100,000 blocks deep are fine. Unreachable blocks
//! are in the CFG (with their edges) but not in any order or tree.
//!
//! Typical use, as mem2reg does it:
//! ```
//! use mem2reg::analysis::{cfg::Cfg, domtree::DomTree, idf::IdfCalculator, liveness::LiveInCalculator};
//! use mem2reg::ir::Block;
//! // 0 -> 1, 2 ; 1 -> 3 ; 2 -> 3: a store in 1 and a load in 3 need a phi in 3.
//! let e = [(0, 1), (0, 2), (1, 3), (2, 3)].map(|(a, b)| (Block(a), Block(b)));
//! let cfg = Cfg::from_edges(4, Block(0), &e);
//! let dt = DomTree::compute(&cfg);
//! let (mut live, mut idf) = (LiveInCalculator::new(&cfg), IdfCalculator::new(&cfg, &dt));
//! let (mut live_blocks, mut phi_blocks) = (Vec::new(), Vec::new());
//! let defs = [Block(0), Block(1)];
//! let live_in = live.compute(&defs, &[Block(3)], &mut live_blocks);
//! idf.compute_pruned(&defs, live_in, &mut phi_blocks);
//! assert_eq!(phi_blocks, vec![Block(3)]);
//! ```

pub mod cfg;
pub mod domtree;
pub mod dot;
pub mod frontier;
pub mod idf;
pub mod live_bound;
pub mod liveness;
pub mod marks;
pub mod placement;
pub mod postorder;
pub mod print;
pub mod slot_phis;

#[cfg(test)]
pub(crate) mod testutil;

#[cfg(test)]
mod tests {
    //! Everything at once on CFGs 100,000 blocks deep.

    use super::cfg::Cfg;
    use super::domtree::{chk, DomTree};
    use super::frontier::DominanceFrontiers;
    use super::idf::{idf_worklist, IdfCalculator};
    use super::liveness::{LiveInCalculator, ValueLiveness};
    use super::print::print_domfrontier;
    use super::testutil::function_from_edges;
    use crate::entity::EntityRef;
    use crate::ir::{Block, FuncId};

    const N: usize = 100_000;

    /// A chain `i -> i + 1` with skip edges `i -> i + 2` (even `i`), two-block loops
    /// `i + 1 -> i` (`i % 5 == 3`), self-loops (`i % 7 == 0`) and an unreachable tail of ten
    /// blocks pointing into the middle. Dominator tree depth ≈ N / 2, frontiers stay small.
    fn deep_edges() -> Vec<(Block, Block)> {
        let mut e = Vec::new();
        let r = N - 10;
        for i in 0..r - 1 {
            e.push((Block::new(i), Block::new(i + 1)));
            if i % 2 == 0 && i + 2 < r {
                e.push((Block::new(i), Block::new(i + 2)));
            }
            if i % 5 == 3 {
                e.push((Block::new(i + 1), Block::new(i)));
            }
            if i % 7 == 0 && i > 0 {
                e.push((Block::new(i), Block::new(i)));
            }
        }
        for i in r..N {
            e.push((
                Block::new(i),
                Block::new(if i + 1 < N { i + 1 } else { N / 2 }),
            ));
        }
        e
    }

    #[test]
    fn hundred_thousand_blocks_deep() {
        let edges = deep_edges();
        let g = Cfg::from_edges(N, Block(0), &edges);
        assert_eq!(g.num_reachable(), N - 10);
        let dt = DomTree::compute(&g);
        assert_eq!(chk::idoms(&g), super::domtree::semi_nca::idoms(&g));
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

        // The same graph as a function: every 2-way branch reads %c, so %c is live nearly
        // everywhere.
        let m = function_from_edges(N, Block(0), &edges);
        let func = &m.functions[FuncId(0)];
        let fg = Cfg::compute(func);
        assert_eq!(fg.num_edges(), g.num_edges());
        let lv = ValueLiveness::compute(func, &fg);
        let c = func.params[0];
        assert!(lv.live_in_blocks(c).len() > N / 2);
        assert!(lv.is_live_in(c, last) || lv.is_live_out(c, Block(1)));
        let text = print_domfrontier(func);
        assert_eq!(text.lines().count(), N - 10 + 1);
    }
}
