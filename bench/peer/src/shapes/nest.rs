//! gen_scale's `nest` shape: N nested counted loops (each runs once), the innermost body
//! updating all V variables: `v_j += j + 1`. Loop k has its own counter variable `n_k`.
//!
//! Per loop k (gen_scale's block names): `h_k.pre` sets `n_k = 0` and jumps to the header `h_k`,
//! which tests `n_k < 1` and branches to the next loop's `h_{k+1}.pre` (or `body`) or to the exit
//! `x_k`; after the inner part, the latch `l_k` does `n_k += 1` and jumps back to `h_k`; `x_k`
//! falls into `l_{k-1}` (or `done`, the checksum tail). The front end seals each header right
//! after its back edge, so while the innermost body runs every header is still unsealed.

use super::gen_scale::{epilogue, prologue};
use crate::script::{BlockId, Script, ScriptWriter, VarId};

/// A loop whose header is open (not sealed) while its body is being emitted.
#[derive(Clone, Copy, Debug)]
struct OpenLoop {
    counter: VarId,
    header: BlockId,
    exit: BlockId,
}

/// The nest function with `n` nested loops over `vars` variables.
pub fn nest(n: u32, vars: u32) -> Script {
    let mut w = ScriptWriter::new();
    let locals = prologue(&mut w, vars);
    let counters: Vec<VarId> = (0..n).map(|_| w.declare_var()).collect();
    w.fall_into_new_block();
    let loops: Vec<OpenLoop> = counters.iter().map(|c| open_loop(&mut w, *c)).collect();
    for (j, var) in locals.v.iter().enumerate() {
        w.add_imm_to_var(*var, j as i64 + 1);
    }
    for lp in loops.iter().rev() {
        w.fall_into_new_block();
        close_loop(&mut w, lp);
    }
    w.fall_into_new_block();
    epilogue(&mut w, &locals);
    w.finish()
}

/// From `h_k.pre` (current): `n_k = 0`, header `h_k` with its test, and the branch; leaves the
/// loop's first body block current. The body and exit blocks are sealed at once (one
/// predecessor each); the header is not.
fn open_loop(w: &mut ScriptWriter, counter: VarId) -> OpenLoop {
    let zero = w.iconst(0);
    w.def_var(counter, zero);
    let header = w.create_block();
    w.jump(header);
    w.switch_to_block(header);
    let c = w.use_var(counter);
    let one = w.iconst(1);
    let test = w.icmp_slt(c, one);
    let (body, exit) = (w.create_block(), w.create_block());
    w.brif(test, body, exit);
    w.seal_block(body);
    w.seal_block(exit);
    w.switch_to_block(body);
    OpenLoop {
        counter,
        header,
        exit,
    }
}

/// From the latch `l_k` (current): `n_k += 1`, the back edge, the header's seal; leaves the exit
/// block `x_k` current.
fn close_loop(w: &mut ScriptWriter, lp: &OpenLoop) {
    w.add_imm_to_var(lp.counter, 1);
    w.jump(lp.header);
    w.seal_block(lp.header);
    w.switch_to_block(lp.exit);
}
