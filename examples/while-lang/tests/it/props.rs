//! Property tests over generated programs: the printer/parser round trip, termination of
//! bounded programs, and the naive compilation run as toy-ir against the tree-walking
//! evaluator (identical outcomes with equal fuel, including runs cut short by fuel).

use while_lang::gen::{self, Config};
use while_lang::{compile, eval, parse};

#[test]
fn printed_programs_parse_back_equal() {
    arbtest::arbtest(|u| {
        let cfg = Config {
            wild_loops: u.arbitrary()?,
            ..Config::default()
        };
        let p = gen::program(u, &cfg)?;
        let text = p.to_string();
        let back = parse(&text).unwrap_or_else(|e| panic!("{}", e.render("generated.w", &text)));
        assert_eq!(back, p, "\n{text}");
        Ok(())
    })
    .budget_ms(1_000);
}

#[test]
fn bounded_programs_finish_within_the_fuel_bound() {
    arbtest::arbtest(|u| {
        let cfg = Config::default();
        let p = gen::program(u, &cfg)?;
        let out = eval(&p, cfg.fuel_bound()).unwrap();
        assert!(!out.out_of_fuel, "ran out of fuel\n{p}");
        Ok(())
    })
    .budget_ms(1_000);
}

#[test]
fn naive_compilation_behaves_like_the_evaluator() {
    arbtest::arbtest(|u| {
        let cfg = Config {
            wild_loops: u.ratio(1, 4)?,
            ..Config::default()
        };
        let p = gen::program(u, &cfg)?;
        // Small fuel now and then, so that runs cut short are compared too.
        let fuel = if u.ratio(1, 4)? {
            u.int_in_range(0..=30)?
        } else {
            5_000
        };
        let f = compile(&p).unwrap();
        toy_ir::verify(&f).unwrap_or_else(|e| panic!("{e:?}\n{p}\n{f}"));
        let want = eval(&p, fuel).unwrap();
        let got = toy_ir::run(&f, &[], fuel).unwrap_or_else(|e| panic!("{e}\n{p}\n{f}"));
        assert_eq!(got, want, "\n{p}\n{f}");
        Ok(())
    })
    .budget_ms(2_000);
}

#[test]
fn arbitrary_text_never_panics() {
    arbtest::arbtest(|u| {
        let pieces = [
            "x",
            "=",
            "1",
            ";",
            "if",
            "(",
            ")",
            "{",
            "}",
            "else",
            "while",
            "break",
            "continue",
            "print",
            "return",
            "+",
            "-",
            "!",
            "&&",
            "||",
            "<",
            "==",
            "/",
            "\n",
            " ",
            "//",
            "&",
            "9223372036854775808",
        ];
        let mut text = String::new();
        for _ in 0..u.int_in_range(0..=80)? {
            text.push_str(u.choose(&pieces)?);
        }
        match parse(&text) {
            Ok(p) => {
                assert_eq!(parse(&p.to_string()).unwrap(), p);
                let out = eval(&p, 100).unwrap();
                assert_eq!(toy_ir::run(&compile(&p).unwrap(), &[], 100).unwrap(), out);
            }
            Err(e) => {
                e.render("fuzz.w", &text);
            }
        }
        Ok(())
    })
    .budget_ms(500);
}

/// 300 programs from fixed pseudo-random bytes.
fn corpus(cfg: &Config) -> Vec<while_lang::Program> {
    let mut state = 0x9e37_79b9_7f4a_7c15_u64;
    (0..300)
        .map(|_| {
            let bytes: Vec<u8> = (0..4096)
                .map(|_| {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    (state >> 24) as u8
                })
                .collect();
            gen::program(&mut arbitrary::Unstructured::new(&bytes), cfg).unwrap()
        })
        .collect()
}

/// How deep `while` loops nest in `body`, and whether `pred` holds for some statement.
fn loop_depth(body: &[while_lang::Stmt]) -> usize {
    use while_lang::Stmt;
    body.iter()
        .map(|s| match s {
            Stmt::While(_, b) => 1 + loop_depth(b),
            Stmt::If(_, a, b) => loop_depth(a).max(loop_depth(b)),
            _ => 0,
        })
        .max()
        .unwrap_or(0)
}

fn any_stmt(body: &[while_lang::Stmt], pred: &dyn Fn(&while_lang::Stmt) -> bool) -> bool {
    use while_lang::Stmt;
    body.iter().any(|s| {
        pred(s)
            || match s {
                Stmt::While(_, b) => any_stmt(b, pred),
                Stmt::If(_, a, b) => any_stmt(a, pred) || any_stmt(b, pred),
                _ => false,
            }
    })
}

#[test]
fn generated_programs_cover_the_features() {
    use while_lang::Stmt;
    let ps = corpus(&Config::default());
    let count = |pred: &dyn Fn(&while_lang::Program) -> bool| ps.iter().filter(|p| pred(p)).count();
    let stats = [
        ("a loop", count(&|p| loop_depth(&p.body) >= 1)),
        ("nested loops", count(&|p| loop_depth(&p.body) >= 2)),
        (
            "break",
            count(&|p| any_stmt(&p.body, &|s| matches!(s, Stmt::Break))),
        ),
        (
            "continue",
            count(&|p| any_stmt(&p.body, &|s| matches!(s, Stmt::Continue))),
        ),
        (
            "if-else",
            count(&|p| {
                any_stmt(
                    &p.body,
                    &|s| matches!(s, Stmt::If(_, _, e) if !e.is_empty()),
                )
            }),
        ),
        (
            "return",
            count(&|p| any_stmt(&p.body, &|s| matches!(s, Stmt::Return(_)))),
        ),
        (
            "3+ printed values",
            count(&|p| eval(p, 100_000).unwrap().trace.len() >= 3),
        ),
        (
            "5+ printed values",
            count(&|p| eval(p, 100_000).unwrap().trace.len() >= 5),
        ),
    ];
    for (what, n) in stats {
        assert!(n >= 30, "only {n} of 300 programs have: {what} ({stats:?})");
    }
}
