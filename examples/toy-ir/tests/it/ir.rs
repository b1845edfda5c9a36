//! The CFG and rewriting API that SSA adapters build on: successor and predecessor edges
//! (duplicates kept), fresh-temp numbering, operand rewriting, the parallel copies out-of-SSA
//! plans per edge, and dominators.

use ssa::destruct::parallel_copy::Slot;
use ssa::destruct::{Loc, Place};
use toy_ir::analysis::{has_irreducible_loop, Dominators};
use toy_ir::destruct::plan;
use toy_ir::{parse, samples, Block, Function, Operand, Temp};

const DIAMOND: &str = "\
fn(t0)
b0:
  switch t0, [1: b1, 2: b1], default b2
b1:
  t1 = phi [b0: 4], [b0: 4]
  br t1, b3(t1), b3(5)
b2:
  jump b3(6)
b3(t2):
  ret t2
b4:
  jump b3(7)
";

fn blocks(ids: &[u32]) -> Vec<Block> {
    ids.iter().map(|&i| Block(i)).collect()
}

#[test]
fn successors_and_predecessor_edges_keep_duplicates() {
    let f = parse(DIAMOND).unwrap();
    assert_eq!(f.successors(Block(0)), blocks(&[1, 1, 2]));
    assert_eq!(f.successors(Block(1)), blocks(&[3, 3]));
    assert_eq!(f.successors(Block(3)), blocks(&[]));
    assert_eq!(f.successors(Block(9)), blocks(&[]));
    let preds = f.pred_edges();
    assert_eq!(preds[1], blocks(&[0, 0]));
    assert_eq!(preds[3], blocks(&[1, 1, 2, 4]));
    assert_eq!(preds[4], blocks(&[]));
}

#[test]
fn out_of_range_targets_are_skipped_by_analyses() {
    let f = parse("b0:\n  br 1, b7, b1\nb1:\n  ret 0\n").unwrap();
    assert_eq!(f.successors(Block(0)), blocks(&[1]));
    let rpo: Vec<Block> = Dominators::compute(&f).reverse_postorder().collect();
    assert_eq!(rpo, blocks(&[0, 1]));
}

#[test]
fn temp_and_var_counts_give_fresh_numbers() {
    let f = parse(DIAMOND).unwrap();
    assert_eq!(f.temp_count(), 3);
    assert_eq!(f.var_count(), 0);
    let g = parse("b0:\n  t9 = read v4\n  ret t9\n").unwrap();
    assert_eq!((g.temp_count(), g.var_count()), (10, 5));
    assert_eq!(Function::default().temp_count(), 0);
}

#[test]
fn operands_can_be_rewritten_in_place() {
    let mut f = parse(DIAMOND).unwrap();
    for data in &mut f.blocks {
        for inst in &mut data.insts {
            inst.operands_mut()
                .into_iter()
                .for_each(|o| *o = Operand::Imm(1));
        }
        if let Some(term) = &mut data.term {
            for o in term.operands_mut() {
                if *o == Operand::Temp(Temp(1)) {
                    *o = Operand::Imm(8);
                }
            }
        }
    }
    let text = f.to_string();
    assert!(text.contains("t1 = phi [b0: 1], [b0: 1]"), "{text}");
    assert!(text.contains("br 8, b3(8), b3(5)"), "{text}");
    for data in &f.blocks {
        let term = data.term.as_ref().unwrap();
        assert_eq!(term.operands().len(), term.clone().operands_mut().len());
    }
}

/// An edge's planned copies: `(pred, succ, place, [(dst, src)])`.
type Planned = (Block, Block, Place, Vec<(Operand, Operand)>);

/// The copies the out-of-SSA plan puts on each edge, with temporaries as `Temp(1000 + k)`.
fn planned_copies(f: &Function) -> Vec<Planned> {
    let p = plan(f, &|_, _| true).unwrap().plan;
    let slot = |s: Slot<Loc<Operand>>| match s {
        Slot::Loc(Loc::Val(v)) => v,
        Slot::Loc(Loc::In(k)) | Slot::Temp(k) => Operand::Temp(Temp(1000 + k)),
    };
    (p.edges.iter())
        .map(|e| {
            let moves = p.moves[e.moves.clone()]
                .iter()
                .map(|m| (slot(m.dst), slot(m.src)));
            let succ = Block::from(p.blocks[e.succ].block);
            (Block::from(e.pred), succ, e.place, moves.collect())
        })
        .collect()
}

#[test]
fn the_out_of_ssa_plan_lists_each_edge_s_parallel_copy() {
    // The two edges b1 -> b3 pass different arguments: each gets a block (b5, b6) first.
    let f = parse(DIAMOND).unwrap();
    let (t1, t2) = (Operand::Temp(Temp(1)), Operand::Temp(Temp(2)));
    let imm = Operand::Imm;
    let want = vec![
        (Block(0), Block(1), Place::Head, vec![(t1, imm(4))]),
        (Block(2), Block(3), Place::End, vec![(t2, imm(6))]),
        (Block(4), Block(3), Place::End, vec![(t2, imm(7))]),
        (Block(5), Block(3), Place::End, vec![(t2, t1)]),
        (Block(6), Block(3), Place::End, vec![(t2, imm(5))]),
    ];
    assert_eq!(planned_copies(&f), want);
    // The swap: the back edge's rotation needs one temporary; chains come first.
    let swap = parse(samples::SWAP.text).unwrap();
    let back = planned_copies(&swap).into_iter().find(|e| e.0 == Block(1));
    let t = |n| Operand::Temp(Temp(n));
    let want = vec![(t(3), t(4)), (t(1000), t(1)), (t(1), t(2)), (t(2), t(1000))];
    assert_eq!(back, Some((Block(1), Block(1), Place::Split, want)));
}

#[test]
fn dominators_ignore_unreachable_blocks() {
    let f = parse(DIAMOND).unwrap();
    let dom = Dominators::compute(&f);
    assert_eq!(dom.idom(Block(3)), Some(Block(0)));
    assert_eq!(dom.idom(Block(1)), Some(Block(0)));
    assert_eq!(dom.idom(Block(0)), None);
    assert!(!dom.is_reachable(Block(4)) && dom.idom(Block(4)).is_none());
    assert!(dom.dominates(Block(0), Block(3)) && dom.dominates(Block(3), Block(3)));
    assert!(!dom.dominates(Block(1), Block(3)) && !dom.dominates(Block(4), Block(3)));
    // Blocks out of range are unreachable too, not a panic.
    assert!(!dom.is_reachable(Block(9)) && dom.idom(Block(9)).is_none());
    assert!(!dom.dominates(Block(9), Block(3)) && !dom.dominates(Block(0), Block(9)));
    // The library's own view: the same tree, in ssa's block numbers.
    assert_eq!(dom.tree().idom(ssa::Block(3)), Some(ssa::Block(0)));
    assert_eq!(dom.cfg().rpo_number(ssa::Block(0)), Some(0));
    assert_eq!(dom.cfg().preds(ssa::Block(3)).len(), 4);
}

#[test]
fn irreducibility_is_detected() {
    for s in samples::ALL {
        let f = parse(s.text).unwrap();
        assert_eq!(
            has_irreducible_loop(&f),
            s.name == "irreducible",
            "{}",
            s.name
        );
    }
}

#[test]
fn the_function_is_an_ssa_graph_with_the_same_edges() {
    let mut texts: Vec<&str> = samples::ALL.iter().map(|s| s.text).collect();
    texts.extend([
        DIAMOND,
        "b0:\n  br 1, b7, b1\nb1:\n  ret 0\n",
        "b0:\n  jump b0\nb1:\n",
    ]);
    for text in texts {
        let f = parse(text).unwrap();
        let cfg = ssa::Cfg::new(&f).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(cfg.num_block_ids(), f.blocks.len());
        assert_eq!(cfg.entry(), Some(ssa::Block(0)));
        let preds = f.pred_edges();
        for b in f.block_ids() {
            let sb = ssa::Block::from(b);
            let succs: Vec<Block> = cfg.succs(sb).iter().map(|&s| s.into()).collect();
            assert_eq!(succs, f.successors(b), "{b}\n{text}");
            let ps: Vec<Block> = cfg.preds(sb).iter().map(|&p| p.into()).collect();
            assert_eq!(ps, preds[b.index()], "{b}\n{text}");
        }
    }
    assert_eq!(ssa::Cfg::new(&Function::default()).unwrap().entry(), None);
}
