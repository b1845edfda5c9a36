//! Test support for the LLVM analyses: functions built from edge lists (the graphs of
//! `ssa::testing`, as LLVM functions with matching terminators).

use llvm_ir::ir::builder::define_function;
use llvm_ir::ir::{Block, FuncBuilder, Module, Opcode, Text, Type, Value};

/// A module holding `void @f(i1 %c, i32 %x)` whose blocks `0..n` (block `i` has id `i`) are laid
/// out entry first, then in id order, with terminators giving exactly the listed successors:
/// `ret void`, `br label`, `br i1 %c` or a `switch i32 %x` (default = first successor).
pub fn function_from_edges(n: usize, entry: Block, edges: &[(Block, Block)]) -> Module {
    let mut m = Module::new(Vec::new().into());
    let void = m.types_mut().void();
    let (i1, i32t) = (m.types_mut().int(1), m.types_mut().int(32));
    let f = define_function(&mut m, "f", void, &[(i1, "c"), (i32t, "x")]);
    let func = &mut m.functions[f];
    let (c, x) = (func.params[0], func.params[1]);
    let blocks: Vec<Block> = (0..n).map(|_| func.dfg.make_block(Text::NONE)).collect();
    if n > 0 {
        func.layout.append_block(blocks[entry.index()]);
    }
    for &blk in blocks.iter().filter(|&&blk| blk != entry) {
        func.layout.append_block(blk);
    }
    let mut succs: Vec<Vec<Block>> = vec![Vec::new(); n];
    for &(from, to) in edges {
        succs[from.index()].push(to);
    }
    let mut fb = FuncBuilder::new(func);
    for &blk in &blocks {
        let t = make_terminator(&mut fb, &succs[blk.index()], c, x, i32t);
        fb.func.layout.append_inst(t, blk);
    }
    m
}

/// A terminator with successors `succs`.
pub fn make_terminator(
    fb: &mut FuncBuilder<'_>,
    succs: &[Block],
    c: Value,
    x: Value,
    i32t: Type,
) -> llvm_ir::ir::Inst {
    match succs {
        [] => fb.make_ret(None),
        [s] => fb.make_jump(*s),
        [s, t] => fb.make_branch(c, *s, *t),
        [d, cases @ ..] => {
            fb.text("switch i32 ").value(x).text(", label ").block(*d);
            fb.text(" [");
            for (i, &s) in cases.iter().enumerate() {
                fb.text(&format!(" i32 {i}, label ")).block(s);
            }
            fb.text(" ]");
            fb.finish(Opcode::Switch, 0, i32t, None)
        }
    }
}
