//! The reader for LLVM IR text.
//!
//! Reading is two passes over the buffer, so that function bodies can be read independently
//! (and in parallel) against a finished, read-only module context:
//! 1. [`module`]: every top-level entity except function bodies — globals, declarations,
//!    function headers, named types, comdats, attribute groups, metadata, summaries — is read
//!    and checked; bodies are skipped by brace matching and their spans remembered. The result
//!    is a [`ModuleCtx`] (symbols, types, metadata index) and the module's item list.
//! 2. [`function`]: each body is read into a [`llvm_ir::ir::Function`] against the context.
//!
//! Grammar shared by both passes (types, constants, metadata, attributes) is written once,
//! generic over [`Host`], which each pass implements: the module pass records forward
//! references to check when the module ends; the function pass checks at once and turns
//! operands into holes of instruction templates.
//!
//! Invariants: errors carry a byte offset and LLVM's message; the error reported is the one
//! LLVM's sequential reader reports (the first met in file order, names never defined only
//! once the module ends: see [`module_end`]); input nested deeper than [`cursor::MAX_DEPTH`] is refused, never a crash
//! (reading runs on a thread with a large stack, see [`with_big_stack`]).

pub mod attrs;
pub mod calls;
pub mod constants;
pub mod constexpr;
pub mod cursor;
pub mod dwarf_names;
pub mod function;
pub mod header;
pub mod instructions;
pub mod intrinsics;

pub mod metadata;
pub mod module;
pub mod module_end;
mod name_map;
pub mod scan;
pub use llvm_ir::ir::sema;
mod templates;
pub mod types;

use std::sync::Arc;

use self::cursor::{Cursor, PResult, Perr};
use super::error::ParseError;
use super::lexer::Token;
use llvm_ir::ir::types::{Type, TypeTable};
use llvm_ir::ir::{Item, Module};
pub use llvm_ir::Threads;

pub use module::{FunctionSpan, GlobalKind, GlobalSym, ModuleCtx};

/// What a pass of the reader provides to the shared grammar.
pub trait Host<'a> {
    /// The token cursor.
    fn c(&mut self) -> &mut Cursor<'a>;
    /// The type table new types go into.
    fn types(&mut self) -> &mut TypeTable;
    /// A use of named type `%name` (unescaped) at `off`.
    fn named_type_use(&mut self, name: &[u8], off: usize) -> PResult<()>;
    /// A use of the global named by `tok` as a value of type `ty`.
    fn global_use(&mut self, tok: Token, ty: Type) -> PResult<()>;
    /// A `blockaddress(@f, %bb)`.
    fn blockaddress_use(&mut self, func: Token, block: Token) -> PResult<()>;
    /// A use of metadata node `!N` at `off`.
    fn metadata_use(&mut self, id: u32, off: usize) -> PResult<()>;
    /// A use of attribute group `#N`; returns the group's [`attrs::fn_flags`] (when known).
    fn attr_group_use(&mut self, id: u32, off: usize) -> PResult<u8>;
    /// A `Type Value` inside metadata (`!DIArgList(i32 %x)`, `metadata ptr %p`, tuple elements).
    fn md_value(&mut self, ty: Type) -> PResult<()>;
    /// A use of comdat `$name` (the token); checked when the module ends.
    fn comdat_use(&mut self, _tok: Token) -> PResult<()> {
        Ok(())
    }
    /// The type the type name `written` (a `%name` token's text) was found to stand for
    /// earlier, if this host remembers names ([`Host::cache_type_name`]).
    fn cached_type_name(&self, _written: &[u8]) -> Option<Type> {
        None
    }
    /// Remembers that the defined type name `written` stands for `t` (so a later use needs
    /// neither lookups nor [`Host::named_type_use`], which has no effect for defined names).
    fn cache_type_name(&mut self, _written: &'a [u8], _t: Type) {}
    /// A type LLVM's `TypeFinder` starts from here: a constant's type (`T c`, not a global's),
    /// a constant `getelementptr`'s source type, a type attribute's type (`byval(T)`). In the
    /// order LLVM meets them; see `llvm_ir::print::type_order`.
    fn type_root(&mut self, _ty: Type) {}
}

/// Renders an internal error against the source.
pub fn render(source: &[u8], e: Perr) -> ParseError {
    let (off, msg) = *e.0;
    ParseError::at(source, off, msg)
}

/// Reads a whole module (all function bodies, in parallel on up to `threads` threads).
pub fn parse_with(source: Arc<[u8]>, threads: Threads) -> Result<Module, ParseError> {
    with_big_stack(|| parse_on_this_thread(source, threads))
}

/// Reads a whole module.
pub fn parse(source: Arc<[u8]>) -> Result<Module, ParseError> {
    parse_with(source, Threads::default())
}

fn parse_on_this_thread(source: Arc<[u8]>, threads: Threads) -> Result<Module, ParseError> {
    let src: &[u8] = &source;
    let (ctx, items) = module::read_module_with(src, threads).map_err(|e| render(src, e))?;
    assemble(source.clone(), Arc::new(ctx), items, threads).map_err(|e| render(&source, e))
}

/// Reads every body of a module whose module level `ctx` / `items` were read, and builds the
/// [`Module`]. The error is the first in file order.
pub fn assemble(
    source: Arc<[u8]>,
    ctx: Arc<ModuleCtx>,
    items: Vec<module::ItemSpan>,
    threads: Threads,
) -> Result<Module, Perr> {
    let results = parse_functions(&source, &ctx, threads);
    let mut m = Module::new(source.clone());
    m.types = ctx.types.clone();
    m.info = Some(ctx.info.clone());
    let mut end = module_end::ModuleEnd::new(&ctx);
    let mut funcs = Vec::with_capacity(results.len());
    for (i, (r, facts)) in results.into_iter().enumerate() {
        match r {
            Ok(f) => {
                end.body(i, facts)?;
                funcs.push(f);
            }
            Err(e) => return Err(end.failed(i, e, facts)),
        }
    }
    end.finish()?;
    let mut next = funcs.into_iter();
    for it in items {
        match it {
            module::ItemSpan::Text(s, e) => {
                m.items.push(Item::Text(llvm_ir::ir::Text::source(s, e)));
            }
            module::ItemSpan::Owned(bytes) => {
                let t = m.strings.add(&bytes);
                m.items.push(Item::Text(t));
            }
            module::ItemSpan::Metadata(s, e, id) => {
                m.items
                    .push(Item::Metadata(llvm_ir::ir::Text::source(s, e), id));
            }
            module::ItemSpan::Blank => {
                let t = m.strings.add(b"");
                m.items.push(Item::Text(t));
            }
            module::ItemSpan::Function(_) => {
                let f = next.next().expect("one parsed function per body");
                m.push_function(f);
            }
        }
    }
    Ok(m)
}

/// A body as read, with what it tells about the module.
pub type BodyRead = (PResult<llvm_ir::ir::Function>, module_end::BodyFacts);

/// Reads every function body of `ctx`, on up to `threads` threads, in module order.
pub fn parse_functions(
    source: &Arc<[u8]>,
    ctx: &Arc<ModuleCtx>,
    threads: Threads,
) -> Vec<BodyRead> {
    let threads = threads.get();
    let n = ctx.functions.len();
    let one = |i: usize| function::read_function(source, ctx, i);
    if threads <= 1 || n < 2 {
        return (0..n).map(one).collect();
    }
    let next = std::sync::atomic::AtomicUsize::new(0);
    let slots: Vec<std::sync::Mutex<Option<BodyRead>>> =
        (0..n).map(|_| std::sync::Mutex::new(None)).collect();
    std::thread::scope(|s| {
        for _ in 0..threads.min(n) {
            s_spawn(s, || loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                if i >= n {
                    break;
                }
                let r = one(i);
                *slots[i].lock().unwrap() = Some(r);
            });
        }
    });
    slots
        .into_iter()
        .map(|m| m.into_inner().unwrap().expect("every body read"))
        .collect()
}

/// The error a sequential reader reports when the module level fails with `e` after reading
/// `partial` (the module up to `e`): an error in a body before `e` comes first.
pub fn first_error_before(
    src: &[u8],
    partial: (ModuleCtx, Vec<module::ItemSpan>),
    e: Perr,
) -> Perr {
    let ctx = partial.0;
    let source: Arc<[u8]> = Arc::from(src);
    let mut end = module_end::ModuleEnd::new(&ctx);
    for i in 0..ctx.functions.len() {
        let found = match function::read_function(&source, &ctx, i) {
            (Ok(_), facts) => end.body(i, facts).err(),
            (Err(b), facts) => Some(end.failed(i, b, facts)),
        };
        if let Some(b) = found {
            return b;
        }
    }
    match end.until(e.0 .0 as u32) {
        Err(b) => b,
        Ok(()) => e,
    }
}

/// A name-keyed map of the input's symbols (unescaped names; numbered ones as `\0N`).
pub use llvm_ir::ir::module_info::SymbolMap;
pub use llvm_ir::util::parallel::{s_spawn, with_big_stack, BIG_STACK};
