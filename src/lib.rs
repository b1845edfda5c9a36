//! # mem2reg — SSA construction and destruction on LLVM IR text, in pure Rust
//!
//! ```text
//!            llvm-reader          llvm-ir           mem2reg-passes            llvm-ir
//! .ll bytes ─► text::parse ─► ir::Module ─► pipeline (transform::*) ─► text::print_module ─► .ll
//!                                 │                 │ adapters over
//!                                 │                 ▼
//!                                 │     ssa: dominators, frontiers, placement, renaming, copies
//!                                 └──── verify (after passes; always in tests)
//! ```
//! One direction: the reader builds the IR, passes change it through the IR's API, the printer
//! only reads it. Analyses never write into the IR. This crate is the command line and the
//! streaming driver; it re-exports the workspace's crates under the paths below. The
//! algorithms, for any IR, are the `ssa` crate.
//!
//! # Worked example: the `max` function of seed 03
//!
//! Clang at `-O0` keeps every local variable in a stack slot (`alloca`), and reads and writes
//! it with `load` and `store`. [`transform::mem2reg::promote_module`] turns those slots into
//! SSA values: the loads disappear, and where two stores meet (here at `if.end`) a phi picks
//! the value of the edge taken — exactly what `opt -passes=mem2reg` prints, down to the phi's
//! name `%result.0`.
//!
//! ```
//! use mem2reg::transform::mem2reg::{promote_module, Options};
//!
//! // `int max(int a, int b) { int result = a; if (b > a) result = b; return result; }`
//! // as `clang -O0 -Xclang -disable-O0-optnone -S -emit-llvm` writes it.
//! let clang_o0 = "\
//! define dso_local i32 @max(i32 noundef %a, i32 noundef %b) {
//! entry:
//!   %a.addr = alloca i32, align 4
//!   %b.addr = alloca i32, align 4
//!   %result = alloca i32, align 4
//!   store i32 %a, ptr %a.addr, align 4
//!   store i32 %b, ptr %b.addr, align 4
//!   %0 = load i32, ptr %a.addr, align 4
//!   store i32 %0, ptr %result, align 4
//!   %1 = load i32, ptr %b.addr, align 4
//!   %2 = load i32, ptr %a.addr, align 4
//!   %cmp = icmp sgt i32 %1, %2
//!   br i1 %cmp, label %if.then, label %if.end
//!
//! if.then:
//!   %3 = load i32, ptr %b.addr, align 4
//!   store i32 %3, ptr %result, align 4
//!   br label %if.end
//!
//! if.end:
//!   %4 = load i32, ptr %result, align 4
//!   ret i32 %4
//! }
//! ";
//! let mut module = mem2reg::text::parse(clang_o0.as_bytes().into()).expect("valid IR");
//! let report = promote_module(&mut module, &Options::default(), 1);
//! assert!(mem2reg::verify::verify_module(&module).is_empty());
//!
//! let out = String::from_utf8(mem2reg::text::print_module(&module, 1)).unwrap();
//! print!("{out}");
//! assert_eq!(
//!     out,
//!     "\
//! define dso_local i32 @max(i32 noundef %a, i32 noundef %b) {
//! entry:
//!   %cmp = icmp sgt i32 %b, %a
//!   br i1 %cmp, label %if.then, label %if.end
//!
//! if.then:                                          ; preds = %entry
//!   br label %if.end
//!
//! if.end:                                           ; preds = %if.then, %entry
//!   %result.0 = phi i32 [ %b, %if.then ], [ %a, %entry ]
//!   ret i32 %result.0
//! }
//! "
//! );
//! // All three slots promoted: %a.addr and %b.addr by the single-store fast path, %result
//! // with one phi; five loads and four stores gone.
//! assert_eq!(report.stats.promoted, 3);
//! assert_eq!(report.stats.single_store, 2);
//! assert_eq!(report.stats.phis_inserted, 1);
//! assert_eq!((report.stats.loads_removed, report.stats.stores_removed), (5, 4));
//! assert!(report.remarks.is_empty());
//! ```
//!
//! The command line does the same with `mem2reg examples/max.ll` (see the README). To take
//! SSA back out, run [`transform::phi_elim`] or [`transform::reg2mem`]; to see why a slot stays
//! in memory, read [`transform::mem2reg::Report::remarks`] (with
//! [`transform::mem2reg::Options::explain`] set, also `Report::explanations`).
#![warn(missing_docs)]

pub mod driver;
pub mod stages;

pub use llvm_ir::{entity, ir, util, verify};
pub use passes::{analysis, transform};
/// The SSA playground behind `mem2reg serve` (a local web page; see the README).
pub use mem2reg_playground as playground;

/// The textual form: reading ([`llvm_reader`]) and printing ([`llvm_ir::print`]).
pub mod text {
    pub use llvm_ir::print as printer;
    pub use llvm_ir::print::{names, print_function, print_module};
    pub use llvm_reader::{error, lexer, parser, parse, parse_with, ParseError};
}

/// Pass pipelines ([`passes::pipeline`]), with module passes run in stages ([`crate::stages`]).
pub mod pipeline {
    pub use passes::pipeline::*;

    /// Runs `passes` over `m`: function passes on every function (in parallel on up to
    /// `opts.threads` threads, reports in function order); a pipeline with module passes is cut
    /// into stages run one after the other ([`crate::stages`]).
    pub fn run(
        m: &mut llvm_ir::ir::Module,
        passes: &[Pass],
        opts: &RunOptions,
    ) -> Result<RunReport, PipelineError> {
        if passes.iter().any(|p| p.is_module_pass()) {
            return crate::stages::run_staged(m, passes, opts);
        }
        passes::pipeline::run(m, passes, opts)
    }
}

/// The Rust examples of README.md, run as doc tests so the README cannot drift from the API.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
