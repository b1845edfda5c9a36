//! gen_scale's `ladder` shape: N if/else diamonds in sequence; diamond k compares `v[k % V]`
//! with `v[(7k + 3) % V]` and assigns one of them on each arm, so every join needs phis.
//!
//! Block `b0` follows the entry; diamond k is `b_k -> {t_k, e_k} -> b_{k+1}`. The front end seals
//! both arms right after the branch (their only predecessor) and each join once both arms jumped.

use super::gen_scale::{epilogue, prologue, Locals};
use crate::script::{Script, ScriptWriter};

/// The ladder function with `n` diamonds over `vars` variables.
pub fn ladder(n: u32, vars: u32) -> Script {
    let mut w = ScriptWriter::new();
    let locals = prologue(&mut w, vars);
    w.fall_into_new_block();
    for k in 0..n {
        diamond(&mut w, &locals, k);
    }
    epilogue(&mut w, &locals);
    w.finish()
}

/// Diamond k, from its head block (current) to its join block (left current and sealed):
/// `x = v[a]; y = v[b]; if x < y { v[a] = x + k } else { v[b] = y - k }`.
fn diamond(w: &mut ScriptWriter, locals: &Locals, k: u32) {
    let vars = locals.v.len() as u64;
    let a = locals.v[(u64::from(k) % vars) as usize];
    let b = locals.v[((u64::from(k) * 7 + 3) % vars) as usize];
    let x = w.use_var(a);
    let y = w.use_var(b);
    let c = w.icmp_slt(x, y);
    let (then_block, else_block, join) = (w.create_block(), w.create_block(), w.create_block());
    w.brif(c, then_block, else_block);
    w.seal_block(then_block);
    w.seal_block(else_block);
    w.switch_to_block(then_block);
    let kk = w.iconst(i64::from(k));
    let s = w.iadd(x, kk);
    w.def_var(a, s);
    w.jump(join);
    w.switch_to_block(else_block);
    let minus_k = w.iconst(-i64::from(k));
    let s = w.iadd(y, minus_k);
    w.def_var(b, s);
    w.jump(join);
    w.switch_to_block(join);
    w.seal_block(join);
}
