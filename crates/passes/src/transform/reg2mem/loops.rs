//! Natural loops as LLVM's `LoopInfo` sees them, for reg2mem's critical-edge splitting (which
//! keeps loop exits in loop-simplify form, as `SplitCriticalEdge` does when given loop info).
//!
//! A loop is named by the block that was its header when computed. A back edge is an edge
//! `p -> h` from a reachable `p` dominated by `h`; the loop of `h` is `h` plus every reachable
//! block that reaches a back edge's source without passing `h`. Loops nest; a block belongs
//! to its innermost loop. Unreachable blocks are in no loop.
//!
//! Invariant: `of[b]` is the innermost loop of `b` (or none) and `parent[h]` the loop around
//! loop `h` (or none); blocks added later are placed by the caller ([`Loops::set`]).
//! Cost: linear in blocks + edges times the nesting depth met while climbing.

use llvm_ir::entity::SecondaryMap;
use llvm_ir::ir::{Block, Function};
use ssa::domtree::DomTree;

/// Loop membership and nesting.
pub struct Loops {
    of: SecondaryMap<Block, Block>,
    parent: SecondaryMap<Block, Block>,
}

impl Loops {
    /// The loops of `func` (inner loops found first: headers in reverse RPO).
    pub fn compute(func: &Function) -> Self {
        let cfg = llvm_ir::ir::cfg::cfg_of(func);
        let dt = DomTree::compute(&cfg);
        let mut l = Self {
            of: SecondaryMap::with_default(Block::NONE),
            parent: SecondaryMap::with_default(Block::NONE),
        };
        for &h in cfg.reverse_postorder().iter().rev() {
            let mut stack: Vec<Block> = cfg
                .preds(h)
                .iter()
                .copied()
                .filter(|&p| dt.is_reachable(p) && dt.dominates(h, p))
                .collect();
            if stack.is_empty() {
                continue;
            }
            l.of[h] = h;
            while let Some(b) = stack.pop() {
                if !dt.is_reachable(b) {
                    continue;
                }
                if l.of[b].is_none() {
                    l.of[b] = h;
                    stack.extend_from_slice(cfg.preds(b));
                    continue;
                }
                let outer = l.outermost(l.of[b]);
                if outer != h {
                    l.parent[outer] = h;
                    stack.extend_from_slice(cfg.preds(outer));
                }
            }
        }
        l
    }

    fn outermost(&self, mut x: Block) -> Block {
        while !self.parent[x].is_none() {
            x = self.parent[x];
        }
        x
    }

    /// The innermost loop of `b`.
    pub fn loop_for(&self, b: Block) -> Option<Block> {
        self.of[b].expand()
    }

    /// The loop around loop `l`.
    pub fn parent(&self, l: Block) -> Option<Block> {
        self.parent[l].expand()
    }

    /// Whether loop `outer` is loop `inner` or contains it.
    pub fn contains_loop(&self, outer: Block, inner: Block) -> bool {
        let mut x = inner.expand();
        while let Some(l) = x {
            if l == outer {
                return true;
            }
            x = self.parent(l);
        }
        false
    }

    /// Whether loop `l` contains block `b`.
    pub fn contains(&self, l: Block, b: Block) -> bool {
        self.loop_for(b).is_some_and(|x| self.contains_loop(l, x))
    }

    /// Puts the new block `b` in loop `l` (or none).
    pub fn set(&mut self, b: Block, l: Option<Block>) {
        self.of[b] = l.unwrap_or(Block::NONE);
    }
}
