//! The builder's phi writer against the written-out phi templates.

use llvm_ir::ir::builder::*;
use llvm_ir::ir::{Block, Function, Inst, Opcode, Value};

/// `PhiWriter`'s shared templates print as `set_phi_incoming_flags`'s written-out ones.
#[test]
fn phi_writer_prints_as_the_builder_does() {
    let text = "define i32 @f(i1 %c, i32 %a, float %x) {\nentry:\n  br i1 %c, label %l, label %r\nl:\n  br label %j\nr:\n  br label %j\nj:\n  %p = phi i32 [ %a, %l ], [ 1, %r ]\n  %q = phi float [ %x, %l ], [ %x, %r ]\n  ret i32 %p\n}\n";
    let print = |edit: &dyn Fn(&mut Function, &[Inst])| {
        let mut m = llvm_reader::parse(text.as_bytes().to_vec().into()).expect("parses");
        let f = m.functions.iter_mut().next().expect("one function").1;
        let phis: Vec<Inst> = f
            .layout
            .blocks()
            .flat_map(|b| f.layout.block_insts(b))
            .filter(|&i| f.dfg.opcode(i) == Opcode::Phi)
            .collect();
        edit(f, &phis);
        let mut out = Vec::new();
        llvm_ir::print::print_function(f, &mut out);
        String::from_utf8(out).expect("text")
    };
    let incoming = |f: &Function, i: Inst| -> Vec<(Value, Block)> {
        let d = &f.dfg;
        d.inst_values(i)
            .iter()
            .copied()
            .zip(d.inst_blocks(i).iter().copied())
            .rev()
            .collect()
    };
    for nsz in [false, true] {
        let flags = if nsz { "nsz " } else { "" };
        let written = print(&|f, phis| {
            for &p in phis {
                let inc = incoming(f, p);
                FuncBuilder::new(f).set_phi_incoming_flags(p, flags, &inc);
            }
        });
        let shared = print(&|f, phis| {
            let mut w = PhiWriter::new();
            for &p in phis {
                let inc = incoming(f, p);
                w.set_incoming(f, p, nsz, &inc);
            }
            // One two-piece template per type, shared by later phis of that type.
            let first = f.dfg.insts[phis[0]].pieces;
            let same: Vec<_> = incoming(f, phis[0]).into_iter().rev().collect();
            w.set_incoming(f, phis[0], nsz, &same);
            assert_eq!(f.dfg.insts[phis[0]].pieces, first);
            assert_ne!(f.dfg.insts[phis[1]].pieces, first);
            assert_eq!(first.len, 2);
        });
        assert_eq!(written, shared);
        assert!(
            shared.contains(&format!("phi {flags}i32 [ 1, %r ], [ %a, %l ]")),
            "{shared}"
        );
    }
}
