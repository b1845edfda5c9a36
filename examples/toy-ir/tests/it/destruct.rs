//! Out of SSA: the swap and lost-copy samples (exact text, with and without splitting), duplicate
//! edges with different block arguments, bad input; and property tests: random SSA programs
//! (phis, block parameters, both; swap and lost-copy patterns planted) and pre-SSA programs put
//! in SSA form (whole-function and on the fly) then taken out again run exactly like the
//! original with equal fuel, also when `can_split` refuses edges (the fallback).

use arbitrary::Unstructured;
use toy_ir::construct::{ConstructOptions, Merges};
use toy_ir::destruct::{destruct, out_of_ssa, plan, DestructError};
use toy_ir::gen::{self, ssa::Style, Config};
use toy_ir::{
    parse, run, samples, to_ssa, to_ssa_on_the_fly, verify, Block, Function, Inst, Outcome,
};

/// `f` out of SSA with `can_split`: it verifies, has no merges left, and runs like `want`.
fn check(
    f: &Function,
    args: &[i64],
    fuel: u64,
    want: &Outcome,
    can_split: &dyn Fn(Block, Block) -> bool,
) {
    let d = match destruct(f, can_split) {
        Err(DestructError::CannotSplit { from, to }) => {
            assert!(!can_split(from, to));
            return;
        }
        other => other.unwrap_or_else(|e| panic!("{e}\n{f}")),
    };
    let g = &d.function;
    verify(g).unwrap_or_else(|e| panic!("{e:?}\n{f}\n{g}"));
    for data in &g.blocks {
        assert!(
            data.params.is_empty() && !data.insts.iter().any(Inst::is_phi),
            "{g}"
        );
        let term = data.term.as_ref().unwrap();
        assert!(term.targets().iter().all(|t| t.args.is_empty()), "{g}");
    }
    let got = run(g, args, fuel).unwrap_or_else(|e| panic!("{e}\n{f}\n{g}"));
    assert_eq!(&got, want, "fuel {fuel}\n{f}\n{g}");
}

/// A `can_split` from random bytes: refuses about a third of the edges.
fn some_edges(u: &mut Unstructured) -> arbitrary::Result<impl Fn(Block, Block) -> bool> {
    let salt: u32 = u.arbitrary()?;
    Ok(move |p: Block, s: Block| (p.0.wrapping_mul(31) ^ s.0.wrapping_mul(17) ^ salt) % 3 != 0)
}

fn fuel(u: &mut Unstructured, cfg: &Config) -> arbitrary::Result<u64> {
    if u.ratio(1, 4)? {
        return u.int_in_range(0..=40);
    }
    Ok(cfg.fuel_bound())
}

#[test]
fn random_ssa_programs_behave_the_same_out_of_ssa() {
    arbtest::arbtest(|u| {
        let cfg = Config::default();
        let style = *u.choose(&[Style::Phis, Style::BlockParams, Style::Mixed])?;
        let f = gen::ssa::function(u, &cfg, style)?;
        let args = gen::args(u, &f)?;
        let fuel = fuel(u, &cfg)?;
        let want = run(&f, &args, fuel).unwrap();
        check(&f, &args, fuel, &want, &|_, _| true);
        check(&f, &args, fuel, &want, &some_edges(u)?);
        check(&f, &args, fuel, &want, &|_, _| false);
        Ok(())
    })
    .budget_ms(3_000);
}

#[test]
fn pre_ssa_programs_in_and_out_of_ssa_behave_like_the_original() {
    arbtest::arbtest(|u| {
        let cfg = Config {
            wild_back_edges: u.ratio(1, 4)?,
            ..Config::default()
        };
        let f = gen::vars::function(u, &cfg)?;
        let args = gen::args(u, &f)?;
        let fuel = fuel(u, &cfg)?;
        let want = run(&f, &args, fuel).unwrap();
        for merges in [Merges::Phis, Merges::BlockParams] {
            let opts = ConstructOptions {
                merges,
                ..ConstructOptions::default()
            };
            let whole = to_ssa(&f, &opts).unwrap();
            let on_the_fly = to_ssa_on_the_fly(&f, merges).unwrap();
            let refuse = some_edges(u)?;
            for g in [&whole, &on_the_fly] {
                check(g, &args, fuel, &want, &|_, _| true);
                check(g, &args, fuel, &want, &refuse);
            }
        }
        Ok(())
    })
    .budget_ms(3_000);
}

#[test]
fn the_swap_needs_a_temporary_on_the_split_back_edge() {
    let f = parse(samples::SWAP.text).unwrap();
    let d = destruct(&f, |_, _| true).unwrap();
    assert_eq!((d.stats.temps, d.stats.edges_split), (1, 1));
    let text = "\
b0:
  t1 = copy 1
  t2 = copy 2
  t3 = copy 0
  jump b1
b1:
  t4 = add t3, 1
  print t1
  t5 = lt t4, 3
  br t5, b3, b2
b2:
  print t1
  print t2
  ret t3
b3 synthetic:
  t3 = copy t4
  t6 = copy t1
  t1 = copy t2
  t2 = copy t6
  jump b1
";
    assert_eq!(d.function.to_string(), text);
    // The same with block parameters.
    let params = out_of_ssa(&parse(samples::SWAP_PARAMS.text).unwrap()).unwrap();
    assert_eq!(params.to_string(), text);
}

#[test]
fn the_lost_copy_without_splitting_goes_through_an_incoming_temp() {
    let f = parse(samples::LOST_COPY.text).unwrap();
    let split = out_of_ssa(&f).unwrap();
    assert!(split.to_string().contains("br t3, b3, b2\n"), "{split}");
    let d = destruct(&f, |_, _| false).unwrap();
    assert_eq!(d.stats.fallback_edges, 1);
    let text = "\
b0:
  t4 = copy 1
  jump b1
b1:
  t1 = copy t4
  t2 = add t1, 1
  t3 = lt t2, 4
  t4 = copy t2
  br t3, b1, b2
b2:
  print t1
  ret t1
";
    assert_eq!(d.function.to_string(), text);
    let out = run(&d.function, &[], 100).unwrap();
    assert_eq!((out.trace, out.result), (vec![3], Some(3)));
}

#[test]
fn duplicate_edges_with_different_arguments_get_blocks_of_their_own() {
    let f = parse("fn(t0)\nb0:\n  br t0, b1(t0), b1(5)\nb1(t1):\n  ret t1\n").unwrap();
    let p = plan(&f, &|_, _| true).unwrap();
    assert_eq!(p.duplicates_split, 2);
    let g = out_of_ssa(&f).unwrap();
    let text = "fn(t0)\nb0:\n  br t0, b2, b3\nb1:\n  ret t1\nb2 synthetic:\n  t1 = copy t0\n  \
                jump b1\nb3 synthetic:\n  t1 = copy 5\n  jump b1\n";
    assert_eq!(g.to_string(), text);
    for (arg, want) in [(0, 5), (9, 9)] {
        assert_eq!(run(&g, &[arg], 10).unwrap().result, Some(want));
    }
    let refused = destruct(&f, |_, _| false).unwrap_err();
    assert_eq!(
        refused,
        DestructError::CannotSplit {
            from: Block(0),
            to: Block(1)
        }
    );
    assert!(refused.to_string().contains("cannot be split"));
    // Equal arguments on both edges need no split.
    let same = parse("fn(t0)\nb0:\n  br t0, b1(t0), b1(t0)\nb1(t1):\n  ret t1\n").unwrap();
    assert_eq!(plan(&same, &|_, _| false).unwrap().duplicates_split, 0);
}

#[test]
fn every_sample_runs_the_same_out_of_ssa() {
    for s in samples::ALL.iter().filter(|s| s.ssa) {
        let f = parse(s.text).unwrap();
        let want = run(&f, s.args, samples::Sample::FUEL).unwrap();
        check(&f, s.args, samples::Sample::FUEL, &want, &|_, _| true);
        check(&f, s.args, samples::Sample::FUEL, &want, &|_, _| false);
    }
}

#[test]
fn input_not_in_ssa_form_is_an_error() {
    let f = parse("b0:\n  t0 = const 1\n  t0 = const 2\n  ret t0\n").unwrap();
    let err = out_of_ssa(&f).unwrap_err();
    assert!(matches!(err, DestructError::Invalid(_)), "{err:?}");
    assert!(err.to_string().starts_with("not in strict SSA form"));
    assert!(matches!(
        out_of_ssa(&Function::default()),
        Err(DestructError::Invalid(_))
    ));
}
