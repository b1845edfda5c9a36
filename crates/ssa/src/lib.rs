//! # ssa — SSA construction and destruction for your own IR
//!
//! Dominators, dominance frontiers, phi placement, renaming, trivial-phi removal, liveness and
//! out-of-SSA copies, over any control-flow graph: your IR implements a small trait, reports
//! where its variables are defined and used, and gets phis (or block parameters) and parallel
//! copies back. No LLVM in sight; the `mem2reg` tool's LLVM passes are built on this crate.
//!
//! There are two ways in:
//! - **You have the whole function** (an IR with mutable variables, like `alloca`/`load`/
//!   `store`, or `read x`/`write x`): implement [`Graph`] and [`construct::Variables`], call
//!   [`construct::build`]. Phis go at the iterated dominance frontier of each variable's
//!   definitions, pruned by liveness (LLVM's mem2reg; minimal and semi-pruned too), renaming is
//!   one linear walk.
//! - **Your front end is still emitting code** (straight from a syntax tree, as most hand-written
//!   compilers do): use [`construct::on_the_fly::Builder`] (Braun et al. 2013, as
//!   cranelift-frontend's `SSABuilder`, but linear on every shape): define and use variables
//!   block by block, seal blocks once their predecessors are known, and your IR makes phis or
//!   block parameters through [`construct::on_the_fly::Sink`].
//!
//! Pick the first when the function exists anyway (a lowering pass, an optimizer's input); it
//! also offers budgets (promote at most N variables, a phi-copy budget). Pick the second to
//! build SSA directly while parsing. To leave SSA form, [`destruct::plan`] turns phis (or block
//! parameters) into per-edge parallel copies, sequenced with the fewest temporaries, and says
//! which critical edges to split.
//!
//! # A worked example: your IR, whole-function construction
//!
//! `max(a, b)` with a mutable variable `r`: `r = a; if (b > a) r = b; return r`.
//! ```
//! use ssa::construct::{build, Access, Options, Value, Var, Variables};
//! use ssa::{Block, Graph};
//!
//! // Your IR: blocks with successor lists and instructions.
//! enum Inst { Write(u32, &'static str), Read(u32, u32) /* var, id of the read */ }
//! struct Bb { insts: Vec<Inst>, succs: Vec<usize> }
//! struct Func { blocks: Vec<Bb> }
//!
//! impl Graph for Func {
//!     fn num_blocks(&self) -> usize { self.blocks.len() }
//!     fn entry(&self) -> Option<Block> { (!self.blocks.is_empty()).then_some(Block(0)) }
//!     fn successors(&self, b: Block) -> impl Iterator<Item = Block> + '_ {
//!         self.blocks[b.index()].succs.iter().map(|&s| Block::new(s))
//!     }
//! }
//!
//! impl Variables for Func {
//!     type Value = &'static str; // what a write assigns: here, the name of an SSA value
//!     fn num_vars(&self) -> usize { 1 }
//!     fn accesses(&self, b: Block, out: &mut Vec<Access<&'static str>>) {
//!         for i in &self.blocks[b.index()].insts {
//!             out.push(match *i {
//!                 Inst::Write(v, x) => Access::Def(Var(v), x),
//!                 Inst::Read(v, id) => Access::Use(Var(v), id),
//!             });
//!         }
//!     }
//! }
//!
//! // entry: r = a; branch   then: r = b   join: return r
//! let f = Func { blocks: vec![
//!     Bb { insts: vec![Inst::Write(0, "a")], succs: vec![1, 2] },
//!     Bb { insts: vec![Inst::Write(0, "b")], succs: vec![2] },
//!     Bb { insts: vec![Inst::Read(0, 7)], succs: vec![] },
//! ] };
//! let ssa = build(&f, &Options::default()).unwrap();
//!
//! // One phi, in the join block, with one value per predecessor edge.
//! let phi = ssa.phis_of(Block(2)).next().unwrap();
//! assert_eq!(ssa.preds(Block(2)), &[Block(0), Block(1)]);
//! assert_eq!(ssa.operands(phi), &[Value::Def("a"), Value::Def("b")]);
//! // The read (id 7) reads the phi: replace it in your IR.
//! assert_eq!(ssa.uses(), &[(7, Value::Phi(phi))]);
//! ```
//! A use with no definition on some path reads [`construct::Value::Undefined`]: your language
//! decides what that is (undef, poison, zero, a freeze). For block parameters instead of phis,
//! [`construct::Ssa::arguments`] gives each branch's arguments.
//!
//! # The same with a front end still emitting code
//! ```
//! use ssa::construct::on_the_fly::{Builder, Sink};
//! use ssa::construct::Var;
//! use ssa::Block;
//!
//! // A toy IR: values are numbers; phis are recorded with their operands.
//! #[derive(Default)]
//! struct Ir { next: u32, phis: Vec<(u32, Vec<u32>)> }
//! impl Sink for Ir {
//!     type Value = u32;
//!     fn new_phi(&mut self, _: Block, _: Var) -> u32 { self.next += 1; self.phis.push((100 + self.next, vec![])); 100 + self.next }
//!     fn set_phi_operands(&mut self, phi: u32, _: Block, ops: &[u32]) {
//!         self.phis.iter_mut().find(|p| p.0 == phi).unwrap().1 = ops.to_vec();
//!     }
//!     fn replace_phi(&mut self, phi: u32, _by: u32) { self.phis.retain(|p| p.0 != phi) }
//!     fn undefined(&mut self, _: Var) -> u32 { 0 }
//! }
//!
//! let (mut b, mut ir) = (Builder::new(), Ir::default());
//! let r = b.declare_var();
//! let (entry, then, join) = (b.create_block(), b.create_block(), b.create_block());
//! b.seal_block(entry, &mut ir).unwrap();
//! b.def_var(r, entry, 1).unwrap();                 // r = a (value 1)
//! b.add_edge(entry, then).unwrap();
//! b.add_edge(entry, join).unwrap();
//! b.seal_block(then, &mut ir).unwrap();
//! b.def_var(r, then, 2).unwrap();                  // r = b (value 2)
//! b.add_edge(then, join).unwrap();
//! b.seal_block(join, &mut ir).unwrap();
//! let v = b.use_var(r, join, &mut ir).unwrap();   // return r
//! b.finish(&mut ir).unwrap();
//! assert_eq!(ir.phis, vec![(v, vec![1, 2])]);
//! ```
//!
//! # What is where
//!
//! | module | what | after |
//! |--------|------|-------|
//! | [`graph`] | the [`Graph`] trait, [`AdjacencyGraph`], [`GraphError`] | rustc's `graph` traits |
//! | [`cfg`](mod@cfg) | [`Cfg`]: the snapshot every analysis reads (CSR, orders, reachability) | — |
//! | [`postorder`] | the iterative depth-first search behind every order | LLVM `po_iterator` |
//! | [`domtree`] | [`DomTree`] by Semi-NCA; Cooper–Harvey–Kennedy and dominator sets as oracles | Georgiadis; CHK |
//! | [`frontier`] | dominance frontiers (the runner walk) and the textbook definition | Cytron et al.; CHK |
//! | [`idf`] | iterated frontiers in linear time, optionally within a block set | Sreedhar–Gao |
//! | [`live_bound`] | a superset of a variable's live-in blocks from dominance alone | (ours) |
//! | [`liveness`] | a variable's live-in blocks; [`liveness::values`]: SSA value liveness | Brandner et al. |
//! | [`placement`] | pruned placement shared by variables with equal definition/use blocks | — |
//! | [`construct`] | [`construct::build`], [`construct::place`], [`construct::rename`], [`construct::fold`], [`construct::on_the_fly`] | Cytron; LLVM; Braun et al. |
//! | [`destruct`] | out of SSA: [`destruct::plan`], [`destruct::parallel_copy`] | Boissinot et al.; Briggs et al. |
//! | [`entity`] | dense ids and the maps keyed by them | cranelift-entity |
//! | [`testing`] | a seeded PRNG and random CFGs for property tests | — |
//!
//! # An IR written in C++, like a course's LLVM-like lab IR
//!
//! A lab IR in C++ typically has `class Function { std::vector<BasicBlock*> blocks; }`,
//! `class BasicBlock { std::list<Instruction*> insts; std::vector<BasicBlock*> succs, preds; }`,
//! and instructions `AllocaInst`, `LoadInst`, `StoreInst`, `PhiInst`. Map it as follows (in a
//! Rust shim over the C++ objects, or by exporting the same facts to Rust as plain arrays):
//! - [`Block`] is the index of a `BasicBlock*` in `Function::blocks` (number them once);
//!   [`Graph::successors`] reads `succs`; the entry is `blocks[0]`;
//! - a variable ([`construct::Var`]) is the index of a promotable `AllocaInst` (one whose only
//!   users are loads and stores of its whole type);
//! - [`construct::Variables::accesses`] walks a block's `insts` in order: a `StoreInst` to
//!   alloca `v` is `Access::Def(v, stored value)`, a `LoadInst` from it is
//!   `Access::Use(v, id of the load)`; the value type can be the `Value*` (as an address);
//! - the result says, for each load id, what replaces it (`replaceAllUsesWith`), and for each
//!   new phi its block and one incoming value per entry of `preds` (create `PhiInst`s at block
//!   fronts, then erase the loads, stores and allocas);
//! - leaving SSA: implement [`destruct::PhiFunction`] over the `PhiInst`s, and emit the plan's
//!   moves as copy instructions at the places it names (splitting the edges it lists).
//!
//! Invariants kept by every module: per-block data lives in dense arrays indexed by [`Block`];
//! nothing recurses (graphs 100,000 blocks deep are fine); no result depends on hash-map
//! iteration order; bad input is an `Err` or a documented answer, never a panic. No `unsafe`.
#![warn(missing_docs)]
#![forbid(unsafe_code)]

pub mod cfg;
pub mod construct;
pub mod destruct;
pub mod domtree;
pub mod entity;
pub mod frontier;
pub mod graph;
pub mod idf;
pub mod live_bound;
pub mod liveness;
pub mod marks;
pub mod placement;
pub mod postorder;
pub mod testing;
pub mod util;

pub use cfg::Cfg;
pub use domtree::DomTree;
pub use graph::{AdjacencyGraph, Graph, GraphError, Predecessors};

/// A block of the user's graph: a dense index the user chooses (see [`graph`]).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Block(pub u32);
entity_impl!(Block, "block");
