//! What every shape ported from `/work/shared/tools/gen_scale.py` shares: its clang -O0 style
//! prologue and epilogue, as front-end ops (an alloca is a variable, a store a `def_var`, a load a
//! `use_var`).

use crate::script::{ScriptWriter, VarId};

/// The number of variables gen_scale's shapes use in this benchmark (its `V`).
pub const DEFAULT_VARS: u32 = 100;

/// The variables of gen_scale's prologue: `%v0..%v{V-1}` and the counter `%i`.
#[derive(Clone, Debug)]
pub struct Locals {
    /// `%v0 .. %v{V-1}`, initialised to their index.
    pub v: Vec<VarId>,
    /// `%i`, initialised to 0 (only the switch shape reads it).
    pub i: VarId,
}

/// gen_scale's `entry:` block up to (not including) its terminator: V+1 allocas (declarations)
/// then the stores `v_j = j` and `i = 0`. Creates, enters and seals the entry block.
pub fn prologue(w: &mut ScriptWriter, vars: u32) -> Locals {
    w.begin_entry();
    let v: Vec<VarId> = (0..vars).map(|_| w.declare_var()).collect();
    let i = w.declare_var();
    for (j, var) in v.iter().enumerate() {
        let k = w.iconst(j as i64);
        w.def_var(*var, k);
    }
    let zero = w.iconst(0);
    w.def_var(i, zero);
    Locals { v, i }
}

/// gen_scale's checksum tail in the current block: `acc = 0 + v0 + v1 + ... ; return acc`.
/// (gen_scale masks the sum with `and 255`; there is no `and` op, and it does not touch any
/// variable, so it is left out.)
pub fn epilogue(w: &mut ScriptWriter, locals: &Locals) {
    let mut acc = w.iconst(0);
    for var in &locals.v {
        let r = w.use_var(*var);
        acc = w.iadd(acc, r);
    }
    w.ret(acc);
}
