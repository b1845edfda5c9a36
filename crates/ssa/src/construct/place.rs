//! Phi placement, one variable at a time: where does a variable need phis, given the positions
//! of its definitions and uses?
//!
//! The definition blocks and the *upward-exposed* use blocks (a use before any definition in
//! the block) are gathered in first-seen order; then, by [`Method`]:
//! - [`Method::Bounded`] (pruned SSA, the default): the iterated dominance frontier of the
//!   definitions within a bound on the live-in blocks that needs dominance alone
//!   ([`crate::live_bound`]); the renaming walk then drops the candidates that are dead
//!   ([`super::rename`] with `prune`). Near-linear on every shape;
//! - [`Method::Exact`] (pruned SSA, LLVM's own method): exact live-in blocks first
//!   ([`crate::liveness`]), then the frontier within them. Quadratic on deep loop nests; used when
//!   the final phis must be known before renaming (the phi-copy budget);
//! - [`Method::SemiPruned`] (Briggs et al.): the whole frontier, for variables with an
//!   upward-exposed use (live across blocks) only;
//! - [`Method::Minimal`] (Cytron et al.): the whole frontier of the definitions.
//!
//! Invariants: a [`Placer`] serves one function (one CFG and dominator tree) and any number of
//! variables; per-variable work costs the variable's events and the blocks its frontier walk
//! visits, never the function's size (tables are reset in O(1) between variables).

use crate::cfg::Cfg;
use crate::domtree::DomTree;
use crate::idf::IdfCalculator;
use crate::liveness::{LiveInBuffers, LiveInCalculator};
use crate::marks::BlockMarks;
use crate::placement::{PlacerBuffers as PrunedBuffers, PrunedPlacer};
use crate::Block;

/// How phis are placed (see the module docs).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Method {
    /// Pruned SSA: frontier within a live-in bound; dead candidates go at renaming.
    Bounded,
    /// Pruned SSA: exact live-in blocks first (LLVM's method).
    Exact,
    /// Semi-pruned SSA: the whole frontier, for variables live across blocks.
    SemiPruned,
    /// Minimal SSA: the whole frontier.
    Minimal,
}

/// The first position seen per block, for one variable at a time: the seen blocks are a
/// [`BlockMarks`] (cleared in O(1) between variables), their positions a dense table.
///
/// Invariant: `pos[b]` is meaningful iff `seen` contains `b`.
#[derive(Default)]
struct FirstPos {
    seen: BlockMarks,
    pos: Vec<u32>,
}

impl FirstPos {
    /// Makes this an empty table for block ids below `n`.
    fn reset(&mut self, n: usize) {
        self.seen.reset(n);
        crate::util::refill(&mut self.pos, n, 0);
    }

    /// Starts a new variable: every block is unseen again.
    fn next(&mut self) {
        self.seen.clear();
    }

    /// Records position `at` in `b`; returns whether `b` was unseen.
    fn note(&mut self, b: Block, at: u32) -> bool {
        let p = &mut self.pos[b.index()];
        let new = self.seen.insert(b);
        *p = if new { at } else { (*p).min(at) };
        new
    }

    /// The first position recorded in `b`, if any.
    fn get(&self, b: Block) -> Option<u32> {
        self.seen.contains(b).then(|| self.pos[b.index()])
    }
}

/// A [`Placer`]'s buffers, kept to build the next one (of another function) without
/// allocating: they carry nothing from one function to the next.
#[derive(Default)]
pub struct PlacerBuffers {
    pruned: PrunedBuffers,
    live: LiveInBuffers,
    first: [FirstPos; 2],
    defs: Vec<Block>,
    ubd: Vec<Block>,
}

/// Places phis for the variables of one function (see the module docs).
pub struct Placer<'a> {
    pruned: PrunedPlacer<'a>,
    live: LiveInCalculator<'a>,
    first: [FirstPos; 2],
    defs: Vec<Block>,
    ubd: Vec<Block>,
    live_order: Vec<Block>,
}

impl<'a> Placer<'a> {
    /// A placer for the function with CFG `cfg` and dominator tree `dt`.
    pub fn new(cfg: &'a Cfg, dt: &'a DomTree) -> Self {
        Self::with_buffers(cfg, dt, PlacerBuffers::default())
    }

    /// [`Placer::new`], in the buffers `b`.
    pub fn with_buffers(cfg: &'a Cfg, dt: &'a DomTree, mut b: PlacerBuffers) -> Self {
        let n = cfg.num_block_ids();
        for f in &mut b.first {
            f.reset(n);
        }
        Self {
            pruned: PrunedPlacer::with_buffers(cfg, dt, b.pruned),
            live: LiveInCalculator::with_buffers(cfg, b.live),
            first: b.first,
            defs: b.defs,
            ubd: b.ubd,
            live_order: Vec::new(),
        }
    }

    /// Gives the buffers back.
    pub fn into_buffers(self) -> PlacerBuffers {
        PlacerBuffers {
            pruned: self.pruned.into_buffers(),
            live: self.live.into_buffers(),
            first: self.first,
            defs: self.defs,
            ubd: self.ubd,
        }
    }

    /// Takes a variable's definitions and uses, as `(block, position)` (a position orders the
    /// events of a block; a kill counts as a definition): gathers its definition blocks and
    /// upward-exposed use blocks, each in first-seen order ([`Placer::def_blocks`],
    /// [`Placer::use_blocks`]).
    pub fn gather(
        &mut self,
        defs: impl Iterator<Item = (Block, u32)>,
        uses: impl Iterator<Item = (Block, u32)>,
    ) {
        let [first_def, first_use] = &mut self.first;
        first_def.next();
        first_use.next();
        self.defs.clear();
        for (b, at) in defs {
            if first_def.note(b, at) {
                self.defs.push(b);
            }
        }
        self.ubd.clear();
        for (b, at) in uses {
            if first_use.note(b, at) {
                self.ubd.push(b);
            }
        }
        let (first_def, first_use) = (&self.first[0], &self.first[1]);
        self.ubd.retain(|&b| {
            let up = first_use.get(b).expect("noted above");
            first_def.get(b).map_or(true, |d| up < d)
        });
    }

    /// The definition blocks of the last [`Placer::gather`], in first-seen order.
    pub fn def_blocks(&self) -> &[Block] {
        &self.defs
    }

    /// The upward-exposed use blocks of the last [`Placer::gather`], in first-seen order.
    pub fn use_blocks(&self) -> &[Block] {
        &self.ubd
    }

    /// The blocks that get a phi for the last gathered variable, by `method`, into `out`
    /// (sorted by layout position).
    pub fn place(&mut self, method: Method, out: &mut Vec<Block>) {
        let (defs, ubd) = (&self.defs[..], &self.ubd[..]);
        match method {
            Method::Bounded => {
                self.pruned.place(defs, ubd, out);
            }
            Method::Exact => {
                let set = self.live.compute(defs, ubd, &mut self.live_order);
                self.pruned.idf().compute_pruned(defs, set, out);
            }
            Method::SemiPruned if ubd.is_empty() => out.clear(),
            Method::SemiPruned | Method::Minimal => self.pruned.idf().compute(defs, out),
        }
    }

    /// The iterated-frontier calculator (for explaining a placement).
    pub fn idf(&mut self) -> &mut IdfCalculator<'a> {
        self.pruned.idf()
    }

    /// The live-in calculator (for explaining a placement).
    pub fn live(&mut self) -> &mut LiveInCalculator<'a> {
        &mut self.live
    }
}

/// The phi-copy budget (a Rust C compiler's rule): while the variables' costs (the phi
/// operands each would get: the copies phi elimination will make) exceed `limit`, the costliest
/// is left out (ties: the lower index first). Returns the variables to leave out, in the order
/// they were chosen.
pub fn over_budget(costs: &[u64], limit: u64) -> Vec<usize> {
    let mut total: u64 = costs.iter().sum();
    let mut order: Vec<usize> = (0..costs.len()).collect();
    order.sort_by_key(|&v| std::cmp::Reverse(costs[v]));
    let mut out = Vec::new();
    for v in order {
        if total <= limit || costs[v] == 0 {
            break;
        }
        out.push(v);
        total -= costs[v];
    }
    out
}

/// The variable budget ([`super::Options::max_promoted`]): per variable, whether it is among
/// the `max` with the most accesses (`counts`), ties broken by the lower index. Every variable
/// is kept when there are at most `max`.
pub fn most_accessed(counts: &[u32], max: usize) -> Vec<bool> {
    let mut keep = vec![true; counts.len()];
    if max >= counts.len() {
        return keep;
    }
    let mut order: Vec<usize> = (0..counts.len()).collect();
    order.sort_by_key(|&v| std::cmp::Reverse(counts[v]));
    for &v in &order[max..] {
        keep[v] = false;
    }
    keep
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{b, cfg};

    #[test]
    fn the_four_methods_on_a_diamond_in_a_loop() {
        // 0 -> 1 ; 1 -> 2, 3 ; 2 -> 4 ; 3 -> 4 ; 4 -> 1, 5.
        let g = cfg(6, &[(0, 1), (1, 2), (1, 3), (2, 4), (3, 4), (4, 1), (4, 5)]);
        let dt = DomTree::compute(&g);
        let mut p = Placer::new(&g, &dt);
        let mut out = Vec::new();
        // Defined in 0 and 2, used in 4 only (after the join).
        p.gather([(b(0), 0), (b(2), 0)].into_iter(), [(b(4), 0)].into_iter());
        assert_eq!(p.def_blocks(), &[b(0), b(2)]);
        assert_eq!(p.use_blocks(), &[b(4)]);
        p.place(Method::Minimal, &mut out);
        assert_eq!(out, vec![b(1), b(4)]);
        p.place(Method::Exact, &mut out);
        assert_eq!(out, vec![b(1), b(4)]);
        // A use after a definition in the same block is not upward-exposed.
        p.gather([(b(0), 0), (b(4), 1)].into_iter(), [(b(4), 2)].into_iter());
        assert!(p.use_blocks().is_empty());
        p.place(Method::SemiPruned, &mut out);
        assert!(out.is_empty());
        p.place(Method::Exact, &mut out);
        assert!(out.is_empty());
        p.place(Method::Minimal, &mut out);
        assert_eq!(out, vec![b(1)]);
    }

    #[test]
    fn budget_drops_the_costliest_first() {
        assert_eq!(over_budget(&[3, 5, 5, 0], 13), Vec::<usize>::new());
        assert_eq!(over_budget(&[3, 5, 5, 0], 12), vec![1]);
        assert_eq!(over_budget(&[3, 5, 5, 0], 0), vec![1, 2, 0]);
    }

    #[test]
    fn the_most_accessed_are_kept_ties_to_the_lower_index() {
        assert_eq!(
            most_accessed(&[1, 3, 3, 2], 2),
            vec![false, true, true, false]
        );
        assert_eq!(most_accessed(&[2, 2, 2], 1), vec![true, false, false]);
        assert_eq!(most_accessed(&[0, 1], 0), vec![false, false]);
        assert_eq!(most_accessed(&[0, 1], 5), vec![true, true]);
    }
}
