//! Out-of-SSA plans: the swap and lost-copy problems, the fallback, bad input, and random
//! functions whose sequenced copies, run along random paths, must do what the phis say.

use super::parallel_copy::Slot;
use super::*;
use crate::graph::AdjacencyGraph;
use crate::testing::{b, below, chance, random_graph, Rng};

/// A function in SSA form: values are `u32`; phi results are `>= 100`.
struct F {
    g: AdjacencyGraph,
    /// Per block: its phis, each a result and its `(pred, value)` pairs.
    phis: Vec<Vec<(u32, Vec<(Block, u32)>)>>,
    /// Edges that cannot be split.
    no_split: Vec<(Block, Block)>,
}

impl Graph for F {
    fn num_blocks(&self) -> usize {
        self.g.num_blocks()
    }
    fn entry(&self) -> Option<Block> {
        self.g.entry()
    }
    fn successors(&self, b: Block) -> impl Iterator<Item = Block> + '_ {
        self.g.successors(b)
    }
}

impl PhiFunction for F {
    type Value = u32;
    fn phis(&self, b: Block, out: &mut Vec<u32>) {
        out.extend(self.phis[b.index()].iter().map(|p| p.0));
    }
    fn incoming(&self, b: Block, k: usize, out: &mut Vec<(Block, u32)>) {
        out.extend_from_slice(&self.phis[b.index()][k].1);
    }
    fn can_split(&self, p: Block, s: Block) -> bool {
        !self.no_split.contains(&(p, s))
    }
}

/// The swap loop: 0 -> 1 ; 1 -> 1, 2 ; phis a, b in 1 swapped on the back edge.
fn swap() -> F {
    let g = AdjacencyGraph::from_edges(3, b(0), &[(b(0), b(1)), (b(1), b(1)), (b(1), b(2))]);
    let phis = vec![
        vec![],
        vec![
            (100, vec![(b(0), 1), (b(1), 101)]),
            (101, vec![(b(0), 2), (b(1), 100)]),
        ],
        vec![],
    ];
    F {
        g,
        phis,
        no_split: vec![],
    }
}

#[test]
fn swap_needs_one_temporary_on_the_split_back_edge() {
    let p = plan(&swap()).unwrap();
    assert_eq!(p.stats.temps, 1);
    assert_eq!(p.stats.copies, 4);
    let places: Vec<(Block, Place)> = p.edges.iter().map(|e| (e.pred, e.place)).collect();
    // 0 -> 1: the end of 0 (one successor); 1 -> 1 is critical: split.
    assert_eq!(places, vec![(b(0), Place::End), (b(1), Place::Split)]);
    assert_eq!(p.split_edges().collect::<Vec<_>>(), vec![(b(1), b(1))]);
    let back = &p.moves[p.edges[1].moves.clone()];
    assert_eq!(back.len(), 3);
    assert!(matches!(back[0].dst, Slot::Temp(0)));
}

#[test]
fn an_edge_that_cannot_be_split_makes_a_fallback_block() {
    let mut f = swap();
    f.no_split.push((b(1), b(1)));
    let p = plan(&f).unwrap();
    assert!(p.blocks[0].fallback);
    assert_eq!(p.stats.temps, 0, "incoming variables need no temporary");
    assert_eq!(p.edges[1].place, Place::BeforeTerm);
    assert!(p
        .moves
        .iter()
        .all(|m| matches!(m.dst, Slot::Loc(Loc::In(_)))));
}

#[test]
fn missing_incoming_value_is_an_error() {
    let mut f = swap();
    f.phis[1][0].1.pop();
    assert_eq!(
        plan(&f).unwrap_err(),
        DestructError::MissingIncoming {
            block: b(1),
            pred: b(1)
        }
    );
    let mut f = swap();
    f.phis[1][1].0 = 100;
    assert_eq!(
        plan(&f).unwrap_err(),
        DestructError::DuplicatePhi { block: b(1) }
    );
}

/// A random SSA function: a random graph behind a fresh entry, up to three phis per block
/// with predecessors, incoming values constants (`< 8`) or phi results; some edges unsplittable.
fn random_function(rng: &mut Rng) -> F {
    let n = 1 + below(rng, 12);
    let reducible = chance(rng, 1, 2);
    let rg = random_graph(rng, n, reducible);
    let entry = b(n as u32);
    let mut edges = rg.edges.clone();
    edges.push((entry, rg.entry));
    let g = AdjacencyGraph::from_edges(n + 1, entry, &edges);
    let mut results = Vec::new();
    let mut counts = vec![0; n + 1];
    for (k, c) in counts.iter_mut().enumerate() {
        if !g.preds(b(k as u32)).is_empty() {
            *c = below(rng, 4);
            for _ in 0..*c {
                results.push(100 + results.len() as u32);
            }
        }
    }
    let mut next = 100;
    let mut phis = vec![Vec::new(); n + 1];
    for (k, &c) in counts.iter().enumerate() {
        for _ in 0..c {
            let mut inc = Vec::new();
            for &p in g.preds(b(k as u32)) {
                if let Some(&(_, v)) = inc.iter().find(|(q, _)| *q == p) {
                    inc.push((p, v));
                    continue;
                }
                let v = if chance(rng, 1, 3) {
                    below(rng, 8) as u32
                } else {
                    results[below(rng, results.len())]
                };
                inc.push((p, v));
            }
            phis[k].push((next, inc));
            next += 1;
        }
    }
    let no_split = edges
        .iter()
        .copied()
        .filter(|_| chance(rng, 1, 5))
        .collect();
    F { g, phis, no_split }
}

/// Runs the plan's copies along random paths next to the phis' parallel semantics: every phi
/// variable must hold what the phis say, at every step.
fn check_paths(f: &F, p: &Plan<u32>, rng: &mut Rng) {
    let nphi = p.phis.len();
    let slot_of = |v: u32| p.phis.iter().position(|&x| x == v);
    for _ in 0..10 {
        // Phi values start as "unset" (u32::MAX) in both runs.
        let mut oracle = vec![u32::MAX; nphi];
        let mut env = vec![u32::MAX; nphi];
        let mut inv = vec![u32::MAX; nphi];
        let mut bb = f.g.entry().unwrap();
        for _ in 0..40 {
            let succs = f.g.succs(bb);
            if succs.is_empty() {
                break;
            }
            let s = succs[below(rng, succs.len())];
            let read = |env: &[u32], v: u32| slot_of(v).map_or(v, |k| env[k]);
            // The parallel semantics.
            let before = oracle.clone();
            for (r, inc) in &f.phis[s.index()] {
                let v = inc.iter().find(|(q, _)| *q == bb).unwrap().1;
                oracle[slot_of(*r).unwrap()] = read(&before, v);
            }
            // The plan: leaving bb, on the edge, entering s.
            let run = |e: &EdgeCopies, env: &mut Vec<u32>, inv: &mut Vec<u32>| {
                let mut temps = Vec::new();
                for m in &p.moves[e.moves.clone()] {
                    let v = match m.src {
                        Slot::Temp(k) => temps[k as usize],
                        Slot::Loc(Loc::Val(v)) => read(env, v),
                        Slot::Loc(Loc::In(_)) => panic!("an incoming variable read"),
                    };
                    match m.dst {
                        Slot::Temp(_) => temps.push(v),
                        Slot::Loc(Loc::Val(a)) => env[slot_of(a).unwrap()] = v,
                        Slot::Loc(Loc::In(k)) => inv[k as usize] = v,
                    }
                }
            };
            for e in p.edges.iter().filter(|e| e.pred == bb) {
                if matches!(e.place, Place::End | Place::BeforeTerm) {
                    run(e, &mut env, &mut inv);
                }
            }
            for e in p
                .edges
                .iter()
                .filter(|e| e.pred == bb && p.blocks[e.succ].block == s)
            {
                if matches!(e.place, Place::Split | Place::Head) {
                    run(e, &mut env, &mut inv);
                }
            }
            if let Some(pb) = p.blocks.iter().find(|pb| pb.block == s && pb.fallback) {
                for k in pb.phis.clone() {
                    env[k] = inv[k];
                }
            }
            assert_eq!(env, oracle, "after {bb} -> {s}");
            bb = s;
        }
    }
}

#[test]
fn random_plans_do_what_the_phis_say() {
    crate::testing::property(1000, |r| {
        let mut rng = r.clone();
        let seed = rng.next_u64();
        let f = random_function(&mut rng);
        let p = plan(&f).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        check_paths(&f, &p, &mut rng);
    });
}
