//! A function definition: its header, its data-flow graph and its layout.
//!
//! Invariants:
//! - `params[i]` is a value with `ValueDef::Param(i)`;
//! - the header template's holes `Value(i)` name `params[i]` (it prints the whole `define ...`
//!   line up to, not including, the opening `{`);
//! - `source` is the module's input buffer: every source [`Text`] of this function resolves in it,
//!   every other one in `dfg.strings`.

use std::sync::Arc;

use super::dfg::DataFlowGraph;
use super::instructions::{Block, Inst, MdRef, Piece, PoolRange, Value};
use super::layout::Layout;
use super::text::Text;
use super::types::{Type, TypeTable};

/// One function definition.
#[derive(Clone, Debug)]
pub struct Function {
    /// The global name without `@`, as written (quoted names keep their quotes).
    pub name: Text,
    /// The printing template of the header (`define ... @f(i32 %x) #0 !dbg !7`), in `dfg.pieces`.
    pub header: PoolRange,
    /// Parameters, in order.
    pub params: Vec<Value>,
    /// Return type.
    pub ret_ty: Type,
    /// Whether the function has the `optnone` attribute (inline or through an attribute group).
    pub optnone: bool,
    /// Whether the function has `"no-signed-zeros-fp-math"="true"`.
    pub no_signed_zeros: bool,
    /// Per parameter, [`crate::ir::param_flags`] bits read from its attributes.
    pub param_flags: Vec<u8>,
    /// Metadata nodes made by passes (e.g. `!DILocation(line: 0, scope: !7)`), referenced by
    /// [`MdRef::New`] / [`Piece::NewMd`]; their text may itself reference earlier new nodes
    /// through the printer's markers. Numbered after the module's own nodes when printed.
    pub new_md: Vec<Vec<u8>>,
    /// Hash of a new node's content → the first node with that hash, so [`Function::add_new_md`]
    /// finds an equal node in O(1). Only a cache: a miss or a different content at the index
    /// (a hash collision, or `new_md` taken away) falls back to comparing every node.
    new_md_index: crate::util::fxhash::FxHashMap<u64, u32>,
    /// Blocks the input numbered (`5:`, or unnamed), by that number: `blockaddress(@f, %5)`
    /// elsewhere in the module names them so, and is rewritten when numbers change.
    pub input_block_numbers: Vec<(u32, Block)>,
    /// For a compound constant operand (`getelementptr (...)`, `{ ... }`, a cast), the types
    /// LLVM's `TypeFinder` meets in it, in its order (the constant's own type first; globals
    /// inside left out): see [`crate::print::type_order`]. Other constants meet only their type.
    pub const_roots: crate::util::fxhash::FxHashMap<Value, Box<[Type]>>,
    /// Whether the body or header names a type attribute (`byval(T)`, `sret(T)`, ...), whose
    /// types `TypeFinder` meets at the call (so calls need a look for them).
    pub type_attrs: bool,
    /// Declarations the module must contain for this function's calls to new intrinsics
    /// (`declare void @llvm.dbg.value(metadata, metadata, metadata)`), added when missing.
    pub needs_decls: Vec<&'static str>,
    /// This function's types: a child of the module's table.
    pub types: TypeTable,
    /// Values, instructions, blocks.
    pub dfg: DataFlowGraph,
    /// Their order.
    pub layout: Layout,
    /// The module's input buffer.
    pub source: Arc<[u8]>,
}

impl Function {
    /// An empty function with no name or header text yet, whose types extend `module_types`.
    pub fn new(source: Arc<[u8]>, module_types: &Arc<TypeTable>, ret_ty: Type) -> Self {
        Self {
            name: Text::NONE,
            header: PoolRange::default(),
            params: Vec::new(),
            ret_ty,
            optnone: false,
            no_signed_zeros: false,
            param_flags: Vec::new(),
            new_md: Vec::new(),
            new_md_index: Default::default(),
            input_block_numbers: Vec::new(),
            const_roots: Default::default(),
            type_attrs: false,
            needs_decls: Vec::new(),
            types: TypeTable::child(module_types),
            dfg: DataFlowGraph::new(),
            layout: Layout::new(),
            source,
        }
    }

    /// The bytes of `t`.
    #[inline]
    pub fn text(&self, t: Text) -> &[u8] {
        self.dfg.text(&self.source, t)
    }

    /// The function's name as text (lossy for non-UTF-8 names).
    pub fn name_str(&self) -> String {
        String::from_utf8_lossy(self.text(self.name)).into_owned()
    }

    /// The header template.
    pub fn header_pieces(&self) -> &[Piece] {
        &self.dfg.pieces[self.header.span()]
    }

    /// The entry block.
    pub fn entry_block(&self) -> Option<Block> {
        self.layout.entry_block()
    }

    /// The terminator of `b` (its last instruction, if that is a terminator).
    pub fn terminator(&self, b: Block) -> Option<Inst> {
        let last = self.layout.last_inst(b)?;
        self.dfg.opcode(last).is_terminator().then_some(last)
    }

    /// Successors of `b` in terminator order, with repeats (`br i1 %c, label %x, label %x` gives
    /// `%x` twice).
    pub fn successors(&self, b: Block) -> &[Block] {
        match self.terminator(b) {
            Some(t) => self.dfg.inst_blocks(t),
            None => &[],
        }
    }

    /// Removes `inst` from its block (the data stays; the result must have no uses left).
    pub fn remove_inst(&mut self, inst: Inst) {
        self.layout.remove_inst(inst);
    }

    /// Adds a new metadata node with text `content` (deduplicated within the function).
    pub fn add_new_md(&mut self, content: Vec<u8>) -> MdRef {
        use std::hash::{BuildHasher, BuildHasherDefault};
        let h = BuildHasherDefault::<crate::util::fxhash::FxHasher>::default().hash_one(&content);
        let next = self.new_md.len() as u32;
        match self.new_md_index.entry(h) {
            std::collections::hash_map::Entry::Occupied(e) => {
                let k = *e.get();
                if self.new_md.get(k as usize) == Some(&content) {
                    return MdRef::New(k);
                }
                if let Some(k) = self.new_md.iter().position(|c| *c == content) {
                    return MdRef::New(k as u32);
                }
            }
            std::collections::hash_map::Entry::Vacant(e) => {
                e.insert(next);
            }
        }
        self.new_md.push(content);
        MdRef::New(next)
    }

    /// The text of `r` for reading (new nodes: their content).
    pub fn md_text(&self, r: MdRef) -> &[u8] {
        match r {
            MdRef::Text(t) => self.text(t),
            MdRef::New(k) => &self.new_md[k as usize],
        }
    }

    /// The name of `v` as text, or `None` if it is unnamed.
    pub fn value_name(&self, v: Value) -> Option<&[u8]> {
        let n = self.dfg.values[v].name;
        (!n.is_none()).then(|| self.text(n))
    }
}
