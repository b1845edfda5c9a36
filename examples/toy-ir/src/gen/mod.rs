//! Random program generators driven by `arbitrary::Unstructured`, for property tests (arbtest
//! shrinks a failure by shrinking the bytes, and so the program) and fuzzers.
//!
//! - [`vars::function`]: *pre-SSA* programs: values flow through mutable variables
//!   ([`Inst::Read`]/[`Inst::Write`]); temps are block-local and defined once. Input for SSA
//!   construction.
//! - [`ssa::function`]: programs already in strict SSA, with phis, block parameters or both,
//!   including the swap and lost-copy patterns. Input for out-of-SSA.
//!
//! Both share one CFG *shape* ([`Shape`]): up to [`Config::max_blocks`] blocks in layout order,
//! where a live block's edges go forward in layout, except the back edges of *guarded loops*
//! (a counter variable, only ever incremented, must stay below a small limit for the back edge
//! to be taken) and, if enabled, *wild* back edges on data. Guarded loops bound the number of
//! backward jumps, so without wild edges every run terminates (within
//! [`Config::fuel_bound`] events). The shape covers what SSA algorithms get wrong:
//! irreducible loops (a backward edge into a region also entered by a forward edge), self
//! loops, duplicate edges (a branch or switch naming one block twice), unreachable blocks
//! (dead blocks nobody live jumps to, which may jump into live code), and optionally edges back
//! into the entry block.
//!
//! Invariants: generated functions pass [`crate::verify()`] ([`ssa::function`]'s also
//! [`crate::verify_ssa`]); the same bytes and config always give the same function; running
//! out of bytes only makes programs smaller (`Unstructured` then yields minimal choices).

pub mod ssa;
pub mod vars;

use arbitrary::{Result, Unstructured};

use crate::ir::{BinOp, Block, Function, Inst, Operand, Temp, Var};

/// Knobs of the generators.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    /// Blocks per function, at most (at least 1). Keep it at most 64.
    pub max_blocks: usize,
    /// Data variables (pre-SSA generator), at most.
    pub max_vars: u32,
    /// Loop-counter variables guarding back edges, at most.
    pub max_counters: u32,
    /// Largest limit of a loop counter (back edges guarded by one counter: at most this many).
    pub max_trips: i64,
    /// Function parameters, at most.
    pub max_params: usize,
    /// Instructions per block, at most (guard code and SSA merges not counted).
    pub max_insts: usize,
    /// Allow backward edges on data conditions: programs may then not terminate.
    pub wild_back_edges: bool,
    /// Allow edges into the entry block (guarded back edges only).
    pub entry_preds: bool,
    /// Allow dead blocks (unreachable, possibly jumping into reachable code).
    pub unreachable_blocks: bool,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            max_blocks: 40,
            max_vars: 6,
            max_counters: 3,
            max_trips: 5,
            max_params: 2,
            max_insts: 6,
            wild_back_edges: false,
            entry_preds: true,
            unreachable_blocks: true,
        }
    }
}

impl Config {
    /// Fuel that any run of a program generated with this config and `wild_back_edges ==
    /// false` finishes within: every guarded back edge bumps a counter that never decreases,
    /// so there are at most `max_counters * max_trips` backward jumps, each followed by at
    /// most `max_blocks` block entries, each with at most `max_insts + 3` prints (the SSA
    /// generator may also print a block's up to three merges).
    pub fn fuel_bound(&self) -> u64 {
        let back_jumps = u64::from(self.max_counters).saturating_mul(self.max_trips.max(0) as u64);
        let entries = back_jumps
            .saturating_add(1)
            .saturating_mul(self.max_blocks as u64);
        entries.saturating_mul(self.max_insts as u64 + 4)
    }
}

/// How a block of the shape ends.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ShapeTerm {
    /// `ret`.
    Return,
    /// `jump`.
    Jump(Block),
    /// `br` on a data value (the targets may be equal).
    Branch(Block, Block),
    /// `switch` on a data value.
    Switch(Vec<(i64, Block)>, Block),
    /// `counter += 1; br counter < limit, back, exit`: a loop's back edge, bounded.
    Guarded {
        /// The counter variable.
        counter: Var,
        /// The back edge is taken while the incremented counter is below this.
        limit: i64,
        /// Back-edge target (at or before this block in layout).
        back: Block,
        /// Exit target.
        exit: Block,
    },
}

/// A CFG shape: one terminator per block, block 0 the entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shape {
    /// Terminators in layout order.
    pub terms: Vec<ShapeTerm>,
    /// Counter variables used by guards: `Var(first_counter)`, ... .
    pub counters: Vec<Var>,
}

/// Generates a CFG shape; counters are numbered from `first_counter`.
pub fn shape(u: &mut Unstructured, cfg: &Config, first_counter: u32) -> Result<Shape> {
    let n = u.int_in_range(1..=cfg.max_blocks.clamp(1, 64))?;
    let counters: Vec<Var> = (0..u.int_in_range(0..=cfg.max_counters)?)
        .map(|i| Var(first_counter + i))
        .collect();
    let mut dead = vec![false; n];
    if cfg.unreachable_blocks {
        for d in dead.iter_mut().take(n.saturating_sub(1)).skip(1) {
            *d = u.ratio(1, 8)?;
        }
    }
    let plan = plan_irreducible(u, n, &counters, &mut dead)?;
    let mut terms = Vec::with_capacity(n);
    for i in 0..n {
        // A live block jumps only to live blocks; a dead one anywhere.
        let ok = |j: usize| dead[i] || !dead[j];
        let fwd: Vec<Block> = (i + 1..n)
            .filter(|&j| ok(j))
            .map(|j| Block(j as u32))
            .collect();
        let lo = usize::from(!cfg.entry_preds);
        let back: Vec<Block> = (lo..=i)
            .filter(|&j| ok(j))
            .map(|j| Block(j as u32))
            .collect();
        let term = match plan.get(&i) {
            Some(planned) => planned_term(u, cfg, planned, &fwd, &counters)?,
            None => shape_term(u, cfg, &fwd, &back, &counters)?,
        };
        terms.push(term);
    }
    Ok(Shape { terms, counters })
}

/// The terminators of a planted irreducible loop `{h, l}`: `k → h | l`, `h → l`, `l → h | exit`
/// (guarded), with `k < h < l < n - 1`; all three blocks live.
enum Planned {
    Split { h: Block, l: Block },
    Head { l: Block },
    Latch { h: Block },
}

/// Sometimes plants an irreducible loop (random shapes make few on their own).
fn plan_irreducible(
    u: &mut Unstructured,
    n: usize,
    counters: &[Var],
    dead: &mut [bool],
) -> Result<std::collections::BTreeMap<usize, Planned>> {
    let mut plan = std::collections::BTreeMap::new();
    if n < 4 || counters.is_empty() || !u.ratio(1, 3)? {
        return Ok(plan);
    }
    let h = u.int_in_range(1..=n - 3)?;
    let l = u.int_in_range(h + 1..=n - 2)?;
    let k = if u.ratio(1, 2)? {
        0
    } else {
        u.int_in_range(0..=h - 1)?
    };
    for b in [k, h, l] {
        dead[b] = false;
    }
    let (hb, lb) = (Block(h as u32), Block(l as u32));
    plan.insert(k, Planned::Split { h: hb, l: lb });
    plan.insert(h, Planned::Head { l: lb });
    plan.insert(l, Planned::Latch { h: hb });
    Ok(plan)
}

fn planned_term(
    u: &mut Unstructured,
    cfg: &Config,
    planned: &Planned,
    fwd: &[Block],
    counters: &[Var],
) -> Result<ShapeTerm> {
    Ok(match *planned {
        Planned::Split { h, l } => ShapeTerm::Branch(h, l),
        Planned::Head { l } => ShapeTerm::Jump(l),
        Planned::Latch { h } => ShapeTerm::Guarded {
            counter: *u.choose(counters)?,
            limit: u.int_in_range(1..=cfg.max_trips.max(1))?,
            back: h,
            exit: *u.choose(fwd)?,
        },
    })
}

fn shape_term(
    u: &mut Unstructured,
    cfg: &Config,
    fwd: &[Block],
    back: &[Block],
    counters: &[Var],
) -> Result<ShapeTerm> {
    if fwd.is_empty() {
        return Ok(ShapeTerm::Return);
    }
    let mut kinds = vec![0, 1, 1, 1, 2, 2, 2, 3];
    if !counters.is_empty() && !back.is_empty() {
        kinds.extend([4, 4, 4]);
    }
    if cfg.wild_back_edges && !back.is_empty() {
        kinds.push(5);
    }
    Ok(match u.choose(&kinds)? {
        0 => ShapeTerm::Return,
        1 => ShapeTerm::Jump(*u.choose(fwd)?),
        2 => {
            let a = *u.choose(fwd)?;
            let b = if u.ratio(1, 4)? { a } else { *u.choose(fwd)? };
            ShapeTerm::Branch(a, b)
        }
        3 => {
            let mut cases = Vec::new();
            for _ in 0..u.int_in_range(1..=3)? {
                cases.push((
                    u.int_in_range(-1..=3)?,
                    *u.choose(&fwd[..fwd.len().min(3)])?,
                ));
            }
            ShapeTerm::Switch(cases, *u.choose(fwd)?)
        }
        4 => ShapeTerm::Guarded {
            counter: *u.choose(counters)?,
            limit: u.int_in_range(1..=cfg.max_trips.max(1))?,
            back: *u.choose(back)?,
            exit: *u.choose(fwd)?,
        },
        _ => ShapeTerm::Branch(*u.choose(back)?, *u.choose(fwd)?),
    })
}

/// A small or occasionally extreme immediate, to exercise wrapping arithmetic.
pub(crate) fn immediate(u: &mut Unstructured) -> Result<i64> {
    if u.ratio(1, 16)? {
        return Ok(*u.choose(&[i64::MIN, i64::MAX, -1, 63, 64])?);
    }
    u.int_in_range(-3..=10)
}

/// An operand: one of `temps` (preferred) or an immediate.
pub(crate) fn operand(u: &mut Unstructured, temps: &[Temp]) -> Result<Operand> {
    if temps.is_empty() || u.ratio(1, 4)? {
        return Ok(Operand::Imm(immediate(u)?));
    }
    Ok(Operand::Temp(*u.choose(temps)?))
}

/// A random binary operator.
pub(crate) fn binop(u: &mut Unstructured) -> Result<BinOp> {
    Ok(*u.choose(&BinOp::ALL)?)
}

/// Arguments for a run of `f`: one per function parameter.
pub fn args(u: &mut Unstructured, f: &Function) -> Result<Vec<i64>> {
    f.params.iter().map(|_| immediate(u)).collect()
}

/// Hands out fresh temps in increasing order.
#[derive(Clone, Debug, Default)]
pub(crate) struct TempGen {
    next: u32,
}

impl TempGen {
    /// A fresh temp.
    pub(crate) fn fresh(&mut self) -> Temp {
        self.next += 1;
        Temp(self.next - 1)
    }
}

/// The guard of a [`ShapeTerm::Guarded`] back edge, appended to `insts`; returns the temp
/// holding the condition `counter + 1 < limit` (after writing `counter + 1` back).
pub(crate) fn guard(insts: &mut Vec<Inst>, temps: &mut TempGen, counter: Var, limit: i64) -> Temp {
    let (old, new, cond) = (temps.fresh(), temps.fresh(), temps.fresh());
    insts.push(Inst::Read {
        dst: old,
        var: counter,
    });
    insts.push(Inst::Binary {
        op: BinOp::Add,
        dst: new,
        a: old.into(),
        b: Operand::Imm(1),
    });
    insts.push(Inst::Write {
        var: counter,
        src: new.into(),
    });
    insts.push(Inst::Binary {
        op: BinOp::Lt,
        dst: cond,
        a: new.into(),
        b: Operand::Imm(limit),
    });
    cond
}
