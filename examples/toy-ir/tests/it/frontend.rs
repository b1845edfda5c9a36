//! The function builder on literal call sequences: the SSA text it writes with phis and with
//! block parameters (duplicate edges, a switch, a loop that changes nothing, parameters, a
//! variable read before any definition), misuse (each error, and that a refused call changes
//! nothing), and reuse for a second function.

use ssa::construct::on_the_fly::BuilderError;
use toy_ir::frontend::{FrontendError, FunctionBuilder, UNDEFINED};
use toy_ir::{run, verify_ssa, BinOp, Block, Function, Merges, Operand};

/// `x = p; if (p < 2) x = 5 (through a branch with both arms to one block) else
/// switch p { 3 => x = 6, _ => {} }; print x; return x`, built with `merges`.
fn diamond(merges: Merges) -> Function {
    let mut fb = FunctionBuilder::new(merges);
    let x = fb.declare_var();
    let p = fb.param().unwrap();
    let [entry, then_b, else_b, six, join] = [(); 5].map(|_| fb.create_block());
    fb.seal_block(entry).unwrap();
    fb.switch_to_block(entry).unwrap();
    fb.def_var(x, p.into()).unwrap();
    let c = fb.binary(BinOp::Lt, p.into(), Operand::Imm(2)).unwrap();
    fb.branch(c.into(), then_b, else_b).unwrap();
    fb.seal_block(then_b).unwrap();
    fb.seal_block(else_b).unwrap();
    fb.switch_to_block(then_b).unwrap();
    fb.def_var(x, Operand::Imm(5)).unwrap();
    fb.branch(c.into(), join, join).unwrap();
    fb.switch_to_block(else_b).unwrap();
    fb.switch(p.into(), &[(3, six)], join).unwrap();
    fb.seal_block(six).unwrap();
    fb.switch_to_block(six).unwrap();
    fb.def_var(x, Operand::Imm(6)).unwrap();
    fb.jump(join).unwrap();
    fb.seal_block(join).unwrap();
    fb.switch_to_block(join).unwrap();
    let v = fb.use_var(x).unwrap();
    fb.print(v).unwrap();
    fb.ret(v).unwrap();
    let f = fb.finish().unwrap();
    verify_ssa(&f).unwrap_or_else(|e| panic!("{e:?}\n{f}"));
    f
}

#[test]
fn a_diamond_with_a_duplicate_edge_and_a_switch() {
    let phis = "\
fn(t0)
b0:
  t1 = lt t0, 2
  br t1, b1, b2
b1:
  br t1, b4, b4
b2:
  switch t0, [3: b3], default b4
b3:
  jump b4
b4:
  t2 = phi [b1: 5], [b1: 5], [b2: t0], [b3: 6]
  print t2
  ret t2
";
    let params = "\
fn(t0)
b0:
  t1 = lt t0, 2
  br t1, b1, b2
b1:
  br t1, b4(5), b4(5)
b2:
  switch t0, [3: b3], default b4(t0)
b3:
  jump b4(6)
b4(t2):
  print t2
  ret t2
";
    for (merges, text) in [(Merges::Phis, phis), (Merges::BlockParams, params)] {
        let f = diamond(merges);
        assert_eq!(f.to_string(), text);
        for (arg, want) in [(1, 5), (3, 6), (7, 7)] {
            let out = run(&f, &[arg], 10).unwrap();
            assert_eq!((out.trace, out.result), (vec![want], Some(want)));
        }
    }
}

/// A loop whose body does not change `x`: the header's merge is trivial and goes, with its
/// arguments; `y`, read before any definition, reads 0.
fn unchanged_loop(merges: Merges) -> (Function, Operand) {
    let mut fb = FunctionBuilder::new(merges);
    let (x, y) = (fb.declare_var(), fb.declare_var());
    let [entry, header, body, exit] = [(); 4].map(|_| fb.create_block());
    fb.seal_block(entry).unwrap();
    fb.switch_to_block(entry).unwrap();
    fb.def_var(x, Operand::Imm(3)).unwrap();
    fb.jump(header).unwrap();
    fb.switch_to_block(header).unwrap();
    let h = fb.use_var(x).unwrap();
    let undefined = fb.use_var(y).unwrap();
    fb.branch(undefined, body, exit).unwrap();
    fb.seal_block(body).unwrap();
    fb.seal_block(exit).unwrap();
    fb.switch_to_block(body).unwrap();
    fb.jump(header).unwrap();
    fb.seal_block(header).unwrap();
    fb.switch_to_block(exit).unwrap();
    fb.ret(h).unwrap();
    let f = fb.finish().unwrap();
    assert_eq!(fb.stats().phis_removed, fb.stats().phis_made);
    (f, undefined)
}

#[test]
fn trivial_merges_go_with_their_arguments() {
    let text = "b0:\n  jump b1\nb1:\n  br 0, b2, b3\nb2:\n  jump b1\nb3:\n  ret 3\n";
    for merges in [Merges::Phis, Merges::BlockParams] {
        let (f, undefined) = unchanged_loop(merges);
        assert_eq!(f.to_string(), text, "{merges:?}");
        // The header was unsealed at the read of `y`: an incomplete phi, later trivial.
        assert_ne!(undefined, Operand::Temp(UNDEFINED));
    }
}

#[test]
fn a_read_with_no_definition_is_the_placeholder_until_finish() {
    let mut fb = FunctionBuilder::new(Merges::Phis);
    let x = fb.declare_var();
    let b = fb.create_block();
    fb.seal_block(b).unwrap();
    fb.switch_to_block(b).unwrap();
    let v = fb.use_var(x).unwrap();
    assert_eq!(v, Operand::Temp(UNDEFINED));
    let t = fb.binary(BinOp::Add, v, Operand::Imm(1)).unwrap();
    fb.ret(t.into()).unwrap();
    assert_eq!(
        fb.finish().unwrap().to_string(),
        "b0:\n  t0 = add 0, 1\n  ret t0\n"
    );
}

#[test]
fn misuse_is_an_error_and_changes_nothing() {
    let mut fb = FunctionBuilder::new(Merges::BlockParams);
    let unknown = |b: u32| FrontendError::Builder(BuilderError::UnknownBlock(ssa::Block(b)));
    assert_eq!(fb.finish(), Err(FrontendError::NoBlocks));
    assert_eq!(fb.iconst(1), Err(FrontendError::NoCurrentBlock));
    assert_eq!(fb.switch_to_block(Block(0)), Err(unknown(0)));
    let [entry, a, dead] = [(); 3].map(|_| fb.create_block());
    assert_eq!(fb.seal_block(Block(3)), Err(unknown(3)));
    fb.switch_to_block(entry).unwrap();
    let x = fb.declare_var();
    let unknown_var = FrontendError::Builder(BuilderError::UnknownVar(ssa::construct::Var(1)));
    assert_eq!(fb.use_var(toy_ir::Var(1)), Err(unknown_var));
    // A branch with one bad target reports no edge at all.
    assert_eq!(fb.branch(Operand::Imm(1), a, Block(9)), Err(unknown(9)));
    let into_entry = BuilderError::EdgeIntoEntry {
        from: ssa::Block(0),
    };
    assert_eq!(fb.jump(entry), Err(into_entry.into()));
    fb.seal_block(dead).unwrap();
    let into_sealed = BuilderError::EdgeIntoSealed {
        from: ssa::Block(0),
        to: ssa::Block(2),
    };
    assert_eq!(fb.branch(Operand::Imm(1), a, dead), Err(into_sealed.into()));
    fb.def_var(x, Operand::Imm(4)).unwrap();
    fb.jump(a).unwrap();
    assert_eq!(
        fb.print(Operand::Imm(1)),
        Err(FrontendError::Terminated(entry))
    );
    fb.switch_to_block(dead).unwrap();
    let unreachable = FrontendError::Builder(BuilderError::Unreachable(ssa::Block(2)));
    assert_eq!(fb.iconst(1), Err(unreachable.clone()));
    assert_eq!(fb.use_var(x), Err(unreachable));
    assert_eq!(
        fb.seal_block(dead),
        Err(BuilderError::AlreadySealed(ssa::Block(2)).into())
    );
    let err = fb.finish().unwrap_err();
    assert_eq!(err, FrontendError::Unterminated(vec![a, dead]));
    assert!(err.to_string().contains("b1 b2"), "{err}");
    fb.switch_to_block(a).unwrap();
    let v = fb.use_var(x).unwrap();
    fb.ret(v).unwrap();
    // `dead` can take no terminator either: a function cannot contain it.
    assert!(fb.finish().is_err());
    assert!(!fb.is_sealed(a) && fb.is_terminated(a));
    fb.seal_block(a).unwrap();
    assert!(fb.is_sealed(a));
}

#[test]
fn the_builder_is_reusable() {
    let mut fb = FunctionBuilder::new(Merges::Phis);
    for _ in 0..2 {
        let x = fb.declare_var();
        let b = fb.create_block();
        fb.seal_block(b).unwrap();
        fb.switch_to_block(b).unwrap();
        fb.def_var(x, Operand::Imm(2)).unwrap();
        let v = fb.use_var(x).unwrap();
        let t = fb.copy(v).unwrap();
        fb.ret(t.into()).unwrap();
        assert_eq!(
            fb.finish().unwrap().to_string(),
            "b0:\n  t0 = copy 2\n  ret t0\n"
        );
        assert_eq!(fb.current_block(), None);
    }
}

/// The builder holds operands packed in 32 bits, immediates and huge temps in a side table:
/// equal immediates must still be equal values (a merge of 7 and 7 is trivial), and any
/// operand must come back as it went in.
#[test]
fn immediates_and_huge_temps_come_back_as_they_went_in() {
    for merges in [Merges::Phis, Merges::BlockParams] {
        let mut fb = FunctionBuilder::new(merges);
        let (x, y) = (fb.declare_var(), fb.declare_var());
        let p = fb.param().unwrap();
        let [entry, a, b, join] = [(); 4].map(|_| fb.create_block());
        fb.seal_block(entry).unwrap();
        fb.switch_to_block(entry).unwrap();
        let huge = Operand::Temp(toy_ir::Temp(3_000_000_000));
        fb.def_var(y, huge).unwrap();
        assert_eq!(fb.use_var(y).unwrap(), huge);
        fb.def_var(y, Operand::Imm(i64::MIN)).unwrap();
        assert_eq!(fb.use_var(y).unwrap(), Operand::Imm(i64::MIN));
        fb.branch(p.into(), a, b).unwrap();
        for (blk, arm) in [(a, 7), (b, 7)] {
            fb.seal_block(blk).unwrap();
            fb.switch_to_block(blk).unwrap();
            fb.def_var(x, Operand::Imm(arm)).unwrap();
            fb.jump(join).unwrap();
        }
        fb.seal_block(join).unwrap();
        fb.switch_to_block(join).unwrap();
        let seven = fb.use_var(x).unwrap();
        fb.print(seven).unwrap();
        let v = fb.use_var(y).unwrap();
        fb.ret(v).unwrap();
        let f = fb.finish().unwrap();
        let s = fb.stats();
        assert_eq!(s.phis_made, s.phis_removed, "{merges:?}: {f}");
        assert!(f.blocks.iter().all(|d| d.params.is_empty()), "{f}");
        let out = run(&f, &[1], 100).unwrap();
        assert_eq!((out.trace, out.result), (vec![7], Some(i64::MIN)));
    }
}
