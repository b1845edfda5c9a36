//! While-language programs through the whole pipeline: source, naive compilation to pre-SSA
//! toy-ir, SSA construction (`toy_ir::to_ssa`, every placement method, folding on and off,
//! phis and block parameters, budgets), run: the outcome must equal the tree-walking
//! evaluator's, with equal fuel (runs cut short included).

use toy_ir::construct::{construct, ConstructOptions, Merges, Method};
use while_lang::gen::{self, Config};
use while_lang::{compile, eval, parse, Program};

/// Every combination of merges, method and folding, then two budgets.
fn option_sets() -> Vec<ConstructOptions> {
    let mut all = Vec::new();
    for merges in [Merges::Phis, Merges::BlockParams] {
        for method in [
            Method::Bounded,
            Method::Exact,
            Method::SemiPruned,
            Method::Minimal,
        ] {
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
    all.push(ConstructOptions {
        max_promoted: Some(2),
        ..ConstructOptions::default()
    });
    all.push(ConstructOptions {
        merges: Merges::BlockParams,
        phi_copy_budget: Some(6),
        ..ConstructOptions::default()
    });
    all
}

/// Compiles `p`, puts it in SSA form every way, and checks each run against the evaluator.
fn check(p: &Program, fuel: u64) {
    let want = eval(p, fuel).unwrap();
    let f = compile(p).unwrap();
    for opts in option_sets() {
        let c = construct(&f, &opts).unwrap_or_else(|e| panic!("{opts:?}: {e}\n{p}\n{f}"));
        let g = &c.function;
        toy_ir::verify(g).unwrap_or_else(|e| panic!("{opts:?}: {e:?}\n{p}\n{g}"));
        if c.unpromoted.is_empty() {
            toy_ir::verify_ssa(g).unwrap_or_else(|e| panic!("{opts:?}: {e:?}\n{p}\n{g}"));
        }
        let got = toy_ir::run(g, &[], fuel).unwrap_or_else(|e| panic!("{opts:?}: {e}\n{p}\n{g}"));
        assert_eq!(got, want, "{opts:?}, fuel {fuel}\n{p}\n{f}\n{g}");
    }
}

#[test]
fn ssa_form_of_the_naive_compilation_behaves_like_the_evaluator() {
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

#[test]
fn literal_programs_in_ssa_form() {
    let programs = [
        // A counter, a swap through a temporary, a read before any write.
        "i = 0; a = 1; b = 2; while (i < 3) { t = a; a = b; b = t; i = i + 1; print a; } \
         print u; return b;",
        // break and continue, && and || (hidden variables), code after return.
        "i = 0; s = 0; while (1) { i = i + 1; if (i % 2 == 0 && i < 7) { continue; } \
         if (i > 9 || s > 20) { break; } s = s + i; print s; } return s; print i;",
        // Nested loops, a variable assigned only inside the inner one.
        "i = 0; while (i < 3) { j = 0; while (j < i) { k = k + j; j = j + 1; } i = i + 1; } \
         print k; return j;",
    ];
    for src in programs {
        let p = parse(src).unwrap_or_else(|e| panic!("{}", e.render("test.w", src)));
        for fuel in [0, 1, 3, 7, 1_000] {
            check(&p, fuel);
        }
    }
}
