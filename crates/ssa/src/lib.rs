//! # ssa — SSA construction and destruction for any IR
//!
//! (Front page: written with the construction API.)
#![warn(missing_docs)]
#![forbid(unsafe_code)]

pub mod cfg;
pub mod construct;
pub mod destruct;
pub mod domtree;
pub mod entity;
pub mod frontier;
pub mod graph;
pub mod idf;
pub mod live_bound;
pub mod liveness;
pub mod marks;
pub mod placement;
pub mod postorder;
pub mod testing;
pub mod util;

pub use cfg::Cfg;
pub use domtree::DomTree;
pub use graph::{AdjacencyGraph, Graph, GraphError, Predecessors};

/// A block of the user's graph: a dense index the user chooses (see [`graph`]).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Block(pub u32);
entity_impl!(Block, "block");

