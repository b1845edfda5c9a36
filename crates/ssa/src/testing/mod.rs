//! Support for property tests, ours and yours: a seeded PRNG, literal graphs, and random CFGs
//! (reducible and irreducible, with self-loops, repeated edges and unreachable parts that jump
//! into the reachable part).
//!
//! Random graphs are a pure function of the seed ([`Rng`]), so a failing case is reproduced by
//! the seed the assertion prints.

mod rng;

use crate::cfg::Cfg;
use crate::domtree::naive;
use crate::Block;
pub use rng::Rng;

/// Block `i`.
pub fn b(i: u32) -> Block {
    Block(i)
}

/// The CFG over blocks `0..n`, entry 0, with the given edges.
pub fn cfg(n: usize, edges: &[(u32, u32)]) -> Cfg {
    Cfg::from_edges(n, b(0), &typed(edges))
}

/// `(u32, u32)` edges as block pairs.
pub fn typed(edges: &[(u32, u32)]) -> Vec<(Block, Block)> {
    edges.iter().map(|&(x, y)| (b(x), b(y))).collect()
}

/// A number in `0..n` (`n > 0`).
pub fn below(rng: &mut Rng, n: usize) -> usize {
    rng.below(n as u64) as usize
}

/// `true` with probability `num / den`.
pub fn chance(rng: &mut Rng, num: usize, den: usize) -> bool {
    below(rng, den) < num
}

/// A random graph: `n` blocks, an entry, and edges (successor order = list order).
#[derive(Clone, Debug)]
pub struct RandomGraph {
    /// Number of blocks.
    pub n: usize,
    /// The entry block.
    pub entry: Block,
    /// Edges, with repeats.
    pub edges: Vec<(Block, Block)>,
}

impl RandomGraph {
    /// Its CFG.
    pub fn cfg(&self) -> Cfg {
        Cfg::from_edges(self.n, self.entry, &self.edges)
    }
}

/// A random CFG with `n >= 1` blocks. Reducible graphs are a random DAG plus back edges to
/// dominators (which keeps them reducible: removing the back edges leaves the DAG); irreducible
/// ones add arbitrary edges. Both may have self-loops, repeated edges and an unreachable part
/// with edges into the reachable part. Block ids are shuffled so the entry is any id.
pub fn random_graph(rng: &mut Rng, n: usize, reducible: bool) -> RandomGraph {
    let mut perm: Vec<u32> = (0..n as u32).collect();
    for i in (1..n).rev() {
        perm.swap(i, below(rng, i + 1));
    }
    let unreachable = if n > 2 && chance(rng, 1, 2) {
        below(rng, n / 3 + 1)
    } else {
        0
    };
    let r = n - unreachable;
    let p = |k: usize| Block(perm[k]);
    let mut edges = Vec::new();
    // A spanning DAG over positions 0..r, plus forward edges.
    for k in 1..r {
        edges.push((p(below(rng, k)), p(k)));
    }
    for _ in 0..below(rng, r + 1) {
        let (x, y) = (below(rng, r), below(rng, r));
        if x < y {
            edges.push((p(x), p(y)));
        }
    }
    let extra = below(rng, r / 2 + 2);
    if reducible {
        let g = Cfg::from_edges(n, p(0), &edges);
        let dom = naive::dominator_sets(&g);
        for _ in 0..extra {
            let s = p(below(rng, r));
            let ds: Vec<Block> = dom[s.index()].iter().collect();
            edges.push((s, ds[below(rng, ds.len())]));
        }
    } else {
        for _ in 0..extra {
            edges.push((p(below(rng, r)), p(below(rng, r))));
        }
    }
    for _ in 0..2 * unreachable {
        let x = r + below(rng, unreachable);
        edges.push((p(x), p(below(rng, n))));
    }
    for _ in 0..below(rng, 3) {
        if !edges.is_empty() {
            let e = edges[below(rng, edges.len())];
            edges.push(e);
        }
    }
    for i in (1..edges.len()).rev() {
        edges.swap(i, below(rng, i + 1));
    }
    RandomGraph {
        n,
        entry: p(0),
        edges,
    }
}

/// The edges of a deep graph of `n` blocks, entry 0: a chain `i -> i + 1` with skip edges `i -> i + 2` (even `i`), two-block loops
/// `i + 1 -> i` (`i % 5 == 3`), self-loops (`i % 7 == 0`) and an unreachable tail of ten
/// blocks pointing into the middle. Dominator tree depth ≈ n / 2, frontiers stay small.
pub fn deep_edges(n: usize) -> Vec<(Block, Block)> {
    assert!(n >= 12, "at least 12 blocks");
    let mut e = Vec::new();
    let r = n - 10;
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
    for i in r..n {
        e.push((
            Block::new(i),
            Block::new(if i + 1 < n { i + 1 } else { n / 2 }),
        ));
    }
    e
}

/// Runs the property `f` on choices from `arbtest` for about `budget_ms` milliseconds: a
/// failing case is reported with a seed to replay it, and `arbtest`'s minimizer shrinks its
/// bytes, and so the generated graph or program (see [`Rng::from_bytes`]).
#[cfg(test)]
pub(crate) fn property(budget_ms: u64, mut f: impl FnMut(&mut Rng<'_>)) {
    arbtest::arbtest(|u| {
        f(&mut Rng::from_bytes(u.bytes(u.len())?));
        Ok(())
    })
    .budget_ms(budget_ms);
}
