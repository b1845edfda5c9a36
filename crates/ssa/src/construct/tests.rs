//! Whole-function construction: tiny literal functions, bad input, the options, and random
//! functions checked against a naive interpretation along random paths.

use super::*;
use crate::graph::AdjacencyGraph;
use crate::testing::{b, below, chance, random_graph, Rng};

/// A test function: a graph and each block's accesses; values are `u32`.
struct F {
    g: AdjacencyGraph,
    acc: Vec<Vec<Access<u32>>>,
    nv: usize,
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

impl Variables for F {
    type Value = u32;
    fn num_vars(&self) -> usize {
        self.nv
    }
    fn accesses(&self, b: Block, out: &mut Vec<Access<u32>>) {
        out.extend_from_slice(&self.acc[b.index()]);
    }
}

fn f(n: usize, edges: &[(u32, u32)], nv: usize, acc: Vec<(u32, Access<u32>)>) -> F {
    let e: Vec<(Block, Block)> = edges.iter().map(|&(x, y)| (b(x), b(y))).collect();
    let mut blocks = vec![Vec::new(); n];
    for (blk, a) in acc {
        blocks[blk as usize].push(a);
    }
    F {
        g: AdjacencyGraph::from_edges(n, b(0), &e),
        acc: blocks,
        nv,
    }
}

const X: Var = Var(0);
const Y: Var = Var(1);

fn use_of(s: &Ssa<u32>, id: u32) -> Value<u32> {
    s.uses().iter().find(|u| u.0 == id).expect("use listed").1
}

#[test]
fn diamond_gets_one_phi_at_the_join() {
    // 0: x = 1 ; 1: x = 2 ; 3: use x (id 7). 0 -> 1, 2 ; 1, 2 -> 3.
    let func = f(
        4,
        &[(0, 1), (0, 2), (1, 3), (2, 3)],
        1,
        vec![
            (0, Access::Def(X, 1)),
            (1, Access::Def(X, 2)),
            (3, Access::Use(X, 7)),
        ],
    );
    let s = build(&func, &Options::default()).unwrap();
    assert_eq!(
        s.phis(),
        &[Phi {
            var: X,
            block: b(3)
        }]
    );
    let p = PhiId(0);
    assert_eq!(s.preds(b(3)), &[b(1), b(2)]);
    assert_eq!(s.operands(p), &[Value::Def(2), Value::Def(1)]);
    assert_eq!(use_of(&s, 7), Value::Phi(p));
    assert_eq!(s.phis_of(b(3)).collect::<Vec<_>>(), vec![p]);
    assert_eq!(s.phis_of(b(1)).count(), 0);
}

#[test]
fn loop_without_a_definition_needs_no_phi() {
    // 0: x = 5 ; 1 (header): use x ; 1 -> 2 -> 1, 1 -> 3: use x.
    let func = f(
        4,
        &[(0, 1), (1, 2), (2, 1), (1, 3)],
        1,
        vec![
            (0, Access::Def(X, 5)),
            (1, Access::Use(X, 1)),
            (3, Access::Use(X, 2)),
        ],
    );
    let s = build(&func, &Options::default()).unwrap();
    assert!(s.phis().is_empty());
    assert_eq!(use_of(&s, 1), Value::Def(5));
    // Minimal SSA places the phi and folding removes it (phi(5, itself)).
    let o = Options {
        method: Method::Minimal,
        ..Options::default()
    };
    let s = build(&func, &o).unwrap();
    assert!(s.phis().is_empty());
    assert_eq!(
        s.stats().phis_folded,
        0,
        "no definition in the loop: no phi placed"
    );
}

#[test]
fn counter_in_a_loop_and_read_before_write() {
    // 0: x = 0 ; 1: use x (1), y used before any write (2) ; 2: x = 9 ; 2 -> 1 ; 1 -> 3.
    let func = f(
        4,
        &[(0, 1), (1, 2), (2, 1), (1, 3)],
        2,
        vec![
            (0, Access::Def(X, 0)),
            (1, Access::Use(X, 1)),
            (1, Access::Use(Y, 2)),
            (2, Access::Def(X, 9)),
        ],
    );
    let s = build(&func, &Options::default()).unwrap();
    assert_eq!(s.phis().len(), 1);
    assert_eq!(s.operands(PhiId(0)), &[Value::Def(0), Value::Def(9)]);
    assert_eq!(use_of(&s, 2), Value::Undefined(Y));
    // Unfolded, the minimal form has the same phi for x, and y gets none.
    let o = Options {
        method: Method::Minimal,
        fold_trivial: false,
        ..Options::default()
    };
    assert_eq!(build(&func, &o).unwrap().phis().len(), 1);
}

#[test]
fn copies_through_temporaries_need_no_phi() {
    // y = x through a temporary, on both arms: the phi for y is phi(x, x), trivial.
    let func = f(
        4,
        &[(0, 1), (0, 2), (1, 3), (2, 3)],
        2,
        vec![
            (0, Access::Def(X, 4)),
            (1, Access::UseInto(X, 10, 100)),
            (1, Access::Def(Y, 100)),
            (2, Access::UseInto(X, 11, 101)),
            (2, Access::Def(Y, 101)),
            (3, Access::Use(Y, 12)),
        ],
    );
    let s = build(&func, &Options::default()).unwrap();
    assert!(s.phis().is_empty());
    assert_eq!(use_of(&s, 12), Value::Def(4));
    assert_eq!(s.stats().phis_folded, 1);
}

#[test]
fn kills_repeated_edges_and_unreachable_code() {
    // 0 -> 1 twice ; 1: kill x, use x ; 3 (unreachable) -> 1, uses x.
    let func = f(
        4,
        &[(0, 1), (0, 1), (1, 2), (2, 1), (3, 1)],
        1,
        vec![
            (0, Access::Def(X, 1)),
            (1, Access::Use(X, 1)),
            (1, Access::Kill(X)),
            (2, Access::Def(X, 2)),
            (3, Access::Use(X, 3)),
            (3, Access::Def(X, 3)),
        ],
    );
    let s = build(&func, &Options::default()).unwrap();
    assert_eq!(s.phis().len(), 1);
    let p = PhiId(0);
    assert_eq!(s.preds(b(1)), &[b(0), b(0), b(2), b(3)]);
    assert_eq!(
        s.operands(p),
        &[
            Value::Def(1),
            Value::Def(1),
            Value::Def(2),
            Value::Undefined(X)
        ]
    );
    assert_eq!(use_of(&s, 3), Value::Undefined(X));
    // As block parameters: each edge of 0 -> 1 passes 1; 2 -> 1 passes 2.
    assert_eq!(
        s.arguments(b(0), 1).collect::<Vec<_>>(),
        vec![Value::Def(1)]
    );
    assert_eq!(
        s.arguments(b(2), 0).collect::<Vec<_>>(),
        vec![Value::Def(2)]
    );
}

#[test]
fn bad_input_is_an_error() {
    let func = f(2, &[(0, 1)], 1, vec![(1, Access::Use(Var(3), 0))]);
    let e = build(&func, &Options::default()).unwrap_err();
    assert_eq!(
        e,
        BuildError::VarOutOfRange {
            block: b(1),
            var: Var(3)
        }
    );
    assert!(e.to_string().contains("var3"));
    let func = f(2, &[(0, 1), (1, 0)], 1, vec![]);
    assert_eq!(
        build(&func, &Options::default()).unwrap_err(),
        BuildError::EntryHasPredecessors { entry: b(0) }
    );
    let func = f(2, &[(0, 9)], 1, vec![]);
    assert!(matches!(
        build(&func, &Options::default()),
        Err(BuildError::Graph(GraphError::EdgeOutOfRange { .. }))
    ));
    // No blocks at all: an empty result.
    let func = F {
        g: AdjacencyGraph::new(0),
        acc: vec![],
        nv: 2,
    };
    let s = build(&func, &Options::default()).unwrap();
    assert!(s.phis().is_empty() && s.uses().is_empty());
}

#[test]
fn budgets_leave_variables_out() {
    // x and y both need a phi at 3; x has more accesses.
    let func = f(
        4,
        &[(0, 1), (0, 2), (1, 3), (2, 3)],
        2,
        vec![
            (0, Access::Def(X, 1)),
            (0, Access::Def(Y, 1)),
            (1, Access::Def(X, 2)),
            (1, Access::Def(Y, 2)),
            (3, Access::Use(X, 7)),
            (3, Access::Use(X, 8)),
            (3, Access::Use(Y, 9)),
        ],
    );
    let o = Options {
        max_promoted: Some(1),
        ..Options::default()
    };
    let s = build(&func, &o).unwrap();
    assert!(s.is_promoted(X) && !s.is_promoted(Y));
    assert_eq!(s.uses().len(), 2);
    let o = Options {
        phi_copy_budget: Some(2),
        ..Options::default()
    };
    let s = build(&func, &o).unwrap();
    assert_eq!(s.phis().len(), 1);
    // Equal costs: the lower variable goes first.
    assert!(!s.is_promoted(X) && s.is_promoted(Y));
    let o = Options {
        phi_copy_budget: Some(1),
        ..Options::default()
    };
    assert_eq!(build(&func, &o).unwrap().stats().promoted, 0);
}

/// A random function over a random graph (a fresh entry in front of it), with random
/// accesses; definitions assign fresh values or one of a few shared constants.
fn random_function(rng: &mut Rng, reducible: bool) -> F {
    let n = 1 + below(rng, 14);
    let rg = random_graph(rng, n, reducible);
    let entry = b(n as u32);
    let mut edges = rg.edges.clone();
    edges.push((entry, rg.entry));
    let nv = 1 + below(rng, 4);
    let mut next = 1000;
    let mut acc = vec![Vec::new(); n + 1];
    let mut temps = 0;
    for a in acc.iter_mut() {
        for _ in 0..below(rng, 5) {
            let v = Var(below(rng, nv) as u32);
            let access = match below(rng, 10) {
                0..=3 => {
                    next += 1;
                    Access::Use(v, next)
                }
                4 if chance(rng, 1, 2) => Access::Kill(v),
                5 => {
                    // A copy through a temporary into another variable.
                    next += 1;
                    temps += 1;
                    let t = 5000 + temps;
                    a.push(Access::UseInto(v, next, t));
                    Access::Def(Var(below(rng, nv) as u32), t)
                }
                6 | 7 => Access::Def(v, below(rng, 3) as u32),
                _ => {
                    next += 1;
                    Access::Def(v, next)
                }
            };
            a.push(access);
        }
    }
    let mut g = AdjacencyGraph::from_edges(n + 1, entry, &edges);
    g.set_entry(entry);
    F { g, acc, nv }
}

/// What a naive run along a path reads, against what the SSA form says, use by use.
fn check_paths(func: &F, s: &Ssa<u32>, rng: &mut Rng) {
    let uses: std::collections::HashMap<u32, Value<u32>> = s.uses().iter().copied().collect();
    for _ in 0..20 {
        let mut state: Vec<Value<u32>> = (0..func.nv)
            .map(|v| Value::Undefined(Var(v as u32)))
            .collect();
        let mut temps = std::collections::HashMap::new();
        let mut phi_val: Vec<Option<Value<u32>>> = vec![None; s.phis().len()];
        let mut bb = func.g.entry().unwrap();
        for _ in 0..60 {
            for &a in &func.acc[bb.index()] {
                match a {
                    Access::Def(v, x) => {
                        state[v.index()] = temps.get(&x).copied().unwrap_or(Value::Def(x))
                    }
                    Access::Kill(v) => state[v.index()] = Value::Undefined(v),
                    Access::Use(v, id) | Access::UseInto(v, id, _) => {
                        if let Access::UseInto(_, _, t) = a {
                            temps.insert(t, state[v.index()]);
                        }
                        let ssa = match uses[&id] {
                            Value::Phi(p) => phi_val[p.index()].expect("phi defined on the path"),
                            w => w,
                        };
                        // Undefined is one value, whichever variable it came through.
                        let norm = |w: Value<u32>| match w {
                            Value::Undefined(_) => Value::Undefined(Var(0)),
                            w => w,
                        };
                        assert_eq!(norm(ssa), norm(state[v.index()]), "use {id} in {bb}");
                    }
                }
            }
            let succs = func.g.succs(bb);
            if succs.is_empty() {
                break;
            }
            let next = succs[below(rng, succs.len())];
            let k = s.preds(next).iter().position(|&p| p == bb).unwrap();
            let new: Vec<(usize, Value<u32>)> = s
                .phis_of(next)
                .map(|p| {
                    let v = match s.operands(p)[k] {
                        Value::Phi(q) => phi_val[q.index()].expect("operand phi defined"),
                        w => w,
                    };
                    (p.index(), v)
                })
                .collect();
            for (p, v) in new {
                phi_val[p] = Some(v);
            }
            bb = next;
        }
    }
}

#[test]
fn random_functions_read_what_a_naive_run_reads() {
    crate::testing::property(1500, |r| {
        let mut rng = r.clone();
        let seed = rng.next_u64();
        let func = random_function(&mut rng, seed % 2 == 0);
        for method in [
            Method::Bounded,
            Method::Exact,
            Method::SemiPruned,
            Method::Minimal,
        ] {
            for fold_trivial in [true, false] {
                let o = Options {
                    method,
                    fold_trivial,
                    ..Options::default()
                };
                let s = build(&func, &o).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
                check_paths(&func, &s, &mut Rng::new(seed));
            }
        }
        // Pruned SSA, exact or bounded, gives the same phis.
        let a = build(&func, &Options::default()).unwrap();
        let o = Options {
            method: Method::Exact,
            ..Options::default()
        };
        assert_eq!(a.phis(), build(&func, &o).unwrap().phis(), "seed {seed}");
    });
}
