//! A module: the input buffer, the interned types, and the top-level items in order.
//!
//! Everything that no pass looks into (globals, declarations, attribute groups, metadata, type
//! definitions, module asm) is kept as the exact text that was read and written back as read;
//! function definitions are parsed into [`Function`]s. Invariants:
//! - `items` is the module in source order; each `Item::Text` is a span of complete top-level
//!   entities (never a partial one), so dropping or reordering functions is safe;
//! - every function's `source` is this module's `source`.

use std::sync::Arc;

use super::function::Function;
use super::text::{Text, TextArena};
use super::types::TypeTable;
use crate::entity::PrimaryMap;
use ssa::entity_impl;

/// A function id within its module.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct FuncId(pub u32);
entity_impl!(FuncId, "func");

/// One top-level item, in source order.
#[derive(Clone, Copy, Debug)]
pub enum Item {
    /// Verbatim text: one or more complete top-level entities, printed as read, each line
    /// followed by a newline.
    Text(Text),
    /// A function definition.
    Function(FuncId),
    /// Verbatim text defining metadata node `!N` (new nodes that refer to it print after it).
    Metadata(Text, u32),
}

/// A module.
#[derive(Clone, Debug)]
pub struct Module {
    /// The input buffer (empty for modules built in Rust).
    pub source: Arc<[u8]>,
    /// Text made after parsing, for module-level items.
    pub strings: TextArena,
    /// Module-level types; every function's own table is a child of this one (see
    /// [`TypeTable::child`]). Change it (through [`Module::types_mut`]) before adding functions.
    pub types: Arc<TypeTable>,
    /// Top-level items in order.
    pub items: Vec<Item>,
    /// Function definitions.
    pub functions: PrimaryMap<FuncId, Function>,
    /// Pointer size in bits for address space 0 (from `target datalayout`, default 64).
    pub ptr_bits: u64,
    /// What the reader learned about the module (symbols, metadata index); `None` for modules
    /// built in Rust.
    pub info: Option<Arc<super::ModuleInfo>>,
    /// LLVM's module identifier (the input file as named, or `<stdin>`): printed as the
    /// `; ModuleID` line, and as `source_filename` when the module has none. `None`: neither.
    pub id: Option<String>,
}

impl Module {
    /// An empty module reading text from `source`.
    pub fn new(source: Arc<[u8]>) -> Self {
        Self {
            source,
            strings: TextArena::default(),
            types: Arc::new(TypeTable::new()),
            items: Vec::new(),
            functions: PrimaryMap::new(),
            ptr_bits: 64,
            info: None,
            id: None,
        }
    }

    /// The module-level type table, for adding types (clones it if functions share it).
    pub fn types_mut(&mut self) -> &mut TypeTable {
        Arc::make_mut(&mut self.types)
    }

    /// The bytes of a module-level `t`.
    pub fn text(&self, t: Text) -> &[u8] {
        t.resolve(&self.source, self.strings.bytes())
    }

    /// Adds verbatim module-level text (it must be complete top-level entities).
    pub fn push_text(&mut self, s: &str) {
        let t = self.strings.add(s.as_bytes());
        self.items.push(Item::Text(t));
    }

    /// Adds a function definition at the end of the module.
    pub fn push_function(&mut self, f: Function) -> FuncId {
        let id = self.functions.push(f);
        self.items.push(Item::Function(id));
        id
    }

    /// The function named `name` (without `@`).
    pub fn function_by_name(&self, name: &str) -> Option<FuncId> {
        self.functions
            .iter()
            .find(|(_, f)| f.text(f.name) == name.as_bytes())
            .map(|(id, _)| id)
    }
}
