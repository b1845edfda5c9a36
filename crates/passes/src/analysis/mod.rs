//! LLVM-specific analyses over a function, on top of the `ssa` crate's graph algorithms
//! (which take the function's CFG through [`llvm_ir::ir::cfg::cfg_of`]): SSA value liveness for
//! phi elimination, opt's `print<domtree>` / `print<domfrontier>` text, Graphviz files, and
//! the `analyses` benchmark pass. Analyses never write into the IR.
//!
//! | file | what | after |
//! |------|------|-------|
//! | [`value_liveness`] | live-in / live-out blocks of every SSA value | Brandner et al. |
//! | [`print`](mod@print) | `opt-19`'s `print<domtree>` / `print<domfrontier>` text | LLVM |
//! | [`dot`] | Graphviz files of the CFG and the dominator tree (`dot-cfg`, `dot-dom`) | LLVM |
//! | [`slot_phis`] | the `analyses` pass: every slot's live-in bound and pruned frontier | — |

pub mod dot;
pub mod print;
pub mod slot_phis;
pub mod value_liveness;

#[cfg(test)]
pub(crate) mod testutil;

#[cfg(test)]
mod tests {
    //! A function 100,000 blocks deep.

    use super::print::print_domfrontier;
    use super::testutil::function_from_edges;
    use llvm_ir::ir::{Block, FuncId};

    const N: usize = 100_000;

    #[test]
    fn hundred_thousand_blocks_deep() {
        let edges = ssa::testing::deep_edges(N);
        let g = ssa::Cfg::from_edges(N, Block(0), &edges);
        let last = Block::new(N - 11);
        // The graph as a function: every 2-way branch reads %c, so %c is live nearly
        // everywhere.
        let m = function_from_edges(N, Block(0), &edges);
        let func = &m.functions[FuncId(0)];
        let fg = llvm_ir::ir::cfg::cfg_of(func);
        assert_eq!(fg.num_edges(), g.num_edges());
        let lv = super::value_liveness::compute(func, &fg);
        let c = func.params[0];
        assert!(lv.live_in_blocks(c).len() > N / 2);
        assert!(lv.is_live_in(c, last) || lv.is_live_out(c, Block(1)));
        let text = print_domfrontier(func);
        assert_eq!(text.lines().count(), N - 10 + 1);
    }
}
