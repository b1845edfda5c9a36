//! Property tests of mem2reg's phi placement on random control flow.
//!
//! The default placement (candidates bounded by `analysis::live_bound`, dead ones removed after
//! renaming, names replayed) must give exactly what LLVM's own method gives — exact live-in
//! sets before the iterated frontier — which the pass still uses when the phi-copy budget is
//! on (an unreachable budget changes nothing else). Random CFGs (reducible and irreducible,
//! self-loops, repeated edges, unreachable parts) carry random loads and stores of a few slots,
//! with value names chosen to collide with the phis' names (`%s0.0`), so the deferred naming
//! is exercised too. Every output must also pass the verifier. The programs come from
//! arbtest's bytes ([`crate::testing::check`]): fixed cases, and a failure shrinks to a minimal
//! program, printed with the message.

use super::{promote_function, Options};
use arbtest::arbitrary::{Result, Unstructured};
use llvm_ir::ir::module::FuncId;
use ssa::testing::{below, chance, random_graph, Rng};

/// A function over the random graph: entry `start` jumps to the graph's entry; block `b<i>`
/// loads and stores slots `%s0..` at random, then branches to its successors in order.
fn random_program(rng: &mut Rng) -> String {
    let reducible = below(rng, 3) != 0;
    let n = 1 + below(rng, 24);
    let g = random_graph(rng, n, reducible);
    let k = 1 + below(rng, 4);
    let mut succs: Vec<Vec<usize>> = vec![Vec::new(); n];
    for &(x, y) in &g.edges {
        succs[x.index()].push(y.index());
    }
    let mut s = String::from("define i32 @f(i1 %c, i32 %x, i32 %y) {\nstart:\n");
    for j in 0..k {
        s += &format!("  %s{j} = alloca i32, align 4\n");
    }
    if chance(rng, 1, 2) {
        s += "  store i32 7, ptr %s0, align 4\n";
    }
    s += &format!("  br label %b{}\n", g.entry.index());
    let mut tmp = 0;
    for (i, out) in succs.iter().enumerate() {
        s += &format!("b{i}:\n");
        let mut have: Vec<String> = vec!["%x".into(), "%y".into(), "1".into()];
        for _ in 0..below(rng, 4) {
            let slot = below(rng, k);
            if chance(rng, 1, 2) {
                // Some loads are named like the phis mem2reg will make.
                let name = if chance(rng, 1, 4) {
                    format!("%s{slot}.{}", below(rng, 3))
                } else {
                    format!("%t{tmp}")
                };
                tmp += 1;
                if !s.contains(&format!("{name} =")) {
                    s += &format!("  {name} = load i32, ptr %s{slot}, align 4\n");
                    have.push(name);
                }
            } else {
                let v = &have[below(rng, have.len())];
                s += &format!("  store i32 {v}, ptr %s{slot}, align 4\n");
            }
        }
        let r = &have[have.len() - 1];
        s += &match out.len() {
            0 => format!("  ret i32 {r}\n"),
            1 => format!("  br label %b{}\n", out[0]),
            2 => format!("  br i1 %c, label %b{}, label %b{}\n", out[0], out[1]),
            _ => {
                let cases: Vec<String> = out[1..]
                    .iter()
                    .enumerate()
                    .map(|(c, t)| format!("i32 {c}, label %b{t}"))
                    .collect();
                format!(
                    "  switch i32 %x, label %b{} [ {} ]\n",
                    out[0],
                    cases.join(" ")
                )
            }
        };
    }
    s += "}\n";
    s
}

/// [`random_program`] on arbtest's bytes.
fn random_case(u: &mut Unstructured<'_>) -> Result<String> {
    Ok(random_program(&mut Rng::from_bytes(u.bytes(u.len())?)))
}

/// `text`'s first function promoted with `opts`, verified, and printed.
pub(super) fn promoted(text: &str, opts: &Options) -> String {
    let mut m = llvm_reader::parse(text.as_bytes().to_vec().into()).expect("test input parses");
    let f = &mut m.functions[FuncId(0)];
    promote_function(f, None, opts);
    let errs = llvm_ir::verify::verify_function(f);
    assert!(errs.is_empty(), "{text}\n{errs:?}");
    String::from_utf8(llvm_ir::print::print_module(&m, llvm_ir::Threads::ONE)).expect("utf-8")
}

#[test]
fn bounded_placement_equals_exact_liveness() {
    let bounded = Options::default();
    let exact = Options {
        phi_copy_limit: Some(u64::MAX),
        ..Options::default()
    };
    let mut phis = 0;
    crate::testing::check(1500, 1024, random_case, |text| {
        let a = promoted(text, &bounded);
        let b = promoted(text, &exact);
        assert_eq!(a, b);
        phis += a.matches(" = phi ").count();
    });
    // The programs do need phis (the test is not vacuous).
    assert!(phis > 1000, "{phis}");
}

/// The memo of debug-type sizes a thread keeps from function to function belongs to one
/// module: promoting a module whose `!12` is 64 bits wide after one where it is 32 bits must
/// use 64 (an `i32` store then no longer covers the variable: its debug value is `poison`
/// or `undef`, not the stored value).
#[test]
fn type_size_memo_is_per_module() {
    let src = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/filetests/mem2reg/debug-records.ll"
    ))
    .expect("filetest readable");
    let wide = src.replace(
        "!DIBasicType(name: \"int\", size: 32,",
        "!DIBasicType(name: \"int\", size: 64,",
    );
    assert_ne!(src, wide);
    let run = |text: &str| {
        let mut m = llvm_reader::parse(text.as_bytes().to_vec().into()).expect("parses");
        let ctx = m.info.clone();
        // On this thread, one function after the other (as a worker does).
        for (_, f) in m.functions.iter_mut() {
            promote_function(f, ctx.as_deref(), &Options::default());
        }
        String::from_utf8(llvm_ir::print::print_module(&m, llvm_ir::Threads::ONE)).expect("utf-8")
    };
    for _ in 0..2 {
        let narrow = run(&src);
        assert!(narrow.contains("#dbg_value(i32 %x, !14"), "{narrow}");
        let widened = run(&wide);
        assert!(!widened.contains("#dbg_value(i32 %x, !14"), "{widened}");
        assert!(widened.contains("#dbg_value(i32 undef, !14"), "{widened}");
    }
}

/// The use index (room counted over the whole operand pool, users filled in layout order)
/// against a naive scan, on fresh functions and on promoted ones, whose pools also hold the
/// operands of the removed loads and stores.
#[test]
fn use_index_equals_naive_scan() {
    use llvm_ir::ir::{Function, Inst, Value};
    let naive = |f: &Function, v: Value| -> Vec<(Inst, u32)> {
        let mut out = Vec::new();
        for b in f.layout.blocks() {
            for i in f.layout.block_insts(b) {
                for (k, &x) in f.dfg.inst_values(i).iter().enumerate() {
                    if f.dfg.resolve(x) == v {
                        out.push((i, k as u32));
                    }
                }
            }
        }
        out
    };
    let mut checked = 0;
    crate::testing::check(300, 1024, random_case, |text| {
        let mut m = llvm_reader::parse(text.as_bytes().to_vec().into()).expect("parses");
        let f = &mut m.functions[FuncId(0)];
        for promote in [false, true] {
            if promote {
                promote_function(f, None, &Options::default());
            }
            let uses = super::uses::UseIndex::compute(f);
            for v in (0..f.dfg.values.len()).map(Value::new) {
                assert_eq!(uses.users(v), naive(f, v), "{v} (promoted: {promote})");
                checked += uses.users(v).len();
            }
        }
    });
    assert!(checked > 10_000, "{checked}");
}
