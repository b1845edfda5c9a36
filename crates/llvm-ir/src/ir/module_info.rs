//! What is known about a module read from text, beyond its items: its global symbols, its
//! metadata definitions by number, its data layout and a few facts passes ask for. The reader
//! fills it once per module (its module-level pass); afterwards it is read-only and shared by
//! every function of the module, across threads.
//!
//! A module built in Rust has none ([`crate::ir::Module::info`] is `None`): everything here has
//! a default that passes fall back to. Invariants: `globals` holds every global the module
//! defines or declares, keyed by [`global_key`]; `metadata` holds every `!N = ...` definition;
//! `id` differs between modules of one process.

use std::sync::Arc;

use super::datalayout::DataLayout;
use super::md_table::MdTable;
use super::types::{Type, TypeTable};
use crate::print::names::name_key;
use crate::util::fxhash::{FxHashMap, FxHashSet};

/// A name-keyed map of the input's symbols (unescaped names; numbered ones as `\0N`).
pub type SymbolMap<V> = FxHashMap<Box<[u8]>, V>;

/// What a global symbol is.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum GlobalKind {
    /// `@g = global/constant ...`
    Variable,
    /// `define` / `declare`
    Function,
    /// `@a = alias ...`
    Alias,
    /// `@f = ifunc ...`
    IFunc,
}

/// The types LLVM's `TypeFinder` starts from at module level, in the order it meets them (see
/// [`crate::print::type_order`]): what decides, with the function bodies, the order opt prints
/// named types in.
#[derive(Clone, Debug, Default)]
pub struct TypeRoots {
    /// Global variables' value types and their initializers' constants, in order.
    pub globals: Vec<Type>,
    /// Aliases' value types and aliasees.
    pub aliases: Vec<Type>,
    /// IFuncs' value types.
    pub ifuncs: Vec<Type>,
    /// Per function, declarations and definitions in module order: its function type, then
    /// its type attributes' types and constants; `Some(n)` marks definition number `n`.
    pub functions: Vec<(Option<usize>, Vec<Type>)>,
}

/// A global symbol of the module.
#[derive(Clone, Copy, Debug)]
pub struct GlobalSym {
    /// What it is.
    pub kind: GlobalKind,
    /// The type of `@g` used as a value (`ptr`, `ptr addrspace(1)`, `i32*`, `i32 (i8*)*`).
    pub ptr_ty: Type,
    /// The global's value type; for functions, the function type.
    pub value_ty: Type,
    /// Whether this is a function definition (not a declaration).
    pub is_definition: bool,
    /// Byte offset of the definition's name.
    pub at: u32,
    /// A global variable declared `extern_weak`: its address may be null. (False for the
    /// other kinds.)
    pub extern_weak: bool,
}

/// The next [`ModuleInfo::id`].
static NEXT_MODULE_ID: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

/// The key of a global's written name in [`ModuleInfo::globals`].
pub fn global_key(written: &[u8]) -> std::borrow::Cow<'_, [u8]> {
    if written.is_empty() {
        return std::borrow::Cow::Borrowed(written);
    }
    if written.len() > 1 && written[1].is_ascii_digit() {
        let mut k = vec![0u8];
        k.extend_from_slice(&written[1..]);
        return std::borrow::Cow::Owned(k);
    }
    name_key(written)
}

/// What the reader learned about a module (see the module docs).
#[derive(Debug)]
pub struct ModuleInfo {
    /// A number no other module of this process has (from 1): caches that outlive one
    /// function (a thread's memo of debug-type sizes) check it before they answer.
    pub id: u64,
    /// Module-level types (the parent of every function's table).
    pub types: Arc<TypeTable>,
    /// Global symbols by unescaped name (numbered ones as `\0` + digits).
    pub globals: SymbolMap<GlobalSym>,
    /// Metadata node definitions by number.
    pub metadata: MdTable,
    /// The largest metadata number defined (new nodes are numbered after it).
    pub max_metadata_id: Option<u32>,
    /// Attribute groups: the function flags each holds (the reader's `attrs::fn_flags` bits).
    pub attr_groups: FxHashMap<u32, u8>,
    /// Pointer size in bits for address space 0 (from the datalayout; 64 by default).
    pub ptr_bits: u64,
    /// Whether the module declares each of these (so passes know what to add).
    pub declared: FxHashSet<Box<[u8]>>,
    /// Largest unnamed attribute group number (new groups are numbered after it).
    pub max_attr_group: Option<u32>,
    /// Address space of `alloca` results (the datalayout's `A<n>`; 0 by default).
    pub alloca_addrspace: u32,
    /// The module's data layout.
    pub dl: DataLayout,
    /// Whether `blockaddress(` appears anywhere (then block numbers are tracked for it).
    pub has_blockaddress: bool,
    /// The module declares an `llvm.lifetime.*` intrinsic of one operand (no size): it is
    /// written for LLVM 22 or later (LLVM 19 rejects that signature), whose conventions the
    /// passes then follow where the two differ.
    pub newer_llvm: bool,
    /// Uniqued `!DILocation`s written without a column (`!DILocation(line: 0, scope: !5)`):
    /// a node a pass makes with the same text is that node (see [`crate::print::md_slots`]).
    pub columnless_locations: Vec<u32>,
    /// Where LLVM's `TypeFinder` starts at module level.
    pub type_roots: TypeRoots,
}

impl ModuleInfo {
    /// The symbol of the global written `written` (`@x`, `@"x y"`, `@3`).
    pub fn global(&self, written: &[u8]) -> Option<&GlobalSym> {
        self.globals.get(&*global_key(written))
    }

    /// The text of metadata node `!id` in `source`.
    pub fn metadata_text<'s>(&self, source: &'s [u8], id: u32) -> Option<&'s [u8]> {
        self.metadata
            .get(id)
            .map(|n| &source[n.start as usize..n.end() as usize])
    }
}

/// A fresh [`ModuleInfo::id`].
pub fn next_module_id() -> u64 {
    NEXT_MODULE_ID.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}
