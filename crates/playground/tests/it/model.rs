//! The JSON model on the bundled examples: the facts a student is shown must be right (the
//! phi blocks of max, the frontier of fib's loop header, placement steps, the swap's copies),
//! agree with the real passes (placement's φ blocks are the SSA output's; renaming fills in the
//! output's φ operands), and every example goes through every view and flavour.

use mem2reg_playground::api::{model, Model, Request};
use mem2reg_playground::examples::{example, EXAMPLES};

fn request(id: &str) -> Request {
    let e = example(id).expect("example exists");
    Request {
        lang: Some(e.lang.into()),
        source: e.source.into(),
        ..Request::default()
    }
}

fn run(req: &Request) -> Model {
    model(req).unwrap_or_else(|e| panic!("{:?}", e.error))
}

fn var<'m>(m: &'m Model, name: &str) -> &'m mem2reg_playground::placement::VarPlacement {
    m.placement
        .as_ref()
        .unwrap()
        .vars
        .iter()
        .find(|v| v.var == name)
        .unwrap_or_else(|| panic!("no variable {name}"))
}

#[test]
fn max_has_one_phi_at_if_end() {
    let m = run(&request("max"));
    let r = var(&m, "%result");
    assert_eq!(r.defs, ["%entry", "%if.then"]);
    assert_eq!(r.phis, ["%if.end"]);
    assert_eq!(r.fast_path, None);
    assert!(var(&m, "%a.addr")
        .fast_path
        .as_deref()
        .unwrap()
        .starts_with("one store"));
    let ssa = &m.stages.as_ref().unwrap()[1].text;
    assert!(
        ssa.contains("%result.0 = phi i32 [ %b, %if.then ], [ %a, %entry ]"),
        "{ssa}"
    );
    let cfg = &m.cfg.as_ref().unwrap()[1];
    let join = cfg.nodes.iter().find(|n| n.block == "%if.end").unwrap();
    assert_eq!(join.lines[0].kind, "phi");
    let ren = m.renaming.as_ref().unwrap();
    assert_eq!(ren.phis.len(), 1);
    assert_eq!(ren.phis[0].name, "%result.0");
    let ops: Vec<[&str; 2]> = ren.phis[0]
        .operands
        .iter()
        .map(|o| [o[0].as_str(), o[1].as_str()])
        .collect();
    assert_eq!(ops, [["%entry", "%a"], ["%if.then", "%b"]]);
    let pruned = m.counts.iter().find(|c| c.flavour == "pruned").unwrap();
    assert_eq!((pruned.phis, pruned.promoted), (1, 3));
}

#[test]
fn fib_loop_header_frontier_and_pruning() {
    let m = run(&request("fib"));
    let b = m
        .blocks
        .as_ref()
        .unwrap()
        .iter()
        .find(|b| b.name == "%while.cond")
        .unwrap();
    assert_eq!(b.df, ["%while.cond", "%return"]);
    let c = var(&m, "%c");
    assert!(c.phis.is_empty());
    assert_eq!(c.idf, ["%while.cond", "%return"]);
    assert!(c.pruned.iter().any(|p| p.block == "%while.cond"));
    let i = var(&m, "%i");
    assert_eq!(i.phis, ["%while.cond"]);
    let kinds: Vec<&str> = i.steps.iter().map(|s| s.kind).collect();
    assert_eq!(kinds.first(), Some(&"start"));
    assert!(kinds.contains(&"place") && kinds.contains(&"prune") && kinds.contains(&"pop"));
    assert_eq!(kinds.last(), Some(&"done"));
    let counts: Vec<usize> = m.counts.iter().map(|c| c.phis).collect();
    assert_eq!(counts, [9, 7, 4], "minimal, semi-pruned, pruned");
}

#[test]
fn swap_needs_one_temporary() {
    let m = run(&request("swap"));
    let pe = m.phielim.as_ref().unwrap();
    assert_eq!(
        (
            pe.counts.phis,
            pe.counts.copies,
            pe.counts.temps,
            pe.counts.split
        ),
        (3, 6, 1, 0)
    );
    let back = pe
        .edges
        .iter()
        .find(|e| e.edge == ["%for.inc", "%for.cond"])
        .unwrap();
    assert_eq!(back.temps, 1);
    let moves: Vec<String> = back
        .moves
        .iter()
        .map(|[d, s]| format!("{d} <- {s}"))
        .collect();
    assert_eq!(
        moves,
        [
            "%i.0 <- %inc",
            "tmp0 <- %b.addr.0",
            "%b.addr.0 <- %a.addr.0",
            "%a.addr.0 <- tmp0"
        ]
    );
    assert!(pe
        .steps
        .iter()
        .any(|s| s.kind == "temp" && s.text.contains("swap problem")));
    let out = &m.cfg.as_ref().unwrap()[2];
    assert!(out
        .nodes
        .iter()
        .flat_map(|n| &n.lines)
        .any(|l| l.kind == "copy"));
}

#[test]
fn lost_copy_splits_the_back_edge() {
    let m = run(&request("lost-copy"));
    let pe = m.phielim.as_ref().unwrap();
    assert_eq!(pe.counts.split, 1);
    assert!(pe
        .edges
        .iter()
        .any(|e| e.place == "split" && e.edge == ["%loop", "%loop"]));
    assert_eq!(
        m.cfg.as_ref().unwrap()[2].nodes.len(),
        4,
        "the split block is drawn"
    );
}

#[test]
fn irreducible_blocks_are_in_each_others_frontier() {
    let m = run(&request("irreducible"));
    let df = |n: &str| {
        m.blocks
            .as_ref()
            .unwrap()
            .iter()
            .find(|b| b.name == n)
            .unwrap()
            .df
            .clone()
    };
    assert!(df("%a").contains(&"%b".to_string()));
    assert!(df("%b").contains(&"%a".to_string()));
    assert_eq!(var(&m, "%x").phis, ["%a", "%b", "%done"]);
}

#[test]
fn lab_and_while_language_examples() {
    let m = run(&request("lab"));
    assert_eq!(var(&m, "%2").phis, ["%6"]);
    // The handout's %5, %6, %8 are renumbered %2, %3, %4 once the loads and allocas go.
    assert!(m.stages.as_ref().unwrap()[1]
        .text
        .contains("%.0 = phi i32 [ 1, %2 ], [ %5, %4 ]"));
    let ssa_cfg = &m.cfg.as_ref().unwrap()[1];
    assert!(ssa_cfg
        .nodes
        .iter()
        .any(|n| n.key == "%6" && n.block == "%3"));
    let w = run(&request("loops"));
    assert_eq!(w.lang, "while");
    let sum = var(&w, "sum");
    assert!(!sum.phis.is_empty());
    let ren = w.renaming.as_ref().unwrap();
    assert!(
        ren.phis.iter().all(|p| p.name.starts_with('t') || p.folded),
        "{:?}",
        ren.phis
    );
}

/// Every example, every flavour: each view answers; placement's φ blocks are exactly the
/// blocks where the SSA output has φs of that variable (renaming's names), and renaming gives
/// each output φ the operands the output shows.
#[test]
fn every_example_every_flavour_agrees_with_the_real_passes() {
    for e in EXAMPLES {
        for flavour in ["minimal", "semi-pruned", "pruned"] {
            let mut req = request(e.id);
            req.flavour = Some(flavour.into());
            let m = run(&req);
            let ren = m.renaming.as_ref().unwrap();
            let ssa = &m.stages.as_ref().unwrap()[1].text;
            let placed: usize = m
                .placement
                .as_ref()
                .unwrap()
                .vars
                .iter()
                .map(|v| v.phis.len())
                .sum();
            assert_eq!(placed, ren.phis.len(), "{} {flavour}", e.id);
            let live: Vec<_> = ren.phis.iter().filter(|p| !p.folded).collect();
            let count = m.counts.iter().find(|c| c.flavour == flavour).unwrap();
            assert_eq!(
                live.len(),
                count.phis,
                "{} {flavour}: φs named in the output",
                e.id
            );
            let ssa_name = |key: &str| {
                m.cfg.as_ref().unwrap()[1]
                    .nodes
                    .iter()
                    .find(|n| n.key == key)
                    .unwrap()
                    .block
                    .clone()
            };
            for p in live {
                // Unnamed values (%N) are renumbered in the output: compare the others.
                let numbered = |v: &str| {
                    v.strip_prefix('%')
                        .is_some_and(|n| n.bytes().all(|c| c.is_ascii_digit()))
                };
                let ops: Vec<String> = (p.operands.iter())
                    .filter(|[_, v]| !numbered(v))
                    .map(|[b, v]| format!("{v}, {}", ssa_name(b)))
                    .collect();
                for op in ops {
                    let found = ssa.lines().any(|l| {
                        l.trim_start().starts_with(&format!("{} = phi", p.name)) && l.contains(&op)
                    });
                    let toy = ssa
                        .lines()
                        .any(|l| l.trim_start().starts_with(&format!("{} = phi", p.name)));
                    assert!(
                        found || (m.lang == "while" && toy),
                        "{} {flavour}: {} lacks {op}\n{ssa}",
                        e.id,
                        p.name
                    );
                }
            }
        }
    }
}

/// Cut and damaged programs (every example truncated at many points, lines dropped) give a
/// model or an error, never a panic.
#[test]
fn damaged_examples_never_panic() {
    for e in EXAMPLES {
        let src = e.source;
        let cuts = (1..40)
            .map(|k| src.len() * k / 40)
            .filter(|&c| src.is_char_boundary(c));
        let mut inputs: Vec<String> = cuts.map(|c| src[..c].to_string()).collect();
        let lines: Vec<&str> = src.lines().collect();
        for k in (0..lines.len()).step_by(3) {
            let mut l = lines.clone();
            l.remove(k);
            inputs.push(l.join("\n"));
        }
        for input in inputs {
            let req = Request {
                lang: Some(e.lang.into()),
                source: input,
                ..Request::default()
            };
            if let Err(err) = model(&req) {
                assert!(!err.error.message.is_empty());
            }
        }
    }
}

/// Budgets leave variables in memory: the lesson then steps through the promoted ones only,
/// and the notes say which stayed and why.
#[test]
fn budgets_leave_variables_in_memory() {
    let mut req = request("fib");
    req.phi_copy_limit = Some(0);
    let m = run(&req);
    let pruned = m.counts.iter().find(|c| c.flavour == "pruned").unwrap();
    assert!(pruned.left > 0 && pruned.phis == 0, "{pruned:?}");
    assert!(
        m.notes.iter().any(|n| n.contains("stays in memory")),
        "{:?}",
        m.notes
    );
    assert!(m
        .placement
        .as_ref()
        .unwrap()
        .vars
        .iter()
        .all(|v| v.phis.is_empty()));
    let mut req = request("loops");
    req.max_promoted = Some(1);
    let w = run(&req);
    assert_eq!(w.placement.as_ref().unwrap().vars.len(), 1);
    assert!(
        w.notes.iter().any(|n| n.contains("stays a variable")),
        "{:?}",
        w.notes
    );
}
