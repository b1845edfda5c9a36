//! What the algorithms need to know about your control-flow graph, and a ready-made graph.
//!
//! Your IR implements [`Graph`]: how many block ids there are, which block is the entry, and the
//! successors of each block, in order and with repeats (a two-way branch whose arms go to the
//! same block is two edges, so a phi there has two incoming values). Blocks are named by
//! [`Block`], a dense index you choose: usually the position of the block in your own
//! `Vec<Block>`. Every analysis first takes a snapshot of the graph, a [`Cfg`](crate::cfg::Cfg)
//! (flat arrays, predecessors, depth-first orders), and works on that; so the trait is all you
//! write, and the algorithms never call back into your IR while they run.
//!
//! Invariants a graph must keep, checked by [`Cfg::new`](crate::cfg::Cfg::new), which reports a
//! [`GraphError`] instead of panicking: every successor and the entry are below
//! [`Graph::num_blocks`]; [`Graph::blocks`] lists each block at most once. A block with no
//! successors is an exit (the graph has no notion of a missing terminator: that is your IR's
//! verifier's business). Blocks that [`Graph::blocks`] does not list are not in the graph: they
//! have no edges, and edges into them are errors.
//!
//! An IR that keeps `Vec<BlockData>` with successor lists implements the trait in a dozen lines:
//! ```
//! use ssa::{Block, Graph};
//!
//! struct MyBlock { succs: Vec<usize> }
//! struct MyFunction { blocks: Vec<MyBlock> }
//!
//! impl Graph for MyFunction {
//!     fn num_blocks(&self) -> usize {
//!         self.blocks.len()
//!     }
//!     fn entry(&self) -> Option<Block> {
//!         (!self.blocks.is_empty()).then_some(Block(0))
//!     }
//!     fn successors(&self, b: Block) -> impl Iterator<Item = Block> + '_ {
//!         self.blocks[b.index()].succs.iter().map(|&s| Block::new(s))
//!     }
//! }
//!
//! let f = MyFunction { blocks: vec![MyBlock { succs: vec![1, 1] }, MyBlock { succs: vec![] }] };
//! let cfg = ssa::Cfg::new(&f).unwrap();
//! assert_eq!(cfg.preds(Block(1)), &[Block(0), Block(0)]);
//! ```

use std::fmt;

use crate::Block;

/// A control-flow graph over dense block ids (see the module docs).
pub trait Graph {
    /// The size of the block id space: every block id is below this.
    fn num_blocks(&self) -> usize;

    /// The entry block; `None` for a graph without blocks.
    fn entry(&self) -> Option<Block>;

    /// The successors of `b`, in order, one per edge (repeats included). Called only for blocks
    /// that [`Graph::blocks`] lists.
    fn successors(&self, b: Block) -> impl Iterator<Item = Block> + '_;

    /// The blocks of the graph, in layout order (the order your IR prints them in): it decides
    /// the order of predecessor lists. The default lists every id below
    /// [`Graph::num_blocks`] in increasing order.
    fn blocks(&self) -> impl Iterator<Item = Block> + '_ {
        (0..self.num_blocks()).map(Block::new)
    }
}

/// A graph that also lists predecessors: one per incoming edge, repeats included.
pub trait Predecessors: Graph {
    /// The predecessors of `b`, one per edge into `b`.
    fn predecessors(&self, b: Block) -> impl Iterator<Item = Block> + '_;
}

/// Why a graph cannot be analysed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GraphError {
    /// An edge `from -> to` names a block id that is not below `num_blocks`.
    EdgeOutOfRange {
        /// The edge's source.
        from: Block,
        /// The edge's target.
        to: Block,
        /// The graph's [`Graph::num_blocks`].
        num_blocks: usize,
    },
    /// An edge `from -> to` goes to a block that [`Graph::blocks`] does not list.
    EdgeToMissingBlock {
        /// The edge's source.
        from: Block,
        /// The edge's target.
        to: Block,
    },
    /// The entry is not below `num_blocks`, or not listed by [`Graph::blocks`].
    BadEntry {
        /// The entry the graph named.
        entry: Block,
    },
    /// [`Graph::blocks`] listed an id that is not below `num_blocks`, or listed one twice.
    BadBlock {
        /// The id.
        block: Block,
    },
    /// The graph has more blocks or edges than the `u32` indices of the analyses can count.
    TooLarge,
}

impl fmt::Display for GraphError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            GraphError::EdgeOutOfRange {
                from,
                to,
                num_blocks,
            } => write!(
                f,
                "edge {from} -> {to} leads to a block that does not exist (the graph has {num_blocks} block ids)"
            ),
            GraphError::EdgeToMissingBlock { from, to } => write!(
                f,
                "edge {from} -> {to} leads to a block that is not in the graph's block list"
            ),
            GraphError::BadEntry { entry } => {
                write!(f, "the entry {entry} is not a block of the graph")
            }
            GraphError::BadBlock { block } => write!(
                f,
                "the block list names {block}, which is out of range or listed twice"
            ),
            GraphError::TooLarge => write!(f, "the graph has more than 2^32 - 2 blocks or edges"),
        }
    }
}

impl std::error::Error for GraphError {}

/// A ready-made graph: successor and predecessor lists per block, built edge by edge.
///
/// Invariant: `preds` is the reverse of `succs`, edge for edge; each predecessor list is in the
/// order the edges were added.
#[derive(Clone, Debug, Default)]
pub struct AdjacencyGraph {
    entry: Option<Block>,
    succs: Vec<Vec<Block>>,
    preds: Vec<Vec<Block>>,
}

impl AdjacencyGraph {
    /// A graph of `n` blocks without edges; the entry is block 0 (none if `n == 0`).
    pub fn new(n: usize) -> Self {
        Self {
            entry: (n > 0).then_some(Block(0)),
            succs: vec![Vec::new(); n],
            preds: vec![Vec::new(); n],
        }
    }

    /// A graph of `n` blocks with the given entry and edges (each block's successors in the
    /// order listed).
    pub fn from_edges(n: usize, entry: Block, edges: &[(Block, Block)]) -> Self {
        let mut g = Self::new(n);
        g.entry = Some(entry);
        for &(a, b) in edges {
            g.add_edge(a, b);
        }
        g
    }

    /// Adds a block; returns its id.
    pub fn add_block(&mut self) -> Block {
        self.succs.push(Vec::new());
        self.preds.push(Vec::new());
        let b = Block::new(self.succs.len() - 1);
        self.entry.get_or_insert(b);
        b
    }

    /// Makes `b` the entry.
    pub fn set_entry(&mut self, b: Block) {
        self.entry = Some(b);
    }

    /// Adds the edge `from -> to` after `from`'s other successors. Ids out of range are
    /// accepted here and reported by [`Cfg::new`](crate::cfg::Cfg::new) (as
    /// [`GraphError::EdgeOutOfRange`]); an edge from a block out of range is not kept.
    pub fn add_edge(&mut self, from: Block, to: Block) {
        if let Some(s) = self.succs.get_mut(from.index()) {
            s.push(to);
            if let Some(p) = self.preds.get_mut(to.index()) {
                p.push(from);
            }
        }
    }

    /// The successors of `b` (empty for an id out of range).
    pub fn succs(&self, b: Block) -> &[Block] {
        self.succs.get(b.index()).map_or(&[], |s| &s[..])
    }

    /// The predecessors of `b`, in the order their edges were added.
    pub fn preds(&self, b: Block) -> &[Block] {
        self.preds.get(b.index()).map_or(&[], |s| &s[..])
    }
}

impl Graph for AdjacencyGraph {
    fn num_blocks(&self) -> usize {
        self.succs.len()
    }

    fn entry(&self) -> Option<Block> {
        self.entry
    }

    fn successors(&self, b: Block) -> impl Iterator<Item = Block> + '_ {
        self.succs(b).iter().copied()
    }
}

impl Predecessors for AdjacencyGraph {
    fn predecessors(&self, b: Block) -> impl Iterator<Item = Block> + '_ {
        self.preds(b).iter().copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cfg::Cfg;

    #[test]
    fn adjacency_graph_lists_edges_both_ways() {
        let mut g = AdjacencyGraph::new(2);
        let c = g.add_block();
        g.add_edge(Block(0), Block(1));
        g.add_edge(Block(0), c);
        g.add_edge(Block(1), c);
        g.add_edge(Block(1), c);
        assert_eq!(g.succs(Block(1)), &[c, c]);
        assert_eq!(g.preds(c), &[Block(0), Block(1), Block(1)]);
        let cfg = Cfg::new(&g).unwrap();
        assert_eq!(cfg.preds(c), &[Block(0), Block(1), Block(1)]);
    }

    #[test]
    fn bad_graphs_are_errors_not_panics() {
        let g = AdjacencyGraph::from_edges(2, Block(0), &[(Block(0), Block(5))]);
        let e = Cfg::new(&g).unwrap_err();
        assert_eq!(
            e,
            GraphError::EdgeOutOfRange {
                from: Block(0),
                to: Block(5),
                num_blocks: 2
            }
        );
        assert!(e.to_string().contains("does not exist"));
        let g = AdjacencyGraph::from_edges(2, Block(7), &[]);
        assert_eq!(
            Cfg::new(&g).unwrap_err(),
            GraphError::BadEntry { entry: Block(7) }
        );
        // An edge from a block out of range is dropped by the builder itself.
        let mut g = AdjacencyGraph::new(1);
        g.add_edge(Block(3), Block(0));
        assert!(Cfg::new(&g).is_ok());
    }
}
