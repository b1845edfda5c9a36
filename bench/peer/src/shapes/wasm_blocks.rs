//! The shape of wasmtime issue #4923, "Cranelift: Quadratic compile time from
//! `can_optimize_var_lookup`" (2022). The issue's module is one function with one `i32`
//! parameter whose body is a wasm `block` repeated 15,000 times:
//!
//! ```text
//! (func (param i32)
//!   (block (local.set 0 (i32.add (i32.const 1) (local.get 0))))
//!   ... repeated 15,000 times
//! )
//! ```
//!
//! The ops are what wasmtime's wasm translator asks of cranelift-frontend for it: an entry
//! block (created, entered, sealed) where local 0 is declared and defined; an exit block for the
//! function's implicit outer block; then per wasm `block`: create the block after it, then
//! `iconst 1; use_var(l0); iadd; def_var(l0)`, and at its `end` jump to the next block, switch
//! to it and seal it — a chain of 15,000 single-predecessor blocks, each reading and writing one
//! local. The final `end` jumps to the exit block, which returns.
//!
//! Two deliberate differences, neither touching a variable lookup: the parameter's value is an
//! `iconst` (there is no parameter op; both are one definition in the entry block), and the
//! function returns local 0 (our functions return an `i64`) where the issue's returns nothing,
//! which adds one `use_var` in the exit block.

use crate::script::{Script, ScriptWriter};

/// The number of chained wasm blocks in the issue.
pub const ISSUE_BLOCKS: u32 = 15_000;

/// The issue's function with `n` chained wasm blocks instead of 15,000.
pub fn wasm_blocks(n: u32) -> Script {
    let mut w = ScriptWriter::new();
    w.begin_entry();
    let local0 = w.declare_var();
    let param = w.iconst(0);
    w.def_var(local0, param);
    let exit = w.create_block();
    for _ in 0..n {
        let next = w.create_block();
        let one = w.iconst(1);
        let old = w.use_var(local0);
        let new = w.iadd(one, old);
        w.def_var(local0, new);
        w.jump(next);
        w.switch_to_block(next);
        w.seal_block(next);
    }
    w.jump(exit);
    w.switch_to_block(exit);
    w.seal_block(exit);
    let result = w.use_var(local0);
    w.ret(result);
    w.finish()
}
