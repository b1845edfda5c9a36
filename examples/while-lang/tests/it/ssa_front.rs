//! The SSA front end (`compile_ssa`): random programs run like the tree-walking evaluator with
//! equal fuel (runs cut short included), with phis and with block parameters, and pass
//! `verify_ssa`; literal programs give exactly the SSA text below; deep or odd hand-built trees
//! give errors or the evaluator's outcome, never a panic.

use toy_ir::Merges;
use while_lang::gen::{self, Config};
use while_lang::{compile_ssa, eval, parse, Expr, Program, SsaCompileError, Stmt, MAX_DEPTH};

/// Compiles `p` both ways and checks each run against the evaluator.
fn check(p: &Program, fuel: u64) {
    let want = eval(p, fuel).unwrap();
    for merges in [Merges::Phis, Merges::BlockParams] {
        let f = compile_ssa(p, merges).unwrap_or_else(|e| panic!("{merges:?}: {e}\n{p}"));
        toy_ir::verify_ssa(&f).unwrap_or_else(|e| panic!("{merges:?}: {e:?}\n{p}\n{f}"));
        let got =
            toy_ir::run(&f, &[], fuel).unwrap_or_else(|e| panic!("{merges:?}: {e}\n{p}\n{f}"));
        assert_eq!(got, want, "{merges:?}, fuel {fuel}\n{p}\n{f}");
    }
}

#[test]
fn random_programs_behave_like_the_evaluator() {
    arbtest::arbtest(|u| {
        let cfg = Config {
            wild_loops: u.ratio(1, 4)?,
            ..Config::default()
        };
        let p = gen::program(u, &cfg)?;
        let fuel = if u.ratio(1, 4)? {
            u.int_in_range(0..=30)?
        } else {
            5_000
        };
        check(&p, fuel);
        Ok(())
    })
    .budget_ms(3_000);
}

/// 300 programs from fixed pseudo-random bytes, so every run checks the same ones too.
#[test]
fn a_fixed_corpus_behaves_like_the_evaluator() {
    let mut state = 0x2545_f491_4f6c_dd1d_u64;
    for i in 0..300 {
        let bytes: Vec<u8> = (0..4096)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                (state >> 24) as u8
            })
            .collect();
        let cfg = Config {
            wild_loops: i % 4 == 0,
            ..Config::default()
        };
        let p = gen::program(&mut arbitrary::Unstructured::new(&bytes), &cfg).unwrap();
        for fuel in [3, 5_000] {
            check(&p, fuel);
        }
    }
}

fn ssa_text(src: &str, merges: Merges) -> String {
    let p = parse(src).unwrap_or_else(|e| panic!("{}", e.render("test.w", src)));
    for fuel in [0, 1, 3, 7, 1_000] {
        check(&p, fuel);
    }
    compile_ssa(&p, merges).unwrap().to_string()
}

#[test]
fn a_counting_loop() {
    let src = "i = 0; while (i < 3) { i = i + 1; print i; } return i;";
    let phis = "\
b0 synthetic:
  jump b1
b1:
  t0 = phi [b0: 0], [b2: t2]
  t1 = lt t0, 3
  br t1, b2, b3
b2 synthetic:
  t2 = add t0, 1
  print t2
  jump b1
b3 synthetic:
  ret t0
";
    assert_eq!(ssa_text(src, Merges::Phis), phis);
    let params = "\
b0 synthetic:
  jump b1(0)
b1(t0):
  t1 = lt t0, 3
  br t1, b2, b3
b2 synthetic:
  t2 = add t0, 1
  print t2
  jump b1(t2)
b3 synthetic:
  ret t0
";
    assert_eq!(ssa_text(src, Merges::BlockParams), params);
}

#[test]
fn if_else_and_a_short_circuit_read_before_any_write() {
    // `x` is never assigned: it reads 0, and the `&&` diamond merges its hidden variable.
    let src = "if (x > 1) { y = 1; } else { y = 2; } print y; return x && y;";
    let phis = "\
b0 synthetic:
  t0 = gt 0, 1
  br t0, b1, b2
b1 synthetic:
  jump b3
b2 synthetic:
  jump b3
b3 synthetic:
  t1 = phi [b1: 1], [b2: 2]
  print t1
  br 0, b4, b5
b4 synthetic:
  t3 = ne t1, 0
  jump b5
b5 synthetic:
  t4 = phi [b3: 0], [b4: t3]
  ret t4
";
    assert_eq!(ssa_text(src, Merges::Phis), phis);
    let params = "\
b0 synthetic:
  t0 = gt 0, 1
  br t0, b1, b2
b1 synthetic:
  jump b3(1)
b2 synthetic:
  jump b3(2)
b3(t1) synthetic:
  print t1
  br 0, b4, b5(0)
b4 synthetic:
  t3 = ne t1, 0
  jump b5(t3)
b5(t4) synthetic:
  ret t4
";
    assert_eq!(ssa_text(src, Merges::BlockParams), params);
}

#[test]
fn break_continue_and_dead_code() {
    // The loop exit merges the header's value (condition false) and the break's; nothing is
    // emitted for the statements after `break`, `continue` and `return`.
    let src = "i = 0; while (1) { i = i + 1; if (i > 3) { break; print 9; } \
               if (i == 2) { continue; i = 7; } print i; } return i; print i;";
    let phis = "\
b0 synthetic:
  jump b1
b1:
  t0 = phi [b0: 0], [b6: t1], [b7: t1]
  br 1, b2, b3
b2 synthetic:
  t1 = add t0, 1
  t2 = gt t1, 3
  br t2, b4, b5
b3 synthetic:
  t4 = phi [b1: t0], [b4: t1]
  ret t4
b4 synthetic:
  jump b3
b5 synthetic:
  t3 = eq t1, 2
  br t3, b6, b7
b6 synthetic:
  jump b1
b7 synthetic:
  print t1
  jump b1
";
    assert_eq!(ssa_text(src, Merges::Phis), phis);
}

#[test]
fn nested_loops_and_an_if_whose_arms_both_leave() {
    // After an `if` whose arms both `return`, nothing follows: no join block at all. Temps are
    // numbered in creation order, phis included (those made while the loops were open come
    // first, and the ones found trivial leave gaps).
    let src = "i = 0; while (i < 2) { j = 0; while (j < i) { k = k + j; j = j + 1; } \
               i = i + 1; } if (k) { return i; } else { return j; } print 5;";
    let phis = "\
b0 synthetic:
  jump b1
b1:
  t0 = phi [b0: 0], [b6: t9]
  t8 = phi [b0: 0], [b6: t5]
  t10 = phi [b0: 0], [b6: t2]
  t1 = lt t0, 2
  br t1, b2, b3
b2 synthetic:
  jump b4
b3 synthetic:
  br t8, b7, b8
b4:
  t2 = phi [b2: 0], [b5: t7]
  t5 = phi [b2: t8], [b5: t6]
  t4 = lt t2, t0
  br t4, b5, b6
b5 synthetic:
  t6 = add t5, t2
  t7 = add t2, 1
  jump b4
b6 synthetic:
  t9 = add t0, 1
  jump b1
b7 synthetic:
  ret t0
b8 synthetic:
  ret t10
";
    assert_eq!(ssa_text(src, Merges::Phis), phis);
}

/// `depth` nested `if (1) { ... }` around `print 1;`.
fn nested_ifs(depth: u32) -> Program {
    let mut body = vec![Stmt::Print(Expr::Num(1))];
    for _ in 1..depth {
        body = vec![Stmt::If(Expr::Num(1), body, Vec::new())];
    }
    Program { body }
}

#[test]
fn hand_built_trees_give_errors_or_the_evaluator_s_outcome() {
    let deep = nested_ifs(MAX_DEPTH + 1);
    assert_eq!(
        compile_ssa(&deep, Merges::Phis),
        Err(SsaCompileError::TooDeep)
    );
    assert!(SsaCompileError::TooDeep.to_string().contains("deeper"));
    // The deepest accepted nesting (the innermost expression at MAX_DEPTH), on a thread with
    // the default 2 MiB stack.
    let ok = std::thread::spawn(|| check(&nested_ifs(MAX_DEPTH - 1), 10));
    ok.join().unwrap();
    // `break` and `continue` outside a loop end the program with 0, as in the evaluator.
    for s in [Stmt::Break, Stmt::Continue] {
        let p = Program {
            body: vec![Stmt::Print(Expr::Num(4)), s, Stmt::Print(Expr::Num(5))],
        };
        check(&p, 10);
    }
    check(&Program::default(), 1);
}
