//! The data-flow graph of one function: values, instructions, blocks and their operand pools.
//!
//! Data only, no order: where instructions sit is [`crate::ir::Layout`]'s business (Cranelift's
//! split of `dfg` and `layout`). Invariants:
//! - `insts`, `values` and `blocks` are the only places ids are created, densely;
//! - an instruction with a result `r` has `values[r].def == ValueDef::Inst(i)`;
//! - operands live in shared pools (no heap allocation per instruction); an instruction owns the
//!   pool ranges its [`InstData`] names and no other instruction names them;
//! - [`DataFlowGraph::replace_all_uses`] records a forwarding alias instead of walking uses;
//!   readers call [`DataFlowGraph::resolve`] on every operand they read (the printer and the
//!   verifier do), and [`DataFlowGraph::resolve_aliases`] rewrites every operand once (linear)
//!   for code that wants plain operands (a transform starting, the library's
//!   `promote_function` returning). So replacing all uses of a value costs O(1), and a whole
//!   pass's replacements cost at most one pass over the operands.

use super::instructions::{Block, DbgVar, Inst, InstData, MdRef, Opcode, Piece, PoolRange, Value};
use super::text::{Text, TextArena};
use super::types::Type;
use crate::entity::{PrimaryMap, SecondaryMap};

/// What defines a value.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ValueDef {
    /// The result of an instruction.
    Inst(Inst),
    /// The function's parameter with this index.
    Param(u32),
    /// `undef`
    Undef,
    /// `poison`
    Poison,
    /// Any other constant, kept as its text: `5`, `null`, `@g`, `getelementptr (...)`, `true`,
    /// `zeroinitializer`, `c"..."`, `asm "..."`, `blockaddress(...)`, metadata operands, ...
    Const(Text),
}

/// The data of one value.
#[derive(Clone, Copy, Debug)]
pub struct ValueData {
    /// Its type.
    pub ty: Type,
    /// What defines it.
    pub def: ValueDef,
    /// Its name without the `%` sigil, as written (quoted names keep their quotes), or
    /// `Text::NONE` for unnamed values, which print as `%N` numbered in order.
    pub name: Text,
}

/// Appends `items` to `pool`; the range they take.
#[inline]
fn append<T>(pool: &mut Vec<T>, items: impl Iterator<Item = T>) -> PoolRange {
    let start = pool.len() as u32;
    pool.extend(items);
    PoolRange {
        start,
        len: pool.len() as u32 - start,
    }
}

/// One operand bundle of a call: `"tag"(T %a, T %b)`.
#[derive(Clone, Copy, Debug)]
pub struct Bundle {
    /// The tag as written, with its quotes (`"align"`).
    pub tag: Text,
    /// Positions of the bundle's operands among the instruction's value operands.
    pub ops: PoolRange,
}

/// The data of one block.
#[derive(Clone, Copy, Debug)]
pub struct BlockData {
    /// Its label without `%` or `:`, as written, or `Text::NONE` when unnamed (numbered).
    pub name: Text,
}

/// Values, instructions, blocks and operand pools of one function.
#[derive(Clone, Debug)]
pub struct DataFlowGraph {
    /// All instructions ever created (also removed ones: the layout says which are placed).
    pub insts: PrimaryMap<Inst, InstData>,
    /// All values.
    pub values: PrimaryMap<Value, ValueData>,
    /// All blocks.
    pub blocks: PrimaryMap<Block, BlockData>,
    /// Value operands of all instructions.
    pub value_pool: Vec<Value>,
    /// Block operands of all instructions.
    pub block_pool: Vec<Block>,
    /// Printing templates of all instructions.
    pub pieces: Vec<Piece>,
    /// Metadata attachments `(kind without '!', node)` of all instructions.
    pub attachments: Vec<(Text, MdRef)>,
    /// Debug-variable data of `llvm.dbg.*` calls and `#dbg_*` records (flag `DEBUG`); see [`DbgVar`].
    pub dbg: SecondaryMap<Inst, Option<DbgVar>>,
    /// Operand bundles of calls that have them (flag `HAS_BUNDLES`): a range of `bundle_pool`.
    pub bundles: SecondaryMap<Inst, PoolRange>,
    /// All operand bundles, see [`Bundle`].
    pub bundle_pool: Vec<Bundle>,
    /// Text made after parsing (names, templates of new instructions).
    pub strings: TextArena,
    /// Forwarding table of [`DataFlowGraph::replace_all_uses`]: `NONE` when not replaced.
    aliases: SecondaryMap<Value, Value>,
    has_aliases: bool,
}

impl Default for DataFlowGraph {
    fn default() -> Self {
        Self::new()
    }
}

impl DataFlowGraph {
    /// An empty graph.
    pub fn new() -> Self {
        Self {
            insts: PrimaryMap::new(),
            values: PrimaryMap::new(),
            blocks: PrimaryMap::new(),
            value_pool: Vec::new(),
            block_pool: Vec::new(),
            pieces: Vec::new(),
            attachments: Vec::new(),
            dbg: SecondaryMap::new(),
            bundles: SecondaryMap::new(),
            bundle_pool: Vec::new(),
            strings: TextArena::default(),
            aliases: SecondaryMap::with_default(Value::NONE),
            has_aliases: false,
        }
    }

    /// Reserves room for about `insts` more instructions with their values and operands
    /// (`pieces`: template pieces), so that a reader filling the graph does not regrow its
    /// pools step by step. Only a capacity hint: nothing observable changes.
    pub fn reserve(&mut self, insts: usize, pieces: usize) {
        if self.insts.is_empty() {
            self.insts = PrimaryMap::with_capacity(insts + insts / 8);
        }
        if self.values.is_empty() {
            self.values = PrimaryMap::with_capacity(insts + insts / 2);
        }
        self.value_pool.reserve(insts * 2);
        self.block_pool.reserve(insts / 2);
        self.pieces.reserve(pieces + insts / 2);
    }

    /// Makes room for `n` more instructions with results (one value each), so adding many
    /// (a pass making thousands of phis) does not regrow the tables one doubling at a time.
    pub fn reserve_more(&mut self, n: usize) {
        self.insts.reserve(n);
        self.values.reserve(n);
    }

    /// Adds a value.
    #[inline]
    pub fn make_value(&mut self, ty: Type, def: ValueDef, name: Text) -> Value {
        self.values.push(ValueData { ty, def, name })
    }

    /// A fresh `undef` of type `ty`.
    pub fn undef(&mut self, ty: Type) -> Value {
        self.make_value(ty, ValueDef::Undef, Text::NONE)
    }

    /// A fresh `poison` of type `ty`.
    pub fn poison(&mut self, ty: Type) -> Value {
        self.make_value(ty, ValueDef::Poison, Text::NONE)
    }

    /// A fresh constant with literal text `text` (`"0"`, `"null"`, ...).
    pub fn constant(&mut self, ty: Type, text: &str) -> Value {
        let t = self.strings.add(text.as_bytes());
        self.make_value(ty, ValueDef::Const(t), Text::NONE)
    }

    /// Adds a block.
    pub fn make_block(&mut self, name: Text) -> Block {
        self.blocks.push(BlockData { name })
    }

    /// Appends `vals` to the value pool.
    #[inline]
    pub fn push_values(&mut self, vals: &[Value]) -> PoolRange {
        append(&mut self.value_pool, vals.iter().copied())
    }

    /// Appends the values `vals` yields to the operand pool.
    #[inline]
    pub fn push_values_with(&mut self, vals: impl Iterator<Item = Value>) -> PoolRange {
        append(&mut self.value_pool, vals)
    }

    /// Appends `blocks` to the block pool.
    #[inline]
    pub fn push_blocks(&mut self, blocks: &[Block]) -> PoolRange {
        append(&mut self.block_pool, blocks.iter().copied())
    }

    /// Appends the blocks `blocks` yields to the block pool.
    #[inline]
    pub fn push_blocks_with(&mut self, blocks: impl Iterator<Item = Block>) -> PoolRange {
        append(&mut self.block_pool, blocks)
    }

    /// Appends `pieces` to the template pool.
    #[inline]
    pub fn push_pieces(&mut self, pieces: &[Piece]) -> PoolRange {
        append(&mut self.pieces, pieces.iter().copied())
    }

    /// Adds an instruction; if `result_ty` is given, also its result value named `name`.
    pub fn make_inst(&mut self, mut data: InstData, result_ty: Option<Type>, name: Text) -> Inst {
        let inst = self.insts.next_key();
        data.result = match result_ty {
            Some(ty) => self.make_value(ty, ValueDef::Inst(inst), name),
            None => Value::NONE,
        };
        self.insts.push(data)
    }

    /// Adds an instruction whose result is the existing value `result` (a forward reference
    /// the reader made before the definition); `result` becomes defined by it.
    pub fn make_inst_with_result(&mut self, mut data: InstData, result: Value) -> Inst {
        let inst = self.insts.next_key();
        data.result = result;
        self.values[result].def = ValueDef::Inst(inst);
        self.insts.push(data)
    }

    /// The opcode of `inst`.
    #[inline]
    pub fn opcode(&self, inst: Inst) -> Opcode {
        self.insts[inst].opcode
    }

    /// The value operands of `inst` (unresolved: see [`DataFlowGraph::resolve`]).
    #[inline]
    pub fn inst_values(&self, inst: Inst) -> &[Value] {
        &self.value_pool[self.insts[inst].values.span()]
    }

    /// The value operands of `inst`, for editing in place.
    #[inline]
    pub fn inst_values_mut(&mut self, inst: Inst) -> &mut [Value] {
        let r = self.insts[inst].values.span();
        &mut self.value_pool[r]
    }

    /// The block operands of `inst` (successors of a terminator, incoming blocks of a phi).
    #[inline]
    pub fn inst_blocks(&self, inst: Inst) -> &[Block] {
        &self.block_pool[self.insts[inst].blocks.span()]
    }

    /// The block operands of `inst`, for retargeting edges.
    #[inline]
    pub fn inst_blocks_mut(&mut self, inst: Inst) -> &mut [Block] {
        let r = self.insts[inst].blocks.span();
        &mut self.block_pool[r]
    }

    /// Replaces the metadata attachments of `inst`.
    pub fn set_attachments(&mut self, inst: Inst, atts: &[(Text, MdRef)]) {
        let start = self.attachments.len() as u32;
        self.attachments.extend_from_slice(atts);
        self.insts[inst].attachments = PoolRange {
            start,
            len: atts.len() as u32,
        };
    }

    /// The operand bundles of `inst` (empty for most instructions).
    pub fn inst_bundles(&self, inst: Inst) -> &[Bundle] {
        &self.bundle_pool[self.bundles[inst].span()]
    }

    /// The template of `inst`.
    #[inline]
    pub fn inst_pieces(&self, inst: Inst) -> &[Piece] {
        &self.pieces[self.insts[inst].pieces.span()]
    }

    /// The metadata attachments of `inst`.
    #[inline]
    pub fn inst_attachments(&self, inst: Inst) -> &[(Text, MdRef)] {
        &self.attachments[self.insts[inst].attachments.span()]
    }

    /// The result of `inst`, if it has one.
    #[inline]
    pub fn inst_result(&self, inst: Inst) -> Option<Value> {
        self.insts[inst].result.expand()
    }

    /// The type of `v`.
    #[inline]
    pub fn value_type(&self, v: Value) -> Type {
        self.values[v].ty
    }

    /// The instruction defining `v`, if any.
    #[inline]
    pub fn value_inst(&self, v: Value) -> Option<Inst> {
        match self.values[v].def {
            ValueDef::Inst(i) => Some(i),
            _ => None,
        }
    }

    /// The bytes of `t` (resolved against `source` and this function's own arena).
    #[inline]
    pub fn text<'a>(&'a self, source: &'a [u8], t: Text) -> &'a [u8] {
        t.resolve(source, self.strings.bytes())
    }

    /// Makes every use of `old` a use of `new` (O(1): recorded as an alias; see module docs).
    pub fn replace_all_uses(&mut self, old: Value, new: Value) {
        debug_assert_ne!(old, new);
        if !self.has_aliases {
            // One allocation for the whole batch of replacements (a pass replaces many loads).
            self.aliases
                .materialize(self.values.len() + self.values.len() / 4 + 16);
        }
        self.aliases[old] = new;
        self.has_aliases = true;
    }

    /// What `v` stands for after all replacements so far.
    #[inline]
    pub fn resolve(&self, mut v: Value) -> Value {
        if !self.has_aliases {
            return v;
        }
        let mut steps = 0usize;
        loop {
            let next = self.aliases[v];
            if next.is_none() {
                return v;
            }
            v = next;
            steps += 1;
            assert!(steps <= self.values.len(), "alias cycle at {v}");
        }
    }

    /// Rewrites every operand through the alias table once, compressing chains; afterwards no
    /// operand names a replaced value and the table is empty. Linear in operands + values.
    pub fn resolve_aliases(&mut self) {
        if !self.has_aliases {
            return;
        }
        // Compress every chain in place: afterwards each replaced value maps to its root.
        let al = self.aliases.as_mut_slice();
        let n = al.len();
        let mut stack = Vec::new();
        for i in 0..n {
            let first = al[i];
            if first.is_none() || al.get(first.index()).map_or(true, |r| r.is_none()) {
                continue;
            }
            let mut v = Value(i as u32);
            while let Some(&next) = al.get(v.index()).filter(|x| !x.is_none()) {
                if al.get(next.index()).map_or(true, |r| r.is_none()) {
                    break;
                }
                stack.push(v);
                v = next;
                assert!(stack.len() <= n, "alias cycle");
            }
            let root = al[v.index()];
            for s in stack.drain(..) {
                al[s.index()] = root;
            }
        }
        for op in &mut self.value_pool {
            if let Some(&f) = al.get(op.index()) {
                if !f.is_none() {
                    *op = f;
                }
            }
        }
        self.aliases.clear();
        self.has_aliases = false;
    }

    /// Whether any replacement is pending.
    pub fn has_aliases(&self) -> bool {
        self.has_aliases
    }
}
