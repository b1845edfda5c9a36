//! gen_scale's `switch` shape: an interpreter's dispatch loop with N cases. Case k reads
//! `v[k % V]` and `v[(5k + 1) % V]` and writes the second (`v_b = v_a ^ v_b`, with `iadd` standing
//! in for the `xor`), so the latch joins N+1 paths for every variable: O(N x V) phi operands.
//!
//! Blocks (gen_scale's names): `loop` (header: `pc = i; if pc < 1000`), `dispatch` (the
//! switch), `case0..case{N-1}`, `latch` (the switch default and every case's successor:
//! `i += 1`, back to `loop`), `exit` (the checksum tail). gen_scale switches on `pc urem N`; there
//! is no `urem` op, so the selector is `pc` itself (the same for every `pc < 1000 <= N`).

use super::gen_scale::{epilogue, prologue, Locals};
use crate::script::{BlockId, Script, ScriptWriter};

/// The dispatch-loop function with `n` cases over `vars` variables.
pub fn dispatch(n: u32, vars: u32) -> Script {
    let mut w = ScriptWriter::new();
    let locals = prologue(&mut w, vars);
    let header = w.create_block();
    w.jump(header);
    w.switch_to_block(header);
    let pc = w.use_var(locals.i);
    let limit = w.iconst(1000);
    let more = w.icmp_slt(pc, limit);
    let (dispatch, exit) = (w.create_block(), w.create_block());
    w.brif(more, dispatch, exit);
    w.seal_block(dispatch);
    w.seal_block(exit);
    w.switch_to_block(dispatch);
    let latch = switch_and_cases(&mut w, &locals, n, pc);
    w.switch_to_block(latch);
    w.seal_block(latch);
    w.add_imm_to_var(locals.i, 1);
    w.jump(header);
    w.seal_block(header);
    w.switch_to_block(exit);
    epilogue(&mut w, &locals);
    w.finish()
}

/// The switch on `selector` in the current block, then every case body; returns the latch
/// (not yet entered or sealed).
fn switch_and_cases(
    w: &mut ScriptWriter,
    locals: &Locals,
    n: u32,
    selector: crate::script::ValueId,
) -> BlockId {
    let cases: Vec<BlockId> = (0..n).map(|_| w.create_block()).collect();
    let latch = w.create_block();
    let table = cases
        .iter()
        .enumerate()
        .map(|(k, b)| (k as u32, *b))
        .collect();
    w.switch(selector, table, latch);
    for case in &cases {
        w.seal_block(*case);
    }
    for (k, case) in cases.iter().enumerate() {
        w.switch_to_block(*case);
        case_body(w, locals, k as u64);
        w.jump(latch);
    }
    latch
}

/// Case k's body: `v_b = v_a ^ v_b` with `a = k % V`, `b = (5k + 1) % V`.
fn case_body(w: &mut ScriptWriter, locals: &Locals, k: u64) {
    let vars = locals.v.len() as u64;
    let a = locals.v[(k % vars) as usize];
    let b = locals.v[((k * 5 + 1) % vars) as usize];
    let x = w.use_var(a);
    let y = w.use_var(b);
    let z = w.iadd(x, y);
    w.def_var(b, z);
}
