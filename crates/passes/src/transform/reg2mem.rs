//! reg2mem: the inverse of mem2reg — every value that crosses a block boundary, and every phi,
//! goes through a stack slot. The result is the module LLVM 19's `opt -passes=reg2mem` makes
//! (LLVM 14's for typed-pointer modules), names included: llvm/lib/Transforms/Scalar/
//! Reg2Mem.cpp with `DemoteRegToStack`/`DemotePHIToStack` (Utils/DemoteRegToStack.cpp) and
//! `SplitCriticalEdge` (Utils/BreakCriticalEdges.cpp) are the model; the facts carried over,
//! not the code.
//!
//! Steps, per function (`optnone` functions and declarations are left alone, as opt's pass
//! manager skips them):
//! 1. Split every critical edge, LLVM's way and with its names (`%a.b_crit_edge`, and
//!    `%bsplit` when a loop exit is kept in loop-simplify form): `split`, using `loops`.
//! 2. Insert `%"reg2mem alloca point" = bitcast i32 0 to i32` after the entry block's leading
//!    allocas; every new slot goes right before it.
//! 3. Demote values, then phis, in reverse layout order, with `%x.reg2mem` slots and
//!    `%x.reload` loads: `demote` (which states the rules: use-list order, insertion points,
//!    debug records, invoke results, EH pads).
//!
//! Names are made unique in the function's one namespace of values and blocks with LLVM's
//! running counter ([`NameTable`]), in LLVM's creation order, so `%x.reload3` gets the same
//! number as in opt's output. Unsupported (an error): phis in, or incoming from, a
//! `catchswitch` block (WinEH funclets; LLVM would put a store before the `catchswitch`).
//!
//! Invariant of the result: no phi, and no instruction value (other than entry allocas and
//! unsized values) used outside its block. Cost: linear in instructions + operands + phi
//! entries, plus one scan of the blocks per critical edge leaving a loop.

mod demote;
mod loops;
mod split;

use crate::transform::mem2reg::names::NameTable;
use demote::{Demoter, Users};
use llvm_ir::ir::{Function, Inst, Opcode};
use split::{split_all_critical_edges, Preds};

/// What reg2mem did to one function (or, summed, to a module).
#[derive(Clone, Copy, PartialEq, Eq, Default, Debug)]
pub struct Reg2MemStats {
    /// Edges split in step 1.
    pub edges_split: usize,
    /// Instruction values demoted in step 2.
    pub values_demoted: usize,
    /// Phis demoted in step 3 (deleted unused phis not counted).
    pub phis_demoted: usize,
}

impl std::ops::AddAssign for Reg2MemStats {
    fn add_assign(&mut self, o: Self) {
        self.edges_split += o.edges_split;
        self.values_demoted += o.values_demoted;
        self.phis_demoted += o.phis_demoted;
    }
}

/// Why reg2mem refused a function.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reg2MemError(pub String);

impl std::fmt::Display for Reg2MemError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Reg2MemError {}

/// Runs reg2mem on `func` (see the module docs). On error `func` is unchanged. Functions
/// marked `optnone` and declarations are left alone, as opt's pass manager does. Slots,
/// loads and stores are written without `align` (see [`reg2mem_with`]).
pub fn reg2mem(func: &mut Function) -> Result<Reg2MemStats, Reg2MemError> {
    reg2mem_with(func, None)
}

/// [`reg2mem`] in a module with data layout `layout`: slots get its preferred alignment and
/// their loads and stores its ABI alignment, as LLVM's `DemoteRegToStack` writes them.
pub fn reg2mem_with(
    func: &mut Function,
    layout: Option<&llvm_ir::ir::datalayout::DataLayout>,
) -> Result<Reg2MemStats, Reg2MemError> {
    if func.optnone || func.entry_block().is_none() {
        return Ok(Reg2MemStats::default());
    }
    func.dfg.resolve_aliases();
    check_supported(func)?;
    let mut names = NameTable::build(func);
    let mut preds = Preds::compute(func);
    let mut loops = loops::Loops::compute(func);
    let edges_split = split_all_critical_edges(func, &mut names, &mut preds, &mut loops);
    let mut d = Demoter::new(func, &mut names, &mut preds, layout);
    let insts: Vec<Inst> = d
        .func
        .layout
        .blocks()
        .flat_map(|b| d.func.layout.block_insts(b))
        .collect();
    let users = Users::compute(d.func, &insts);
    let values_demoted = d.demote_values(&insts, &users);
    let phis_demoted = d.demote_phis(&insts, &users);
    func.dfg.resolve_aliases();
    Ok(Reg2MemStats {
        edges_split,
        values_demoted,
        phis_demoted,
    })
}

/// Rejects catchswitch blocks with phis and phis incoming from a catchswitch block.
fn check_supported(func: &Function) -> Result<(), Reg2MemError> {
    let is_cs = |i: Inst| func.dfg.opcode(i) == Opcode::CatchSwitch;
    for b in func.layout.blocks() {
        let mut phis = func
            .layout
            .block_insts(b)
            .take_while(|&i| func.dfg.opcode(i) == Opcode::Phi)
            .peekable();
        if phis.peek().is_none() {
            continue;
        }
        let bad_head = crate::transform::edges::first_non_phi(func, b).is_some_and(is_cs);
        let bad_pred = phis.any(|i| {
            func.dfg
                .inst_blocks(i)
                .iter()
                .any(|&p| func.terminator(p).is_some_and(is_cs))
        });
        if bad_head || bad_pred {
            return Err(Reg2MemError(format!(
                "reg2mem: function @{}: phis in or incoming from a catchswitch block are not \
                 supported",
                func.name_str()
            )));
        }
    }
    Ok(())
}

/// The `reg2mem` pass of the pipeline; summed counts go to `report.stats` as
/// `reg2mem.{edges-split,values-demoted,phis-demoted}`.
pub fn run_on_module(
    m: &mut llvm_ir::ir::Module,
    opts: &crate::pipeline::RunOptions,
    report: &mut crate::pipeline::RunReport,
) -> Result<(), crate::pipeline::PipelineError> {
    let results = crate::pipeline::for_each_function(m, opts.threads, reg2mem);
    let mut total = Reg2MemStats::default();
    let mut messages = Vec::new();
    for r in results {
        match r {
            Ok(s) => total += s,
            Err(e) => messages.push(e.0),
        }
    }
    if !messages.is_empty() {
        return Err(crate::pipeline::PipelineError { messages });
    }
    for (k, v) in [
        ("edges-split", total.edges_split),
        ("values-demoted", total.values_demoted),
        ("phis-demoted", total.phis_demoted),
    ] {
        report.stats.push((format!("reg2mem.{k}"), v as u64));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transform::phi_elim::tests::{parse, random_loop_case, run, SWAP};
    use arbtest::arbitrary::{Result, Unstructured};
    use llvm_ir::ir::FuncId;
    use ssa::testing::Rng;

    /// No phi is left, and no instruction value other than an entry alloca is used outside its
    /// block.
    fn check_demoted(func: &Function) {
        let entry = func.entry_block();
        for b in func.layout.blocks() {
            for u in func.layout.block_insts(b) {
                assert_ne!(func.dfg.opcode(u), Opcode::Phi);
                for &v in func.dfg.inst_values(u) {
                    let v = func.dfg.resolve(v);
                    let Some(d) = func.dfg.value_inst(v) else {
                        continue;
                    };
                    let db = func.layout.inst_block(d);
                    let entry_alloca = func.dfg.opcode(d) == Opcode::Alloca && db == entry;
                    assert!(db == Some(b) || entry_alloca, "{v} escapes its block");
                }
            }
        }
    }

    /// Removes the unused `"reg2mem alloca point"` bitcast (the test interpreter has no casts).
    fn drop_alloca_point(func: &mut Function) {
        let e = func.entry_block().unwrap();
        let point = func
            .layout
            .block_insts(e)
            .find(|&i| func.dfg.opcode(i) == Opcode::BitCast);
        func.remove_inst(point.expect("reg2mem made its alloca point"));
    }

    fn same_behaviour(text: &str, args: &[&[i64]]) -> Reg2MemStats {
        let m0 = parse(text);
        let mut m1 = parse(text);
        let f = &mut m1.functions[FuncId(0)];
        let st = reg2mem(f).unwrap();
        check_demoted(f);
        drop_alloca_point(f);
        for a in args {
            let want = run(&m0.functions[FuncId(0)], a);
            assert_eq!(run(&m1.functions[FuncId(0)], a), want, "{text}");
        }
        st
    }

    #[test]
    fn swap_loop() {
        let st = same_behaviour(SWAP, &[&[1], &[4]]);
        // %a, %b (used by phis and after the loop) and %i.next; then 3 phis.
        assert_eq!(
            st,
            Reg2MemStats {
                edges_split: 1,
                values_demoted: 3,
                phis_demoted: 3
            }
        );
    }

    /// Random loops (arbtest's cases: a failure shrinks to a minimal loop) behave as before.
    #[test]
    fn random_loops() {
        crate::testing::check(200, 256, random_loop_case, |c| {
            same_behaviour(&c.text, &[&[1], &[2], &[5]]);
        });
    }

    #[test]
    fn unused_phi_is_deleted_and_repeated_edge_gets_two_blocks() {
        let t = "define i32 @f(i32 %x) {
entry:
  %c = icmp slt i32 %x, 3
  br i1 %c, label %j, label %j
j:
  %dead = phi i32 [ 1, %entry ], [ 1, %entry ]
  %p = phi i32 [ %x, %entry ], [ %x, %entry ]
  ret i32 %p
}
";
        let mut m = parse(t);
        let f = &mut m.functions[FuncId(0)];
        let st = reg2mem(f).unwrap();
        check_demoted(f);
        // As LLVM: each of the two edges gets a block, and each phi entry a store.
        assert_eq!((st.edges_split, st.phis_demoted), (2, 1));
        let text =
            String::from_utf8(llvm_ir::print::print_module(&m, llvm_ir::Threads::ONE)).unwrap();
        assert_eq!(text.matches("store").count(), 2, "{text}");
        assert!(text.contains("entry.j_crit_edge1:"), "{text}");
        assert!(text.contains("%p.reload = load"), "{text}");
    }

    /// A clang -O0 style function: `k` variables in slots, a counted loop whose body assigns
    /// variables from each other (swaps, rotations, chains) straight or inside diamonds.
    fn random_slots(rng: &mut Rng, k: usize, stmts: usize) -> String {
        let mut s = String::from("define i32 @f(i32 %n) {\nentry:\n");
        for j in 0..k {
            s += &format!("  %v{j} = alloca i32\n");
        }
        s += "  %i = alloca i32\n";
        for j in 0..k {
            s += &format!("  store i32 {j}, ptr %v{j}\n");
        }
        s += "  store i32 0, ptr %i\n  br label %head\nhead:\n  %iv = load i32, ptr %i\n";
        s += "  %c = icmp slt i32 %iv, %n\n  br i1 %c, label %body, label %exit\nbody:\n";
        let assign = |s: &mut String, t: usize, rng: &mut Rng| {
            let (a, b) = (rng.below(k as u64), rng.below(k as u64));
            *s += &format!("  %l{t} = load i32, ptr %v{b}\n");
            *s += &format!("  %x{t} = add i32 %l{t}, {}\n", rng.below(3));
            *s += &format!("  store i32 %x{t}, ptr %v{a}\n");
        };
        for t in 0..stmts {
            if rng.below(3) == 0 {
                s += &format!("  %d{t} = icmp slt i32 %iv, {}\n", rng.below(6));
                s += &format!("  br i1 %d{t}, label %t{t}, label %e{t}\nt{t}:\n");
                assign(&mut s, 2 * t + 1000, rng);
                s += &format!("  br label %j{t}\ne{t}:\n");
                assign(&mut s, 2 * t + 1001, rng);
                s += &format!("  br label %j{t}\nj{t}:\n");
            } else {
                assign(&mut s, t, rng);
            }
        }
        s += "  %in = add i32 %iv, 1\n  store i32 %in, ptr %i\n  br label %head\nexit:\n";
        s += "  %h0 = add i32 0, 0\n";
        for j in 0..k {
            s += &format!("  %r{j} = load i32, ptr %v{j}\n  %m{j} = mul i32 %h{j}, 7\n");
            s += &format!("  %h{} = add i32 %m{j}, %r{j}\n", j + 1);
        }
        s += &format!("  ret i32 %h{k}\n}}\n");
        s
    }

    /// [`random_slots`] with 2 to 6 variables and 1 to 8 statements, on arbtest's bytes.
    fn random_slots_case(u: &mut Unstructured<'_>) -> Result<String> {
        let rng = &mut Rng::from_bytes(u.bytes(u.len())?);
        let k = 2 + rng.below(5) as usize;
        let stmts = 1 + rng.below(8) as usize;
        Ok(random_slots(rng, k, stmts))
    }

    fn count_phis(func: &Function) -> usize {
        func.layout
            .blocks()
            .flat_map(|b| func.layout.block_insts(b))
            .filter(|&i| func.dfg.opcode(i) == Opcode::Phi)
            .count()
    }

    /// mem2reg after reg2mem gives back as many phis as mem2reg alone, and the same behaviour
    /// (arbtest's cases: a failure shrinks to a minimal function).
    #[test]
    fn mem2reg_after_reg2mem_gives_the_same_phis() {
        use crate::transform::mem2reg::{promote_function, Options};
        let opts = Options::default();
        let mut total = 0;
        crate::testing::check(150, 256, random_slots_case, |text| {
            let mut m = parse(text);
            let f = &mut m.functions[FuncId(0)];
            let want = run(f, &[4]);
            promote_function(f, None, &opts);
            let phis = count_phis(f);
            total += phis;
            reg2mem(f).unwrap();
            check_demoted(f);
            drop_alloca_point(f);
            assert_eq!(run(f, &[4]), want, "after reg2mem");
            promote_function(f, None, &opts);
            assert_eq!(count_phis(f), phis, "phis after mem2reg again");
            assert_eq!(run(f, &[4]), want, "after mem2reg again");
        });
        assert!(total > 300, "the cases have phis ({total})");
    }
}
