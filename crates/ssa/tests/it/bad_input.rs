//! Bad input through the traits never panics: edges to blocks that do not exist, entries out of
//! range, accesses of variables that do not exist, uses with no definition on some path,
//! unreachable blocks, self-loops, duplicate edges, irreducible loops, phis without an
//! incoming value, 100,000-block graphs and dominator chains 100,000 deep. Each gets a
//! documented result or an `Err`.

use std::panic::{catch_unwind, AssertUnwindSafe};

use ssa::construct::{build, Access, Options, Value, Var, Variables};
use ssa::destruct::{plan, PhiFunction};
use ssa::testing::{below, chance, Rng};
use ssa::{Block, Cfg, DomTree, Graph};

/// A graph straight from random numbers: edges may point anywhere, even out of range.
struct Wild {
    n: usize,
    entry: Option<Block>,
    succs: Vec<Vec<Block>>,
    acc: Vec<Vec<Access<u32>>>,
    nv: usize,
    phis: Vec<Vec<(u32, Vec<(Block, u32)>)>>,
}

impl Graph for Wild {
    fn num_blocks(&self) -> usize {
        self.n
    }
    fn entry(&self) -> Option<Block> {
        self.entry
    }
    fn successors(&self, b: Block) -> impl Iterator<Item = Block> + '_ {
        self.succs[b.index()].iter().copied()
    }
}

impl Variables for Wild {
    type Value = u32;
    fn num_vars(&self) -> usize {
        self.nv
    }
    fn accesses(&self, b: Block, out: &mut Vec<Access<u32>>) {
        out.extend_from_slice(&self.acc[b.index()]);
    }
}

impl PhiFunction for Wild {
    type Value = u32;
    fn phis(&self, b: Block, out: &mut Vec<u32>) {
        out.extend(self.phis[b.index()].iter().map(|p| p.0));
    }
    fn incoming(&self, b: Block, k: usize, out: &mut Vec<(Block, u32)>) {
        out.extend_from_slice(&self.phis[b.index()][k].1);
    }
}

fn wild(rng: &mut Rng) -> Wild {
    let n = below(rng, 12);
    let any = |rng: &mut Rng| Block(below(rng, n + 3) as u32);
    let entry = if n == 0 || chance(rng, 1, 10) {
        None
    } else {
        Some(any(rng))
    };
    let succs = (0..n)
        .map(|_| (0..below(rng, 4)).map(|_| any(rng)).collect())
        .collect();
    let nv = below(rng, 4);
    let acc = (0..n)
        .map(|_| {
            (0..below(rng, 4))
                .map(|i| {
                    let v = Var(below(rng, nv + 2) as u32);
                    match below(rng, 3) {
                        0 => Access::Def(v, i as u32),
                        1 => Access::Use(v, i as u32),
                        _ => Access::Kill(v),
                    }
                })
                .collect()
        })
        .collect();
    let phis = (0..n)
        .map(|_| {
            (0..below(rng, 3))
                .map(|_| {
                    let inc = (0..below(rng, 3)).map(|_| (any(rng), 7)).collect();
                    (100 + below(rng, 4) as u32, inc)
                })
                .collect()
        })
        .collect();
    Wild {
        n,
        entry,
        succs,
        acc,
        nv,
        phis,
    }
}

#[test]
fn random_wild_input_gives_results_or_errors() {
    arbtest::arbtest(|u| {
        let w = wild(&mut Rng::from_bytes(u.bytes(u.len())?));
        let r = catch_unwind(AssertUnwindSafe(|| {
            if let Ok(cfg) = Cfg::new(&w) {
                let dt = DomTree::compute(&cfg);
                for b in 0..w.n + 3 {
                    let b = Block::new(b);
                    let _ = (cfg.preds(b), cfg.succs(b), cfg.rpo_number(b), dt.idom(b));
                    let _ = (dt.children(b), dt.depth(b), dt.dominates(b, Block(0)));
                }
            }
            let _ = build(&w, &Options::default()).map(|s| s.phis().len());
            let _ = plan(&w).map(|p| p.moves.len());
        }));
        assert!(r.is_ok(), "a panic (arbtest prints the seed to replay it)");
        Ok(())
    })
    .budget_ms(1000);
}

/// A chain of `n` blocks, each reading and writing one variable, with a back edge around
/// every other block: dominator depth `n`, a phi at every loop head.
struct Chain(usize);

impl Graph for Chain {
    fn num_blocks(&self) -> usize {
        self.0
    }
    fn entry(&self) -> Option<Block> {
        Some(Block(0))
    }
    fn successors(&self, b: Block) -> impl Iterator<Item = Block> + '_ {
        let i = b.index();
        let next = (i + 1 < self.0).then(|| Block::new(i + 1));
        let back = (i % 2 == 0 && i > 0).then(|| Block::new(i - 1));
        next.into_iter().chain(back)
    }
}

impl Variables for Chain {
    type Value = u32;
    fn num_vars(&self) -> usize {
        1
    }
    fn accesses(&self, b: Block, out: &mut Vec<Access<u32>>) {
        out.push(Access::Use(Var(0), b.0));
        out.push(Access::Def(Var(0), b.0));
    }
}

#[test]
fn hundred_thousand_blocks_deep() {
    let f = Chain(100_000);
    let s = build(&f, &Options::default()).unwrap();
    assert_eq!(s.uses().len(), 100_000);
    // Block 1 is entered from 0 and from 2: a phi; block 0 reads nothing defined.
    assert_eq!(s.uses()[0].1, Value::Undefined(Var(0)));
    assert!(s.phis().len() >= 49_000);
    let dt = DomTree::compute(s.cfg());
    assert_eq!(dt.depth(Block::new(99_999)), Some(99_999));
}
