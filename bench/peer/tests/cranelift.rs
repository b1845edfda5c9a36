//! The cranelift side builds functions that pass cranelift's IR verifier for small sizes of
//! every shape, with the phis (block parameters) on-the-fly SSA construction should produce.

use cranelift_codegen::ir::Function;
use peer_bench::cranelift_side::{build_and_verify, CraneliftTimer};
use peer_bench::shapes::{self, Shape};

fn block_params(func: &Function) -> usize {
    func.layout
        .blocks()
        .map(|b| func.dfg.block_params(b).len())
        .sum()
}

#[test]
fn every_shape_verifies_at_small_sizes() {
    for shape in Shape::ALL {
        for n in [1, 2, shape.small_size()] {
            build_and_verify(&shape.script(n))
                .unwrap_or_else(|e| panic!("{} N={n} fails the verifier:\n{e}", shape.name()));
        }
    }
}

#[test]
fn chain_and_straight_line_need_no_phis() {
    assert_eq!(
        block_params(&build_and_verify(&shapes::wasm_blocks(50)).unwrap()),
        0
    );
    assert_eq!(
        block_params(&build_and_verify(&shapes::straight(50)).unwrap()),
        0
    );
}

#[test]
fn ladder_joins_get_phis() {
    // Every join merges two different values of the two variables the diamond touches.
    let func = build_and_verify(&shapes::ladder(4, 10)).unwrap();
    assert_eq!(block_params(&func), 4 * 2);
}

#[test]
fn nest_headers_get_one_phi_per_live_variable() {
    // Each header merges every body variable and its own counter; the outer counters and %i
    // pass through unchanged, so their phis are removed as trivial.
    let (n, v) = (3, 4);
    let func = build_and_verify(&shapes::nest(n, v)).unwrap();
    assert_eq!(block_params(&func), (n * (v + 1)) as usize);
}

#[test]
fn dispatch_loop_verifies_with_many_cases() {
    // Cases write v[(5k + 1) % 100]: 20 distinct variables. Each gets a phi at the latch and at
    // the header, which also merges %i; variables only read get trivial phis, removed.
    let func = build_and_verify(&shapes::dispatch(300, 100)).unwrap();
    assert_eq!(block_params(&func), 20 + 20 + 1);
}

#[test]
fn timer_reuses_its_context_across_builds() {
    let script = Shape::Switch.script(20);
    let mut timer = CraneliftTimer::new();
    for _ in 0..3 {
        timer.time_once(&script);
    }
}
