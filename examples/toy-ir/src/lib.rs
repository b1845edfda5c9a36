//! # toy-ir — a small three-address IR for testing SSA construction and destruction
//!
//! A user IR of our own, deliberately unlike LLVM's, that mem2reg's IR-agnostic `ssa` library
//! must handle through its graph trait alone. It comes with everything a behavioural test needs:
//!
//! ```text
//! text ─► parse ─► Function ─► verify / verify_ssa
//!                     │  ▲  ├─► to_ssa (ssa::construct::build) ──────┐
//!                     │  │  └─► to_ssa_on_the_fly (FunctionBuilder) ─┴► Function in SSA form
//!          run (fuel) │  ├── gen::vars (pre-SSA, variables), gen::ssa (phis / block params)
//!                     │  ├── frontend::FunctionBuilder (a front end emits SSA directly)
//!                     │  └── out_of_ssa (ssa::destruct::plan): phis / params become copies
//!                     ▼
//!                  Outcome { trace, result, out_of_fuel }
//! ```
//!
//! - [`ir`]: blocks (dense `u32` index, block 0 the entry), temps, mutable variables, phis *and*
//!   block parameters, and the `synthetic` flag for blocks that consume no fuel.
//! - [`graph`]: the function as an [`ssa::Graph`] (the whole adapter to the SSA library's
//!   analyses); [`analysis`]: dominance in toy-ir's terms, irreducibility.
//! - [`parse`] and `Display` ([`printer`]): a text form that round-trips exactly.
//! - [`verify()`] and [`verify_ssa`]: all structural errors, and strict SSA on top.
//! - [`to_ssa`] ([`construct`]): whole-function SSA construction with the `ssa` library,
//!   writing phis or block parameters.
//! - [`frontend`]: [`FunctionBuilder`], for front ends that emit SSA directly (the library's
//!   on-the-fly builder: define and use variables, seal blocks; phis or block parameters);
//!   [`to_ssa_on_the_fly`] ([`on_the_fly`]) replays a pre-SSA function through it, the
//!   on-the-fly counterpart of [`to_ssa`].
//! - [`out_of_ssa`] ([`destruct`]): phis and block parameters become copies, placed by the
//!   library's out-of-SSA plan (split critical edges, or incoming temps where an edge cannot be
//!   split).
//! - [`run`]: the reference interpreter; its fuel rule makes a program and its SSA-transformed
//!   versions produce *identical* outcomes (see [`interp`]).
//! - [`gen`]: random programs from `arbitrary::Unstructured`, for property tests.
//! - [`samples`]: literal programs (the swap and lost-copy problems, an irreducible loop, ...).
//!
//! ```
//! let f = toy_ir::parse("b0:\n  t0 = read v0\n  print t0\n  ret t0\n").unwrap();
//! toy_ir::verify(&f).unwrap();
//! let out = toy_ir::run(&f, &[], 100).unwrap();
//! assert_eq!((&out.trace[..], out.result), (&[0][..], Some(0)));
//! let g = toy_ir::to_ssa(&f, &toy_ir::ConstructOptions::default()).unwrap();
//! assert_eq!(g.to_string(), "b0:\n  t0 = copy 0\n  print t0\n  ret t0\n");
//! assert_eq!(toy_ir::run(&g, &[], 100).unwrap(), out);
//! ```
//!
//! Invariants across the crate: nothing panics on bad input (parse, verify and run return
//! errors); every output is deterministic; all traversals of the CFG are iterative.

#![warn(missing_docs)]
#![forbid(unsafe_code)]

pub mod analysis;
pub mod construct;
pub mod destruct;
pub mod frontend;
pub mod gen;
pub mod graph;
pub mod interp;
pub mod ir;
pub mod on_the_fly;
pub mod parser;
pub mod printer;
pub mod samples;
pub mod verify;

pub use construct::{to_ssa, ConstructError, ConstructOptions, Merges};
pub use destruct::{out_of_ssa, DestructError};
pub use frontend::FunctionBuilder;
pub use interp::{run, Outcome, RunError, RunErrorKind};
pub use ir::{BinOp, Block, BlockData, Function, Inst, Operand, Target, Temp, Term, Var};
pub use on_the_fly::{to_ssa_on_the_fly, to_ssa_on_the_fly_with, OnTheFlyError};
pub use parser::{parse, ParseError};
pub use verify::{verify, verify_ssa, ErrorKind, Location, VerifyError};
