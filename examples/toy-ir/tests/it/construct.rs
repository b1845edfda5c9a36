//! SSA construction on literal programs: every sample under every option set keeps its stated
//! outcome, the printed SSA of small programs is exactly the expected text (the spec), budgets
//! leave variables in memory, and bad input is an `Err`, never a panic.

use toy_ir::construct::{construct, ConstructError, ConstructOptions, Merges, Method};
use toy_ir::interp::MAX_ENTITY;
use toy_ir::{parse, run, samples, to_ssa, verify, verify_ssa, ErrorKind, Function, Location};
use toy_ir::{Block, Inst, Var};

const METHODS: [Method; 4] = [
    Method::Bounded,
    Method::Exact,
    Method::SemiPruned,
    Method::Minimal,
];

/// Every combination of merges, method and folding (no budgets).
fn all_options() -> Vec<ConstructOptions> {
    let mut all = Vec::new();
    for merges in [Merges::Phis, Merges::BlockParams] {
        for method in METHODS {
            for fold_trivial in [true, false] {
                all.push(ConstructOptions {
                    merges,
                    method,
                    fold_trivial,
                    ..ConstructOptions::default()
                });
            }
        }
    }
    all
}

fn ssa_text(text: &str, opts: &ConstructOptions) -> String {
    let f = parse(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let g = to_ssa(&f, opts).unwrap_or_else(|e| panic!("{e}\n{text}"));
    verify_ssa(&g).unwrap_or_else(|e| panic!("{e:?}\n{g}"));
    g.to_string()
}

fn phis() -> ConstructOptions {
    ConstructOptions::default()
}

fn params() -> ConstructOptions {
    ConstructOptions {
        merges: Merges::BlockParams,
        ..ConstructOptions::default()
    }
}

fn has_variables(f: &Function) -> bool {
    let mut insts = f.blocks.iter().flat_map(|d| &d.insts);
    insts.any(|i| matches!(i, Inst::Read { .. } | Inst::Write { .. }))
}

#[test]
fn samples_keep_their_outcome_under_every_option_set() {
    for s in samples::ALL {
        let f = parse(s.text).unwrap();
        for opts in all_options() {
            let g = to_ssa(&f, &opts).unwrap_or_else(|e| panic!("{}: {e}", s.name));
            verify_ssa(&g).unwrap_or_else(|e| panic!("{} {opts:?}: {e:?}\n{g}", s.name));
            assert!(!has_variables(&g), "{} {opts:?}\n{g}", s.name);
            let out = run(&g, s.args, samples::Sample::FUEL).unwrap();
            assert_eq!(out.trace, s.trace, "{} {opts:?}\n{g}", s.name);
            assert_eq!(out.result, Some(s.result), "{} {opts:?}\n{g}", s.name);
            // With equal fuel the runs are identical, cut short or not.
            for fuel in 0..12 {
                assert_eq!(run(&g, s.args, fuel), run(&f, s.args, fuel), "{}", s.name);
            }
        }
        // A function already in SSA form comes back unchanged.
        if s.ssa {
            assert_eq!(to_ssa(&f, &phis()).unwrap(), f, "{}", s.name);
        }
    }
}

#[test]
fn read_before_write_spec() {
    let text = samples::READ_BEFORE_WRITE.text;
    assert_eq!(
        ssa_text(text, &phis()),
        "\
b0:
  t0 = copy 0
  print t0
  br t0, b1, b2
b1:
  jump b3
b2:
  jump b3
b3:
  t3 = phi [b1: 5], [b2: 0]
  t1 = copy t3
  print t1
  t2 = copy 7
  ret t2
"
    );
    assert_eq!(
        ssa_text(text, &params()),
        "\
b0:
  t0 = copy 0
  print t0
  br t0, b1, b2
b1:
  jump b3(5)
b2:
  jump b3(0)
b3(t3):
  t1 = copy t3
  print t1
  t2 = copy 7
  ret t2
"
    );
}

#[test]
fn irreducible_loop_spec() {
    // Each entry of the loop {b1, b2} gets a phi for v0; v1 is never written: 0.
    assert_eq!(
        ssa_text(samples::IRREDUCIBLE.text, &phis()),
        "\
b0:
  t0 = copy 0
  br t0, b1, b2
b1:
  t7 = phi [b0: 0], [b2: t4]
  t1 = copy t7
  t2 = add t1, 10
  print t2
  jump b2
b2:
  t8 = phi [b0: 0], [b1: t2]
  t3 = copy t8
  t4 = add t3, 1
  print t4
  t5 = lt t4, 30
  br t5, b1, b3
b3:
  t6 = copy t4
  ret t6
"
    );
}

/// The entry is a loop header: a synthetic entry goes in front, the old blocks move up by
/// one (targets and the old phi's predecessor included).
const ENTRY_LOOP: &str = "\
b0:
  t0 = read v0
  t1 = add t0, 1
  write v0, t1
  t2 = lt t1, 3
  br t2, b0, b1
b1:
  t3 = phi [b0: t1]
  print t3
  ret t3
";

#[test]
fn entry_with_predecessors_spec() {
    assert_eq!(
        ssa_text(ENTRY_LOOP, &params()),
        "\
b0 synthetic:
  jump b1(0)
b1(t4):
  t0 = copy t4
  t1 = add t0, 1
  t2 = lt t1, 3
  br t2, b1(t1), b2
b2:
  t3 = phi [b1: t1]
  print t3
  ret t3
"
    );
    let f = parse(ENTRY_LOOP).unwrap();
    let c = construct(&f, &phis()).unwrap();
    assert!(c.entry_added && c.unpromoted.is_empty());
    assert_eq!(c.stats.promoted, 1);
    for fuel in 0..8 {
        assert_eq!(run(&c.function, &[], fuel), run(&f, &[], fuel));
    }
}

/// `v1 = v0` on both arms of a diamond, through temps: the reads of `v0` carry its value into
/// `v1`, so `v1` needs no phi of its own at the join once trivial phis are folded.
const COPY_ON_BOTH_ARMS: &str = "\
fn(t0)
b0:
  write v0, t0
  br t0, b1, b2
b1:
  t1 = read v0
  write v1, t1
  jump b3
b2:
  t2 = read v0
  write v1, t2
  jump b3
b3:
  t3 = read v1
  print t3
  ret t3
";

#[test]
fn copies_between_variables_need_no_phi() {
    assert_eq!(
        ssa_text(COPY_ON_BOTH_ARMS, &phis()),
        "\
fn(t0)
b0:
  br t0, b1, b2
b1:
  t1 = copy t0
  jump b3
b2:
  t2 = copy t0
  jump b3
b3:
  t3 = copy t0
  print t3
  ret t3
"
    );
    // Unfolded, minimal SSA keeps the phi, whose operands are both v0's value.
    let minimal = ConstructOptions {
        method: Method::Minimal,
        fold_trivial: false,
        ..phis()
    };
    let text = ssa_text(COPY_ON_BOTH_ARMS, &minimal);
    assert!(
        text.contains("t4 = phi [b1: t0], [b2: t0]\n  t3 = copy t4\n"),
        "{text}"
    );
}

#[test]
fn budgets_leave_variables_in_memory() {
    // v0 (4 accesses) and v1 (2) both need a phi at b3.
    let text = "\
fn(t0)
b0:
  br t0, b1, b2
b1:
  write v0, 1
  write v1, 1
  jump b3
b2:
  write v0, 2
  write v1, 2
  jump b3
b3:
  t1 = read v0
  t2 = read v1
  t3 = read v0
  print t1
  print t2
  ret t3
";
    let f = parse(text).unwrap();
    let one = ConstructOptions {
        max_promoted: Some(1),
        ..phis()
    };
    let c = construct(&f, &one).unwrap();
    assert_eq!(c.unpromoted, vec![Var(1)]);
    let g = &c.function;
    verify(g).unwrap();
    let b3 = g.to_string();
    assert!(
        b3.contains("t4 = phi [b1: 1], [b2: 2]\n  t1 = copy t4\n  t2 = read v1\n"),
        "{b3}"
    );
    assert!(
        b3.contains("write v1, 1") && !b3.contains("write v0"),
        "{b3}"
    );
    // A budget of two phi operands keeps one variable: equal costs drop the lower one first.
    let budget = ConstructOptions {
        phi_copy_budget: Some(2),
        ..phis()
    };
    assert_eq!(construct(&f, &budget).unwrap().unpromoted, vec![Var(0)]);
    let none = ConstructOptions {
        phi_copy_budget: Some(0),
        ..params()
    };
    let c = construct(&f, &none).unwrap();
    assert_eq!(
        (c.unpromoted, c.function),
        (vec![Var(0), Var(1)], f.clone())
    );
    for opts in [one, budget, none] {
        let g = to_ssa(&f, &opts).unwrap();
        for args in [[0], [1]] {
            assert_eq!(run(&g, &args, 100), run(&f, &args, 100));
        }
    }
}

fn err(text: &str) -> ConstructError {
    let f = parse(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    to_ssa(&f, &phis()).expect_err(text)
}

#[test]
fn bad_input_is_an_error_not_a_panic() {
    // A block without a terminator.
    let e = err("b0:\n  t0 = read v0\n  jump b1\nb1:\n  print t0\n");
    let ConstructError::Invalid(errs) = &e else {
        panic!("{e:?}");
    };
    assert_eq!(errs[0].kind, ErrorKind::MissingTerminator);
    assert_eq!(errs[0].at, Location::Term(Block(1)));
    assert_eq!(
        e.to_string(),
        "not valid pre-SSA toy-ir: b1, terminator: block has no terminator"
    );
    // A variable out of range.
    let e = err(&format!(
        "b0:\n  write v3, 1\n  t0 = read v{MAX_ENTITY}\n  ret t0\n"
    ));
    let at = Location::Inst(Block(0), 1);
    assert_eq!(
        e,
        ConstructError::VarOutOfRange {
            at,
            var: Var(MAX_ENTITY)
        }
    );
    assert!(e.to_string().contains("v1048576"), "{e}");
    let e = err("b0:\n  write v4294967295, 1\n  ret 0\n");
    assert!(matches!(e, ConstructError::VarOutOfRange { .. }), "{e:?}");
    // Temps not in SSA form: defined twice, used where the definition does not dominate.
    let e = err("b0:\n  t0 = read v0\n  t0 = read v1\n  ret t0\n");
    assert!(
        matches!(&e, ConstructError::Invalid(v) if v[0].kind == ErrorKind::MultipleDefinitions(toy_ir::Temp(0)))
    );
    let e =
        err("b0:\n  br 1, b1, b2\nb1:\n  t0 = const 1\n  jump b2\nb2:\n  write v0, t0\n  ret 0\n");
    assert!(
        matches!(&e, ConstructError::Invalid(v) if matches!(v[0].kind, ErrorKind::UseNotDominated(_)))
    );
    // A target out of range, an entry with parameters, no blocks at all.
    assert!(matches!(
        err("b0:\n  jump b9\n"),
        ConstructError::Invalid(_)
    ));
    assert!(matches!(
        err("b0(t0):\n  ret t0\n"),
        ConstructError::Invalid(_)
    ));
    let e = to_ssa(&Function::default(), &phis()).unwrap_err();
    assert!(matches!(&e, ConstructError::Invalid(v) if v[0].kind == ErrorKind::NoBlocks));
    // No temp number left for a phi.
    let text = "fn(t4294967294)\nb0:\n  br t4294967294, b1, b2\nb1:\n  write v0, 1\n  jump b2\nb2:\n  t0 = read v0\n  ret t0\n";
    assert_eq!(err(text), ConstructError::TooLarge);
}
