//! A function builder for front ends: emit toy-ir block by block with mutable *front-end
//! variables*, and get SSA form directly, merged by phis or by block parameters (the user's
//! choice, [`Merges`]). The SSA part is the `ssa` library's on-the-fly builder
//! ([`ssa::construct::on_the_fly::Builder`], Braun et al., CC 2013); this module is toy-ir's side
//! of it, the [`Sink`] that makes and removes merges.
//!
//! ```
//! use toy_ir::frontend::FunctionBuilder;
//! use toy_ir::{BinOp, Merges, Operand};
//!
//! // i = 0; while (i < 3) i = i + 1; return i;
//! let mut fb = FunctionBuilder::new(Merges::Phis);
//! let i = fb.declare_var();
//! let (entry, header, body, exit) =
//!     (fb.create_block(), fb.create_block(), fb.create_block(), fb.create_block());
//! fb.seal_block(entry).unwrap();
//! fb.switch_to_block(entry).unwrap();
//! fb.def_var(i, Operand::Imm(0)).unwrap();
//! fb.jump(header).unwrap();
//! fb.switch_to_block(header).unwrap();
//! let x = fb.use_var(i).unwrap();
//! let c = fb.binary(BinOp::Lt, x, Operand::Imm(3)).unwrap();
//! fb.branch(c.into(), body, exit).unwrap();
//! for b in [body, exit] {
//!     fb.seal_block(b).unwrap();
//! }
//! fb.switch_to_block(body).unwrap();
//! let x = fb.use_var(i).unwrap();
//! let y = fb.binary(BinOp::Add, x, Operand::Imm(1)).unwrap();
//! fb.def_var(i, y.into()).unwrap();
//! fb.jump(header).unwrap();
//! fb.seal_block(header).unwrap(); // after its back edge
//! fb.switch_to_block(exit).unwrap();
//! let x = fb.use_var(i).unwrap();
//! fb.ret(x).unwrap();
//! let f = fb.finish().unwrap();
//! assert_eq!(
//!     f.to_string(),
//!     "b0:\n  jump b1\nb1:\n  t0 = phi [b0: 0], [b2: t2]\n  t1 = lt t0, 3\n  br t1, b2, b3\n\
//!      b2:\n  t2 = add t0, 1\n  jump b1\nb3:\n  ret t0\n"
//! );
//! assert_eq!(toy_ir::run(&f, &[], 100).unwrap().result, Some(3));
//! ```
//!
//! # Use
//! Create blocks (the first is the entry, which can have no predecessors), switch to a block
//! and append instructions; [`FunctionBuilder::def_var`] and [`FunctionBuilder::use_var`] read
//! and write front-end variables at the current position; a terminator
//! ([`FunctionBuilder::jump`], [`FunctionBuilder::branch`], [`FunctionBuilder::switch`],
//! [`FunctionBuilder::ret`]) ends the block and reports its edges. Seal a block once every
//! branch into it is emitted (as early as possible: uses in unsealed blocks make phis that may
//! turn out trivial). [`FunctionBuilder::finish`] needs every block terminated and sealed.
//!
//! # Invariants
//! - Misuse is an [`Err`], never a panic, and changes nothing: code with no current block or in
//!   a terminated one, code in a block sealed without predecessors (it can never run), unknown
//!   blocks or variables, an edge into the entry or into a sealed block, sealing twice,
//!   finishing with blocks unterminated or unsealed. Terminators check every target before
//!   reporting any edge.
//! - Temps are numbered in creation order (instructions and merges alike), blocks in creation
//!   order; merges of a block come in creation order (phis before the block's other
//!   instructions, parameters in [`crate::BlockData::params`]), their arguments in edge order.
//!   So the output depends only on the calls made.
//! - Removing a merge costs O(1): it is recorded in a dense table, and uses are rewritten in
//!   one pass at [`FunctionBuilder::finish`]; a removed merge leaves no argument behind, since
//!   merges and their arguments are written only at the end, for the merges left.
//! - A variable with no definition on some path reads 0 (toy-ir's value of a variable never
//!   written). Until `finish`, [`FunctionBuilder::use_var`] may return the placeholder
//!   [`UNDEFINED`] for it, which `finish` turns into `0`; it stays a value of its own for
//!   trivial-phi removal, as in whole-function construction ([`crate::to_ssa`]).
//! - For a function whose every block is terminated and sealed, the output passes
//!   [`crate::verify()`] if every operand the front end passed was a temp it got from the
//!   builder (or an immediate), and [`crate::verify_ssa`] if moreover each is used where its
//!   definition dominates.

mod finish;

use std::collections::HashMap;
use std::fmt;

use ssa::construct::on_the_fly::{Builder, BuilderError, BuilderStats, PhiKey, Sink};

pub use crate::construct::Merges;
use crate::ir::{BinOp, Block, BlockData, Function, Inst, Operand, Target, Temp, Term, Var};

/// The placeholder for "no definition on some path" (see the module docs); `finish` makes it 0.
pub const UNDEFINED: Temp = Temp(u32::MAX);

/// A misuse of the function builder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FrontendError {
    /// A misuse the SSA builder reports: unknown variable or block, sealing twice, an edge into
    /// a sealed block or into the entry, code in a block sealed without predecessors,
    /// finishing with unsealed blocks.
    Builder(BuilderError),
    /// Code emitted with no current block ([`FunctionBuilder::switch_to_block`] first).
    NoCurrentBlock,
    /// Code emitted into a block that already has its terminator.
    Terminated(Block),
    /// [`FunctionBuilder::finish`] with blocks that have no terminator.
    Unterminated(Vec<Block>),
    /// [`FunctionBuilder::finish`] with no block at all.
    NoBlocks,
    /// More than 2^31 temps, or more than 2^31 distinct immediates given to
    /// [`FunctionBuilder::def_var`] (the builder holds values in 32 bits).
    TooManyTemps,
}

impl fmt::Display for FrontendError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FrontendError::Builder(e) => e.fmt(f),
            FrontendError::NoCurrentBlock => f.write_str("no current block: switch to one first"),
            FrontendError::Terminated(b) => write!(f, "{b} already has its terminator"),
            FrontendError::Unterminated(bs) => {
                f.write_str("finish with blocks that have no terminator:")?;
                bs.iter().try_for_each(|b| write!(f, " {b}"))
            }
            FrontendError::NoBlocks => f.write_str("finish with no block"),
            FrontendError::TooManyTemps => f.write_str("too many temps"),
        }
    }
}

impl std::error::Error for FrontendError {}

impl From<BuilderError> for FrontendError {
    fn from(e: BuilderError) -> Self {
        FrontendError::Builder(e)
    }
}

/// What the front end has said about a block.
#[derive(Clone, Copy, Default)]
struct BlockState {
    sealed: bool,
    terminated: bool,
    /// Edges into the block so far.
    preds: u32,
}

/// An edge, as reported: `from`'s terminator target `slot` goes to `to`.
#[derive(Clone, Copy)]
struct Edge {
    from: Block,
    slot: u32,
    to: Block,
}

/// A merge (phi or block parameter) the SSA builder made.
#[derive(Clone, Copy)]
struct Merge {
    block: Block,
    temp: Temp,
    /// Its operands, a range of [`Ir::ops`], one per edge into `block` in report order.
    ops: (u32, u32),
    /// What replaced it, if it was removed.
    replaced: Option<Operand>,
}

/// An [`Operand`] as the SSA builder holds it, packed into 32 bits: a temp below 2^31 is its
/// number, [`Val::UNDEF`] is [`UNDEFINED`], and anything else (an immediate, a larger temp) has
/// the top bit set and indexes [`Ir::operands`]. The builder's tables (last definitions,
/// memo, phi operands) then hold 4-byte values rather than 16-byte operands: writing and
/// reading 16-byte values at 4-byte offsets was a sixth of the builder's time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Val(u32);

impl Val {
    /// [`UNDEFINED`]: "no definition on some path".
    const UNDEF: Val = Val(u32::MAX);
    /// The bit that marks an index into [`Ir::operands`] (and [`Val::UNDEF`]).
    const INDIRECT: u32 = 1 << 31;

    /// The operand this stands for, `operands` being [`Ir::operands`].
    #[inline]
    fn unpack(self, operands: &[Operand]) -> Operand {
        if self.0 & Val::INDIRECT == 0 {
            return Operand::Temp(Temp(self.0));
        }
        let i = (self.0 & !Val::INDIRECT) as usize;
        operands.get(i).copied().unwrap_or(UNDEFINED.into())
    }
}

/// A temp's number is its phi number: merges are temps, and temps are dense. Immediates and
/// [`UNDEFINED`] are never merges.
impl PhiKey for Val {
    #[inline]
    fn phi_key(self) -> Option<u32> {
        (self.0 & Val::INDIRECT == 0).then_some(self.0)
    }
}

/// The function under construction: toy-ir's side of the SSA builder (the [`Sink`]).
#[derive(Default)]
struct Ir {
    func: Function,
    state: Vec<BlockState>,
    /// Every edge, in the order reported to the SSA builder.
    edges: Vec<Edge>,
    next_temp: u32,
    /// Set when temps ran out (the sink cannot return an error).
    overflow: bool,
    /// Whether [`UNDEFINED`] was handed out.
    undefined_used: bool,
    merges: Vec<Merge>,
    /// Per temp: the index of its merge in `merges`, or `u32::MAX` (temps past the end: none;
    /// the table grows only when a merge is made).
    merge_of: Vec<u32>,
    ops: Vec<Val>,
    /// The operands a [`Val`] cannot hold itself (immediates, temps from 2^31 on), each once.
    operands: Vec<Operand>,
    /// The index of each in `operands`.
    interned: HashMap<Operand, u32>,
    /// A switch's targets, in edge order (a buffer kept between calls).
    targets: Vec<Block>,
    /// [`finish::write`]'s buffers, kept between functions.
    bufs: finish::Buffers,
}

impl Ir {
    fn fresh(&mut self) -> Option<Temp> {
        if self.next_temp == Val::INDIRECT {
            self.overflow = true;
            return None;
        }
        self.next_temp += 1;
        Some(Temp(self.next_temp - 1))
    }

    /// Forgets the function, keeping the buffers.
    fn clear(&mut self) {
        // Room for as many blocks as the last function had (its own list went with it).
        let blocks = Vec::with_capacity(self.state.len());
        self.func = Function {
            blocks,
            ..Function::default()
        };
        self.state.clear();
        self.edges.clear();
        self.next_temp = 0;
        self.overflow = false;
        self.undefined_used = false;
        self.merges.clear();
        self.merge_of.clear();
        self.ops.clear();
        self.operands.clear();
        self.interned.clear();
    }

    /// `o` as the SSA builder holds it (see [`Val`]).
    #[inline]
    fn pack(&mut self, o: Operand) -> Val {
        match o {
            Operand::Temp(t) if t.0 < Val::INDIRECT => Val(t.0),
            Operand::Temp(UNDEFINED) => Val::UNDEF,
            _ if self.operands.len() < (Val::INDIRECT - 1) as usize => {
                // Interned: equal operands must be equal values (a phi of 5 and 5 is trivial).
                let next = self.operands.len() as u32;
                let i = *self.interned.entry(o).or_insert(next);
                if i == next {
                    self.operands.push(o);
                }
                Val(Val::INDIRECT | i)
            }
            _ => {
                self.overflow = true;
                Val::UNDEF
            }
        }
    }

    /// The operand `v` stands for.
    #[inline]
    fn unpack(&self, v: Val) -> Operand {
        v.unpack(&self.operands)
    }

    fn merge_mut(&mut self, v: Val) -> Option<&mut Merge> {
        let t = v.phi_key()?;
        let k = *self.merge_of.get(t as usize)?;
        self.merges.get_mut(k as usize)
    }
}

impl Sink for Ir {
    type Value = Val;

    fn new_phi(&mut self, block: ssa::Block, _var: ssa::construct::Var) -> Val {
        let Some(temp) = self.fresh() else {
            return Val::UNDEF;
        };
        if self.merge_of.len() <= temp.index() {
            self.merge_of.resize(temp.index() + 1, u32::MAX);
        }
        self.merge_of[temp.index()] = self.merges.len() as u32;
        self.merges.push(Merge {
            block: block.into(),
            temp,
            ops: (0, 0),
            replaced: None,
        });
        Val(temp.0)
    }

    fn set_phi_operands(&mut self, phi: Val, _block: ssa::Block, operands: &[Val]) {
        let start = self.ops.len() as u32;
        // (A loop, not `extend_from_slice`: most phis have two operands, and a `memcpy` call
        // per phi cost more than the copy.)
        self.ops.reserve(operands.len());
        for &o in operands {
            self.ops.push(o);
        }
        let end = self.ops.len() as u32;
        if let Some(m) = self.merge_mut(phi) {
            m.ops = (start, end);
        }
    }

    fn replace_phi(&mut self, phi: Val, by: Val) {
        let by = self.unpack(by);
        if let Some(m) = self.merge_mut(phi) {
            m.replaced = Some(by);
        }
    }

    fn undefined(&mut self, _var: ssa::construct::Var) -> Val {
        self.undefined_used = true;
        Val::UNDEF
    }
}

/// Builds one toy-ir function in SSA form at a time (see the module docs); reusable.
pub struct FunctionBuilder {
    merges: Merges,
    ssa: Builder<Val>,
    ir: Ir,
    cur: Option<Block>,
    stats: BuilderStats,
}

impl FunctionBuilder {
    /// A builder writing merges as `merges` says.
    pub fn new(merges: Merges) -> Self {
        FunctionBuilder {
            merges,
            ssa: Builder::new(),
            ir: Ir::default(),
            cur: None,
            stats: BuilderStats::default(),
        }
    }

    /// Whether [`FunctionBuilder::finish`] also removes groups of phis that only use each
    /// other and one outside value (see `ssa::construct::cycles`; off by default).
    pub fn set_remove_redundant_cycles(&mut self, on: bool) {
        self.ssa.set_remove_redundant_cycles(on);
    }

    /// How merges are written.
    pub fn merges(&self) -> Merges {
        self.merges
    }

    /// What the SSA builder did in the last successful [`FunctionBuilder::finish`].
    pub fn stats(&self) -> BuilderStats {
        self.stats
    }

    /// Declares a front-end variable (it reads 0 until defined).
    pub fn declare_var(&mut self) -> Var {
        Var(self.ssa.declare_var().0)
    }

    /// Adds a function parameter.
    pub fn param(&mut self) -> Result<Temp, FrontendError> {
        let t = self.ir.fresh().ok_or(FrontendError::TooManyTemps)?;
        self.ir.func.params.push(t);
        Ok(t)
    }

    /// Creates a block that consumes fuel on entry; the first block created is the entry.
    pub fn create_block(&mut self) -> Block {
        self.create(false)
    }

    /// Creates a synthetic block (no fuel on entry, see [`crate::interp`]).
    pub fn create_synthetic_block(&mut self) -> Block {
        self.create(true)
    }

    fn create(&mut self, synthetic: bool) -> Block {
        let b = self.ssa.create_block();
        self.ir.func.blocks.push(BlockData {
            synthetic,
            ..BlockData::default()
        });
        self.ir.state.push(BlockState::default());
        Block(b.0)
    }

    /// Makes `b` the current block: code is appended to it.
    pub fn switch_to_block(&mut self, b: Block) -> Result<(), FrontendError> {
        self.state(b)?;
        self.cur = Some(b);
        Ok(())
    }

    /// The current block, if any.
    pub fn current_block(&self) -> Option<Block> {
        self.cur
    }

    /// Whether `b` has its terminator (false for an unknown block).
    pub fn is_terminated(&self, b: Block) -> bool {
        self.ir.state.get(b.index()).is_some_and(|s| s.terminated)
    }

    /// Whether `b` is sealed (false for an unknown block).
    pub fn is_sealed(&self, b: Block) -> bool {
        self.ir.state.get(b.index()).is_some_and(|s| s.sealed)
    }

    /// Says that every edge into `b` is emitted.
    pub fn seal_block(&mut self, b: Block) -> Result<(), FrontendError> {
        self.ssa.seal_block(b.into(), &mut self.ir)?;
        self.ir.state[b.index()].sealed = true;
        Ok(())
    }

    /// Assigns `value` to `var` at the current position.
    pub fn def_var(&mut self, var: Var, value: Operand) -> Result<(), FrontendError> {
        let b = self.open()?;
        // (An operand interned for a refused call stays interned: no one can tell.)
        let value = self.ir.pack(value);
        self.ssa.def_var(svar(var), b.into(), value)?;
        Ok(())
    }

    /// The value of `var` at the current position (possibly [`UNDEFINED`] until `finish`).
    pub fn use_var(&mut self, var: Var) -> Result<Operand, FrontendError> {
        let b = self.open()?;
        let v = self.ssa.use_var(svar(var), b.into(), &mut self.ir)?;
        Ok(self.ir.unpack(v))
    }

    /// Appends `t = const value`.
    pub fn iconst(&mut self, value: i64) -> Result<Temp, FrontendError> {
        self.def(|dst| Inst::Const { dst, value })
    }

    /// Appends `t = op a, b`.
    pub fn binary(&mut self, op: BinOp, a: Operand, b: Operand) -> Result<Temp, FrontendError> {
        self.def(|dst| Inst::Binary { op, dst, a, b })
    }

    /// Appends `t = copy src`.
    pub fn copy(&mut self, src: Operand) -> Result<Temp, FrontendError> {
        self.def(|dst| Inst::Copy { dst, src })
    }

    /// Appends `print src`.
    pub fn print(&mut self, src: Operand) -> Result<(), FrontendError> {
        let b = self.open()?;
        self.ir.func.blocks[b.index()]
            .insts
            .push(Inst::Print { src });
        Ok(())
    }

    /// Ends the current block with `jump to`.
    pub fn jump(&mut self, to: Block) -> Result<(), FrontendError> {
        self.terminate(&[to], || Term::Jump(Target::new(to)))
    }

    /// Ends the current block with `br cond, then_to, else_to` (the targets may be equal).
    pub fn branch(
        &mut self,
        cond: Operand,
        then_to: Block,
        else_to: Block,
    ) -> Result<(), FrontendError> {
        self.terminate(&[then_to, else_to], || Term::Branch {
            cond,
            then_to: Target::new(then_to),
            else_to: Target::new(else_to),
        })
    }

    /// Ends the current block with `switch value, cases, default`.
    pub fn switch(
        &mut self,
        value: Operand,
        cases: &[(i64, Block)],
        default: Block,
    ) -> Result<(), FrontendError> {
        let mut targets = std::mem::take(&mut self.ir.targets);
        targets.clear();
        targets.extend(cases.iter().map(|&(_, b)| b).chain([default]));
        let r = self.terminate(&targets, || Term::Switch {
            value,
            cases: cases.iter().map(|&(k, b)| (k, Target::new(b))).collect(),
            default: Target::new(default),
        });
        self.ir.targets = targets;
        r
    }

    /// Ends the current block with `ret value`.
    pub fn ret(&mut self, value: Operand) -> Result<(), FrontendError> {
        self.terminate(&[], || Term::Return(value))
    }

    /// Completes the function: resolves the pending merges, removes the trivial ones, writes
    /// the merges left as phis or block parameters and rewrites the uses of removed ones. Every
    /// block must be terminated and sealed. The builder is then empty, ready for the next
    /// function; on an error nothing changes.
    pub fn finish(&mut self) -> Result<Function, FrontendError> {
        if self.ir.func.blocks.is_empty() {
            return Err(FrontendError::NoBlocks);
        }
        let unterminated: Vec<Block> = (self.ir.state.iter().enumerate())
            .filter(|(_, s)| !s.terminated)
            .map(|(b, _)| Block(b as u32))
            .collect();
        if !unterminated.is_empty() {
            return Err(FrontendError::Unterminated(unterminated));
        }
        if self.ir.overflow {
            return Err(FrontendError::TooManyTemps);
        }
        self.stats = self.ssa.finish(&mut self.ir)?;
        let f = finish::write(&mut self.ir, self.merges);
        self.ir.clear();
        self.cur = None;
        Ok(f)
    }

    fn state(&self, b: Block) -> Result<BlockState, FrontendError> {
        (self.ir.state.get(b.index()).copied())
            .ok_or(FrontendError::Builder(BuilderError::UnknownBlock(b.into())))
    }

    /// The current block, if code can go there.
    fn open(&self) -> Result<Block, FrontendError> {
        let b = self.cur.ok_or(FrontendError::NoCurrentBlock)?;
        let s = self.state(b)?;
        if s.terminated {
            return Err(FrontendError::Terminated(b));
        }
        if s.sealed && s.preds == 0 && b != Function::ENTRY {
            return Err(BuilderError::Unreachable(b.into()).into());
        }
        Ok(b)
    }

    fn def(&mut self, make: impl FnOnce(Temp) -> Inst) -> Result<Temp, FrontendError> {
        let b = self.open()?;
        let t = self.ir.fresh().ok_or(FrontendError::TooManyTemps)?;
        self.ir.func.blocks[b.index()].insts.push(make(t));
        Ok(t)
    }

    /// Checks every target, then reports the edges and sets the terminator `term()`, whose
    /// targets are `targets`, in edge order.
    fn terminate(
        &mut self,
        targets: &[Block],
        term: impl FnOnce() -> Term,
    ) -> Result<(), FrontendError> {
        let from = self.open()?;
        for &to in targets {
            let s = self.state(to)?;
            if to == Function::ENTRY {
                return Err(BuilderError::EdgeIntoEntry { from: from.into() }.into());
            }
            if s.sealed {
                let (from, to) = (from.into(), to.into());
                return Err(BuilderError::EdgeIntoSealed { from, to }.into());
            }
        }
        for (slot, &to) in targets.iter().enumerate() {
            self.ssa.add_edge(from.into(), to.into())?;
            self.ir.state[to.index()].preds += 1;
            self.ir.edges.push(Edge {
                from,
                slot: slot as u32,
                to,
            });
        }
        self.ir.state[from.index()].terminated = true;
        self.ir.func.blocks[from.index()].term = Some(term());
        Ok(())
    }
}

fn svar(v: Var) -> ssa::construct::Var {
    ssa::construct::Var(v.0)
}
