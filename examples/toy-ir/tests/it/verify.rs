//! The verifier reports each kind of error, where it is, and all of them at once.

use toy_ir::{parse, verify, verify_ssa, Block, ErrorKind as K, Function, Location as L, Temp};

fn errors(text: &str) -> Vec<(L, K)> {
    let f = parse(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    verify(&f)
        .expect_err(text)
        .into_iter()
        .map(|e| (e.at, e.kind))
        .collect()
}

fn ssa_errors(text: &str) -> Vec<(L, K)> {
    let f = parse(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    verify(&f).unwrap_or_else(|e| panic!("not even structurally valid: {e:?}\n{text}"));
    verify_ssa(&f)
        .expect_err(text)
        .into_iter()
        .map(|e| (e.at, e.kind))
        .collect()
}

const B0: Block = Block(0);
const B1: Block = Block(1);
const B2: Block = Block(2);

#[test]
fn no_blocks() {
    let f = Function::default();
    assert_eq!(verify(&f).unwrap_err()[0].kind, K::NoBlocks);
}

#[test]
fn block_out_of_range() {
    assert_eq!(
        errors("b0:\n  br 1, b0, b5\n"),
        [(L::Term(B0), K::BlockOutOfRange(Block(5)))]
    );
}

#[test]
fn missing_terminator() {
    assert_eq!(
        errors("b0:\n  jump b1\nb1:\n  print 1\n"),
        [(L::Term(B1), K::MissingTerminator)]
    );
}

#[test]
fn undefined_temps_in_instructions_terminators_and_arguments() {
    let text = "b0:\n  t0 = add t7, 1\n  br t8, b1(t9), b1(1)\nb1(t1):\n  ret t1\n";
    let want = [
        (L::Inst(B0, 0), K::UndefinedTemp(Temp(7))),
        (L::Term(B0), K::UndefinedTemp(Temp(8))),
        (L::Term(B0), K::UndefinedTemp(Temp(9))),
    ];
    assert_eq!(errors(text), want);
}

#[test]
fn phi_not_at_block_start() {
    let text = "b0:\n  jump b1\nb1:\n  print 1\n  t0 = phi [b0: 1]\n  ret t0\n";
    assert_eq!(errors(text), [(L::Inst(B1, 1), K::PhiNotAtStart)]);
}

#[test]
fn phi_argument_count_per_predecessor_edge() {
    // b0 reaches b2 by two edges, b1 by one; the phi names b0 once, b1 twice.
    let text = "\
b0:
  br 1, b2, b2
b1:
  jump b2
b2:
  t0 = phi [b0: 1], [b1: 2], [b1: 2]
  ret t0
";
    let want = [
        (
            L::Inst(B2, 0),
            K::PhiArgCount {
                pred: B0,
                edges: 2,
                args: 1,
            },
        ),
        (
            L::Inst(B2, 0),
            K::PhiArgCount {
                pred: B1,
                edges: 1,
                args: 2,
            },
        ),
    ];
    assert_eq!(errors(text), want);
    let not_a_pred = "b0:\n  jump b1\nb1:\n  t0 = phi [b0: 1], [b1: 2]\n  ret t0\n";
    assert_eq!(
        errors(not_a_pred),
        [(
            L::Inst(B1, 0),
            K::PhiArgCount {
                pred: B1,
                edges: 0,
                args: 1
            }
        )]
    );
}

#[test]
fn phi_values_on_duplicate_edges_must_agree() {
    let text = "b0:\n  br 1, b1, b1\nb1:\n  t0 = phi [b0: 1], [b0: 2]\n  ret t0\n";
    assert_eq!(
        errors(text),
        [(L::Inst(B1, 0), K::PhiEdgeArgsDiffer { pred: B0 })]
    );
}

#[test]
fn block_argument_count() {
    let text = "b0:\n  br 1, b1(1), b1(1, 2)\nb1(t0, t1):\n  ret t0\n";
    assert_eq!(
        errors(text),
        [(
            L::Term(B0),
            K::TargetArgCount {
                target: B1,
                params: 2,
                args: 1
            }
        )]
    );
}

#[test]
fn no_merges_in_the_entry_block() {
    let text = "b0(t0):\n  t1 = phi [b1: 1]\n  ret t0\nb1:\n  jump b0(1)\n";
    assert_eq!(
        errors(text),
        [
            (L::Block(B0), K::MergeInEntry),
            (L::Inst(B0, 0), K::MergeInEntry)
        ]
    );
}

#[test]
fn cycles_of_synthetic_blocks() {
    let text = "b0:\n  jump b1\nb1 synthetic:\n  jump b2\nb2 synthetic:\n  br 1, b1, b0\n";
    assert_eq!(errors(text), [(L::Block(B1), K::SyntheticCycle)]);
    let self_loop = "b0:\n  jump b1\nb1 synthetic:\n  jump b1\n";
    assert_eq!(errors(self_loop), [(L::Block(B1), K::SyntheticCycle)]);
    let broken = "b0:\n  jump b1\nb1 synthetic:\n  jump b2\nb2:\n  jump b1\n";
    assert!(verify(&parse(broken).unwrap()).is_ok());
}

#[test]
fn all_errors_are_reported_in_order() {
    let text = "b0:\n  print t5\n  jump b7\nb1:\n  print 1\n";
    let want = [
        (L::Inst(B0, 0), K::UndefinedTemp(Temp(5))),
        (L::Term(B0), K::BlockOutOfRange(Block(7))),
        (L::Term(B1), K::MissingTerminator),
    ];
    assert_eq!(errors(text), want);
    let f = parse(text).unwrap();
    let shown: Vec<String> = verify(&f)
        .unwrap_err()
        .iter()
        .map(ToString::to_string)
        .collect();
    let want = [
        "b0, instruction 0: t5 is used but never defined",
        "b0, terminator: target b7 does not exist",
        "b1, terminator: block has no terminator",
    ];
    assert_eq!(shown, want);
}

#[test]
fn ssa_multiple_definitions() {
    let text = "\
fn(t0)
b0:
  t0 = const 1
  jump b1(2)
b1(t0):
  t1 = const 1
  t1 = copy 2
  ret t1
";
    let want = [
        (L::Inst(B0, 0), K::MultipleDefinitions(Temp(0))),
        (L::Block(B1), K::MultipleDefinitions(Temp(0))),
        (L::Inst(B1, 1), K::MultipleDefinitions(Temp(1))),
    ];
    assert_eq!(ssa_errors(text), want);
}

#[test]
fn ssa_uses_must_be_dominated() {
    let text = "\
b0:
  t9 = add t0, 1
  t0 = const 1
  br t0, b1, b2
b1:
  t1 = const 2
  jump b2
b2:
  t2 = phi [b0: t0], [b1: t1]
  print t1
  ret t2
";
    let want = [
        (L::Inst(B0, 0), K::UseNotDominated(Temp(0))),
        (L::Inst(B2, 1), K::UseNotDominated(Temp(1))),
    ];
    assert_eq!(ssa_errors(text), want);
}

#[test]
fn ssa_phi_and_block_arguments_are_used_at_the_end_of_the_predecessor() {
    let ok = "\
b0:
  jump b1(0)
b1(t0):
  t1 = phi [b0: 5], [b1: t2]
  t2 = add t0, t1
  t3 = lt t2, 9
  br t3, b1(t2), b2
b2:
  ret t2
";
    verify_ssa(&parse(ok).unwrap()).unwrap();
    let bad = "\
b0:
  br 1, b1, b2
b1:
  t0 = const 1
  jump b3(1)
b2:
  jump b3(t0)
b3(t1):
  ret t1
";
    assert_eq!(
        ssa_errors(bad),
        [(L::Term(B2), K::UseNotDominated(Temp(0)))]
    );
}

#[test]
fn ssa_unreachable_code_is_only_required_to_define_its_temps() {
    let text = "\
b0:
  t0 = const 1
  jump b2
b1:
  print t1
  jump b2
b2:
  t1 = phi [b0: t0], [b1: t1]
  ret t1
";
    verify_ssa(&parse(text).unwrap()).unwrap();
}
