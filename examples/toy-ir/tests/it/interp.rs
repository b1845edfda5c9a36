//! The interpreter on literal programs: the samples' stated outcomes, the fuel rule, the total
//! arithmetic, and the run-time errors of malformed IR.

use toy_ir::samples::{self, Sample};
use toy_ir::{parse, run, verify, verify_ssa, BinOp, Outcome, RunErrorKind};

fn run_text(text: &str, args: &[i64], fuel: u64) -> Outcome {
    let f = parse(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    run(&f, args, fuel).unwrap_or_else(|e| panic!("{e}\n{f}"))
}

#[test]
fn samples_produce_their_stated_outcomes() {
    for s in samples::ALL {
        let f = parse(s.text).unwrap_or_else(|e| panic!("{}: {e}", s.name));
        let check = if s.ssa { verify_ssa(&f) } else { verify(&f) };
        check.unwrap_or_else(|e| panic!("{}: {e:?}", s.name));
        let out = run(&f, s.args, Sample::FUEL).unwrap();
        let want = Outcome {
            trace: s.trace.to_vec(),
            result: Some(s.result),
            out_of_fuel: false,
        };
        assert_eq!(out, want, "{}", s.name);
    }
}

#[test]
fn unwritten_variable_reads_zero() {
    let out = run_text("b0:\n  t0 = read v7\n  print t0\n  ret t0\n", &[], 10);
    assert_eq!((out.trace, out.result), (vec![0], Some(0)));
}

#[test]
fn arithmetic_is_total_and_wrapping() {
    let cases = [
        (BinOp::Div, 7, 0, 0),
        (BinOp::Rem, 7, 0, 0),
        (BinOp::Div, i64::MIN, -1, i64::MIN),
        (BinOp::Rem, i64::MIN, -1, 0),
        (BinOp::Div, -7, 2, -3),
        (BinOp::Rem, -7, 2, -1),
        (BinOp::Add, i64::MAX, 1, i64::MIN),
        (BinOp::Sub, i64::MIN, 1, i64::MAX),
        (BinOp::Mul, i64::MAX, 2, -2),
        (BinOp::Shl, 1, 65, 2),
        (BinOp::Shr, -8, 1, -4),
        (BinOp::Shr, 8, -1, 0),
        (BinOp::Lt, -1, 0, 1),
        (BinOp::Ge, 3, 3, 1),
        (BinOp::Ne, 3, 3, 0),
    ];
    for (op, a, b, want) in cases {
        assert_eq!(op.eval(a, b), want, "{} {a}, {b}", op.name());
        let text = format!("b0:\n  t0 = {} {a}, {b}\n  ret t0\n", op.name());
        assert_eq!(run_text(&text, &[], 10).result, Some(want), "{text}");
    }
}

#[test]
fn function_parameters_take_the_arguments() {
    let out = run_text(
        "fn(t0, t1)\nb0:\n  t2 = sub t0, t1\n  ret t2\n",
        &[10, 3],
        10,
    );
    assert_eq!(out.result, Some(7));
}

#[test]
fn phis_read_their_arguments_in_parallel() {
    // Rotation of three values through one edge, with no temporary in the source.
    let text = "\
b0:
  jump b1
b1:
  t1 = phi [b0: 1], [b1: t2]
  t2 = phi [b0: 2], [b1: t3]
  t3 = phi [b0: 3], [b1: t1]
  t4 = phi [b0: 0], [b1: t5]
  t5 = add t4, 1
  print t1
  t6 = lt t5, 4
  br t6, b1, b2
b2:
  ret t3
";
    let out = run_text(text, &[], 100);
    assert_eq!((out.trace, out.result), (vec![1, 2, 3, 1], Some(3)));
}

#[test]
fn fuel_counts_non_synthetic_block_entries_and_prints() {
    // b0 (1) + print (2) + b1 synthetic (free) + b2 (3) + print (4).
    let text = "b0:\n  print 1\n  jump b1\nb1 synthetic:\n  jump b2\nb2:\n  print 2\n  ret 0\n";
    let done = Outcome {
        trace: vec![1, 2],
        result: Some(0),
        out_of_fuel: false,
    };
    assert_eq!(run_text(text, &[], 4), done);
    let stopped = |trace: Vec<i64>| Outcome {
        trace,
        result: None,
        out_of_fuel: true,
    };
    assert_eq!(run_text(text, &[], 3), stopped(vec![1]));
    assert_eq!(run_text(text, &[], 2), stopped(vec![1]));
    assert_eq!(run_text(text, &[], 1), stopped(vec![]));
    assert_eq!(run_text(text, &[], 0), stopped(vec![]));
}

#[test]
fn an_endless_loop_runs_out_of_fuel() {
    let out = run_text("b0:\n  jump b1\nb1:\n  print 5\n  jump b1\n", &[], 7);
    assert_eq!(
        out,
        Outcome {
            trace: vec![5, 5, 5],
            result: None,
            out_of_fuel: true
        }
    );
}

#[test]
fn outcomes_agree_up_to_fuel() {
    let done = Outcome {
        trace: vec![1, 2, 3],
        result: Some(0),
        out_of_fuel: false,
    };
    let cut = Outcome {
        trace: vec![1, 2],
        result: None,
        out_of_fuel: true,
    };
    let wrong = Outcome {
        trace: vec![1, 3],
        result: None,
        out_of_fuel: true,
    };
    let other_result = Outcome {
        result: Some(1),
        ..done.clone()
    };
    assert!(done.agrees_with(&done) && cut.agrees_with(&done) && done.agrees_with(&cut));
    assert!(!cut.agrees_with(&wrong) && !done.agrees_with(&other_result));
    assert!(cut.agrees_with(&Outcome {
        out_of_fuel: true,
        ..done.clone()
    }));
}

fn run_error(text: &str, args: &[i64]) -> RunErrorKind {
    let f = parse(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    run(&f, args, 100).expect_err(text).kind
}

#[test]
fn malformed_ir_gives_run_errors_not_panics() {
    use RunErrorKind as K;
    assert_eq!(run_error("", &[]), K::NoBlocks);
    assert_eq!(
        run_error("fn(t0)\nb0:\n  ret t0\n", &[]),
        K::ArgCount { params: 1, args: 0 }
    );
    assert_eq!(
        run_error("b0:\n  print t3\n  ret 0\n", &[]),
        K::UndefinedTemp(toy_ir::Temp(3))
    );
    assert_eq!(
        run_error("b0:\n  jump b9\n", &[]),
        K::BlockOutOfRange(toy_ir::Block(9))
    );
    assert_eq!(run_error("b0:\n  print 1\n", &[]), K::MissingTerminator);
    let missing_arg = "b0:\n  jump b1\nb1:\n  t0 = phi [b2: 1]\n  ret t0\nb2:\n  jump b1\n";
    assert_eq!(
        run_error(missing_arg, &[]),
        K::MissingPhiArg(Some(toy_ir::Block(0)))
    );
    assert_eq!(
        run_error("b0:\n  t0 = phi\n  ret 0\n", &[]),
        K::MissingPhiArg(None)
    );
    assert_eq!(
        run_error("b0:\n  print 1\n  t0 = phi\n  ret 0\n", &[]),
        K::PhiNotAtStart
    );
    assert_eq!(
        run_error("b0:\n  jump b1(1)\nb1:\n  ret 0\n", &[]),
        K::TargetArgCount
    );
    assert_eq!(run_error("b0(t0):\n  ret t0\n", &[]), K::MergeInEntry);
    let cycle = "b0:\n  jump b1\nb1 synthetic:\n  jump b2\nb2 synthetic:\n  jump b1\n";
    assert_eq!(run_error(cycle, &[]), K::SyntheticCycle);
    assert_eq!(
        run_error("b0:\n  t2000000 = const 1\n  ret 0\n", &[]),
        K::EntityTooLarge(2_000_000)
    );
}
