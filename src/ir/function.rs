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
use super::instructions::{Block, Inst, Piece, PoolRange, Value};
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

    /// The name of `v` as text, or `None` if it is unnamed.
    pub fn value_name(&self, v: Value) -> Option<&[u8]> {
        let n = self.dfg.values[v].name;
        (!n.is_none()).then(|| self.text(n))
    }
}
