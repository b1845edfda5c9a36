//! Every shape's script is well-formed at small sizes and at every default benchmark size, and
//! the generators match the shapes they claim (block counts, sealing of loop headers).

use peer_bench::script::Op;
use peer_bench::shapes::{self, Shape};
use peer_bench::validate::validate;

#[test]
fn small_scripts_are_well_formed() {
    for shape in Shape::ALL {
        for n in [1, 2, 3, shape.small_size()] {
            let script = shape.script(n);
            validate(&script).unwrap_or_else(|e| panic!("{} N={n}: {e}", shape.name()));
        }
    }
}

#[test]
fn default_size_scripts_are_well_formed() {
    for shape in Shape::ALL {
        for n in shape.default_sizes() {
            let script = shape.script(n);
            validate(&script).unwrap_or_else(|e| panic!("{} N={n}: {e}", shape.name()));
        }
    }
}

#[test]
fn scripts_are_deterministic() {
    for shape in Shape::ALL {
        assert_eq!(shape.script(9), shape.script(9), "{}", shape.name());
    }
}

fn count(ops: &[Op], pred: impl Fn(&Op) -> bool) -> usize {
    ops.iter().filter(|op| pred(op)).count()
}

#[test]
fn wasm_blocks_is_a_chain_with_one_use_and_def_per_block() {
    let s = shapes::wasm_blocks(shapes::ISSUE_BLOCKS);
    assert_eq!(
        s.blocks,
        shapes::ISSUE_BLOCKS + 2,
        "entry + exit + one per wasm block"
    );
    assert_eq!(s.vars, 1);
    assert_eq!(count(&s.ops, |op| matches!(op, Op::UseVar(_))), 15_001);
    assert_eq!(count(&s.ops, |op| matches!(op, Op::DefVar(..))), 15_001);
    assert_eq!(count(&s.ops, |op| matches!(op, Op::Brif(..))), 0);
}

#[test]
fn gen_scale_shapes_have_gen_scale_block_counts() {
    let v = 100;
    // entry, b0, then t_k, e_k, b_{k+1} per diamond.
    assert_eq!(shapes::ladder(10, v).blocks, 2 + 3 * 10);
    // entry, h0.pre, per loop h_k, body/h_{k+1}.pre, x_k, l_k, then done.
    assert_eq!(shapes::nest(10, v).blocks, 2 + 4 * 10 + 1);
    // entry, loop, dispatch, exit, the cases, latch.
    assert_eq!(shapes::dispatch(10, v).blocks, 4 + 10 + 1);
    // allocas: V + i (+ N counters for nest).
    assert_eq!(shapes::ladder(10, v).vars, v + 1);
    assert_eq!(shapes::nest(10, v).vars, v + 1 + 10);
}

#[test]
fn loop_headers_are_sealed_right_after_their_back_edge() {
    let s = shapes::nest(5, 3);
    for (i, op) in s.ops.iter().enumerate() {
        if let Op::SealBlock(b) = op {
            let back_edge = matches!(s.ops[i - 1], Op::Jump(t) if t == *b);
            let header_like = s.ops.iter().filter(|o| o.successors().contains(b)).count() == 2;
            assert!(
                !header_like || back_edge,
                "header {b:?} not sealed after its back edge"
            );
        }
    }
}

#[test]
fn straight_defines_and_uses_every_variable_once() {
    let s = shapes::straight(1000);
    assert_eq!(s.blocks, 1);
    assert_eq!(count(&s.ops, |op| matches!(op, Op::DefVar(..))), 1000);
    assert_eq!(count(&s.ops, |op| matches!(op, Op::UseVar(_))), 1000);
}
