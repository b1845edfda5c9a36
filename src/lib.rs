//! # mem2reg — SSA construction and destruction on LLVM IR text, in pure Rust
//!
//! ```text
//!              llvm-reader           llvm-ir                mem2reg-passes              llvm-ir
//! .ll bytes ─► text::parse ─► ir::Module ─► pipeline::run (transform::*) ─► text::print_module ─► .ll
//!                                 │                      │ adapters over
//!                                 │                      ▼
//!                                 │     ssa: dominators, frontiers, placement, renaming, copies
//!                                 └──── verify::verify_module (after passes; always in tests)
//!
//! run(bytes, &Options) does all of it in one call, as the command line does.
//! ```
//! One direction: the reader builds the IR, passes change it through the IR's API, the printer
//! only reads it. Analyses never write into the IR. This crate is the command line, the one
//! call [`run`] (parse, verify the input, run the pipeline, print; its [`Options`] carry the
//! pipeline, the thread count and the passes' options) and the streaming driver behind both;
//! it re-exports the workspace's crates under the paths below. The algorithms, for any IR, are
//! the `ssa` crate.
//!
//! Every error type ([`Error`], [`pipeline::PipelineParseError`], [`pipeline::PipelineError`],
//! [`text::ParseError`], [`verify::VerifyError`]) implements [`std::error::Error`], so `?`
//! carries it into `Box<dyn Error>`:
//!
//! ```
//! use std::error::Error;
//!
//! fn stats(ll: &str, pipeline: &str) -> Result<String, Box<dyn Error>> {
//!     let passes = mem2reg::pipeline::parse_pipeline(pipeline)?; // PipelineParseError
//!     let mut module = mem2reg::text::parse(ll.as_bytes().into())?; // ParseError
//!     if let Some(e) = mem2reg::verify::verify_module(&module).into_iter().next() {
//!         return Err(e.into()); // VerifyError
//!     }
//!     let opts = mem2reg::pipeline::RunOptions { threads: mem2reg::Threads::ONE, ..Default::default() };
//!     let report = mem2reg::pipeline::run(&mut module, &passes, &opts)?; // PipelineError
//!     Ok(report.stats_text()) // every counter, mem2reg's too, as opt's -stats prints them
//! }
//! let ll = "define void @f() {\n  %x = alloca i32\n  ret void\n}\n";
//! assert!(stats(ll, "mem2reg")?.contains("1 mem2reg - Number of dead alloca's removed"));
//! assert!(stats(ll, "mem2rg").unwrap_err().to_string().contains("did you mean 'mem2reg'?"));
//! assert!(stats("define", "mem2reg").is_err());
//! # Ok::<(), Box<dyn Error>>(())
//! ```
//!
//! # Worked example: the `max` function of tinyoptimizer's blog
//!
//! Clang at `-O0` keeps every local variable in a stack slot (`alloca`), and reads and writes
//! it with `load` and `store`. [`transform::mem2reg::promote_module`] turns those slots into
//! SSA values: the loads disappear, and where two stores meet (here at `if.end`) a phi picks
//! the value of the edge taken — exactly what `opt -passes=mem2reg` prints, down to the phi's
//! name `%result.0`.
//!
//! ```
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
//! let out = mem2reg::run(clang_o0.as_bytes(), &mem2reg::Options::default())?;
//! let report = &out.report.mem2reg;
//! let out = String::from_utf8(out.text)?;
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
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! The command line does the same with `mem2reg examples/max.ll` (see the README). To take
//! SSA back out, run [`transform::phi_elim`] or [`transform::reg2mem`]; to see why a slot stays
//! in memory, read [`transform::mem2reg::Report::remarks`] (with
//! [`transform::mem2reg::Options::explain`] set, also `Report::explanations`).
#![warn(missing_docs)]

mod api;
#[doc(hidden)]
pub mod driver;
#[doc(hidden)]
pub mod stages;

pub use api::{run, run_to, Error, Options, Output};
#[doc(hidden)]
pub use llvm_ir::util;
pub use llvm_ir::Threads;
pub use llvm_ir::{entity, ir, verify};
/// The SSA playground behind `mem2reg serve` (a local web page; see the README).
pub use mem2reg_playground as playground;
pub use passes::{analysis, transform};

/// The textual form: reading ([`llvm_reader`]) and printing ([`llvm_ir::print`]).
pub mod text {
    #[doc(hidden)]
    pub use llvm_ir::print as printer;
    #[doc(hidden)]
    pub use llvm_ir::print::names;
    pub use llvm_ir::print::{print_function, print_module};
    #[doc(hidden)]
    pub use llvm_reader::{error, lexer, parser};
    pub use llvm_reader::{parse, parse_with, ParseError};
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
