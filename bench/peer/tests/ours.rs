//! Ours builds, from every shape's script at small sizes, a toy-ir function that passes
//! toy-ir's verifiers (IR and SSA form), runs to a result under the interpreter, and has as many
//! block parameters as cranelift's function for the same script (both minimal SSA: every
//! shape's CFG is reducible).

use cranelift_codegen::ir::Function as ClFunction;
use peer_bench::cranelift_side::build_and_verify;
use peer_bench::ours::build;
use peer_bench::shapes::Shape;
use toy_ir::{FunctionBuilder, Merges};

fn cranelift_params(func: &ClFunction) -> usize {
    func.layout
        .blocks()
        .map(|b| func.dfg.block_params(b).len())
        .sum()
}

#[test]
fn every_shape_verifies_runs_and_matches_cranelift_merge_count() {
    let mut fb = FunctionBuilder::new(Merges::BlockParams);
    for shape in Shape::ALL {
        for n in [1, 2, shape.small_size()] {
            let script = shape.script(n);
            let f = build(&script, &mut fb);
            let what = format!("{} N={n}", shape.name());
            toy_ir::verify(&f).unwrap_or_else(|e| panic!("{what}: {e:?}\n{f}"));
            toy_ir::verify_ssa(&f).unwrap_or_else(|e| panic!("{what}: {e:?}\n{f}"));
            let out = toy_ir::run(&f, &[], 1_000_000).unwrap_or_else(|e| panic!("{what}: {e}"));
            assert!(out.result.is_some(), "{what}: no result");
            let ours: usize = f.blocks.iter().map(|b| b.params.len()).sum();
            let theirs = cranelift_params(&build_and_verify(&script).unwrap());
            assert_eq!(ours, theirs, "{what}: block parameters, ours vs cranelift");
        }
    }
}
