//! Variable liveness: literal cases, and random graphs against the data-flow fixpoint.

use super::*;
use crate::testing::Rng;
use crate::testing::{b, below, cfg, random_graph};

fn live_ins(g: &Cfg, defs: &[u32], ubd: &[u32]) -> Vec<u32> {
    let defs: Vec<Block> = defs.iter().map(|&x| b(x)).collect();
    let ubd: Vec<Block> = ubd.iter().map(|&x| b(x)).collect();
    let mut calc = LiveInCalculator::new(g);
    let mut out = Vec::new();
    let set = calc.compute(&defs, &ubd, &mut out);
    for &x in &out {
        assert!(set.contains(x));
    }
    let mut got: Vec<u32> = out.iter().map(|x| x.0).collect();
    got.sort();
    got
}

#[test]
fn slot_live_in_stops_at_stores() {
    // 0 -> 1 -> 2 -> 3, 2 -> 1: a store in 0, a load before any store in 3.
    let g = cfg(4, &[(0, 1), (1, 2), (2, 3), (2, 1)]);
    assert_eq!(live_ins(&g, &[0], &[3]), vec![1, 2, 3]);
    // A store in 2 kills it: only 3 is live-in.
    assert_eq!(live_ins(&g, &[0, 2], &[3]), vec![3]);
    // A block that loads then stores is live-in itself, and its predecessors are.
    assert_eq!(live_ins(&g, &[0, 2], &[2]), vec![1, 2]);
    // No loads before stores: nothing is live-in.
    assert_eq!(live_ins(&g, &[0], &[]), Vec::<u32>::new());
}

#[test]
fn slot_live_in_walks_unreachable_predecessors() {
    // 3 is unreachable but a predecessor of 1, as in LLVM.
    let g = cfg(4, &[(0, 1), (3, 1), (1, 2)]);
    assert_eq!(live_ins(&g, &[0], &[2]), vec![1, 2, 3]);
}

#[test]
fn slot_live_in_matches_fixpoint_on_random_graphs() {
    crate::testing::property(500, |r| {
        let mut rng = r.clone();
        let seed = rng.next_u64();
        let n = 1 + below(&mut rng, 60);
        let g = random_graph(&mut rng, n, seed % 2 == 0).cfg();
        let mut calc = LiveInCalculator::new(&g);
        let mut out = Vec::new();
        for _ in 0..3 {
            let pick = |rng: &mut Rng, k: usize| -> Vec<Block> {
                (0..k).map(|_| Block::new(below(rng, n))).collect()
            };
            let kd = below(&mut rng, 4);
            let ku = below(&mut rng, 4);
            let defs = pick(&mut rng, kd);
            let ubd = pick(&mut rng, ku);
            let want = live_in_fixpoint(&g, &defs, &ubd);
            let set = calc.compute(&defs, &ubd, &mut out);
            for (i, &w) in want.iter().enumerate() {
                assert_eq!(set.contains(Block::new(i)), w, "seed {seed}");
            }
            assert_eq!(
                out.len(),
                want.iter().filter(|&&w| w).count(),
                "seed {seed}"
            );
        }
    });
}
