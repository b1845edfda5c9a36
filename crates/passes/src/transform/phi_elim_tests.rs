//! Tests of phi elimination: a small interpreter runs a function before (phi semantics: all
//! phis of a block read their entries at once) and after (copies, or stack slots) elimination,
//! on hand-written cases and on random loops whose back edges permute, rotate, fan out and mix
//! constants into the phis, through critical, repeated and single-successor edges.

use super::*;
use arbtest::arbitrary::{Result, Unstructured};
use llvm_ir::entity::SecondaryMap;
use llvm_ir::ir::{Module, Piece};
use ssa::testing::Rng;

pub(crate) fn parse(text: &str) -> Module {
    llvm_reader::parse(text.as_bytes().to_vec().into()).expect("test input parses")
}

/// Runs `func` on `args`; supports the opcodes the tests use. Returns the `ret` value.
pub(crate) fn run(func: &Function, args: &[i64]) -> i64 {
    let dfg = &func.dfg;
    let mut env: SecondaryMap<Value, i64> = SecondaryMap::with_default(0);
    let mut mem: Vec<i64> = Vec::new();
    for (&p, &a) in func.params.iter().zip(args) {
        env[p] = a;
    }
    let val = |env: &SecondaryMap<Value, i64>, v: Value| -> i64 {
        let v = dfg.resolve(v);
        match dfg.values[v].def {
            ValueDef::Const(t) => match func.text(t) {
                b"true" => 1,
                b"false" => 0,
                s => std::str::from_utf8(s).unwrap().parse().unwrap(),
            },
            ValueDef::Undef | ValueDef::Poison => 0,
            _ => env[v],
        }
    };
    let mut prev = Block::NONE;
    let mut b = func.entry_block().unwrap();
    for _step in 0..100_000 {
        // Phis: read every entry for `prev`, then write.
        let mut phi_writes = Vec::new();
        let mut next = None;
        for i in func.layout.block_insts(b) {
            let vals = dfg.inst_values(i);
            let r = dfg.insts[i].result;
            match dfg.opcode(i) {
                Opcode::Phi => {
                    let k = dfg.inst_blocks(i).iter().position(|&p| p == prev).unwrap();
                    phi_writes.push((r, val(&env, vals[k])));
                    continue;
                }
                _ => {
                    for (r, x) in phi_writes.drain(..) {
                        env[r] = x;
                    }
                }
            }
            let x = |k: usize| val(&env, vals[k]);
            let out = match dfg.opcode(i) {
                Opcode::Add => x(0).wrapping_add(x(1)) as i32 as i64,
                Opcode::Mul => x(0).wrapping_mul(x(1)) as i32 as i64,
                Opcode::Copy => x(0),
                Opcode::ICmp => i64::from(icmp(func, i, x(0), x(1))),
                Opcode::Select => {
                    if x(0) != 0 {
                        x(1)
                    } else {
                        x(2)
                    }
                }
                Opcode::Alloca => {
                    mem.push(0);
                    mem.len() as i64 - 1
                }
                Opcode::Load => mem[x(0) as usize],
                Opcode::Store => {
                    mem[x(1) as usize] = x(0);
                    continue;
                }
                Opcode::Ret => return x(0),
                Opcode::Br => {
                    let t = dfg.inst_blocks(i);
                    next = Some(if t.len() == 1 || x(0) != 0 {
                        t[0]
                    } else {
                        t[1]
                    });
                    break;
                }
                Opcode::Switch => {
                    next = Some(switch_target(func, i, x(0), &|v| val(&env, v)));
                    break;
                }
                op => panic!("interpreter: unsupported {op:?}"),
            };
            env[r] = out;
        }
        prev = b;
        b = next.expect("block ends in a branch");
    }
    panic!("interpreter: step limit")
}

fn icmp(func: &Function, i: Inst, a: i64, b: i64) -> bool {
    let Piece::Text(t) = func.dfg.inst_pieces(i)[0] else {
        panic!("icmp template starts with text")
    };
    let s = String::from_utf8_lossy(func.text(t)).into_owned();
    match s.split_whitespace().nth(1).unwrap() {
        "slt" => a < b,
        "sge" => a >= b,
        "eq" => a == b,
        "ne" => a != b,
        p => panic!("predicate {p}"),
    }
}

fn switch_target(func: &Function, i: Inst, c: i64, val: &dyn Fn(Value) -> i64) -> Block {
    let vals = func.dfg.inst_values(i);
    let blocks = func.dfg.inst_blocks(i);
    for k in 1..vals.len() {
        if val(vals[k]) == c {
            return blocks[k];
        }
    }
    blocks[0]
}

fn eliminate(m: &mut Module, lowering: Lowering) -> PhiElimStats {
    let mut total = PhiElimStats::default();
    let opts = Options {
        lowering,
        list: false,
        layout: None,
    };
    for (_, f) in m.functions.iter_mut() {
        total += eliminate_phis(f, &opts).unwrap().stats;
    }
    total
}

fn no_phis(m: &Module) -> bool {
    m.functions.values().all(|f| {
        f.layout
            .blocks()
            .flat_map(|b| f.layout.block_insts(b))
            .all(|i| f.dfg.opcode(i) != Opcode::Phi)
    })
}

/// Runs the first function on `args`, before and after both lowerings.
fn same_behaviour(text: &str, args: &[&[i64]]) -> (PhiElimStats, PhiElimStats) {
    let m0 = parse(text);
    let (mut m1, mut m2) = (parse(text), parse(text));
    let s1 = eliminate(&mut m1, Lowering::Copies);
    let s2 = eliminate(&mut m2, Lowering::StackSlots);
    assert!(no_phis(&m1) && no_phis(&m2));
    for a in args {
        let want = run(&m0.functions[llvm_ir::ir::FuncId(0)], a);
        let got1 = run(&m1.functions[llvm_ir::ir::FuncId(0)], a);
        let got2 = run(&m2.functions[llvm_ir::ir::FuncId(0)], a);
        assert_eq!((got1, got2), (want, want), "args {a:?} on\n{text}");
    }
    assert_eq!(s1, s2);
    (s1, s2)
}

pub(crate) const SWAP: &str = "define i32 @swap(i32 %n) {
entry:
  br label %loop
loop:
  %a = phi i32 [ 1, %entry ], [ %b, %loop ]
  %b = phi i32 [ 2, %entry ], [ %a, %loop ]
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %i.next = add i32 %i, 1
  %c = icmp slt i32 %i.next, %n
  br i1 %c, label %loop, label %exit
exit:
  %r = mul i32 %a, 10
  %s = add i32 %r, %b
  ret i32 %s
}
";

#[test]
fn swap_needs_one_temporary_and_a_split() {
    let (s, _) = same_behaviour(SWAP, &[&[1], &[2], &[5]]);
    assert_eq!(
        s,
        PhiElimStats {
            phis: 3,
            copies: 6,
            temps: 1,
            edges_split: 1,
            fallback_edges: 0
        }
    );
}

#[test]
fn copies_form_is_explicit_copies() {
    let mut m = parse(SWAP);
    eliminate(&mut m, Lowering::Copies);
    let text = String::from_utf8(llvm_ir::print::print_module(&m, llvm_ir::Threads::ONE)).unwrap();
    assert_eq!(text.matches(" = copy i32 ").count(), 7, "{text}");
    assert!(!text.contains("phi"));
}

#[test]
fn lost_copy_goes_on_the_split_edge() {
    let t = "define i32 @lost(i32 %n) {
entry:
  br label %loop
loop:
  %x = phi i32 [ 1, %entry ], [ %y, %loop ]
  %y = add i32 %x, 1
  %c = icmp slt i32 %y, %n
  br i1 %c, label %loop, label %exit
exit:
  ret i32 %x
}
";
    let (s, _) = same_behaviour(t, &[&[1], &[3], &[10]]);
    assert_eq!((s.copies, s.temps, s.edges_split), (2, 0, 1));
}

#[test]
fn listing_names_values_as_the_input_does() {
    let mut m = parse(SWAP);
    let f = &mut m.functions[llvm_ir::ir::FuncId(0)];
    let out = eliminate_phis(
        f,
        &Options {
            lowering: Lowering::StackSlots,
            layout: None,
            list: true,
        },
    )
    .unwrap();
    assert_eq!(
        out.listing,
        "@swap: 3 phis, 6 copies, 1 temporaries, 1 edges split\n  \
         %entry -> %loop [end]: %a <- 1, %b <- 2, %i <- 0\n  \
         %loop -> %loop [split]: %i <- %i.next, tmp0 <- %a, %a <- %b, %b <- tmp0\n"
    );
}

/// A random loop: `k` phis whose back-edge sources are other phis, constants or the counter;
/// the back edge is critical (`shape` 0), goes through a latch (1), or is repeated in a switch
/// that also exits (2).
fn random_loop(rng: &mut Rng, k: usize, shape: u64) -> String {
    let mut s = String::from("define i32 @f(i32 %n) {\nentry:\n  br label %loop\nloop:\n");
    let back = if shape == 1 { "latch" } else { "loop" };
    for j in 0..k {
        let src = match rng.below(8) {
            0 => format!("{}", rng.below(100)),
            1 => "%i.next".to_string(),
            _ => format!("%p{}", rng.below(k as u64)),
        };
        let entries = if shape == 2 {
            format!("[ {src}, %loop ], [ {src}, %loop ]")
        } else {
            format!("[ {src}, %{back} ]")
        };
        s += &format!("  %p{j} = phi i32 [ {j}, %entry ], {entries}\n");
    }
    let i_back = if shape == 2 {
        "[ %i.next, %loop ], [ %i.next, %loop ]".to_string()
    } else {
        format!("[ %i.next, %{back} ]")
    };
    s += &format!("  %i = phi i32 [ 0, %entry ], {i_back}\n");
    s += "  %i.next = add i32 %i, 1\n  %c = icmp slt i32 %i.next, %n\n";
    match shape {
        0 => s += "  br i1 %c, label %loop, label %exit\n",
        1 => s += "  br i1 %c, label %latch, label %exit\nlatch:\n  br label %loop\n",
        _ => {
            s += "  %sel = select i1 %c, i32 %i.next, i32 -1\n";
            s += "  switch i32 %sel, label %loop [\n    i32 -1, label %exit\n    i32 3, label %loop\n  ]\n";
        }
    }
    s += "exit:\n  %h0 = add i32 0, 0\n";
    for j in 0..k {
        s += &format!(
            "  %m{j} = mul i32 %h{j}, 31\n  %h{} = add i32 %m{j}, %p{j}\n",
            j + 1
        );
    }
    s += &format!("  ret i32 %h{k}\n}}\n");
    s
}

/// A [`random_loop`] and its number of phis `k`.
pub(crate) struct RandomLoop {
    pub(crate) k: usize,
    pub(crate) text: String,
}

impl std::fmt::Display for RandomLoop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text)
    }
}

/// A random loop of 1 to 7 phis in one of the three shapes, on arbtest's bytes.
pub(crate) fn random_loop_case(u: &mut Unstructured<'_>) -> Result<RandomLoop> {
    let rng = &mut Rng::from_bytes(u.bytes(u.len())?);
    let shape = rng.below(3);
    let k = 1 + rng.below(7) as usize;
    let text = random_loop(rng, k, shape);
    Ok(RandomLoop { k, text })
}

/// The property on arbtest's cases: a random loop of `k` phis behaves as before phi
/// elimination, with at most one temporary per closed cycle; a failure shrinks to a minimal
/// loop. The cases exercise copy cycles (temporaries are made).
#[test]
fn random_loops_behave_as_their_phis() {
    let mut temps = 0;
    crate::testing::check(300, 256, random_loop_case, |c| {
        let (s, _) = same_behaviour(&c.text, &[&[1], &[2], &[3], &[7]]);
        assert!(s.temps <= c.k / 2, "at most one temporary per closed cycle");
        temps += s.temps;
    });
    assert!(
        temps > 10,
        "the cases exercise cycles ({temps} temporaries)"
    );
}

#[test]
fn fallback_block_keeps_self_copies() {
    let t = "define i32 @f(i32 %n) {
entry:
  br label %l1
l1:
  %i = phi i32 [ 0, %entry ], [ %i2, %l2 ]
  %i1 = add i32 %i, 1
  %t = icmp slt i32 %i1, %n
  %d = select i1 %t, ptr blockaddress(@f, %l2), ptr blockaddress(@f, %out)
  indirectbr ptr %d, [label %l2, label %out]
l2:
  %i2 = phi i32 [ %i1, %l1 ], [ %i2, %l2 ]
  %d2 = select i1 %t, ptr blockaddress(@f, %l1), ptr blockaddress(@f, %l2)
  indirectbr ptr %d2, [label %l1, label %l2]
out:
  ret i32 %i
}
";
    let mut m = parse(t);
    let s = eliminate(&mut m, Lowering::StackSlots);
    // Both phi blocks are fallback blocks: in(%i) <- 0 (end of entry), in(%i) <- %i2,
    // in(%i2) <- %i1, and the self entry in(%i2) <- %i2 is kept.
    assert_eq!((s.phis, s.copies, s.temps, s.fallback_edges), (2, 4, 0, 3));
    assert!(no_phis(&m));
}
