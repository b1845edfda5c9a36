//! A pre-SSA function as the playground teaches it, whatever IR it came from: named blocks
//! with their successors, named variables, and each block's reads and writes of them in order
//! ([`Lesson`]); and the analyses every view stands on ([`Analysis`]: CFG, dominator tree,
//! dominance frontiers, from the `ssa` crate).
//!
//! The LLVM front end ([`crate::llvm`]) makes a lesson of an `alloca`/`load`/`store` function
//! (variables are promotable slots), the while-language front end ([`crate::whilelang`]) of
//! naive toy IR (`read`/`write`). Placement ([`crate::placement`]) and renaming
//! ([`crate::renaming`]) work on lessons only.
//!
//! Invariants: block 0 is the entry; block and variable indices are dense; `events[b]` lists
//! block `b`'s accesses in execution order; every index in a lesson is in range (front ends
//! build them so; [`Lesson::check`] verifies it for the tests). Nothing here recurses.

use ssa::frontier::DominanceFrontiers;
use ssa::{AdjacencyGraph, Block, Cfg, DomTree};

/// Whether an access reads or writes its variable.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Kind {
    /// A write (`store`, `write`): `text` is the value written, as the IR spells it.
    Def,
    /// A read (`load`, `read`): `text` is the name of the value read into.
    Use,
}

/// One read or write of a variable.
#[derive(Clone, Debug)]
pub struct Event {
    /// The variable (index into [`Lesson::vars`]).
    pub var: u32,
    /// Read or write.
    pub kind: Kind,
    /// The instruction's line within its block's listing (0 = first instruction).
    pub line: u32,
    /// The value written, or the value read into (see [`Kind`]).
    pub text: String,
}

/// A pre-SSA function (see the module docs).
#[derive(Clone, Debug, Default)]
pub struct Lesson {
    /// Block names as the IR prints references to them (`%entry`, `b0`), layout order.
    pub blocks: Vec<String>,
    /// Successors of each block (terminator order, repeats kept).
    pub succs: Vec<Vec<u32>>,
    /// Variable names (`%x.addr`, `x`).
    pub vars: Vec<String>,
    /// Each block's reads and writes, in order.
    pub events: Vec<Vec<Event>>,
    /// What a read that no write reaches gives (`undef`, `0`).
    pub undef: String,
}

impl Lesson {
    /// Checks the invariants of the module docs; `Err` names the first broken one.
    pub fn check(&self) -> Result<(), String> {
        let n = self.blocks.len();
        if self.succs.len() != n || self.events.len() != n {
            return Err("per-block tables differ in length".into());
        }
        if self.succs.iter().flatten().any(|&s| s as usize >= n) {
            return Err("a successor is out of range".into());
        }
        if self
            .events
            .iter()
            .flatten()
            .any(|e| e.var as usize >= self.vars.len())
        {
            return Err("an access names a variable out of range".into());
        }
        Ok(())
    }

    /// The number of instructions that access variables.
    pub fn num_events(&self) -> usize {
        self.events.iter().map(Vec::len).sum()
    }

    /// The name of block `b`.
    pub fn name(&self, b: Block) -> &str {
        &self.blocks[b.index()]
    }

    /// Names of `blocks`, in the order given.
    pub fn names(&self, blocks: &[Block]) -> Vec<String> {
        blocks
            .iter()
            .map(|&b| self.blocks[b.index()].clone())
            .collect()
    }
}

/// The analyses of a lesson's CFG.
pub struct Analysis {
    /// The CFG (blocks in layout order).
    pub cfg: Cfg,
    /// The dominator tree.
    pub dt: DomTree,
    /// Dominance frontiers.
    pub df: DominanceFrontiers,
}

impl Analysis {
    /// Computes the analyses of `l`'s graph (entry: block 0). `None` for a lesson without
    /// blocks.
    pub fn new(l: &Lesson) -> Option<Analysis> {
        if l.blocks.is_empty() {
            return None;
        }
        let edges: Vec<(Block, Block)> = (l.succs.iter().enumerate())
            .flat_map(|(b, ss)| ss.iter().map(move |&s| (Block(b as u32), Block(s))))
            .collect();
        let g = AdjacencyGraph::from_edges(l.blocks.len(), Block(0), &edges);
        let cfg = Cfg::new(&g).ok()?;
        let dt = DomTree::compute(&cfg);
        let df = DominanceFrontiers::compute(&cfg, &dt);
        Some(Analysis { cfg, dt, df })
    }

    /// `DF(b)`, sorted by layout position.
    pub fn frontier(&self, b: Block) -> Vec<Block> {
        let mut f = self.df.frontier(b).to_vec();
        f.sort_unstable();
        f.dedup();
        f
    }

    /// The dominator-tree children of `b`, in layout order.
    pub fn children(&self, b: Block) -> Vec<Block> {
        let mut c = self.dt.children(b).to_vec();
        c.sort_unstable();
        c
    }
}

/// Small lessons for the unit tests.
#[cfg(test)]
pub(crate) mod tests_support {
    use super::*;

    /// entry: i = 0; loop: read i, write i; loop -> loop, exit; exit: read i.
    pub(crate) fn looped() -> Lesson {
        let ev = |var, kind, line, text: &str| Event {
            var,
            kind,
            line,
            text: text.into(),
        };
        Lesson {
            blocks: vec!["entry".into(), "loop".into(), "exit".into()],
            succs: vec![vec![1], vec![1, 2], vec![]],
            vars: vec!["i".into()],
            events: vec![
                vec![ev(0, Kind::Def, 0, "0")],
                vec![ev(0, Kind::Use, 0, "t1"), ev(0, Kind::Def, 2, "t2")],
                vec![ev(0, Kind::Use, 0, "t3")],
            ],
            undef: "undef".into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::tests_support::looped;
    use super::*;

    #[test]
    fn loop_header_is_in_its_own_frontier() {
        let l = looped();
        l.check().unwrap();
        let a = Analysis::new(&l).unwrap();
        assert_eq!(a.frontier(Block(1)), vec![Block(1)]);
        assert_eq!(a.frontier(Block(0)), vec![]);
        assert_eq!(a.dt.idom(Block(2)), Some(Block(1)));
        assert_eq!(a.children(Block(0)), vec![Block(1)]);
    }

    #[test]
    fn check_finds_bad_indices() {
        let mut l = looped();
        l.succs[0].push(9);
        assert!(l.check().is_err());
        assert!(Analysis::new(&Lesson::default()).is_none());
    }
}
