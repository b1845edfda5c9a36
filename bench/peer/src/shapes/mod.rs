//! The workloads: one script generator per shape, and [`Shape`], which names them for the
//! command line and knows each one's default sizes.

pub mod dispatch;
pub mod gen_scale;
pub mod ladder;
pub mod nest;
pub mod straight;
pub mod wasm_blocks;

pub use dispatch::dispatch;
pub use gen_scale::DEFAULT_VARS;
pub use ladder::ladder;
pub use nest::nest;
pub use straight::straight;
pub use wasm_blocks::{wasm_blocks, ISSUE_BLOCKS};

use crate::script::Script;

/// A workload shape; its size N means a different thing per shape (see [`Shape::size_meaning`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Shape {
    /// wasmtime issue #4923: N chained wasm blocks, each reading and writing one local.
    Wasm4923,
    /// gen_scale `ladder`: N if/else diamonds, V = 100 variables.
    Ladder,
    /// gen_scale `nest`: N nested loops, V = 100 variables.
    Nest,
    /// gen_scale `switch`: a dispatch loop with N cases, V = 100 variables.
    Switch,
    /// One block defining then using N variables.
    Straight,
}

impl Shape {
    /// Every shape, in report order.
    pub const ALL: [Shape; 5] = [
        Shape::Wasm4923,
        Shape::Ladder,
        Shape::Nest,
        Shape::Switch,
        Shape::Straight,
    ];

    /// The shape's name on the command line and in reports.
    pub fn name(self) -> &'static str {
        match self {
            Shape::Wasm4923 => "wasm4923",
            Shape::Ladder => "ladder",
            Shape::Nest => "nest",
            Shape::Switch => "switch",
            Shape::Straight => "straight",
        }
    }

    /// The shape with this name, if any.
    pub fn from_name(name: &str) -> Option<Shape> {
        Shape::ALL.into_iter().find(|s| s.name() == name)
    }

    /// What N counts for this shape.
    pub fn size_meaning(self) -> &'static str {
        match self {
            Shape::Wasm4923 => "chained blocks",
            Shape::Ladder => "diamonds",
            Shape::Nest => "nested loops",
            Shape::Switch => "switch cases",
            Shape::Straight => "variables",
        }
    }

    /// The sizes benchmarked by default: 4x apart, so growth per 4x N can be read off.
    /// wasm4923 centres on the issue's 15,000 blocks, straight on the brief's 100,000 variables.
    pub fn default_sizes(self) -> Vec<u32> {
        match self {
            Shape::Wasm4923 => vec![ISSUE_BLOCKS / 4, ISSUE_BLOCKS, ISSUE_BLOCKS * 4],
            Shape::Ladder | Shape::Nest | Shape::Switch => vec![1000, 4000, 16000],
            Shape::Straight => vec![25_000, 100_000, 400_000],
        }
    }

    /// A small size for quick checks (tests, verifier runs).
    pub fn small_size(self) -> u32 {
        match self {
            Shape::Straight => 50,
            _ => 7,
        }
    }

    /// The builder script of size `n`.
    pub fn script(self, n: u32) -> Script {
        match self {
            Shape::Wasm4923 => wasm_blocks(n),
            Shape::Ladder => ladder(n, DEFAULT_VARS),
            Shape::Nest => nest(n, DEFAULT_VARS),
            Shape::Switch => dispatch(n, DEFAULT_VARS),
            Shape::Straight => straight(n),
        }
    }
}
