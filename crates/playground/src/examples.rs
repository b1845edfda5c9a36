//! The example menu: programs bundled into the binary, each with where it comes from.
//!
//! Invariants: ids are unique and stable (the browser test picks examples by id); every
//! example reads, verifies and goes through every view without error (a test checks it).

use serde::Serialize;

/// One example.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Example {
    /// A stable id.
    pub id: &'static str,
    /// The menu's title.
    pub title: &'static str,
    /// `llvm` or `while`.
    pub lang: &'static str,
    /// What it shows.
    pub note: &'static str,
    /// The program.
    pub source: &'static str,
}

/// Every example, in menu order.
pub const EXAMPLES: &[Example] = &[
    Example {
        id: "max",
        title: "max (clang -O0; a tinyoptimizer blog post)",
        lang: "llvm",
        note: "Two stores to %result meet at %if.end: one phi there.",
        source: include_str!("../../../examples/max.ll"),
    },
    Example {
        id: "lab",
        title: "x and cond (a course lab's mem2reg handout)",
        lang: "llvm",
        note: "The handout's own IR: unnamed blocks, typed pointers; x gets a phi at the join %6.",
        source: include_str!("../programs/lab.ll"),
    },
    Example {
        id: "swap",
        title: "swap in a loop (the swap problem)",
        lang: "llvm",
        note: "Two phis read each other on the back edge: phi elimination needs a temporary.",
        source: include_str!("../../../examples/swap.ll"),
    },
    Example {
        id: "lost-copy",
        title: "lost copy (a Rust C compiler's notes)",
        lang: "llvm",
        note: "The phi is live after the loop and the back edge is critical: phi elimination splits it.",
        source: include_str!("../programs/lost-copy.ll"),
    },
    Example {
        id: "fib",
        title: "fib: a while loop (a tinyoptimizer blog post)",
        lang: "llvm",
        note: "The loop header %while.cond is in its own frontier; pruning drops phis at %return.",
        source: include_str!("../../../examples/fib.ll"),
    },
    Example {
        id: "loops",
        title: "nested loops, break, continue (while-language)",
        lang: "while",
        note: "The naive compiler's read/write toy IR, put in SSA form by the ssa crate.",
        source: include_str!("../programs/loops.while"),
    },
    Example {
        id: "irreducible",
        title: "irreducible loop (goto)",
        lang: "llvm",
        note: "Two entries into one cycle: each block is in the other's frontier.",
        source: include_str!("../programs/irreducible.ll"),
    },
    Example {
        id: "max-while",
        title: "max (while-language)",
        lang: "while",
        note: "The same max, from the while-language's naive compiler.",
        source: include_str!("../programs/max.while"),
    },
    Example {
        id: "escape",
        title: "escape: a slot left in memory",
        lang: "llvm",
        note: "A slot whose address escapes to a call stays in memory; the others are promoted.",
        source: include_str!("../../../examples/escape.ll"),
    },
];

/// The example with id `id`.
pub fn example(id: &str) -> Option<&'static Example> {
    EXAMPLES.iter().find(|e| e.id == id)
}
