//! A straight-line function with N variables (N = 100,000 in the brief): one block that
//! defines every variable (`x_j = j`), then uses every one (`acc += x_j`) and returns the sum.
//! Every lookup is local to the block: this measures the builder's per-variable bookkeeping.

use crate::script::{Script, ScriptWriter, VarId};

/// The straight-line function with `n` variables.
pub fn straight(n: u32) -> Script {
    let mut w = ScriptWriter::new();
    w.begin_entry();
    let vars: Vec<VarId> = (0..n).map(|_| w.declare_var()).collect();
    for (j, var) in vars.iter().enumerate() {
        let k = w.iconst(j as i64);
        w.def_var(*var, k);
    }
    let mut acc = w.iconst(0);
    for var in &vars {
        let x = w.use_var(*var);
        acc = w.iadd(acc, x);
    }
    w.ret(acc);
    w.finish()
}
