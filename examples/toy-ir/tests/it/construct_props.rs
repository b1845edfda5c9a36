//! SSA construction on random programs: with equal fuel, the interpreter's outcome before and
//! after construction is identical, for every placement method, with and without folding,
//! with phis and with block parameters, and under variable budgets; the output verifies (as
//! strict SSA when every variable was promoted); pruned SSA places no more phis than
//! semi-pruned, which places no more than minimal. Random inputs come from arbtest (shrinking
//! a failure to a small program) and from a fixed corpus, which also checks that the inputs
//! cover the hard cases (irreducible loops, unreachable blocks, entries with predecessors).

use arbitrary::Unstructured;
use toy_ir::analysis::{has_irreducible_loop, Dominators};
use toy_ir::construct::{construct, ConstructOptions, Construction, Merges, Method};
use toy_ir::gen::{self, ssa::Style, Config};
use toy_ir::{run, verify, verify_ssa, Function, Inst, Outcome};

const METHODS: [Method; 4] = [
    Method::Bounded,
    Method::Exact,
    Method::SemiPruned,
    Method::Minimal,
];

/// Constructs `f` with `opts` and checks the result: it verifies (strictly when everything was
/// promoted, and then no read or write is left), and runs exactly like `f` did (`want`).
fn check(
    f: &Function,
    args: &[i64],
    fuel: u64,
    want: &Outcome,
    opts: &ConstructOptions,
) -> Construction {
    let c = construct(f, opts).unwrap_or_else(|e| panic!("{opts:?}: {e}\n{f}"));
    let g = &c.function;
    verify(g).unwrap_or_else(|e| panic!("{opts:?}: {e:?}\n{f}\n{g}"));
    if c.unpromoted.is_empty() {
        verify_ssa(g).unwrap_or_else(|e| panic!("{opts:?}: {e:?}\n{f}\n{g}"));
        let vars = g.blocks.iter().flat_map(|d| &d.insts);
        let left = vars.filter(|i| matches!(i, Inst::Read { .. } | Inst::Write { .. }));
        assert_eq!(left.count(), 0, "{opts:?}\n{g}");
    }
    let got = run(g, args, fuel).unwrap_or_else(|e| panic!("{opts:?}: {e}\n{f}\n{g}"));
    assert_eq!(&got, want, "{opts:?}, fuel {fuel}, args {args:?}\n{f}\n{g}");
    c
}

/// Phis in the output that construction added (before and after, minus the input's).
fn merges(f: &Function) -> usize {
    let phis = f
        .blocks
        .iter()
        .flat_map(|d| &d.insts)
        .filter(|i| i.is_phi());
    phis.count() + f.blocks.iter().map(|d| d.params.len()).sum::<usize>()
}

/// Every option set on one program and one run: identical outcomes; phi counts ordered.
fn check_all(f: &Function, args: &[i64], fuel: u64) {
    let want = run(f, args, fuel).unwrap_or_else(|e| panic!("{e}\n{f}"));
    let before = merges(f);
    for merges_as in [Merges::Phis, Merges::BlockParams] {
        let mut placed = Vec::new();
        for method in METHODS {
            for fold_trivial in [false, true] {
                let opts = ConstructOptions {
                    merges: merges_as,
                    method,
                    fold_trivial,
                    ..ConstructOptions::default()
                };
                let c = check(f, args, fuel, &want, &opts);
                assert_eq!(
                    merges(&c.function) - before,
                    c.stats.phis_placed - c.stats.phis_folded
                );
                if !fold_trivial {
                    placed.push(c.stats.phis_placed);
                }
            }
        }
        // Bounded and exact pruning agree; pruned <= semi-pruned <= minimal.
        assert_eq!(placed[0], placed[1], "bounded vs exact\n{f}");
        assert!(
            placed[1] <= placed[2] && placed[2] <= placed[3],
            "{placed:?}\n{f}"
        );
    }
}

/// Random budgets: outcomes stay identical, whatever is left in memory.
fn check_budgets(
    u: &mut Unstructured,
    f: &Function,
    args: &[i64],
    fuel: u64,
) -> arbitrary::Result<()> {
    let want = run(f, args, fuel).unwrap();
    for _ in 0..3 {
        let opts = ConstructOptions {
            merges: *u.choose(&[Merges::Phis, Merges::BlockParams])?,
            method: *u.choose(&METHODS)?,
            fold_trivial: u.arbitrary()?,
            remove_cycles: u.arbitrary()?,
            max_promoted: u
                .arbitrary::<bool>()?
                .then(|| u.int_in_range(0..=4))
                .transpose()?,
            phi_copy_budget: u
                .arbitrary::<bool>()?
                .then(|| u.int_in_range(0..=12))
                .transpose()?,
        };
        let c = check(f, args, fuel, &want, &opts);
        if let Some(max) = opts.max_promoted {
            assert!(c.stats.promoted <= max);
        }
    }
    Ok(())
}

/// Fuel for a run: usually enough for the program to finish, sometimes little.
fn fuel(u: &mut Unstructured, cfg: &Config) -> arbitrary::Result<u64> {
    if u.ratio(1, 4)? {
        return u.int_in_range(0..=40);
    }
    Ok(cfg.fuel_bound())
}

#[test]
fn construction_preserves_behaviour_of_pre_ssa_programs() {
    arbtest::arbtest(|u| {
        let cfg = Config {
            wild_back_edges: u.ratio(1, 4)?,
            ..Config::default()
        };
        let f = gen::vars::function(u, &cfg)?;
        let args = gen::args(u, &f)?;
        let fuel = fuel(u, &cfg)?;
        check_all(&f, &args, fuel);
        check_budgets(u, &f, &args, fuel)
    })
    .budget_ms(4_000);
}

#[test]
fn construction_keeps_existing_merges() {
    // Programs already in SSA form but for their loop counters: those get promoted around
    // the phis and block parameters already there.
    arbtest::arbtest(|u| {
        let cfg = Config::default();
        let style = *u.choose(&[Style::Phis, Style::BlockParams, Style::Mixed])?;
        let f = gen::ssa::function(u, &cfg, style)?;
        let args = gen::args(u, &f)?;
        let fuel = fuel(u, &cfg)?;
        check_all(&f, &args, fuel);
        Ok(())
    })
    .budget_ms(1_500);
}

#[test]
fn construction_is_deterministic_and_idempotent() {
    arbtest::arbtest(|u| {
        let f = gen::vars::function(u, &Config::default())?;
        for merges in [Merges::Phis, Merges::BlockParams] {
            let opts = ConstructOptions {
                merges,
                ..ConstructOptions::default()
            };
            let g = toy_ir::to_ssa(&f, &opts).unwrap();
            assert_eq!(toy_ir::to_ssa(&f, &opts).unwrap(), g);
            assert_eq!(toy_ir::to_ssa(&g, &opts).unwrap(), g, "\n{f}\n{g}");
        }
        Ok(())
    })
    .budget_ms(1_000);
}

/// 300 fixed pseudo-random byte strings, each through `generate`.
fn corpus(
    mut generate: impl FnMut(&mut Unstructured) -> arbitrary::Result<Function>,
) -> Vec<Function> {
    let mut state = 0x9e37_79b9_7f4a_7c15_u64;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state >> 24) as u8
    };
    (0..300)
        .map(|_| {
            let bytes: Vec<u8> = (0..4096).map(|_| next()).collect();
            generate(&mut Unstructured::new(&bytes)).unwrap()
        })
        .collect()
}

#[test]
fn a_fixed_corpus_covers_the_hard_cases() {
    let cfg = Config::default();
    let fs = corpus(|u| gen::vars::function(u, &cfg));
    let (mut irreducible, mut unreachable, mut entry_preds, mut merged) = (0, 0, 0, 0);
    for f in &fs {
        let args = vec![1; f.params.len()];
        check_all(f, &args, cfg.fuel_bound());
        let dom = Dominators::compute(f);
        irreducible += usize::from(has_irreducible_loop(f));
        unreachable += usize::from(f.block_ids().any(|b| !dom.is_reachable(b)));
        let c = construct(f, &ConstructOptions::default()).unwrap();
        entry_preds += usize::from(c.entry_added);
        merged += usize::from(merges(&c.function) > 0);
    }
    let seen = [irreducible, unreachable, entry_preds, merged];
    assert!(
        seen.iter().all(|&n| n >= 15),
        "irreducible, unreachable, entry preds, phis: {seen:?}"
    );
}
