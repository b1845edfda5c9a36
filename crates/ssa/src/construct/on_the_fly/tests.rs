//! The on-the-fly builder: literal front-end call sequences, misuse, and random programs
//! driven through it as a front end would (blocks in reverse postorder, each sealed once its
//! predecessors are filled), checked along random paths against a naive run, and against the
//! whole-function construction's phi count.

use std::collections::HashMap;

use super::*;
use crate::construct::{build, Access as A, Variables};
use crate::graph::Graph;
use crate::testing::{below, chance, random_graph, Rng};

/// A toy IR: phis by value (values from 1000 up), replacements, operands.
#[derive(Default)]
struct Ir {
    next: u32,
    phis: HashMap<u32, (Block, Var, Option<Vec<u32>>)>,
    replaced: HashMap<u32, u32>,
    removed_with_operands: usize,
}

impl Ir {
    fn resolve(&self, mut v: u32) -> u32 {
        while let Some(&w) = self.replaced.get(&v) {
            v = w;
        }
        v
    }
    fn live_phis(&self) -> usize {
        self.phis.len()
    }
}

impl Sink for Ir {
    type Value = u32;
    fn new_phi(&mut self, block: Block, var: Var) -> u32 {
        self.next += 1;
        let v = 1000 + self.next;
        self.phis.insert(v, (block, var, None));
        v
    }
    fn set_phi_operands(&mut self, phi: u32, _block: Block, operands: &[u32]) {
        let p = self.phis.get_mut(&phi).expect("a live phi");
        assert!(p.2.is_none(), "operands set twice");
        p.2 = Some(operands.to_vec());
    }
    fn replace_phi(&mut self, phi: u32, by: u32) {
        let p = self.phis.remove(&phi).expect("a live phi");
        self.removed_with_operands += usize::from(p.2.is_some());
        assert_ne!(phi, by);
        self.replaced.insert(phi, by);
    }
    fn undefined(&mut self, var: Var) -> u32 {
        900 + var.0
    }
}

#[test]
fn straight_line_and_a_diamond() {
    let (mut b, mut ir) = (Builder::new(), Ir::default());
    let x = b.declare_var();
    let e = b.create_block();
    b.seal_block(e, &mut ir).unwrap();
    assert_eq!(b.use_var(x, e, &mut ir).unwrap(), 900);
    b.def_var(x, e, 1).unwrap();
    assert_eq!(b.use_var(x, e, &mut ir).unwrap(), 1);
    let (t, f, j) = (b.create_block(), b.create_block(), b.create_block());
    for s in [t, f] {
        b.add_edge(e, s).unwrap();
        b.seal_block(s, &mut ir).unwrap();
    }
    b.def_var(x, t, 2).unwrap();
    b.add_edge(t, j).unwrap();
    b.add_edge(f, j).unwrap();
    b.seal_block(j, &mut ir).unwrap();
    // A sealed merge: the phi is pending until `finish`.
    let p = b.use_var(x, j, &mut ir).unwrap();
    assert!(ir.phis.contains_key(&p));
    let stats = b.finish(&mut ir).unwrap();
    assert_eq!(stats.pending, 1);
    assert_eq!(ir.phis[&p].2, Some(vec![2, 1]));
}

/// A chain of single-predecessor blocks, the variable defined at its top and read in every
/// block from the bottom up, then at the bottom again: each look-up walks at most
/// [`SHORT_WALK`] steps plus steps it memoizes, so the chain is walked once, not once per read
/// (wasmtime issue 4923's quadratic case).
#[test]
fn reads_up_a_long_chain_walk_it_once() {
    const N: usize = 2000;
    let (mut b, mut ir) = (Builder::new(), Ir::default());
    let x = b.declare_var();
    let blocks: Vec<Block> = (0..N).map(|_| b.create_block()).collect();
    b.seal_block(blocks[0], &mut ir).unwrap();
    b.def_var(x, blocks[0], 42).unwrap();
    for w in blocks.windows(2) {
        b.add_edge(w[0], w[1]).unwrap();
        b.seal_block(w[1], &mut ir).unwrap();
    }
    let reads = blocks.iter().rev().chain([&blocks[N - 1]; 100]);
    let mut n = 0;
    for &blk in reads {
        assert_eq!(b.use_var(x, blk, &mut ir).unwrap(), 42);
        n += 1;
    }
    let walked = b.stats.walked;
    assert!(
        walked <= SHORT_WALK * n + N,
        "{walked} steps for {n} reads of {N} blocks"
    );
    assert!(walked >= N - 1, "the first read walks the chain: {walked}");
    b.finish(&mut ir).unwrap();
}

#[test]
fn loop_header_phi_completed_at_sealing() {
    // entry: i = 0 ; h (unsealed): use i ; body: i = 7 -> h ; h -> exit.
    let (mut b, mut ir) = (Builder::new(), Ir::default());
    let i = b.declare_var();
    let (e, h, body, exit) = (
        b.create_block(),
        b.create_block(),
        b.create_block(),
        b.create_block(),
    );
    b.seal_block(e, &mut ir).unwrap();
    b.def_var(i, e, 5).unwrap();
    b.add_edge(e, h).unwrap();
    let p = b.use_var(i, h, &mut ir).unwrap();
    assert!(ir.phis[&p].2.is_none(), "incomplete in an unsealed block");
    b.add_edge(h, body).unwrap();
    b.seal_block(body, &mut ir).unwrap();
    b.def_var(i, body, 7).unwrap();
    b.add_edge(body, h).unwrap();
    b.seal_block(h, &mut ir).unwrap();
    assert_eq!(ir.phis[&p].2, Some(vec![5, 7]));
    b.add_edge(h, exit).unwrap();
    b.seal_block(exit, &mut ir).unwrap();
    assert_eq!(b.use_var(i, exit, &mut ir).unwrap(), p);
    b.finish(&mut ir).unwrap();
    assert_eq!(ir.live_phis(), 1);
}

#[test]
fn a_loop_that_does_not_change_the_variable_has_no_phi() {
    let (mut b, mut ir) = (Builder::new(), Ir::default());
    let x = b.declare_var();
    let (e, h, body) = (b.create_block(), b.create_block(), b.create_block());
    b.seal_block(e, &mut ir).unwrap();
    b.def_var(x, e, 3).unwrap();
    b.add_edge(e, h).unwrap();
    let p = b.use_var(x, h, &mut ir).unwrap();
    b.add_edge(h, body).unwrap();
    b.seal_block(body, &mut ir).unwrap();
    b.add_edge(body, h).unwrap();
    b.seal_block(h, &mut ir).unwrap();
    assert_eq!(ir.resolve(p), 3, "phi(3, itself) is trivial");
    b.finish(&mut ir).unwrap();
    assert_eq!(ir.live_phis(), 0);
}

#[test]
fn a_pending_phi_s_users_are_looked_at_again_when_its_replacement_goes() {
    // e -> h -> x -> {m1, m2} -> m -> h, and a dead block d -> x; v is never defined. At
    // `finish` the pending phi of m becomes x's phi, which is trivial once d is known to be
    // unreachable; then h's phi, which used the pending one, is trivial too.
    let (mut b, mut ir) = (Builder::new(), Ir::default());
    let v = b.declare_var();
    let [e, h, x, d, m1, m2, m] = [(); 7].map(|_| b.create_block());
    b.seal_block(e, &mut ir).unwrap();
    b.add_edge(e, h).unwrap();
    let at_h = b.use_var(v, h, &mut ir).unwrap();
    b.add_edge(h, x).unwrap();
    b.use_var(v, d, &mut ir).unwrap();
    b.add_edge(d, x).unwrap();
    b.use_var(v, x, &mut ir).unwrap();
    b.seal_block(x, &mut ir).unwrap();
    b.seal_block(d, &mut ir).unwrap();
    for s in [m1, m2] {
        b.add_edge(x, s).unwrap();
        b.seal_block(s, &mut ir).unwrap();
        b.add_edge(s, m).unwrap();
    }
    b.seal_block(m, &mut ir).unwrap();
    b.use_var(v, m, &mut ir).unwrap();
    b.add_edge(m, h).unwrap();
    b.seal_block(h, &mut ir).unwrap();
    assert!(
        ir.phis.contains_key(&at_h),
        "h's phi is not trivial before finish"
    );
    let stats = b.finish(&mut ir).unwrap();
    assert_eq!(stats.pending, 1);
    assert_eq!(ir.live_phis(), 0);
    assert_eq!(ir.resolve(at_h), 900);
}

#[test]
fn misuse_is_an_error() {
    let (mut b, mut ir) = (Builder::<u32>::new(), Ir::default());
    let e = b.create_block();
    assert_eq!(
        b.use_var(Var(0), e, &mut ir),
        Err(BuilderError::UnknownVar(Var(0)))
    );
    let x = b.declare_var();
    assert_eq!(
        b.def_var(x, Block(9), 1),
        Err(BuilderError::UnknownBlock(Block(9)))
    );
    let d = b.create_block();
    assert_eq!(
        b.add_edge(d, e),
        Err(BuilderError::EdgeIntoEntry { from: d })
    );
    b.seal_block(e, &mut ir).unwrap();
    assert_eq!(
        b.seal_block(e, &mut ir),
        Err(BuilderError::AlreadySealed(e))
    );
    b.seal_block(d, &mut ir).unwrap();
    assert_eq!(b.def_var(x, d, 1), Err(BuilderError::Unreachable(d)));
    assert_eq!(
        b.add_edge(e, d),
        Err(BuilderError::EdgeIntoSealed { from: e, to: d })
    );
    let u = b.create_block();
    let err = b.finish(&mut ir).unwrap_err();
    assert_eq!(err, BuilderError::Unsealed(vec![u]));
    assert!(err.to_string().contains("unsealed"));
}

/// A random program: a graph behind a fresh entry, random definitions (fresh values or a few
/// shared ones) and uses per block.
struct Prog {
    n: usize,
    entry: Block,
    succs: Vec<Vec<Block>>,
    acc: Vec<Vec<A<u32>>>,
    nv: usize,
}

impl Graph for Prog {
    fn num_blocks(&self) -> usize {
        self.n
    }
    fn entry(&self) -> Option<Block> {
        Some(self.entry)
    }
    fn successors(&self, b: Block) -> impl Iterator<Item = Block> + '_ {
        self.succs[b.index()].iter().copied()
    }
}

impl Variables for Prog {
    type Value = u32;
    fn num_vars(&self) -> usize {
        self.nv
    }
    fn accesses(&self, b: Block, out: &mut Vec<A<u32>>) {
        out.extend_from_slice(&self.acc[b.index()]);
    }
}

fn random_prog(rng: &mut Rng, reducible: bool) -> Prog {
    let m = 1 + below(rng, 14);
    let rg = random_graph(rng, m, reducible);
    let n = m + 1;
    let entry = Block::new(m);
    let mut succs = vec![Vec::new(); n];
    for &(a, b) in &rg.edges {
        succs[a.index()].push(b);
    }
    succs[m].push(rg.entry);
    let nv = 1 + below(rng, 4);
    let mut next = 10;
    let acc = (0..n)
        .map(|_| {
            (0..below(rng, 5))
                .map(|_| {
                    let v = Var(below(rng, nv) as u32);
                    next += 1;
                    if chance(rng, 1, 2) {
                        A::Use(v, next)
                    } else if chance(rng, 1, 3) {
                        A::Def(v, below(rng, 3) as u32)
                    } else {
                        A::Def(v, next)
                    }
                })
                .collect()
        })
        .collect();
    Prog {
        n,
        entry,
        succs,
        acc,
        nv,
    }
}

/// Drives `p` through the builder as a front end would; returns each use's value.
fn drive(p: &Prog, ir: &mut Ir) -> HashMap<u32, u32> {
    let cfg = crate::Cfg::new(p).unwrap();
    let mut b = Builder::new();
    for _ in 0..p.nv {
        b.declare_var();
    }
    // Block i of the builder is block order[i] of the program (the entry first).
    let mut order: Vec<Block> = cfg.reverse_postorder().to_vec();
    order.extend((0..p.n).map(Block::new).filter(|&x| !cfg.is_reachable(x)));
    let mut id = vec![Block::NONE; p.n];
    for &x in &order {
        id[x.index()] = b.create_block();
    }
    let mut filled = vec![false; p.n];
    let mut sealed = vec![false; p.n];
    let mut uses = HashMap::new();
    b.seal_block(id[p.entry.index()], ir).unwrap();
    sealed[p.entry.index()] = true;
    for &x in &order {
        let bx = id[x.index()];
        for &a in &p.acc[x.index()] {
            match a {
                A::Def(v, val) => b.def_var(v, bx, val).unwrap(),
                A::Use(v, k) => {
                    uses.insert(k, b.use_var(v, bx, ir).unwrap());
                }
                _ => unreachable!(),
            }
        }
        filled[x.index()] = true;
        for &s in &p.succs[x.index()] {
            b.add_edge(bx, id[s.index()]).unwrap();
        }
        for y in 0..p.n {
            let ready = cfg.preds(Block::new(y)).iter().all(|q| filled[q.index()]);
            if !sealed[y] && ready && (filled[y] || cfg.is_reachable(Block::new(y))) {
                b.seal_block(id[y], ir).unwrap();
                sealed[y] = true;
            }
        }
    }
    for y in 0..p.n {
        if !sealed[y] {
            b.seal_block(id[y], ir).unwrap();
        }
    }
    b.finish(ir).unwrap();
    // The builder's blocks are renumbered: map phis back to program blocks.
    let back: HashMap<Block, Block> = order.iter().map(|&x| (id[x.index()], x)).collect();
    for ph in ir.phis.values_mut() {
        ph.0 = back[&ph.0];
    }
    uses.into_iter().map(|(k, v)| (k, ir.resolve(v))).collect()
}

/// Runs random paths: what each use reads must be what a naive run reads.
fn check_paths(
    p: &Prog,
    ir: &Ir,
    uses: &HashMap<u32, u32>,
    preds_of: &dyn Fn(Block) -> Vec<Block>,
    rng: &mut Rng,
) {
    let phis_at = |blk: Block| -> Vec<(u32, Var, Vec<u32>)> {
        let mut v: Vec<_> = (ir.phis.iter())
            .filter(|(_, ph)| ph.0 == blk)
            .map(|(&k, ph)| (k, ph.1, ph.2.clone().expect("operands")))
            .collect();
        v.sort();
        v
    };
    for _ in 0..15 {
        let mut state: Vec<u32> = (0..p.nv).map(|v| 900 + v as u32).collect();
        let mut env: HashMap<u32, u32> = HashMap::new();
        let mut bb = p.entry;
        let val = |env: &HashMap<u32, u32>, v: u32| {
            env.get(&ir.resolve(v)).copied().unwrap_or(ir.resolve(v))
        };
        for _ in 0..50 {
            for &a in &p.acc[bb.index()] {
                match a {
                    A::Def(v, x) => state[v.index()] = x,
                    A::Use(v, k) => {
                        let got = val(&env, uses[&k]);
                        assert_eq!(got, state[v.index()], "use {k} of {v} in {bb}");
                    }
                    _ => {}
                }
            }
            let succs = &p.succs[bb.index()];
            if succs.is_empty() {
                break;
            }
            let s = succs[below(rng, succs.len())];
            let k = preds_of(s).iter().position(|&q| q == bb).unwrap();
            let new: Vec<(u32, u32)> = phis_at(s)
                .into_iter()
                .map(|(ph, _, ops)| (ph, val(&env, ops[k])))
                .collect();
            env.extend(new);
            bb = s;
        }
    }
}

#[test]
fn random_programs_read_what_a_naive_run_reads() {
    crate::testing::property(1500, |r| {
        let mut rng = r.clone();
        let seed = rng.next_u64();
        let reducible = seed % 2 == 0;
        let p = random_prog(&mut rng, reducible);
        let mut ir = Ir::default();
        let uses = drive(&p, &mut ir);
        // Operand order: the order edges were added (predecessors in the front end's order).
        let cfg = crate::Cfg::new(&p).unwrap();
        let mut order: Vec<Block> = cfg.reverse_postorder().to_vec();
        order.extend((0..p.n).map(Block::new).filter(|&x| !cfg.is_reachable(x)));
        let preds_of = |s: Block| -> Vec<Block> {
            let mut v = Vec::new();
            for &x in &order {
                for &t in &p.succs[x.index()] {
                    if t == s {
                        v.push(x);
                    }
                }
            }
            v
        };
        check_paths(&p, &ir, &uses, &preds_of, &mut Rng::new(seed));
        if reducible {
            let whole = build(&p, &crate::construct::Options::default()).unwrap();
            let live_reachable = ir.phis.values().filter(|ph| cfg.is_reachable(ph.0)).count();
            let whole_reachable = whole
                .phis()
                .iter()
                .filter(|ph| cfg.is_reachable(ph.block))
                .count();
            assert_eq!(live_reachable, whole_reachable, "seed {seed}: phi counts");
        }
    });
}
