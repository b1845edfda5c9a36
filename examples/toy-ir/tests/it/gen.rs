//! The random program generators: their output verifies, runs without error, terminates
//! within the config's fuel bound (guarded loops only), is deterministic, and actually covers
//! the CFG features and literature patterns it claims to (counted over a fixed set of seeds).

use arbitrary::Unstructured;
use ssa::destruct::parallel_copy::Slot;
use ssa::destruct::{Loc, Place};
use toy_ir::analysis::{has_irreducible_loop, Dominators};
use toy_ir::destruct::plan;
use toy_ir::gen::{self, ssa::Style, Config};
use toy_ir::{run, verify, verify_ssa, Block, Function, Inst, Operand};

fn check_runs(f: &Function, args: &[i64], cfg: &Config) {
    let out = run(f, args, cfg.fuel_bound()).unwrap_or_else(|e| panic!("{e}\n{f}"));
    if !cfg.wild_back_edges {
        assert!(!out.out_of_fuel, "ran out of fuel within the bound\n{f}");
    }
}

#[test]
fn pre_ssa_programs_verify_and_terminate() {
    arbtest::arbtest(|u| {
        let cfg = Config {
            wild_back_edges: u.ratio(1, 4)?,
            ..Config::default()
        };
        let f = gen::vars::function(u, &cfg)?;
        verify(&f).unwrap_or_else(|e| panic!("{e:?}\n{f}"));
        let args = gen::args(u, &f)?;
        check_runs(&f, &args, &cfg);
        assert!(f
            .blocks
            .iter()
            .all(|b| b.params.is_empty() && !b.insts.iter().any(Inst::is_phi)));
        Ok(())
    })
    .budget_ms(1_500);
}

#[test]
fn ssa_programs_verify_as_ssa_and_terminate() {
    arbtest::arbtest(|u| {
        let cfg = Config {
            wild_back_edges: u.ratio(1, 4)?,
            ..Config::default()
        };
        let style = *u.choose(&[Style::Phis, Style::BlockParams, Style::Mixed])?;
        let f = gen::ssa::function(u, &cfg, style)?;
        verify_ssa(&f).unwrap_or_else(|e| panic!("{e:?}\n{f}"));
        let args = gen::args(u, &f)?;
        check_runs(&f, &args, &cfg);
        Ok(())
    })
    .budget_ms(1_500);
}

/// Runs `generate` on 300 fixed pseudo-random inputs.
fn corpus(
    mut generate: impl FnMut(&mut Unstructured) -> arbitrary::Result<Function>,
) -> Vec<Function> {
    let mut state = 0x2545_f491_4f6c_dd1d_u64;
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
            generate(&mut Unstructured::new(&bytes)).unwrap()
        })
        .collect()
}

#[test]
fn generation_is_deterministic() {
    let cfg = Config::default();
    let a = corpus(|u| gen::vars::function(u, &cfg));
    let b = corpus(|u| gen::vars::function(u, &cfg));
    assert_eq!(a, b);
    let a = corpus(|u| gen::ssa::function(u, &cfg, Style::Mixed));
    assert_eq!(a, corpus(|u| gen::ssa::function(u, &cfg, Style::Mixed)));
}

fn count(fs: &[Function], pred: impl Fn(&Function) -> bool) -> usize {
    fs.iter().filter(|f| pred(f)).count()
}

fn has_duplicate_edge(f: &Function) -> bool {
    f.block_ids().any(|b| {
        let s = f.successors(b);
        (1..s.len()).any(|i| s[..i].contains(&s[i]))
    })
}

fn has_unreachable_into_reachable(f: &Function) -> bool {
    let dom = Dominators::compute(f);
    f.block_ids()
        .any(|b| !dom.is_reachable(b) && f.successors(b).iter().any(|&s| dom.is_reachable(s)))
}

/// Some variable is read on a path from the entry before any write to it.
fn reads_before_write(f: &Function) -> bool {
    let out = run(f, &vec![0; f.params.len()], 10_000).unwrap();
    // Cheap proxy: a read in the entry block before any write to that variable.
    let entry = &f.blocks[0].insts;
    let first_read = entry.iter().position(|i| matches!(i, Inst::Read { .. }));
    first_read.is_some_and(|r| {
        let Inst::Read { var, .. } = entry[r] else {
            return false;
        };
        !entry[..r]
            .iter()
            .any(|i| matches!(i, Inst::Write { var: w, .. } if *w == var))
    }) && !out.trace.is_empty()
}

#[test]
fn pre_ssa_programs_cover_the_hard_cfg_features() {
    let fs = corpus(|u| gen::vars::function(u, &Config::default()));
    let self_loop = |f: &Function| f.block_ids().any(|b| f.successors(b).contains(&b));
    let entry_pred = |f: &Function| !f.pred_edges()[0].is_empty();
    let big = |f: &Function| f.blocks.len() >= 20;
    let stats = [
        ("irreducible", count(&fs, has_irreducible_loop)),
        (
            "unreachable into reachable",
            count(&fs, has_unreachable_into_reachable),
        ),
        ("self loop", count(&fs, self_loop)),
        ("duplicate edge", count(&fs, has_duplicate_edge)),
        ("entry predecessor", count(&fs, entry_pred)),
        ("read before write", count(&fs, reads_before_write)),
        ("20+ blocks", count(&fs, big)),
    ];
    for (what, n) in stats {
        assert!(n >= 15, "only {n} of 300 programs have: {what} ({stats:?})");
    }
}

/// An edge whose parallel copy is a closed cycle (`a <- b, b <- a`, or a longer rotation): the
/// out-of-SSA plan needs a temporary for it.
fn has_swap(f: &Function) -> bool {
    plan(f, &|_, _| true).unwrap().plan.stats.temps > 0
}

/// A critical edge copying a new value into a merge that is used outside its own block: the
/// lost-copy setting (a copy placed at the end of the predecessor would clobber it). The plan
/// splits exactly the critical edges with copies.
fn has_lost_copy_shape(f: &Function) -> bool {
    let planned = plan(f, &|_, _| true).unwrap();
    let (g, p) = (&planned.function, &planned.plan);
    let used_outside = |x: Operand, home: Block| {
        g.block_ids().filter(|&c| c != home).any(|c| {
            let data = &g.blocks[c.index()];
            let term_ops = data.term.as_ref().map(|t| t.operands()).unwrap_or_default();
            data.insts
                .iter()
                .flat_map(Inst::operands)
                .chain(term_ops)
                .any(|o| o == x)
        })
    };
    p.edges.iter().filter(|e| e.place == Place::Split).any(|e| {
        let home = Block::from(p.blocks[e.succ].block);
        p.moves[e.moves.clone()]
            .iter()
            .any(|m| match (m.dst, m.src) {
                (Slot::Loc(Loc::Val(x)), src) => {
                    src != Slot::Loc(Loc::Val(x)) && used_outside(x, home)
                }
                _ => false,
            })
    })
}

#[test]
fn ssa_programs_cover_the_literature_patterns() {
    let cfg = Config::default();
    let phis = corpus(|u| gen::ssa::function(u, &cfg, Style::Phis));
    let params = corpus(|u| gen::ssa::function(u, &cfg, Style::BlockParams));
    let stats = [
        ("swap (phis)", count(&phis, has_swap)),
        ("swap (block params)", count(&params, has_swap)),
        ("lost copy", count(&phis, has_lost_copy_shape)),
        ("irreducible", count(&phis, has_irreducible_loop)),
        ("duplicate edge", count(&phis, has_duplicate_edge)),
    ];
    for (what, n) in stats {
        assert!(n >= 15, "only {n} of 300 programs have: {what} ({stats:?})");
    }
}

#[test]
fn pattern_detectors_recognise_the_literal_samples() {
    use toy_ir::samples::{LOST_COPY, SWAP, SWAP_PARAMS};
    let f = |s: toy_ir::samples::Sample| toy_ir::parse(s.text).unwrap();
    assert!(has_swap(&f(SWAP)) && has_swap(&f(SWAP_PARAMS)) && !has_swap(&f(LOST_COPY)));
    assert!(has_lost_copy_shape(&f(LOST_COPY)) && has_lost_copy_shape(&f(SWAP)));
    assert!(
        has_irreducible_loop(&f(toy_ir::samples::IRREDUCIBLE)) && !has_irreducible_loop(&f(SWAP))
    );
}
