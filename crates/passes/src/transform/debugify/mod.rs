//! LLVM's `debugify` and `check-debugify` module passes (llvm/lib/Transforms/Utils/Debugify.cpp,
//! LLVM 19 semantics; LLVM 14's for typed-pointer modules, which differ only in writing
//! `llvm.dbg.value` calls): synthetic debug info on everything, and afterwards a report of
//! which locations and variables the passes in between dropped. This is how one checks that
//! a pass preserves debug info: `--passes=debugify,mem2reg,check-debugify`.
//!
//! - [`apply`]: the `debugify` pass;
//! - [`check`]: the `check-debugify` pass (reads only; messages as opt prints them);
//! - [`nodes`]: numbering and spelling of the metadata `debugify` adds;
//! - [`module_md`]: named metadata, module flags and linkage, read from the module's items.
//!
//! Both are module passes: `debugify` numbers lines and variables across the whole module and
//! adds module-level metadata, so the pipeline runs them between function-pass segments on
//! the whole module (see [`crate::pipeline::run`]). Invariant: both are deterministic and
//! sequential; their output does not depend on the thread count.

pub mod apply;
pub mod check;
pub mod module_md;
pub mod nodes;

pub use apply::debugify;
pub use check::check_debugify;
