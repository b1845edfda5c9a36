//! Property tests: random CFGs (loops, repeated edges, switches, unreachable blocks) filled
//! with random SSA values that are valid by construction verify clean; one random mutation of
//! such a function (a definition moved after its use, a phi entry dropped, a terminator moved
//! into the middle, ...) is reported with the kind of error it makes. When `opt-19` is
//! installed, it must agree: it accepts the valid functions and rejects the mutated ones that
//! can be written as text.
//!
//! Random functions come from arbtest's bytes through [`Rng::from_bytes`], so a failure
//! shrinks to a minimal function and prints the seed that replays it; a fixed-seed run checks
//! that every mutation is exercised.

use llvm_ir::ir::builder::define_function;
use llvm_ir::ir::{Block, Function, Inst, Module, Value};
use llvm_ir::ir::{FuncBuilder, FuncId, Opcode, Text, Type, ValueDef};
use llvm_ir::verify::*;
use llvm_ir::Threads;
use ssa::testing::Rng;
use ssa::testing::{below, chance};
use ssa::{Cfg, DomTree};

/// The shape of a random function: successor lists per block (block 0 is the entry).
struct Shape {
    succs: Vec<Vec<Block>>,
}

/// Successors for `n` blocks: `ret`, `br`, a conditional `br` (maybe to one block twice) or a
/// `switch` with repeated targets; never to the entry. Some blocks end up unreachable.
fn random_shape(rng: &mut Rng, n: usize) -> Shape {
    let mut succs = Vec::with_capacity(n);
    for i in 0..n {
        let target = |rng: &mut Rng| Block::new(1 + below(rng, n - 1));
        let k = if n == 1 || (i + 1 == n && chance(rng, 1, 2)) {
            0
        } else {
            match below(rng, 10) {
                0 => 0,
                1..=4 => 1,
                5..=8 => 2,
                _ => 3 + below(rng, 3),
            }
        };
        succs.push((0..k).map(|_| target(rng)).collect());
    }
    Shape { succs }
}

/// The values available to uses in each block.
struct Pools {
    i32s: Vec<Vec<Value>>,
    i1s: Vec<Vec<Value>>,
}

/// Builds `i32 @name(i32 %a, i32 %b, i1 %c)` with the given shape, valid by construction.
fn build(m: &mut Module, name: &str, rng: &mut Rng, shape: &Shape) -> FuncId {
    let (i32t, i1) = (m.types_mut().int(32), m.types_mut().int(1));
    let id = define_function(m, name, i32t, &[(i32t, "a"), (i32t, "b"), (i1, "c")]);
    let func = &mut m.functions[id];
    let params = func.params.clone();
    let n = shape.succs.len();
    let blocks: Vec<Block> = {
        let mut fb = FuncBuilder::new(func);
        (0..n).map(|_| fb.append_block(Text::NONE)).collect()
    };
    let edges: Vec<(Block, Block)> = (0..n)
        .flat_map(|i| shape.succs[i].iter().map(move |&s| (Block::new(i), s)))
        .collect();
    let cfg = Cfg::from_edges(n, Block(0), &edges);
    let dt = DomTree::compute(&cfg);
    let mut defs = Pools {
        i32s: vec![Vec::new(); n],
        i1s: vec![Vec::new(); n],
    };
    let mut phis: Vec<(Block, Inst)> = Vec::new();
    // Reachable blocks in dominator-tree preorder (dominators' values exist), then the rest.
    let mut order: Vec<Block> = dt.preorder().to_vec();
    order.extend((0..n).map(Block::new).filter(|&b| !dt.is_reachable(b)));
    for &b in &order {
        let avail = available(&dt, &defs, b, &params, &order);
        let mut fb = FuncBuilder::new(func);
        fill_block(
            &mut fb,
            rng,
            shape,
            b,
            blocks[b.index()],
            avail,
            &mut defs,
            &mut phis,
            (i32t, i1),
        );
    }
    for (b, phi) in phis {
        let incoming: Vec<(Value, Block)> = {
            let mut chosen: Vec<(Block, Value)> = Vec::new();
            cfg.preds(b)
                .iter()
                .map(|&p| {
                    let v = match chosen.iter().find(|(q, _)| *q == p) {
                        Some(&(_, v)) => v,
                        None => {
                            let pool = available(&dt, &defs, p, &params, &order).0;
                            let v = pool[below(rng, pool.len())];
                            chosen.push((p, v));
                            v
                        }
                    };
                    (v, blocks[p.index()])
                })
                .collect()
        };
        FuncBuilder::new(func).set_phi_incoming(phi, &incoming);
    }
    id
}

/// Values usable at the end of block `b`: parameters and the definitions of its dominators
/// (itself included); in an unreachable block, every definition made so far.
fn available(
    dt: &DomTree,
    defs: &Pools,
    b: Block,
    params: &[Value],
    order: &[Block],
) -> (Vec<Value>, Vec<Value>) {
    let mut i32s = vec![params[0], params[1]];
    let mut i1s = vec![params[2]];
    let mut add = |x: Block| {
        i32s.extend(&defs.i32s[x.index()]);
        i1s.extend(&defs.i1s[x.index()]);
    };
    if dt.is_reachable(b) {
        let mut cur = Some(b);
        while let Some(x) = cur {
            add(x);
            cur = dt.idom(x);
        }
    } else {
        order.iter().for_each(|&x| add(x));
    }
    (i32s, i1s)
}

/// Phis (incoming filled later), a few arithmetic and compare instructions, a terminator.
#[allow(clippy::too_many_arguments)]
fn fill_block(
    fb: &mut FuncBuilder<'_>,
    rng: &mut Rng,
    shape: &Shape,
    b: Block,
    blk: Block,
    (mut i32s, mut i1s): (Vec<Value>, Vec<Value>),
    defs: &mut Pools,
    phis: &mut Vec<(Block, Inst)>,
    (i32t, i1): (Type, Type),
) {
    let has_preds = shape.succs.iter().any(|s| s.contains(&b));
    let place = |fb: &mut FuncBuilder<'_>, i: Inst| fb.func.layout.append_inst(i, blk);
    if has_preds {
        for _ in 0..below(rng, 3) {
            let phi = fb.make_phi(i32t, &[], Text::NONE);
            place(fb, phi);
            let r = fb.func.dfg.inst_result(phi).unwrap();
            defs.i32s[b.index()].push(r);
            i32s.push(r);
            phis.push((b, phi));
        }
    }
    for _ in 0..below(rng, 5) {
        let (x, y) = (i32s[below(rng, i32s.len())], i32s[below(rng, i32s.len())]);
        let inst = if chance(rng, 1, 4) {
            fb.make_icmp("slt", x, y, i1, Text::NONE)
        } else {
            let op = [Opcode::Add, Opcode::Sub, Opcode::Mul][below(rng, 3)];
            fb.make_binary(op, x, y, Text::NONE)
        };
        place(fb, inst);
        let r = fb.func.dfg.inst_result(inst).unwrap();
        if fb.func.dfg.value_type(r) == i1 {
            defs.i1s[b.index()].push(r);
            i1s.push(r);
        } else {
            defs.i32s[b.index()].push(r);
            i32s.push(r);
        }
    }
    let succ: Vec<Block> = shape.succs[b.index()]
        .iter()
        .map(|s| Block::new(s.index()))
        .collect();
    let t = match succ.len() {
        0 => fb.make_ret(Some(i32s[below(rng, i32s.len())])),
        1 => fb.make_jump(succ[0]),
        2 => fb.make_branch(i1s[below(rng, i1s.len())], succ[0], succ[1]),
        _ => make_switch(fb, i32s[below(rng, i32s.len())], &succ, i32t),
    };
    place(fb, t);
}

/// `switch i32 %x, label %d [ i32 0, label %s0 ... ]` with case values as operands.
fn make_switch(fb: &mut FuncBuilder<'_>, x: Value, succ: &[Block], i32t: Type) -> Inst {
    fb.text("switch i32 ")
        .value(x)
        .text(", label ")
        .block(succ[0])
        .text(" [");
    for (k, &s) in succ[1..].iter().enumerate() {
        let c = fb.func.dfg.constant(i32t, &k.to_string());
        fb.text(" i32 ").value(c).text(", label ").block(s);
    }
    fb.text(" ]");
    fb.finish(Opcode::Switch, 0, Type::NONE, None)
}

/// One way to break a valid function, and the error it must cause.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mutation {
    MoveDefAfterUse,
    DropPhiEntry,
    TerminatorIntoMiddle,
    ConflictingEntries,
    BranchToEntry,
    PhiAfterNonPhi,
    RemoveUsedDef,
    SelfReference,
    WrongType,
    ForeignValue,
    EmptyBlock,
}

const ALL: [Mutation; 11] = [
    Mutation::MoveDefAfterUse,
    Mutation::DropPhiEntry,
    Mutation::TerminatorIntoMiddle,
    Mutation::ConflictingEntries,
    Mutation::BranchToEntry,
    Mutation::PhiAfterNonPhi,
    Mutation::RemoveUsedDef,
    Mutation::SelfReference,
    Mutation::WrongType,
    Mutation::ForeignValue,
    Mutation::EmptyBlock,
];

impl Mutation {
    fn expected(self) -> ErrorKind {
        match self {
            Mutation::MoveDefAfterUse => ErrorKind::UndominatedUse,
            Mutation::DropPhiEntry => ErrorKind::PhiEntries,
            Mutation::TerminatorIntoMiddle => ErrorKind::TerminatorInMiddle,
            Mutation::ConflictingEntries => ErrorKind::PhiConflict,
            Mutation::BranchToEntry => ErrorKind::EntryHasPredecessors,
            Mutation::PhiAfterNonPhi => ErrorKind::PhiNotAtHead,
            Mutation::RemoveUsedDef => ErrorKind::DetachedOperand,
            Mutation::SelfReference => ErrorKind::SelfReference,
            Mutation::WrongType => ErrorKind::TypeMismatch,
            Mutation::ForeignValue => ErrorKind::BadHandle,
            Mutation::EmptyBlock => ErrorKind::EmptyBlock,
        }
    }

    /// Whether [`verify_read_function`] (no handle or type checks) must catch it too.
    fn beyond_reader(self) -> bool {
        !matches!(self, Mutation::WrongType | Mutation::ForeignValue)
    }

    /// Whether the mutated function still reads back as itself from text (so `opt` can judge
    /// it): not for ids no text can name, nor for layouts the reader cannot express.
    fn printable(self) -> bool {
        !matches!(
            self,
            Mutation::RemoveUsedDef
                | Mutation::ForeignValue
                | Mutation::TerminatorIntoMiddle
                | Mutation::EmptyBlock
                | Mutation::WrongType
        )
    }
}

/// Placed instructions of `f` with their blocks, in layout order.
fn placed(f: &Function) -> Vec<(Block, Inst)> {
    f.layout
        .blocks()
        .flat_map(|b| f.layout.block_insts(b).map(move |i| (b, i)))
        .collect()
}

fn pick<T: Copy>(rng: &mut Rng, v: &[T]) -> Option<T> {
    (!v.is_empty()).then(|| v[below(rng, v.len())])
}

fn is_phi(f: &Function, i: Inst) -> bool {
    f.dfg.opcode(i) == Opcode::Phi
}

/// Applies `m` to `f` if it applies somewhere; returns whether it did.
fn mutate(f: &mut Function, rng: &mut Rng, m: Mutation) -> bool {
    let all = placed(f);
    let reachable = {
        let cfg = llvm_ir::ir::cfg::cfg_of(f);
        move |b: Block| cfg.is_reachable(b)
    };
    match m {
        Mutation::MoveDefAfterUse => {
            let pairs = local_uses(f, &all, &reachable);
            let Some((d, u)) = pick(rng, &pairs) else {
                return false;
            };
            f.layout.remove_inst(d);
            f.layout.insert_inst_after(d, u);
        }
        Mutation::DropPhiEntry | Mutation::ConflictingEntries => {
            let phis: Vec<Inst> = all
                .iter()
                .map(|&(_, i)| i)
                .filter(|&i| is_phi(f, i) && !f.dfg.inst_blocks(i).is_empty())
                .filter(|&i| m == Mutation::DropPhiEntry || has_repeated(f.dfg.inst_blocks(i)))
                .collect();
            let Some(phi) = pick(rng, &phis) else {
                return false;
            };
            let mut inc: Vec<(Value, Block)> = f
                .dfg
                .inst_values(phi)
                .iter()
                .copied()
                .zip(f.dfg.inst_blocks(phi).iter().copied())
                .collect();
            if m == Mutation::DropPhiEntry {
                inc.remove(below(rng, inc.len()));
            } else {
                let k = (0..inc.len())
                    .find(|&k| inc[..k].iter().any(|e| e.1 == inc[k].1))
                    .unwrap();
                let t = f.dfg.value_type(inc[k].0);
                inc[k].0 = f.dfg.constant(t, "12345");
            }
            FuncBuilder::new(f).set_phi_incoming(phi, &inc);
        }
        Mutation::TerminatorIntoMiddle => {
            let ts: Vec<Inst> = all
                .iter()
                .filter_map(|&(b, i)| (f.layout.last_inst(b) == Some(i)).then_some(i))
                .filter(|&t| f.layout.prev_inst(t).is_some())
                .collect();
            let Some(t) = pick(rng, &ts) else {
                return false;
            };
            let prev = f.layout.prev_inst(t).unwrap();
            f.layout.remove_inst(t);
            f.layout.insert_inst_before(t, prev);
        }
        Mutation::BranchToEntry => {
            let ts: Vec<Inst> = all
                .iter()
                .map(|&(_, i)| i)
                .filter(|&i| !f.dfg.inst_blocks(i).is_empty() && !is_phi(f, i))
                .collect();
            let Some(t) = pick(rng, &ts) else {
                return false;
            };
            let k = below(rng, f.dfg.inst_blocks(t).len());
            f.dfg.inst_blocks_mut(t)[k] = f.layout.entry_block().unwrap();
        }
        Mutation::PhiAfterNonPhi => {
            let phis: Vec<Inst> = all
                .iter()
                .map(|&(_, i)| i)
                .filter(|&i| is_phi(f, i))
                .filter(|&i| {
                    let b = f.layout.inst_block(i).unwrap();
                    f.layout
                        .block_insts(b)
                        .any(|j| !is_phi(f, j) && j != f.layout.last_inst(b).unwrap())
                })
                .collect();
            let Some(phi) = pick(rng, &phis) else {
                return false;
            };
            let b = f.layout.inst_block(phi).unwrap();
            let first = f.layout.block_insts(b).find(|&j| !is_phi(f, j)).unwrap();
            f.layout.remove_inst(phi);
            f.layout.insert_inst_after(phi, first);
        }
        Mutation::RemoveUsedDef => {
            let mut used: Vec<Inst> = Vec::new();
            for &(_, u) in &all {
                used.extend(
                    f.dfg
                        .inst_values(u)
                        .iter()
                        .filter_map(|&v| f.dfg.value_inst(v))
                        // A phi that only feeds itself leaves no use behind once removed.
                        .filter(|&d| d != u),
                );
            }
            let Some(d) = pick(rng, &used) else {
                return false;
            };
            f.layout.remove_inst(d);
        }
        Mutation::SelfReference | Mutation::WrongType | Mutation::ForeignValue => {
            // (Self-reference is only an error in reachable code.)
            let binops: Vec<Inst> = all
                .iter()
                .filter(|&&(b, _)| m != Mutation::SelfReference || reachable(b))
                .map(|&(_, i)| i)
                .filter(|&i| matches!(f.dfg.opcode(i), Opcode::Add | Opcode::Sub | Opcode::Mul))
                .collect();
            let Some(i) = pick(rng, &binops) else {
                return false;
            };
            let v = match m {
                Mutation::SelfReference => f.dfg.inst_result(i).unwrap(),
                Mutation::WrongType => {
                    let t = f.types.int(64);
                    f.dfg.constant(t, "1")
                }
                _ => Value::new(f.dfg.values.len() + 7),
            };
            f.dfg.inst_values_mut(i)[below(rng, 2)] = v;
        }
        Mutation::EmptyBlock => {
            let Some((b, _)) = pick(rng, &all) else {
                return false;
            };
            let insts: Vec<Inst> = f.layout.block_insts(b).collect();
            insts.into_iter().for_each(|i| f.layout.remove_inst(i));
        }
    }
    true
}

/// `(d, u)`: a non-phi, non-terminator `u` in a reachable block using non-phi `d` of the
/// same block.
fn local_uses(
    f: &Function,
    all: &[(Block, Inst)],
    reachable: &dyn Fn(Block) -> bool,
) -> Vec<(Inst, Inst)> {
    let mut pairs = Vec::new();
    for &(b, u) in all {
        if !reachable(b) || is_phi(f, u) || f.dfg.opcode(u).is_terminator() {
            continue;
        }
        for &v in f.dfg.inst_values(u) {
            if let ValueDef::Inst(d) = f.dfg.values[v].def {
                if f.layout.inst_block(d) == Some(b) && !is_phi(f, d) {
                    pairs.push((d, u));
                }
            }
        }
    }
    pairs
}

fn has_repeated(blocks: &[Block]) -> bool {
    (0..blocks.len()).any(|k| blocks[..k].contains(&blocks[k]))
}

/// The `seed`-th random function, alone in a module.
fn random_module(seed: u64) -> Module {
    random_module_from(&mut Rng::new(seed))
}

/// A random function drawn from `rng`, alone in a module.
fn random_module_from(rng: &mut Rng<'_>) -> Module {
    let n = 1 + below(rng, 24);
    let shape = random_shape(rng, n);
    let mut m = Module::new(Vec::new().into());
    build(&mut m, "f", rng, &shape);
    m
}

/// The property, on the function `m` and the choices left in `rng`: the function verifies
/// clean (also as the reader's verifier sees it, and after printing and reading back), and
/// one mutation (the first of [`ALL`] from a random start that applies) is reported with the
/// kind of error it makes. Returns the mutation applied.
fn check(mut m: Module, rng: &mut Rng<'_>) -> Option<usize> {
    let errs = verify_module_threads(&m, Threads::ONE);
    assert!(
        errs.is_empty(),
        "valid function rejected:\n{}",
        show(&m, &errs)
    );
    assert!(verify_read_module(&m, Threads::ONE).is_empty());
    // Printing and reading back gives the same verdict.
    let text = llvm_ir::print::print_module(&m, Threads::ONE);
    let back = llvm_reader::parse(text.into()).expect("printed function reads back");
    assert!(
        verify_module_threads(&back, Threads::ONE).is_empty(),
        "round trip"
    );
    let start = below(rng, ALL.len());
    for k in 0..ALL.len() {
        let mutation = ALL[(start + k) % ALL.len()];
        let before = m.clone();
        if !mutate(&mut m.functions[FuncId(0)], rng, mutation) {
            continue;
        }
        let errs = verify_module_threads(&m, Threads::ONE);
        assert!(
            errs.iter().any(|e| e.kind == mutation.expected()),
            "{mutation:?} not reported as {:?}:\n{}",
            mutation.expected(),
            show(&before, &errs)
        );
        if mutation.beyond_reader() {
            let read = verify_read_function(&m.functions[FuncId(0)], 64);
            assert!(
                read.iter().any(|e| e.kind == mutation.expected()),
                "{mutation:?} missed by verify_read_function"
            );
        }
        return Some((start + k) % ALL.len());
    }
    None
}

/// The property on functions arbtest draws: a failure shrinks to a minimal choice sequence
/// (a small function and one mutation) and prints the seed that replays it.
#[test]
fn random_valid_functions_verify_clean_and_every_mutation_is_caught() {
    arbtest::arbtest(|u| {
        let mut rng = Rng::from_bytes(u.bytes(u.len())?);
        let m = random_module_from(&mut rng);
        check(m, &mut rng);
        Ok(())
    })
    .budget_ms(1500);
}

/// Every mutation is exercised: the property on 600 fixed seeds applies each at least ten
/// times (arbtest's draws above are not guaranteed to).
#[test]
fn every_mutation_is_applied_on_fixed_seeds() {
    let mut applied = [0usize; ALL.len()];
    for seed in 0..600u64 {
        let m = random_module(seed);
        if let Some(k) = check(m, &mut Rng::new(seed ^ 0x5eed)) {
            applied[k] += 1;
        }
    }
    for (k, n) in applied.iter().enumerate() {
        assert!(*n >= 10, "{:?} applied only {n} times", ALL[k]);
    }
}

fn show(m: &Module, errs: &[VerifyError]) -> String {
    let text = String::from_utf8_lossy(&llvm_ir::print::print_module(m, Threads::ONE)).into_owned();
    let e: String = errs.iter().map(|e| format!("{e}\n")).collect();
    format!("{e}--- function before:\n{text}")
}

/// `opt-19` agrees: it accepts valid random functions and rejects each printable mutation.
#[test]
fn opt_agrees_on_random_functions() {
    let have_opt = std::process::Command::new("opt-19")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !have_opt {
        eprintln!("opt-19 not installed: skipped");
        return;
    }
    let dir = std::env::temp_dir().join(format!("verify-prop-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let opt_accepts = |name: &str, m: &Module| {
        let path = dir.join(name);
        std::fs::write(&path, llvm_ir::print::print_module(m, Threads::ONE)).unwrap();
        std::process::Command::new("opt-19")
            .args(["-passes=verify", "-disable-output"])
            .arg(&path)
            .output()
            .unwrap()
            .status
            .success()
    };
    for seed in 0..40u64 {
        let mut m = random_module(seed);
        assert!(
            opt_accepts("valid.ll", &m),
            "seed {seed}: opt-19 rejects a valid function"
        );
        let mut rng = Rng::new(seed);
        let mutation = ALL[below(&mut rng, ALL.len())];
        if mutation.printable() && mutate(&mut m.functions[FuncId(0)], &mut rng, mutation) {
            assert!(!verify_module_threads(&m, Threads::ONE).is_empty());
            assert!(
                !opt_accepts("broken.ll", &m),
                "seed {seed}: opt-19 accepts {mutation:?}"
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A function 100,000 blocks long (a chain with skip edges, phis on every join, values used
/// from each block's immediate dominator) verifies clean without deep recursion, in linear
/// time; one dropped phi entry in the middle is the one error found.
#[test]
fn hundred_thousand_blocks() {
    const N: usize = 100_000;
    let mut m = Module::new(Vec::new().into());
    let (i32t, i1) = (m.types_mut().int(32), m.types_mut().int(1));
    let id = define_function(&mut m, "deep", i32t, &[(i32t, "a"), (i1, "c")]);
    let func = &mut m.functions[id];
    let (a, c) = (func.params[0], func.params[1]);
    let mut fb = FuncBuilder::new(func);
    let blocks: Vec<Block> = (0..N).map(|_| fb.append_block(Text::NONE)).collect();
    // Block j branches to j + 1, and also to j + 2 when j % 3 == 0.
    let skips = |j: usize| j % 3 == 0 && j + 2 < N;
    let mut edges = Vec::new();
    for j in 0..N - 1 {
        edges.push((Block::new(j), Block::new(j + 1)));
        if skips(j) {
            edges.push((Block::new(j), Block::new(j + 2)));
        }
    }
    let dt = DomTree::compute(&Cfg::from_edges(N, Block(0), &edges));
    let mut defs: Vec<Value> = vec![a; N];
    let mut middle_phi = None;
    for j in 0..N {
        let b = blocks[j];
        let base = if j == 0 {
            a
        } else {
            let mut incoming = vec![(defs[j - 1], blocks[j - 1])];
            if j >= 2 && skips(j - 2) {
                incoming.push((defs[j - 2], blocks[j - 2]));
            }
            let phi = fb.make_phi(i32t, &incoming, Text::NONE);
            fb.func.layout.append_inst(phi, b);
            if j == N / 2 / 3 * 3 + 2 {
                middle_phi = Some((phi, incoming));
            }
            fb.func.dfg.inst_result(phi).unwrap()
        };
        let idom = dt.idom(Block::new(j)).map_or(a, |d| defs[d.index()]);
        let add = fb.make_binary(Opcode::Add, base, idom, Text::NONE);
        fb.func.layout.append_inst(add, b);
        defs[j] = fb.func.dfg.inst_result(add).unwrap();
        let t = if j + 1 == N {
            fb.make_ret(Some(defs[j]))
        } else if skips(j) {
            fb.make_branch(c, blocks[j + 1], blocks[j + 2])
        } else {
            fb.make_jump(blocks[j + 1])
        };
        fb.func.layout.append_inst(t, b);
    }
    let start = std::time::Instant::now();
    let errs = verify_module_threads(&m, Threads::ONE);
    assert!(errs.is_empty(), "{}", errs[0]);
    assert!(start.elapsed().as_secs() < 10, "took {:?}", start.elapsed());
    let (phi, mut incoming) = middle_phi.unwrap();
    assert_eq!(incoming.len(), 2, "the middle block chosen is a join");
    incoming.pop();
    FuncBuilder::new(&mut m.functions[id]).set_phi_incoming(phi, &incoming);
    let kinds: Vec<ErrorKind> = verify_module_threads(&m, Threads::ONE)
        .iter()
        .map(|e| e.kind)
        .collect();
    assert_eq!(kinds, vec![ErrorKind::PhiEntries]);
}
