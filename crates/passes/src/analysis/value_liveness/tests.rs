//! SSA value liveness: literal cases, and random strict-SSA functions against the data-flow
//! fixpoint.

use super::*;
use crate::analysis::testutil::function_from_edges;
use llvm_ir::ir::{FuncBuilder, Module, Text};
use ssa::testing::{b, below, chance, random_graph, Rng};
use ssa::DomTree;

/// Per-value live-in / live-out sets by the textbook equations, iterated to the least fixpoint:
/// `LiveOut(b) = ∪ LiveIn(s) ∪ PhiUses(b)`, `LiveIn(b) = UEVar(b) ∪ (LiveOut(b) − Defs(b))`.
fn oracle(func: &Function, g: &Cfg) -> (Vec<Vec<bool>>, Vec<Vec<bool>>) {
    let (nb, nv) = (g.num_block_ids(), func.dfg.values.len());
    let (def_block, _) = definitions(func, g);
    let tracked = |v: Value| !def_block[v.index()].is_none();
    let mut defs = vec![vec![false; nv]; nb];
    let mut ue = vec![vec![false; nv]; nb];
    let mut phi_uses = vec![vec![false; nv]; nb];
    if let Some(e) = g.entry() {
        for &p in &func.params {
            defs[e.index()][p.index()] = true;
        }
    }
    for &blk in g.blocks() {
        for inst in func.layout.block_insts(blk) {
            let vals = func.dfg.inst_values(inst);
            if func.dfg.opcode(inst) == Opcode::Phi {
                for (&v, &from) in vals.iter().zip(func.dfg.inst_blocks(inst)) {
                    if tracked(v) {
                        phi_uses[from.index()][v.index()] = true;
                    }
                }
            } else {
                for &v in vals {
                    if tracked(v) && !defs[blk.index()][v.index()] {
                        ue[blk.index()][v.index()] = true;
                    }
                }
            }
            if let Some(r) = func.dfg.inst_result(inst) {
                defs[blk.index()][r.index()] = true;
            }
        }
    }
    let mut live_in = vec![vec![false; nv]; nb];
    let mut live_out = vec![vec![false; nv]; nb];
    let mut changed = true;
    while changed {
        changed = false;
        for &blk in g.blocks().iter().rev() {
            let i = blk.index();
            for v in 0..nv {
                let out = phi_uses[i][v] || g.succs(blk).iter().any(|s| live_in[s.index()][v]);
                let inn = ue[i][v] || (out && !defs[i][v]);
                if out != live_out[i][v] || inn != live_in[i][v] {
                    live_out[i][v] = out;
                    live_in[i][v] = inn;
                    changed = true;
                }
            }
        }
    }
    (live_in, live_out)
}

fn check_against_oracle(func: &Function, g: &Cfg, what: &str) {
    let lv = super::compute(func, g);
    let (want_in, want_out) = oracle(func, g);
    for v in 0..func.dfg.values.len() {
        let val = Value::new(v);
        let wi: Vec<Block> = (0..g.num_block_ids())
            .filter(|&i| want_in[i][v])
            .map(Block::new)
            .collect();
        let wo: Vec<Block> = (0..g.num_block_ids())
            .filter(|&i| want_out[i][v])
            .map(Block::new)
            .collect();
        assert_eq!(lv.live_in_blocks(val), &wi[..], "{what}: live-in of {val}");
        assert_eq!(
            lv.live_out_blocks(val),
            &wo[..],
            "{what}: live-out of {val}"
        );
        for &blk in &wi {
            assert!(lv.is_live_in(val, blk) && lv.live_in_values(blk).contains(&val));
        }
        for &blk in &wo {
            assert!(lv.is_live_out(val, blk) && lv.live_out_values(blk).contains(&val));
        }
    }
    for (i, wi) in want_in.iter().enumerate() {
        let blk = Block::new(i);
        assert!(lv.live_in_values(blk).windows(2).all(|w| w[0] < w[1]));
        let n_in = wi.iter().filter(|&&w| w).count();
        assert_eq!(lv.live_in_values(blk).len(), n_in, "{what}");
    }
}

/// Adds random strict-SSA code to the function `m` holds (built by `function_from_edges`, whose
/// terminators use `%c` and `%x`): phis at join points with one entry per incoming edge, and
/// `add`s whose operands are dominating values, `%x` or constants.
fn add_random_ssa(m: &mut Module, rng: &mut Rng) {
    let i32t = m.types_mut().int(32);
    let func = &mut m.functions[llvm_ir::ir::FuncId(0)];
    let g = llvm_ir::ir::cfg::cfg_of(func);
    let dt = DomTree::compute(&g);
    let x = func.params[1];
    let one = func.dfg.constant(i32t, "1");
    let mut defined: Vec<Vec<Value>> = vec![Vec::new(); g.num_block_ids()];
    let mut phis: Vec<(Inst, Block)> = Vec::new();
    let mut fb = FuncBuilder::new(func);
    let order: Vec<Block> = dt
        .preorder()
        .iter()
        .copied()
        .chain(g.blocks().iter().copied().filter(|&b| !g.is_reachable(b)))
        .collect();
    for blk in order {
        let term = fb.func.layout.last_inst(blk).unwrap();
        let mut avail = vec![x];
        let mut d = dt.idom(blk);
        while let Some(y) = d {
            avail.extend_from_slice(&defined[y.index()]);
            d = dt.idom(y);
        }
        if g.is_reachable(blk) && !g.preds(blk).is_empty() {
            for _ in 0..below(rng, 3) {
                let phi = fb.make_phi(i32t, &[], Text::NONE);
                fb.func.layout.insert_inst_before(phi, term);
                let r = fb.func.dfg.inst_result(phi).unwrap();
                defined[blk.index()].push(r);
                avail.push(r);
                phis.push((phi, blk));
            }
        }
        for _ in 0..below(rng, 4) {
            let op = |rng: &mut Rng| {
                if chance(rng, 1, 5) {
                    one
                } else if g.is_reachable(blk) {
                    avail[below(rng, avail.len())]
                } else {
                    x
                }
            };
            let (a, c) = (op(rng), op(rng));
            let add = fb.make_binary(Opcode::Add, a, c, Text::NONE);
            fb.func.layout.insert_inst_before(add, term);
            let r = fb.func.dfg.inst_result(add).unwrap();
            defined[blk.index()].push(r);
            avail.push(r);
        }
    }
    for (phi, blk) in phis {
        let incoming: Vec<(Value, Block)> = g
            .preds(blk)
            .iter()
            .map(|&p| {
                let mut avail = vec![x, one];
                let mut d = Some(p).filter(|&p| g.is_reachable(p));
                while let Some(y) = d {
                    avail.extend_from_slice(&defined[y.index()]);
                    d = dt.idom(y);
                }
                (avail[below(rng, avail.len())], p)
            })
            .collect();
        fb.set_phi_incoming(phi, &incoming);
    }
}

#[test]
fn values_in_a_loop() {
    // entry: br %header ; header: %i = phi [%x, entry], [%n, body]; br %c, body, exit ;
    // body: %n = add %i, 1; br header ; exit: ret.
    let mut m = function_from_edges(
        4,
        b(0),
        &[(b(0), b(1)), (b(1), b(2)), (b(1), b(3)), (b(2), b(1))],
    );
    let i32t = m.types_mut().int(32);
    let func = &mut m.functions[llvm_ir::ir::FuncId(0)];
    let x = func.params[1];
    let one = func.dfg.constant(i32t, "1");
    let mut fb = FuncBuilder::new(func);
    let phi = fb.make_phi(i32t, &[], Text::NONE);
    let i = fb.func.dfg.inst_result(phi).unwrap();
    let add = fb.make_binary(Opcode::Add, i, one, Text::NONE);
    let n = fb.func.dfg.inst_result(add).unwrap();
    fb.set_phi_incoming(phi, &[(x, b(0)), (n, b(2))]);
    let (t1, t2) = (
        fb.func.layout.last_inst(b(1)).unwrap(),
        fb.func.layout.last_inst(b(2)).unwrap(),
    );
    fb.func.layout.insert_inst_before(phi, t1);
    fb.func.layout.insert_inst_before(add, t2);
    let g = llvm_ir::ir::cfg::cfg_of(func);
    let lv = super::compute(func, &g);
    // %x: used by the phi at the end of entry (and %x, %c are params used by terminators).
    assert_eq!(lv.live_out_blocks(x), &[b(0)]);
    assert!(lv.live_in_blocks(x).is_empty());
    // %i: defined at the head of header, used in body.
    assert_eq!(lv.live_in_blocks(i), &[b(2)]);
    assert_eq!(lv.live_out_blocks(i), &[b(1)]);
    // %n: used by the phi at the end of body, where it is defined.
    assert_eq!(lv.live_out_blocks(n), &[b(2)]);
    assert!(lv.live_in_blocks(n).is_empty());
    // %c is used by header's branch: live through the loop.
    let c = func.params[0];
    assert_eq!(lv.live_in_blocks(c), &[b(1), b(2)]);
    assert_eq!(lv.live_out_blocks(c), &[b(0), b(1), b(2)]);
    assert_eq!(lv.live_in_values(b(2)), &[c, i]);
    assert!(lv.live_in_blocks(one).is_empty());
    check_against_oracle(func, &g, "loop");
}

#[test]
fn use_before_def_in_unreachable_cycle() {
    // 0 -> 1 ; 2 <-> 3 unreachable, with `%a = add %b, 1` before `%b = add %a, 1` in 2.
    let mut m = function_from_edges(4, b(0), &[(b(0), b(1)), (b(2), b(3)), (b(3), b(2))]);
    let i32t = m.types_mut().int(32);
    let func = &mut m.functions[llvm_ir::ir::FuncId(0)];
    let one = func.dfg.constant(i32t, "1");
    let mut fb = FuncBuilder::new(func);
    let a_inst = fb.make_binary(Opcode::Add, one, one, Text::NONE);
    let a = fb.func.dfg.inst_result(a_inst).unwrap();
    let b_inst = fb.make_binary(Opcode::Add, a, one, Text::NONE);
    let bv = fb.func.dfg.inst_result(b_inst).unwrap();
    fb.func.dfg.inst_values_mut(a_inst)[0] = bv;
    let t = fb.func.layout.last_inst(b(2)).unwrap();
    fb.func.layout.insert_inst_before(a_inst, t);
    fb.func.layout.insert_inst_before(b_inst, t);
    let g = llvm_ir::ir::cfg::cfg_of(func);
    let lv = super::compute(func, &g);
    assert_eq!(lv.live_in_blocks(bv), &[b(2), b(3)]);
    assert_eq!(lv.live_out_blocks(bv), &[b(2), b(3)]);
    assert!(lv.live_in_blocks(a).is_empty());
}

/// One random function (`reducible`: from the reducible generator) drawn from `rng`: its CFG
/// is the generator's, and value liveness matches the fixpoint oracle.
fn check_random_function(rng: &mut Rng<'_>, reducible: bool) {
    let n = 1 + below(rng, 40);
    let rg = random_graph(rng, n, reducible);
    // function_from_edges lays out the entry first and numbers blocks by id, as from_edges.
    let mut m = function_from_edges(rg.n, rg.entry, &rg.edges);
    let func = &m.functions[llvm_ir::ir::FuncId(0)];
    let g = llvm_ir::ir::cfg::cfg_of(func);
    let want = rg.cfg();
    assert_eq!(g.blocks(), want.blocks());
    for &blk in g.blocks() {
        assert_eq!(g.succs(blk), want.succs(blk));
        assert_eq!(g.preds(blk), want.preds(blk));
    }
    add_random_ssa(&mut m, rng);
    let func = &m.functions[llvm_ir::ir::FuncId(0)];
    check_against_oracle(func, &g, "random function");
}

/// The property under arbtest: a failure shrinks to a minimal function and prints the seed
/// that replays it.
#[test]
fn values_match_fixpoint_on_random_functions() {
    arbtest::arbtest(|u| {
        let reducible = u.arbitrary::<bool>()?;
        check_random_function(&mut Rng::from_bytes(u.bytes(u.len())?), reducible);
        Ok(())
    })
    .budget_ms(1000);
}
