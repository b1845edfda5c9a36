//! Property test of what promotion means: the promoted function behaves as the original.
//!
//! The oracle is deliberately naive and independent of the IR: an interpreter of the printed
//! text, for the few instructions the generator writes (`alloca`, `load`, `store`, `add`,
//! `phi`, calls of `@choice`/`@pick`/`@obs`, lifetime markers, `br`, `switch`, `ret`). Both
//! versions run on the same arguments and the same stream of external choices (mem2reg never
//! changes control flow, so they take the same path), and every value the promoted run passes
//! to `@obs` must refine the original's: equal, unless the original's was undefined (a load
//! before any store, or `undef`). The programs: random CFGs (reducible and irreducible, repeated edges,
//! unreachable parts), slots in the entry block and in other blocks (loop bodies among them:
//! undefined again each time their `alloca` runs), lifetime markers of whole slots and of
//! parts (after one, a slot's contents are undefined), byte-array slots as rustc writes them
//! (left in memory, or promoted with `byte_array_slots`), loaded values used in dominated
//! blocks, every SSA flavour, phi-copy budgets that leave some slots in memory, every
//! `--uninit` value (with `zero` and `freeze`, an input without `undef` must give an output
//! without `undef` or `poison` but the freezes'), and `--max-promoted`.
//!
//! The programs come from arbtest's bytes ([`crate::testing::check`]): the same 600 on every
//! run, and a failure shrinks to a minimal program, printed with its runs and the message.

use std::collections::HashMap;
use std::fmt;

use super::tests::promoted;
use super::{Flavour, Options, UndefRules, Uninit};
use arbtest::arbitrary::{Result, Unstructured};
use llvm_ir::ir::Block;
use ssa::domtree::naive;
use ssa::testing::{below, chance, random_graph, Rng};

/// A random program over a random CFG: `void @f(i32 %x, i32 %y)`, blocks `b<i>`, entry slots
/// `%e<j>` and slots `%n<j>` allocated at the top of block `home[j]` (reachable), used only in
/// blocks that `home[j]` dominates.
fn random_program(rng: &mut Rng) -> String {
    let reducible = below(rng, 3) != 0;
    let n = 1 + below(rng, 16);
    let g = random_graph(rng, n, reducible);
    let cfg = g.cfg();
    let dom = naive::dominator_sets(&cfg);
    let reachable: Vec<usize> = (0..n)
        .filter(|&i| cfg.is_reachable(Block::new(i)))
        .collect();
    let dominates = |a: usize, b: usize| dom[b].contains(Block::new(a));
    let mut succs: Vec<Vec<usize>> = vec![Vec::new(); n];
    for &(x, y) in &g.edges {
        succs[x.index()].push(y.index());
    }
    let entry_slots = 1 + below(rng, 3);
    let homes: Vec<usize> = (0..below(rng, 3))
        .map(|_| reachable[below(rng, reachable.len())])
        .collect();
    let mut s = String::from(
        "declare i1 @choice()\ndeclare i32 @pick()\ndeclare void @obs(i32)\n\
         declare void @llvm.lifetime.start.p0(i64, ptr)\n\
         declare void @llvm.lifetime.end.p0(i64, ptr)\n\n\
         define void @f(i32 %x, i32 %y) {\nstart:\n",
    );
    for j in 0..entry_slots {
        // Some slots are byte arrays, as rustc writes them (promoted with
        // `byte_array_slots`, else left in memory).
        let ty = ["i32", "[4 x i8]", "[8 x i8]"][below(rng, 4).saturating_sub(1)];
        s += &format!("  %e{j} = alloca {ty}, align 4\n");
        if chance(rng, 2, 3) {
            s += &format!("  store i32 {}, ptr %e{j}, align 4\n", 10 + j);
        }
    }
    s += &format!("  br label %b{}\n", g.entry.index());
    // The values each block defines, for use in the blocks it strictly dominates.
    let mut defined: Vec<Vec<String>> = vec![Vec::new(); n];
    let mut tmp = 0;
    // Blocks in reverse postorder first, so a dominator's values are known before its users.
    let order: Vec<usize> = cfg.reverse_postorder().iter().map(|b| b.index()).collect();
    let unreached = (0..n).filter(|i| !order.contains(i));
    let mut bodies: Vec<String> = vec![String::new(); n];
    for i in order.iter().copied().chain(unreached) {
        let mut body = String::new();
        let mut slots: Vec<String> = (0..entry_slots).map(|j| format!("%e{j}")).collect();
        for (j, &h) in homes.iter().enumerate() {
            if h == i {
                body += &format!("  %n{j} = alloca i32, align 4\n");
            }
            if dom[i].contains(Block::new(h)) {
                slots.push(format!("%n{j}"));
            }
        }
        let mut have: Vec<String> = vec!["%x".into(), "%y".into(), "1".into()];
        if chance(rng, 1, 4) {
            have.push("undef".into());
        }
        for d in (0..n).filter(|&d| d != i && dominates(d, i)) {
            have.extend(defined[d].iter().cloned());
        }
        for _ in 0..below(rng, 6) {
            let pick = |rng: &mut Rng, v: &[String]| v[below(rng, v.len())].clone();
            let name = format!("%t{tmp}");
            tmp += 1;
            match below(rng, 9) {
                0..=2 => {
                    let p = pick(rng, &slots);
                    body += &format!("  {name} = load i32, ptr {p}, align 4\n");
                }
                3..=5 => {
                    let (v, p) = (pick(rng, &have), pick(rng, &slots));
                    body += &format!("  store i32 {v}, ptr {p}, align 4\n");
                    continue;
                }
                6 => {
                    let (a, b) = (pick(rng, &have), pick(rng, &have));
                    body += &format!("  {name} = add i32 {a}, {b}\n");
                }
                7 => {
                    body += &format!("  call void @obs(i32 {})\n", pick(rng, &have));
                    continue;
                }
                _ => {
                    // Of the whole slot (4 bytes of an i32 or [4 x i8]) or of part of it.
                    let which = ["start", "end"][below(rng, 2)];
                    let size = [4, 4, 2, -1][below(rng, 4)];
                    let p = pick(rng, &slots);
                    body +=
                        &format!("  call void @llvm.lifetime.{which}.p0(i64 {size}, ptr {p})\n");
                    continue;
                }
            }
            have.push(name.clone());
            defined[i].push(name);
        }
        body += &format!("  call void @obs(i32 {})\n", have[have.len() - 1]);
        body += &terminator(i, &succs[i]);
        bodies[i] = body;
    }
    for (i, body) in bodies.iter().enumerate() {
        s += &format!("b{i}:\n{body}");
    }
    s += "}\n";
    s
}

/// `ret void`, `br label`, a conditional `br` on `@choice()` or a `switch` on `@pick()`.
fn terminator(i: usize, out: &[usize]) -> String {
    match out {
        [] => "  ret void\n".into(),
        [t] => format!("  br label %b{t}\n"),
        [t, f] => format!("  %c{i} = call i1 @choice()\n  br i1 %c{i}, label %b{t}, label %b{f}\n"),
        [d, rest @ ..] => {
            let cases: Vec<String> = rest
                .iter()
                .enumerate()
                .map(|(c, t)| format!("i32 {c}, label %b{t}"))
                .collect();
            format!(
                "  %w{i} = call i32 @pick()\n  switch i32 %w{i}, label %b{d} [ {} ]\n",
                cases.join(" ")
            )
        }
    }
}

/// An operand: a local value or a constant (`None`: `undef` or `poison`).
#[derive(Clone, Debug)]
enum Op {
    Local(String),
    Const(Option<i32>),
}

/// One instruction of the interpreted subset.
#[derive(Clone, Debug)]
enum Inst {
    Alloca(String),
    /// `freeze i32 poison`: one arbitrary but fixed value.
    Freeze(String),
    Load(String, Op),
    Store(Op, Op),
    Add(String, Op, Op),
    Phi(String, Vec<(Op, String)>),
    Choice(String),
    Pick(String),
    Obs(Op),
    /// `llvm.lifetime.start` or `.end`: the slot's contents are undefined after it.
    Lifetime(Op),
    Br(String),
    CondBr(Op, String, String),
    Switch(Op, String, Vec<(i32, String)>),
    Ret,
}

fn op(s: &str) -> Op {
    let s = s
        .trim()
        .trim_start_matches("i32 ")
        .trim_start_matches("ptr ");
    let s = s.trim_start_matches("i1 ").trim();
    if s == "undef" || s == "poison" {
        Op::Const(None)
    } else if let Some(name) = s.strip_prefix('%') {
        Op::Local(name.to_string())
    } else {
        Op::Const(Some(s.parse().unwrap_or_else(|_| panic!("operand {s:?}"))))
    }
}

fn label(s: &str) -> String {
    s.trim()
        .trim_start_matches("label ")
        .trim()
        .trim_start_matches('%')
        .to_string()
}

/// `a, b, c` split at top-level commas (none of our operands nest).
fn parts(s: &str) -> Vec<&str> {
    s.split(',').map(str::trim).collect()
}

/// The instruction on one line of `@f`'s body.
fn parse_inst(line: &str) -> Inst {
    let (dst, rhs) = match line.split_once(" = ") {
        Some((d, r)) => (d.trim().trim_start_matches('%').to_string(), r.trim()),
        None => (String::new(), line.trim()),
    };
    let after = |p: &str| rhs.strip_prefix(p).map(str::trim);
    if rhs.starts_with("alloca ") {
        Inst::Alloca(dst)
    } else if rhs == "freeze i32 poison" {
        Inst::Freeze(dst)
    } else if let Some(r) = after("load i32,") {
        Inst::Load(dst, op(parts(r)[0]))
    } else if let Some(r) = after("store ") {
        let p = parts(r);
        Inst::Store(op(p[0]), op(p[1]))
    } else if let Some(r) = after("add i32 ") {
        let p = parts(r);
        Inst::Add(dst, op(p[0]), op(p[1]))
    } else if let Some(r) = after("phi i32 ") {
        let incoming = r
            .split(']')
            .filter_map(|e| e.trim().trim_start_matches(',').trim().strip_prefix('['))
            .map(|e| {
                let p = parts(e);
                (op(p[0]), label(p[1]))
            })
            .collect();
        Inst::Phi(dst, incoming)
    } else if rhs.starts_with("call i1 @choice(") {
        Inst::Choice(dst)
    } else if rhs.starts_with("call i32 @pick(") {
        Inst::Pick(dst)
    } else if let Some(r) = after("call void @obs(") {
        Inst::Obs(op(r.trim_end_matches(')')))
    } else if rhs.starts_with("call void @llvm.lifetime.") {
        let args = rhs
            .split_once('(')
            .expect("arguments")
            .1
            .trim_end_matches(')');
        Inst::Lifetime(op(parts(args)[1]))
    } else if let Some(r) = after("br label ") {
        Inst::Br(label(r))
    } else if let Some(r) = after("br ") {
        let p = parts(r);
        Inst::CondBr(op(p[0]), label(p[1]), label(p[2]))
    } else if let Some(r) = after("switch ") {
        let (head, cases) = r.split_once('[').expect("switch cases");
        let p = parts(head);
        let cases = cases.trim_end_matches(']').split("label");
        let mut list = Vec::new();
        let mut value = None;
        for piece in cases {
            let piece = piece.trim();
            if let Some(v) = value.take() {
                let (target, rest) = piece.split_once(' ').unwrap_or((piece, ""));
                list.push((v, label(target)));
                value = rest
                    .trim()
                    .strip_prefix("i32 ")
                    .map(|n| n.trim_end_matches(',').parse().expect("case"));
            } else {
                value = piece
                    .strip_prefix("i32 ")
                    .map(|n| n.trim_end_matches(',').parse().expect("case"));
            }
        }
        Inst::Switch(op(p[0]), label(p[1]), list)
    } else if rhs == "ret void" {
        Inst::Ret
    } else {
        panic!("the interpreter does not know {line:?}")
    }
}

/// `@f`'s blocks by label, each a list of instructions, and the entry's label.
fn parse_function(text: &str) -> (HashMap<String, Vec<Inst>>, String) {
    let body = text.split_once("define void @f(").expect("@f").1;
    let body = body.split_once("{\n").expect("body").1;
    let mut blocks: HashMap<String, Vec<Inst>> = HashMap::new();
    let mut current = String::new();
    let mut entry = None;
    // A `switch` may be printed over several lines: join until its `]`.
    let mut pending = String::new();
    for raw in body.lines() {
        let line = raw.split(';').next().expect("split").trim_end();
        if line.trim() == "}" {
            break;
        }
        if line.trim().is_empty() {
            continue;
        }
        if !raw.starts_with(' ') {
            current = line.trim_end_matches(':').trim().to_string();
            entry.get_or_insert_with(|| current.clone());
            continue;
        }
        pending += line.trim();
        pending += " ";
        if pending.contains("switch ") && !pending.contains(']') {
            continue;
        }
        let inst = parse_inst(pending.trim());
        pending.clear();
        blocks.entry(current.clone()).or_default().push(inst);
    }
    (blocks, entry.expect("an entry block"))
}

/// A run's observable behaviour: the values passed to `@obs` (`None`: undefined) and whether
/// it returned (or ran out of choices or steps).
#[derive(Debug, PartialEq)]
struct Trace {
    obs: Vec<Option<i32>>,
    returned: bool,
}

#[derive(Clone, Copy, Debug)]
enum Val {
    Int(Option<i32>),
    Ptr(usize),
}

/// `@f` read by [`parse_function`].
type Program = (HashMap<String, Vec<Inst>>, String);

/// Runs `@f(x, y)` of `program` with the given choices, for at most `steps` blocks.
fn run(program: &Program, x: i32, y: i32, choices: &[u32], steps: usize) -> Trace {
    let (blocks, entry) = program;
    let entry = entry.clone();
    let mut env: HashMap<String, Val> = HashMap::new();
    env.insert("x".into(), Val::Int(Some(x)));
    env.insert("y".into(), Val::Int(Some(y)));
    let mut memory: Vec<Option<i32>> = Vec::new();
    let mut trace = Trace {
        obs: Vec::new(),
        returned: false,
    };
    let mut next_choice = choices.iter();
    let (mut prev, mut cur) = (String::new(), entry);
    let int = |env: &HashMap<String, Val>, o: &Op| match o {
        Op::Const(c) => *c,
        Op::Local(n) => match env.get(n) {
            Some(Val::Int(v)) => *v,
            other => panic!("%{n} is {other:?}, not an integer"),
        },
    };
    let ptr = |env: &HashMap<String, Val>, o: &Op| match o {
        Op::Local(n) => match env.get(n) {
            Some(Val::Ptr(p)) => *p,
            other => panic!("%{n} is {other:?}, not a pointer"),
        },
        Op::Const(_) => panic!("constant pointer"),
    };
    for _ in 0..steps {
        let insts = &blocks[&cur];
        // Phis read their operands as the block is entered, all at once.
        let phis: Vec<(String, Option<i32>)> = insts
            .iter()
            .filter_map(|i| match i {
                Inst::Phi(d, inc) => {
                    let (v, _) = inc.iter().find(|(_, b)| *b == prev).expect("phi entry");
                    Some((d.clone(), int(&env, v)))
                }
                _ => None,
            })
            .collect();
        for (d, v) in phis {
            env.insert(d, Val::Int(v));
        }
        let mut next = None;
        for inst in insts {
            match inst {
                Inst::Phi(..) => {}
                Inst::Alloca(d) => {
                    memory.push(None);
                    env.insert(d.clone(), Val::Ptr(memory.len() - 1));
                }
                Inst::Freeze(d) => {
                    env.insert(d.clone(), Val::Int(Some(0x5eed)));
                }
                Inst::Load(d, p) => {
                    let v = memory[ptr(&env, p)];
                    env.insert(d.clone(), Val::Int(v));
                }
                Inst::Store(v, p) => memory[ptr(&env, p)] = int(&env, v),
                Inst::Add(d, a, b) => {
                    let v = int(&env, a)
                        .zip(int(&env, b))
                        .map(|(a, b)| a.wrapping_add(b));
                    env.insert(d.clone(), Val::Int(v));
                }
                Inst::Choice(d) | Inst::Pick(d) => {
                    let Some(&c) = next_choice.next() else {
                        return trace;
                    };
                    let v = if matches!(inst, Inst::Choice(_)) {
                        c & 1
                    } else {
                        c % 4
                    };
                    env.insert(d.clone(), Val::Int(Some(v as i32)));
                }
                Inst::Obs(v) => trace.obs.push(int(&env, v)),
                Inst::Lifetime(p) => memory[ptr(&env, p)] = None,
                Inst::Br(t) => next = Some(t.clone()),
                Inst::CondBr(c, t, f) => {
                    let c = int(&env, c).expect("defined condition");
                    next = Some(if c & 1 == 1 { t.clone() } else { f.clone() });
                }
                Inst::Switch(v, d, cases) => {
                    let v = int(&env, v).expect("defined switch value");
                    let hit = cases.iter().find(|(c, _)| *c == v).map(|(_, t)| t);
                    next = Some(hit.unwrap_or(d).clone());
                }
                Inst::Ret => {
                    trace.returned = true;
                    return trace;
                }
            }
        }
        prev = std::mem::replace(&mut cur, next.expect("a terminator"));
    }
    trace
}

/// Whether `after` refines `before`: the same path and end, and each observed value equal to
/// the original's wherever the original's is defined.
fn refines(after: &Trace, before: &Trace) -> bool {
    after.returned == before.returned
        && after.obs.len() == before.obs.len()
        && after
            .obs
            .iter()
            .zip(&before.obs)
            .all(|(a, b)| b.is_none() || a == b)
}

fn option_sets() -> Vec<(&'static str, Options)> {
    let with = |flavour, phi_copy_limit| Options {
        flavour,
        phi_copy_limit,
        ..Options::default()
    };
    vec![
        ("pruned", with(Flavour::Pruned, None)),
        (
            "newer undef rules",
            Options {
                undef_rules: UndefRules::Newer,
                ..Options::default()
            },
        ),
        (
            "byte arrays",
            Options {
                byte_array_slots: true,
                ..Options::default()
            },
        ),
        ("semi-pruned", with(Flavour::SemiPruned, None)),
        ("minimal", with(Flavour::Minimal, None)),
        ("budget 2", with(Flavour::Pruned, Some(2))),
        ("budget 0", with(Flavour::Pruned, Some(0))),
        ("uninit poison", uninit(Uninit::Poison)),
        ("uninit zero", uninit(Uninit::Zero)),
        ("uninit freeze", uninit(Uninit::Freeze)),
        (
            "max 1",
            Options {
                max_promoted: Some(1),
                ..Options::default()
            },
        ),
    ]
}

/// Every slot promoted (byte arrays too), with `--uninit=u`.
fn uninit(u: Uninit) -> Options {
    Options {
        uninit: u,
        byte_array_slots: true,
        ..Options::default()
    }
}

/// The checks of an option set beyond behaviour: what `--uninit` and `--max-promoted` promise.
fn check_promises(name: &str, text: &str, out: &str) {
    if matches!(name, "uninit zero" | "uninit freeze") && !text.contains("undef") {
        // (Loads and stores left in unreachable code get a `poison` address.)
        let rest = out
            .replace("freeze i32 poison", "")
            .replace("ptr poison", "");
        assert!(
            !rest.contains("undef") && !rest.contains("poison"),
            "{name}: undefined values made\n{out}"
        );
    }
    if name == "max 1" {
        let slots = |t: &str| t.matches(" = alloca ").count();
        assert!(
            slots(text) <= slots(out) + 1,
            "{name}: more than one promoted\n{out}"
        );
    }
}

/// A program and the runs to compare: arguments `x`, `y` and the external choices.
struct Case {
    text: String,
    runs: Vec<(i32, i32, Vec<u32>)>,
}

impl fmt::Display for Case {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{}", self.text)?;
        for (x, y, choices) in &self.runs {
            writeln!(f, "run x={x} y={y} choices={choices:?}")?;
        }
        Ok(())
    }
}

/// A random program and six runs of it, from arbtest's bytes.
fn random_case(u: &mut Unstructured<'_>) -> Result<Case> {
    let rng = &mut Rng::from_bytes(u.bytes(u.len())?);
    let text = random_program(rng);
    let runs = (0..6)
        .map(|_| {
            let choices = (0..64).map(|_| rng.below(4) as u32).collect();
            (
                rng.below(1000) as i32 - 500,
                rng.below(1000) as i32 + 1000,
                choices,
            )
        })
        .collect();
    Ok(Case { text, runs })
}

/// What the runs saw: values observed, of them defined, phis and freezes made.
#[derive(Default)]
struct Seen {
    observed: usize,
    defined: usize,
    phis: usize,
    freezes: usize,
}

/// The property on one case: under every option set, the promoted program keeps the
/// promises of its options and refines the original on every run.
fn check_case(case: &Case, sets: &[(&str, Options)], seen: &mut Seen) {
    let text = &case.text;
    let before_program = parse_function(text);
    for (name, opts) in sets {
        let out = promoted(text, opts);
        let after_program = parse_function(&out);
        check_promises(name, text, &out);
        seen.freezes += out.matches(" = freeze ").count();
        if *name == "byte arrays" {
            // Every slot of these programs is promotable (byte arrays too).
            assert!(!out.contains(" = alloca "), "slots left\n{out}");
            seen.phis += out.matches(" = phi ").count();
        }
        for (x, y, choices) in &case.runs {
            let before = run(&before_program, *x, *y, choices, 300);
            let after = run(&after_program, *x, *y, choices, 300);
            assert!(
                refines(&after, &before),
                "{name}, x={x} y={y}\n{out}\nbefore {before:?}\nafter {after:?}"
            );
            seen.observed += before.obs.len();
            seen.defined += before.obs.iter().filter(|v| v.is_some()).count();
        }
    }
}

#[test]
fn promoted_programs_behave_as_the_originals() {
    let sets = option_sets();
    let mut seen = Seen::default();
    crate::testing::check(600, 2048, random_case, |case| {
        check_case(case, &sets, &mut seen)
    });
    // Not vacuous: many values observed, most of them defined, and phis made.
    let Seen {
        observed,
        defined,
        phis,
        freezes,
    } = seen;
    assert!(
        observed > 50_000 && defined * 2 > observed,
        "{observed} {defined}"
    );
    assert!(phis > 400 && freezes > 100, "{phis} {freezes}");
}

/// The interpreter itself, on a literal program: a slot in a loop body is undefined again on
/// each iteration, and a value stored in one iteration is seen by the next load.
#[test]
fn interpreter_reads_the_subset() {
    let text = "define void @f(i32 %x, i32 %y) {\nstart:\n  %e0 = alloca i32, align 4\n  \
                store i32 5, ptr %e0, align 4\n  br label %b0\nb0:\n  \
                %n0 = alloca i32, align 4\n  %t0 = load i32, ptr %n0, align 4\n  \
                call void @obs(i32 %t0)\n  %t1 = load i32, ptr %e0, align 4\n  \
                %t2 = add i32 %t1, %x\n  store i32 %t2, ptr %e0, align 4\n  \
                store i32 %t2, ptr %n0, align 4\n  call void @obs(i32 %t2)\n  \
                %w0 = call i32 @pick()\n  switch i32 %w0, label %b1 [\n    i32 0, label %b0\n  ]\n\
                b1:\n  ret void\n}\n";
    let program = parse_function(text);
    let t = run(&program, 3, 0, &[0, 3], 10);
    assert_eq!(
        t,
        Trace {
            obs: vec![None, Some(8), None, Some(11)],
            returned: true
        }
    );
    let t = run(&program, 3, 0, &[0], 10);
    assert_eq!(
        t,
        Trace {
            obs: vec![None, Some(8), None, Some(11)],
            returned: false
        }
    );
}
