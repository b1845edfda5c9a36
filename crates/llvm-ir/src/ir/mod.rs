//! The in-memory IR: modules of functions of blocks of instructions.
//!
//! Layout of the data (see each file's docs for its invariants):
//! - [`types`]: interned [`Type`]s;
//! - [`text`]: byte spans into the input or an owner's arena (names and literal text are borrowed,
//!   not copied);
//! - [`instructions`]: [`Opcode`], [`InstData`] and the printing templates;
//! - [`dfg`]: values, instructions, blocks and operand pools of a function (data);
//! - [`layout`]: block and instruction order (order), kept apart from the data as in Cranelift;
//! - [`function`] and [`module`]: the containers; [`builder`]: making new instructions.

pub mod builder;
pub mod cfg;
pub mod datalayout;
pub mod dfg;
pub mod function;
pub mod instructions;
pub mod layout;
pub mod md_table;
pub mod metadata;
pub mod module;
pub mod module_info;
pub mod sema;
pub mod text;
pub mod types;

pub use builder::FuncBuilder;
pub use dfg::{BlockData, Bundle, DataFlowGraph, ValueData, ValueDef};
pub use function::Function;
pub use instructions::{
    flags, Block, DbgKind, DbgVar, Inst, InstData, MdRef, Opcode, Piece, PoolRange, Value,
};
pub use layout::Layout;
pub use module::{FuncId, Item, Module};
pub use module_info::ModuleInfo;

/// Bits of [`Function::param_flags`]: what a parameter's attributes promise.
pub mod param_flags {
    /// `noundef`
    pub const NOUNDEF: u8 = 1;
    /// `dereferenceable(N)` or `dereferenceable_or_null(N)`
    pub const DEREFERENCEABLE: u8 = 2;
    /// `nonnull`
    pub const NONNULL: u8 = 4;
}
pub use text::{Text, TextArena};
pub use types::{FloatKind, Type, TypeData, TypeTable};
