//! The evaluator on literal programs (each also compiled naively and run as toy-ir, which must
//! give the identical outcome), the fuel rule, and the depth limit on a 2 MiB stack.

use while_lang::{compile, eval, parse, EvalError, Expr, Outcome, Program, Stmt, MAX_DEPTH};

/// Evaluates `src`, checks the compiled version agrees exactly, and returns the outcome.
fn run(src: &str, fuel: u64) -> Outcome {
    let p = parse(src).unwrap_or_else(|e| panic!("{}", e.render("test.w", src)));
    let by_tree = eval(&p, fuel).unwrap();
    let f = compile(&p).unwrap();
    toy_ir::verify(&f).unwrap_or_else(|e| panic!("{e:?}\n{f}"));
    let by_ir = toy_ir::run(&f, &[], fuel).unwrap_or_else(|e| panic!("{e}\n{f}"));
    assert_eq!(by_ir, by_tree, "compiled version differs\n{p}\n{f}");
    by_tree
}

fn finished(src: &str) -> (Vec<i64>, i64) {
    let out = run(src, 100_000);
    assert!(!out.out_of_fuel, "{src}");
    (out.trace, out.result.unwrap())
}

#[test]
fn variables_start_at_zero_and_the_end_returns_zero() {
    assert_eq!(finished("print x; x = x + 5; print x;"), (vec![0, 5], 0));
}

#[test]
fn arithmetic_wraps_and_never_traps() {
    let src = "print 7 / 0; print 7 % 0; print -9223372036854775808 / -1; \
               print 9223372036854775807 + 1; print -7 / 2; print -7 % 2; print -(5); \
               print !0; print !7; print 3 < 4; print 4 <= 3; print 2 == 2; print 2 != 2;";
    let want = vec![0, 0, i64::MIN, i64::MIN, -3, -1, -5, 1, 0, 1, 0, 1, 0];
    assert_eq!(finished(src), (want, 0));
}

#[test]
fn logical_operators_give_zero_or_one() {
    let src = "print 5 && 7; print 5 && 0; print 0 || 0; print 0 || -3; print 0 && x / 0;";
    assert_eq!(finished(src), (vec![1, 0, 0, 1, 0], 0));
}

#[test]
fn if_else_chains() {
    let src = "x = 2; if (x == 1) { print 10; } else if (x == 2) { print 20; } else { print 30; }";
    assert_eq!(finished(src), (vec![20], 0));
}

#[test]
fn break_and_continue_in_nested_loops() {
    let src = "\
i = 0;
while (i < 4) {
    i = i + 1;
    if (i == 2) { continue; }
    j = 0;
    while (1) {
        j = j + 1;
        if (j > i) { break; }
        if (j % 2 == 0) { continue; }
        print i * 10 + j;
    }
    if (i == 3) { break; }
}
return i;
";
    assert_eq!(finished(src), (vec![11, 31, 33], 3));
}

#[test]
fn return_inside_nested_loops_and_dead_code_after_it() {
    let src = "while (1) { while (1) { x = x + 1; if (x == 3) { return x * 2; print 99; } } }";
    assert_eq!(finished(src), (vec![], 6));
    assert_eq!(finished("return 4; print 1;"), (vec![], 4));
    assert_eq!(
        finished("while (1) { break; print 1; } print 2;"),
        (vec![2], 0)
    );
}

#[test]
fn a_variable_read_before_its_first_write_on_one_path() {
    let src = "if (a) { b = 5; } print b; c = 0; while (c < 2) { print d; d = c + 10; c = c + 1; }";
    assert_eq!(finished(src), (vec![0, 0, 10], 0));
}

#[test]
fn fuel_counts_condition_evaluations_and_prints() {
    // Events: cond (1), print (2), cond (3), print (4), cond (5, false), print (6).
    let src = "i = 0; while (i < 2) { i = i + 1; print i; } print 9; return 1;";
    let done = Outcome {
        trace: vec![1, 2, 9],
        result: Some(1),
        out_of_fuel: false,
    };
    assert_eq!(run(src, 6), done);
    let cut = |trace: Vec<i64>| Outcome {
        trace,
        result: None,
        out_of_fuel: true,
    };
    assert_eq!(run(src, 5), cut(vec![1, 2]));
    assert_eq!(run(src, 4), cut(vec![1, 2]));
    assert_eq!(run(src, 3), cut(vec![1]));
    assert_eq!(run(src, 0), cut(vec![]));
    assert_eq!(
        run("return 3;", 0),
        Outcome {
            trace: vec![],
            result: Some(3),
            out_of_fuel: false
        }
    );
}

#[test]
fn an_endless_loop_runs_out_of_fuel() {
    let out = run("while (1) { print 1; }", 7);
    assert_eq!(
        out,
        Outcome {
            trace: vec![1, 1, 1],
            result: None,
            out_of_fuel: true
        }
    );
}

#[test]
fn variables_are_numbered_in_order_of_first_occurrence() {
    let p = parse("b = a; while (c) { d = b; } print e + a;").unwrap();
    assert_eq!(p.variables(), ["b", "a", "c", "d", "e"]);
}

/// `levels` nested `while (1) { ... }` around `print (1 + (1 + ...))` and `break;`, at most
/// MAX_DEPTH deep in total.
fn deepest(levels: usize, expr_levels: usize) -> String {
    let e = format!(
        "{}1{}",
        "(1 + ".repeat(expr_levels),
        ")".repeat(expr_levels)
    );
    format!(
        "{}print {e}; break;{}",
        "while (1) { ".repeat(levels),
        " }".repeat(levels)
    )
}

#[test]
fn every_walk_handles_the_depth_limit_on_a_2_mib_stack() {
    let levels = MAX_DEPTH as usize - 2; // the print at MAX_DEPTH - 1, its operand below
    let cases = [deepest(levels, 0), deepest(1, MAX_DEPTH as usize - 3)];
    for src in cases {
        let job = move || {
            let p = parse(&src).unwrap();
            let text = p.to_string();
            assert_eq!(parse(&text).unwrap(), p);
            let out = eval(&p, 1_000).unwrap();
            let f = compile(&p).unwrap();
            assert_eq!(toy_ir::run(&f, &[], 1_000).unwrap(), out);
            drop(p);
        };
        let thread = std::thread::Builder::new()
            .stack_size(2 << 20)
            .spawn(job)
            .unwrap();
        thread.join().unwrap();
    }
}

#[test]
fn hand_built_trees_beyond_the_limit_are_errors() {
    let mut e = Expr::Num(1);
    for _ in 0..MAX_DEPTH {
        e = Expr::Unary(while_lang::UnaryOp::Not, Box::new(e));
    }
    let p = Program {
        body: vec![Stmt::Print(e)],
    };
    assert_eq!(eval(&p, 10), Err(EvalError::TooDeep));
    assert_eq!(compile(&p), Err(while_lang::CompileError::TooDeep));
    let mut body = vec![Stmt::Print(Expr::Num(1))];
    for _ in 0..MAX_DEPTH {
        body = vec![Stmt::If(Expr::Num(1), body, vec![])];
    }
    let p = Program { body };
    assert_eq!(eval(&p, 10), Err(EvalError::TooDeep));
    assert_eq!(compile(&p), Err(while_lang::CompileError::TooDeep));
}
