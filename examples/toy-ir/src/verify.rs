//! The verifier: structural checks ([`verify`]) and, on top of them, strict-SSA checks
//! ([`verify_ssa`]). Both report *every* error found, each with its [`Location`], in a
//! deterministic order (block order, then instruction order).
//!
//! # What `verify` requires (any toy-ir function: with variables, phis, block parameters or
//! copies)
//! - at least one block; every target names an existing block;
//! - every block has a terminator;
//! - every temp used is defined somewhere (function parameter, block parameter or instruction
//!   destination; before or after the use, in any block: that part is SSA's business);
//! - phis come before all other instructions of their block, and a phi has, for each
//!   predecessor block, exactly as many arguments as there are edges from it; the arguments for
//!   the edges of one predecessor are equal (a phi cannot tell those edges apart);
//! - every target passes exactly one argument per parameter of its block;
//! - the entry block has neither phis nor parameters (it is entered without an edge; function
//!   arguments are [`Function::params`]), though it may have predecessors;
//! - no cycle of the CFG consists of synthetic blocks only (those consume no fuel, so such a
//!   cycle could loop forever without running out).
//!
//! # What `verify_ssa` adds
//! - every temp is defined at most once;
//! - every use in a reachable block is dominated by its definition: a phi argument at the end
//!   of its predecessor, a block argument at the end of its block, any other use after the
//!   definition in the same block or in a block strictly dominated by the definition's block.
//!   Uses in unreachable blocks, and phi arguments for edges from unreachable blocks, are only
//!   required to be defined somewhere.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use crate::analysis::Dominators;
use crate::ir::{Block, Function, Inst, Operand, Temp, Term};

/// Where an error was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Location {
    /// The function as a whole.
    Function,
    /// A block (its header: label or parameters).
    Block(Block),
    /// Instruction `index` of a block.
    Inst(Block, usize),
    /// A block's terminator.
    Term(Block),
}

/// The kind of a verifier error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// The function has no blocks, so no entry.
    NoBlocks,
    /// A target names a block that does not exist.
    BlockOutOfRange(Block),
    /// A block has no terminator.
    MissingTerminator,
    /// A temp is used but defined nowhere.
    UndefinedTemp(Temp),
    /// A phi follows a non-phi instruction.
    PhiNotAtStart,
    /// A phi's argument count for `pred` differs from the number of edges from `pred`.
    PhiArgCount {
        /// The predecessor block named (or that should be named).
        pred: Block,
        /// Edges from `pred` into this block.
        edges: usize,
        /// Phi arguments naming `pred`.
        args: usize,
    },
    /// A phi gives different values for two edges from the same predecessor.
    PhiEdgeArgsDiffer {
        /// The predecessor with several edges into the block.
        pred: Block,
    },
    /// A target passes the wrong number of block arguments.
    TargetArgCount {
        /// The target block.
        target: Block,
        /// Its parameter count.
        params: usize,
        /// Arguments passed.
        args: usize,
    },
    /// The entry block has a phi or block parameters.
    MergeInEntry,
    /// This block lies on a cycle made of synthetic blocks only.
    SyntheticCycle,
    /// SSA only: a temp defined a second time.
    MultipleDefinitions(Temp),
    /// SSA only: a use not dominated by the definition of its temp.
    UseNotDominated(Temp),
}

/// One verifier error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerifyError {
    /// Where.
    pub at: Location,
    /// What.
    pub kind: ErrorKind,
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Location::Function => f.write_str("function"),
            Location::Block(b) => write!(f, "{b}"),
            Location::Inst(b, i) => write!(f, "{b}, instruction {i}"),
            Location::Term(b) => write!(f, "{b}, terminator"),
        }
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ErrorKind::NoBlocks => f.write_str("function has no blocks"),
            ErrorKind::BlockOutOfRange(b) => write!(f, "target {b} does not exist"),
            ErrorKind::MissingTerminator => f.write_str("block has no terminator"),
            ErrorKind::UndefinedTemp(t) => write!(f, "{t} is used but never defined"),
            ErrorKind::PhiNotAtStart => f.write_str("phi after a non-phi instruction"),
            ErrorKind::PhiArgCount { pred, edges, args } => {
                write!(
                    f,
                    "phi has {args} argument(s) for {pred}, which has {edges} edge(s) here"
                )
            }
            ErrorKind::PhiEdgeArgsDiffer { pred } => {
                write!(f, "phi gives different values for the edges from {pred}")
            }
            ErrorKind::TargetArgCount {
                target,
                params,
                args,
            } => {
                write!(
                    f,
                    "{args} argument(s) passed to {target}, which has {params} parameter(s)"
                )
            }
            ErrorKind::MergeInEntry => f.write_str("the entry block has phis or parameters"),
            ErrorKind::SyntheticCycle => f.write_str("block is on a cycle of synthetic blocks"),
            ErrorKind::MultipleDefinitions(t) => write!(f, "{t} is defined more than once"),
            ErrorKind::UseNotDominated(t) => {
                write!(f, "use of {t} not dominated by its definition")
            }
        }
    }
}

impl fmt::Display for VerifyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.at, self.kind)
    }
}

impl std::error::Error for VerifyError {}

/// Checks the structural rules (see the module doc); returns all errors found.
pub fn verify(f: &Function) -> Result<(), Vec<VerifyError>> {
    let mut errs = Vec::new();
    if f.blocks.is_empty() {
        errs.push(VerifyError {
            at: Location::Function,
            kind: ErrorKind::NoBlocks,
        });
        return Err(errs);
    }
    let defined = defined_temps(f);
    let preds = f.pred_edges();
    for b in f.block_ids() {
        check_block(f, b, &defined, &preds[b.index()], &mut errs);
    }
    check_synthetic_cycles(f, &mut errs);
    if errs.is_empty() {
        Ok(())
    } else {
        Err(errs)
    }
}

/// [`verify`], then the strict-SSA rules (see the module doc).
pub fn verify_ssa(f: &Function) -> Result<(), Vec<VerifyError>> {
    verify(f)?;
    let mut errs = Vec::new();
    let defs = ssa_definitions(f, &mut errs);
    let dom = Dominators::compute(f);
    for b in f.block_ids().filter(|&b| dom.is_reachable(b)) {
        check_dominance(f, b, &defs, &dom, &mut errs);
    }
    if errs.is_empty() {
        Ok(())
    } else {
        Err(errs)
    }
}

fn defined_temps(f: &Function) -> BTreeSet<Temp> {
    let mut defined: BTreeSet<Temp> = f.params.iter().copied().collect();
    for data in &f.blocks {
        defined.extend(data.params.iter().copied());
        defined.extend(data.insts.iter().filter_map(Inst::dst));
    }
    defined
}

fn check_block(
    f: &Function,
    b: Block,
    defined: &BTreeSet<Temp>,
    preds: &[Block],
    errs: &mut Vec<VerifyError>,
) {
    let data = &f.blocks[b.index()];
    let mut push = |at, kind| errs.push(VerifyError { at, kind });
    if b == Function::ENTRY && !data.params.is_empty() {
        push(Location::Block(b), ErrorKind::MergeInEntry);
    }
    let mut seen_non_phi = false;
    for (i, inst) in data.insts.iter().enumerate() {
        let at = Location::Inst(b, i);
        for t in inst.operands().iter().filter_map(|o| o.temp()) {
            if !defined.contains(&t) {
                push(at, ErrorKind::UndefinedTemp(t));
            }
        }
        let Inst::Phi { args, .. } = inst else {
            seen_non_phi = true;
            continue;
        };
        if seen_non_phi {
            push(at, ErrorKind::PhiNotAtStart);
        }
        if b == Function::ENTRY {
            push(at, ErrorKind::MergeInEntry);
        } else {
            check_phi_args(args, preds)
                .into_iter()
                .for_each(|k| push(at, k));
        }
    }
    match &data.term {
        None => push(Location::Term(b), ErrorKind::MissingTerminator),
        Some(term) => check_term(f, term, defined)
            .into_iter()
            .for_each(|k| push(Location::Term(b), k)),
    }
}

/// Per predecessor block: edge count vs argument count, and equal arguments on its edges.
fn check_phi_args(args: &[(Block, Operand)], preds: &[Block]) -> Vec<ErrorKind> {
    let mut per_pred: BTreeMap<Block, (usize, Vec<Operand>)> = BTreeMap::new();
    for &p in preds {
        per_pred.entry(p).or_default().0 += 1;
    }
    for &(p, v) in args {
        per_pred.entry(p).or_default().1.push(v);
    }
    let mut kinds = Vec::new();
    for (pred, (edges, vals)) in per_pred {
        if edges != vals.len() {
            kinds.push(ErrorKind::PhiArgCount {
                pred,
                edges,
                args: vals.len(),
            });
        }
        if vals.windows(2).any(|w| w[0] != w[1]) {
            kinds.push(ErrorKind::PhiEdgeArgsDiffer { pred });
        }
    }
    kinds
}

fn check_term(f: &Function, term: &Term, defined: &BTreeSet<Temp>) -> Vec<ErrorKind> {
    let mut kinds = Vec::new();
    for t in term.operands().iter().filter_map(|o| o.temp()) {
        if !defined.contains(&t) {
            kinds.push(ErrorKind::UndefinedTemp(t));
        }
    }
    for target in term.targets() {
        match f.block(target.block) {
            None => kinds.push(ErrorKind::BlockOutOfRange(target.block)),
            Some(d) if d.params.len() != target.args.len() => {
                kinds.push(ErrorKind::TargetArgCount {
                    target: target.block,
                    params: d.params.len(),
                    args: target.args.len(),
                })
            }
            Some(_) => {}
        }
    }
    kinds
}

/// Reports each synthetic block that a DFS restricted to synthetic blocks reaches again while
/// it is still on the stack (so it lies on an all-synthetic cycle).
fn check_synthetic_cycles(f: &Function, errs: &mut Vec<VerifyError>) {
    let n = f.blocks.len();
    let synthetic = |b: Block| f.blocks[b.index()].synthetic;
    let mut state = vec![0u8; n]; // 0 new, 1 on stack, 2 done
    let mut on_cycle = BTreeSet::new();
    for root in f.block_ids().filter(|&b| synthetic(b)) {
        if state[root.index()] != 0 {
            continue;
        }
        state[root.index()] = 1;
        let mut stack = vec![(root, f.successors(root), 0usize)];
        while let Some((b, succs, i)) = stack.last_mut() {
            let Some(&s) = succs.get(*i) else {
                state[b.index()] = 2;
                stack.pop();
                continue;
            };
            *i += 1;
            if !synthetic(s) {
                continue;
            }
            match state[s.index()] {
                0 => {
                    state[s.index()] = 1;
                    stack.push((s, f.successors(s), 0));
                }
                1 => {
                    on_cycle.insert(s);
                }
                _ => {}
            }
        }
    }
    for b in on_cycle {
        errs.push(VerifyError {
            at: Location::Block(b),
            kind: ErrorKind::SyntheticCycle,
        });
    }
}

/// Where a temp is defined, for dominance checks.
#[derive(Clone, Copy)]
enum Def {
    /// A function parameter: dominates everything.
    Param,
    /// In a block, at instruction `index`, or at its start (`None`: block parameter).
    At(Block, Option<usize>),
}

/// The unique definition of every temp; reports second definitions.
fn ssa_definitions(f: &Function, errs: &mut Vec<VerifyError>) -> BTreeMap<Temp, Def> {
    let mut defs = BTreeMap::new();
    let mut define = |t: Temp, def: Def, at: Location, errs: &mut Vec<VerifyError>| {
        if defs.insert(t, def).is_some() {
            errs.push(VerifyError {
                at,
                kind: ErrorKind::MultipleDefinitions(t),
            });
        }
    };
    for &t in &f.params {
        define(t, Def::Param, Location::Function, errs);
    }
    for (b, data) in f.block_ids().zip(&f.blocks) {
        for &t in &data.params {
            define(t, Def::At(b, None), Location::Block(b), errs);
        }
        for (i, inst) in data.insts.iter().enumerate() {
            if let Some(t) = inst.dst() {
                define(t, Def::At(b, Some(i)), Location::Inst(b, i), errs);
            }
        }
    }
    defs
}

/// True if `def` is available at instruction `pos` of block `b` (`pos == insts.len()` is the
/// end of the block).
fn available(def: Def, b: Block, pos: usize, dom: &Dominators) -> bool {
    match def {
        Def::Param => true,
        Def::At(d, _) if d != b => dom.dominates(d, b),
        Def::At(_, None) => true,
        Def::At(_, Some(i)) => i < pos,
    }
}

fn check_dominance(
    f: &Function,
    b: Block,
    defs: &BTreeMap<Temp, Def>,
    dom: &Dominators,
    errs: &mut Vec<VerifyError>,
) {
    let data = &f.blocks[b.index()];
    let end = data.insts.len();
    let mut check = |t: Temp, use_block: Block, pos: usize, at: Location| {
        let ok = defs
            .get(&t)
            .is_some_and(|&d| available(d, use_block, pos, dom));
        if !ok {
            errs.push(VerifyError {
                at,
                kind: ErrorKind::UseNotDominated(t),
            });
        }
    };
    for (i, inst) in data.insts.iter().enumerate() {
        let at = Location::Inst(b, i);
        if let Inst::Phi { args, .. } = inst {
            for &(p, v) in args {
                if let (Some(t), true) = (v.temp(), dom.is_reachable(p)) {
                    let pred_end = f.blocks.get(p.index()).map_or(0, |d| d.insts.len());
                    check(t, p, pred_end, at);
                }
            }
            continue;
        }
        inst.operands()
            .iter()
            .filter_map(|o| o.temp())
            .for_each(|t| check(t, b, i, at));
    }
    let term_ops = data.term.as_ref().map(Term::operands).unwrap_or_default();
    term_ops
        .iter()
        .filter_map(|o| o.temp())
        .for_each(|t| check(t, b, end, Location::Term(b)));
}
