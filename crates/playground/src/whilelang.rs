//! The while-language front end: the program is parsed (errors at line and column, as
//! `while-lang` renders them), compiled naively to toy IR (every variable access a `read` or
//! `write`), put in SSA form by toy IR's whole-function construction
//! ([`toy_ir::construct::construct`], the `ssa` crate's `build`), and taken out of SSA with the
//! `ssa` crate's plan ([`crate::destruct`]), applied here as `copy` instructions.
//!
//! Invariants: variables are shown by their source names (`read x`, not `read v0`; hidden
//! variables of `&&`/`||` keep `vN`); a φ's name is the temp construction gave it, found by
//! running the same construction ([`ssa::construct::build`], same options) over the same
//! accesses: the surviving φs in (block, variable) order take the temps from the input's temp
//! count on, as `construct` numbers them.

use std::collections::HashMap;

use ssa::construct::{build, Access, Method, Options as BuildOptions, Variables};
use toy_ir::construct::{construct, ConstructOptions, Merges};
use toy_ir::{Block as TBlock, BlockData, Function, Inst, Operand, Target, Temp, Term};

use crate::destruct::{eliminate, EdgeView, PhiView, SsaFn};
use crate::front::{mark_added, replace_word, FlavourCount, Front, Options, Stage, UserError};
use crate::lesson::{Event, Kind, Lesson};
use crate::picture::{kind_of, line, Line};
use crate::placement::Flavour;

/// The file name errors are reported against.
pub const FILE: &str = "input.while";

/// Builds the front-end result for the program `src`.
pub fn front(src: &str, o: &Options) -> Result<Front, UserError> {
    let program = while_lang::parse(src).map_err(|e| UserError {
        message: e.message.clone(),
        line: Some(e.line as usize),
        col: Some(e.col as usize),
        rendered: e.render(FILE, src),
    })?;
    let f = while_lang::compile(&program).map_err(|e| UserError::plain(e.to_string()))?;
    let mut names: Vec<String> = program.variables().iter().map(|s| s.to_string()).collect();
    names.extend((names.len() as u32..f.var_count()).map(|v| format!("v{v}")));
    let c = construct(&f, &options(o, o.flavour)).map_err(|e| UserError::plain(e.to_string()))?;
    let promoted: Vec<u32> = (0..f.var_count())
        .filter(|v| !c.unpromoted.iter().any(|u| u.0 == *v))
        .collect();
    let lesson = lesson(&f, &names, &promoted);
    let ssa_fn = ssa_fn(&c.function);
    let mut notes: Vec<String> = c
        .unpromoted
        .iter()
        .map(|v| {
            format!(
                "{} stays a variable (over the promotion budget)",
                names[v.index()]
            )
        })
        .collect();
    let out_f = match eliminate(&ssa_fn, 0) {
        Ok(pe) => lower(&c.function, &pe.edges),
        Err(e) => {
            notes.push(e);
            c.function.clone()
        }
    };
    let input = stage(
        "input",
        "naive toy IR (read, write)",
        &f,
        &names,
        Some(&lesson),
    );
    let ssa = stage("ssa", "SSA toy IR", &c.function, &names, None);
    let mut out = stage(
        "out",
        "after phi elimination (copies)",
        &out_f,
        &names,
        None,
    );
    mark_added(&ssa, &mut out);
    let phi_names = match c.entry_added {
        false => phi_names(&f, o, &promoted, f.temp_count()),
        true => HashMap::new(),
    };
    Ok(Front {
        lang: "while",
        functions: vec!["main".into()],
        function: "main".into(),
        lesson,
        fast_paths: false,
        stages: vec![input, ssa, out],
        ssa: ssa_fn,
        phi_names,
        counts: Flavour::ALL.iter().map(|&fl| count(&f, o, fl)).collect(),
        notes,
    })
}

/// Construction options for the request, with flavour `fl`.
fn options(o: &Options, fl: Flavour) -> ConstructOptions {
    ConstructOptions {
        merges: Merges::Phis,
        method: method(fl),
        fold_trivial: o.fold,
        max_promoted: o.max_promoted,
        phi_copy_budget: None,
        remove_cycles: false,
    }
}

fn method(fl: Flavour) -> Method {
    match fl {
        Flavour::Minimal => Method::Minimal,
        Flavour::SemiPruned => Method::SemiPruned,
        Flavour::Pruned => Method::Bounded,
    }
}

/// The counts of flavour `fl`.
fn count(f: &Function, o: &Options, fl: Flavour) -> FlavourCount {
    let Ok(c) = construct(f, &options(o, fl)) else {
        return FlavourCount {
            flavour: fl.name(),
            phis: 0,
            copies: 0,
            temps: 0,
            promoted: 0,
            left: 0,
        };
    };
    let pe = eliminate(&ssa_fn(&c.function), 0)
        .map(|p| p.counts)
        .unwrap_or_default();
    FlavourCount {
        flavour: fl.name(),
        phis: pe.phis,
        copies: pe.copies,
        temps: pe.temps,
        promoted: c.stats.promoted,
        left: c.unpromoted.len(),
    }
}

/// The lesson of naive toy IR `f`, over the `promoted` variables.
fn lesson(f: &Function, names: &[String], promoted: &[u32]) -> Lesson {
    let index: HashMap<u32, u32> = promoted
        .iter()
        .enumerate()
        .map(|(k, &v)| (v, k as u32))
        .collect();
    let mut l = Lesson {
        vars: promoted
            .iter()
            .map(|&v| names[v as usize].clone())
            .collect(),
        undef: "0".into(),
        ..Lesson::default()
    };
    for (b, data) in f.blocks.iter().enumerate() {
        l.blocks.push(format!("b{b}"));
        l.succs
            .push(f.successors(TBlock(b as u32)).iter().map(|s| s.0).collect());
        let evs = (data.insts.iter().enumerate())
            .filter_map(|(k, i)| {
                let line = k as u32;
                match *i {
                    Inst::Read { dst, var } => Some(Event {
                        var: *index.get(&var.0)?,
                        kind: Kind::Use,
                        line,
                        text: dst.to_string(),
                    }),
                    Inst::Write { var, src } => Some(Event {
                        var: *index.get(&var.0)?,
                        kind: Kind::Def,
                        line,
                        text: src.to_string(),
                    }),
                    _ => None,
                }
            })
            .collect();
        l.events.push(evs);
    }
    l
}

/// A line of toy IR with variables by name.
fn named(text: String, names: &[String]) -> String {
    let (Some(op), true) = (
        text.split_whitespace().find(|w| w.starts_with('v')),
        text.contains("read v") || text.starts_with("write v"),
    ) else {
        return text;
    };
    let v = op.trim_end_matches(',');
    match v[1..].parse::<usize>().ok().and_then(|k| names.get(k)) {
        Some(n) => replace_word(&text, v, n),
        None => text,
    }
}

/// The function at one stage (kinds `def`/`use` from `l` on the input).
fn stage(
    id: &'static str,
    title: &str,
    f: &Function,
    names: &[String],
    l: Option<&Lesson>,
) -> Stage {
    let text: String = f
        .to_string()
        .lines()
        .map(|t| named(t.to_string(), names) + "\n")
        .collect();
    let mut s = Stage {
        id,
        title: title.into(),
        text,
        ..Stage::default()
    };
    for (b, data) in f.blocks.iter().enumerate() {
        s.blocks.push(format!("b{b}"));
        s.keys.push(format!("b{b}"));
        let evs = l.map_or(&[][..], |l| &l.events[b][..]);
        let mut lines: Vec<Line> = (data.insts.iter().enumerate())
            .map(|(k, i)| {
                let t = named(i.to_string(), names);
                let kind = match evs.iter().find(|e| e.line == k as u32) {
                    Some(e) if e.kind == Kind::Def => "def",
                    Some(_) => "use",
                    None => kind_of(&t),
                };
                line(&t, kind)
            })
            .collect();
        lines.extend(data.term.as_ref().map(|t| line(&t.to_string(), "term")));
        s.lines.push(lines);
        s.edges.extend(
            f.successors(TBlock(b as u32))
                .iter()
                .map(|t| (b as u32, t.0)),
        );
    }
    s
}

/// The SSA function as phi elimination sees it.
fn ssa_fn(f: &Function) -> SsaFn {
    let mut s = SsaFn::default();
    for (b, data) in f.blocks.iter().enumerate() {
        s.blocks.push(format!("b{b}"));
        s.succs
            .push(f.successors(TBlock(b as u32)).iter().map(|t| t.0).collect());
        s.phis.push(
            (data.insts.iter())
                .filter_map(|i| match i {
                    Inst::Phi { dst, args } => Some(PhiView {
                        dst: dst.to_string(),
                        incoming: args.iter().map(|(p, v)| (p.0, v.to_string())).collect(),
                    }),
                    _ => None,
                })
                .collect(),
        );
    }
    s
}

/// Parses an operand as [`Operand`]'s `Display` writes it; `tmpK` is temporary `K` of the
/// current edge, numbered from `base`.
fn operand(s: &str, base: u32) -> Operand {
    if let Some(k) = s.strip_prefix("tmp").and_then(|k| k.parse::<u32>().ok()) {
        return Operand::Temp(Temp(base + k));
    }
    match s.strip_prefix('t').and_then(|k| k.parse::<u32>().ok()) {
        Some(t) => Operand::Temp(Temp(t)),
        None => Operand::Imm(s.parse().unwrap_or(0)),
    }
}

/// Applies phi elimination's plan (`edges`) to SSA toy IR `f`: `copy`s at each edge's place,
/// a new block per split edge, no φs left.
fn lower(f: &Function, edges: &[EdgeView]) -> Function {
    let mut g = f.clone();
    let mut next = f.temp_count();
    let index = |name: &str| {
        name.strip_prefix('b')
            .and_then(|k| k.parse::<usize>().ok())
            .unwrap_or(0)
    };
    for e in edges {
        let (p, s) = (index(&e.edge[0]), index(&e.edge[1]));
        let temps = e.moves.iter().filter(|m| m[0].starts_with("tmp")).count() as u32;
        let copies: Vec<Inst> = (e.moves.iter())
            .filter_map(|[d, src]| match operand(d, next) {
                Operand::Temp(dst) => Some(Inst::Copy {
                    dst,
                    src: operand(src, next),
                }),
                Operand::Imm(_) => None,
            })
            .collect();
        next += temps;
        match e.place {
            "head" => {
                let phis = g.blocks[s].insts.iter().take_while(|i| i.is_phi()).count();
                g.blocks[s].insts.splice(phis..phis, copies);
            }
            "split" => {
                let new = TBlock(g.blocks.len() as u32);
                let term = Some(Term::Jump(Target::new(TBlock(s as u32))));
                g.blocks.push(BlockData {
                    insts: copies,
                    term,
                    ..BlockData::default()
                });
                let targets = g.blocks[p]
                    .term
                    .as_mut()
                    .map(Term::targets_mut)
                    .unwrap_or_default();
                targets
                    .into_iter()
                    .filter(|t| t.block.index() == s)
                    .for_each(|t| t.block = new);
            }
            _ => g.blocks[p].insts.extend(copies),
        }
    }
    for d in &mut g.blocks {
        d.insts.retain(|i| !i.is_phi());
    }
    g
}

/// The names construction gives the surviving φs: `(block, lesson variable)` -> `tN`.
fn phi_names(
    f: &Function,
    o: &Options,
    promoted: &[u32],
    base: u32,
) -> HashMap<(u32, u32), String> {
    let opts = BuildOptions {
        method: method(o.flavour),
        fold_trivial: o.fold,
        phi_copy_budget: None,
        max_promoted: o.max_promoted,
        remove_cycles: false,
    };
    let first = (f.blocks.iter())
        .scan(0usize, |n, d| {
            Some(std::mem::replace(n, *n + d.insts.len()))
        })
        .collect();
    let Ok(s) = build(&Pre(f, first), &opts) else {
        return HashMap::new();
    };
    let index: HashMap<u32, u32> = promoted
        .iter()
        .enumerate()
        .map(|(k, &v)| (v, k as u32))
        .collect();
    (s.phis().iter().enumerate())
        .filter_map(|(k, p)| {
            Some((
                (p.block.0, *index.get(&p.var.0)?),
                format!("t{}", base + k as u32),
            ))
        })
        .collect()
}

/// Naive toy IR as the construction sees it (the accesses of `toy_ir::construct`), with the id
/// of each block's first instruction (instructions numbered across blocks in layout order).
struct Pre<'f>(&'f Function, Vec<usize>);

impl ssa::Graph for Pre<'_> {
    fn num_blocks(&self) -> usize {
        self.0.blocks.len()
    }
    fn entry(&self) -> Option<ssa::Block> {
        (!self.0.blocks.is_empty()).then_some(ssa::Block(0))
    }
    fn successors(&self, b: ssa::Block) -> impl Iterator<Item = ssa::Block> + '_ {
        self.0
            .successors(TBlock(b.0))
            .into_iter()
            .map(|t| ssa::Block(t.0))
    }
}

impl Variables for Pre<'_> {
    type Value = Operand;
    fn num_vars(&self) -> usize {
        self.0.var_count() as usize
    }
    fn accesses(&self, b: ssa::Block, out: &mut Vec<Access<Operand>>) {
        let first = self.1[b.index()];
        for (i, inst) in self.0.blocks[b.index()].insts.iter().enumerate() {
            let id = (first + i) as u32;
            match *inst {
                Inst::Read { dst, var } => {
                    out.push(Access::UseInto(ssa::construct::Var(var.0), id, dst.into()))
                }
                Inst::Write { var, src } => out.push(Access::Def(ssa::construct::Var(var.0), src)),
                _ => {}
            }
        }
    }
}
