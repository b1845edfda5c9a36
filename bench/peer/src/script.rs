//! Builder scripts: an IR-independent description of what a front end asks of an SSA builder.
//!
//! A [`Script`] is a flat list of [`Op`]s, in the order a front end would issue them. Blocks,
//! variables and values are named by small dense numbers:
//! - the n-th [`Op::CreateBlock`] creates block `BlockId(n)`;
//! - variables are declared in order: the n-th [`Op::DeclareVar`] declares `VarId(n)`;
//! - the n-th value-producing op ([`Op::UseVar`], [`Op::Iconst`], [`Op::Iadd`],
//!   [`Op::IcmpSlt`]) produces `ValueId(n)`.
//!
//! A replayer (see [`crate::frontend::replay`]) maps these numbers to a builder's own handles.
//! Scripts are made (untimed) with a [`ScriptWriter`], whose methods mirror the ops.

/// A block of the script, numbered by the order of [`Op::CreateBlock`] ops.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BlockId(pub u32);

/// A front-end variable (all are 64-bit integers), numbered by declaration order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct VarId(pub u32);

/// A value produced by an op, numbered by the order of value-producing ops.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ValueId(pub u32);

/// One front-end request to the SSA builder.
///
/// All integer values are 64-bit, except the result of [`Op::IcmpSlt`], a truth value that may
/// only be used as the condition of [`Op::Brif`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Op {
    /// Create a new block (its id is the number of blocks created before it).
    CreateBlock,
    /// Make the block current: the following instructions are appended to it. The previous
    /// current block, if any, must end with a terminator.
    SwitchToBlock(BlockId),
    /// Declare that every predecessor of the block is known (all branches to it are emitted).
    SealBlock(BlockId),
    /// Declare a 64-bit integer variable; ids must be declared in order 0, 1, 2, ...
    DeclareVar(VarId),
    /// Assign a value to a variable at the current position.
    DefVar(VarId, ValueId),
    /// Read a variable at the current position; produces a value.
    UseVar(VarId),
    /// A 64-bit integer constant; produces a value.
    Iconst(i64),
    /// Wrapping 64-bit addition; produces a value.
    Iadd(ValueId, ValueId),
    /// Signed `a < b`; produces a truth value, usable only as a [`Op::Brif`] condition.
    IcmpSlt(ValueId, ValueId),
    /// Terminator: go to the first block if the condition holds, else to the second.
    Brif(ValueId, BlockId, BlockId),
    /// Terminator: go to the block.
    Jump(BlockId),
    /// Terminator: multiway branch on the selector's low 32 bits (taken as unsigned): go to the
    /// block of the matching case, else to the default block. Case values are distinct.
    Switch(ValueId, Vec<(u32, BlockId)>, BlockId),
    /// Terminator: return the value from the function.
    Return(ValueId),
}

impl Op {
    /// Whether this op produces a value (and so takes the next [`ValueId`]).
    pub fn produces_value(&self) -> bool {
        matches!(
            self,
            Op::UseVar(_) | Op::Iconst(_) | Op::Iadd(..) | Op::IcmpSlt(..)
        )
    }

    /// Whether this op ends its block.
    pub fn is_terminator(&self) -> bool {
        matches!(
            self,
            Op::Brif(..) | Op::Jump(_) | Op::Switch(..) | Op::Return(_)
        )
    }

    /// The blocks this op branches to (empty for non-branches), default block last.
    pub fn successors(&self) -> Vec<BlockId> {
        match self {
            Op::Brif(_, t, e) => vec![*t, *e],
            Op::Jump(b) => vec![*b],
            Op::Switch(_, cases, default) => cases
                .iter()
                .map(|c| c.1)
                .chain(std::iter::once(*default))
                .collect(),
            _ => Vec::new(),
        }
    }
}

/// A complete builder script for one function, with the counts a replayer needs up front.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Script {
    /// The ops, in front-end order.
    pub ops: Vec<Op>,
    /// Number of [`Op::CreateBlock`] ops.
    pub blocks: u32,
    /// Number of [`Op::DeclareVar`] ops.
    pub vars: u32,
    /// Number of value-producing ops.
    pub values: u32,
}

/// Writes a [`Script`] the way a front end drives a builder: each method appends one op and
/// returns the id it creates, if any.
#[derive(Debug, Default)]
pub struct ScriptWriter {
    script: Script,
}

impl ScriptWriter {
    /// An empty writer.
    pub fn new() -> Self {
        Self::default()
    }

    /// The finished script.
    pub fn finish(self) -> Script {
        self.script
    }

    fn push(&mut self, op: Op) {
        self.script.ops.push(op);
    }

    fn push_value(&mut self, op: Op) -> ValueId {
        self.push(op);
        self.script.values += 1;
        ValueId(self.script.values - 1)
    }

    /// [`Op::CreateBlock`].
    pub fn create_block(&mut self) -> BlockId {
        self.push(Op::CreateBlock);
        self.script.blocks += 1;
        BlockId(self.script.blocks - 1)
    }

    /// [`Op::SwitchToBlock`].
    pub fn switch_to_block(&mut self, block: BlockId) {
        self.push(Op::SwitchToBlock(block));
    }

    /// [`Op::SealBlock`].
    pub fn seal_block(&mut self, block: BlockId) {
        self.push(Op::SealBlock(block));
    }

    /// [`Op::DeclareVar`] with the next variable id.
    pub fn declare_var(&mut self) -> VarId {
        let var = VarId(self.script.vars);
        self.push(Op::DeclareVar(var));
        self.script.vars += 1;
        var
    }

    /// [`Op::DefVar`].
    pub fn def_var(&mut self, var: VarId, value: ValueId) {
        self.push(Op::DefVar(var, value));
    }

    /// [`Op::UseVar`].
    pub fn use_var(&mut self, var: VarId) -> ValueId {
        self.push_value(Op::UseVar(var))
    }

    /// [`Op::Iconst`].
    pub fn iconst(&mut self, imm: i64) -> ValueId {
        self.push_value(Op::Iconst(imm))
    }

    /// [`Op::Iadd`].
    pub fn iadd(&mut self, a: ValueId, b: ValueId) -> ValueId {
        self.push_value(Op::Iadd(a, b))
    }

    /// [`Op::IcmpSlt`].
    pub fn icmp_slt(&mut self, a: ValueId, b: ValueId) -> ValueId {
        self.push_value(Op::IcmpSlt(a, b))
    }

    /// [`Op::Brif`].
    pub fn brif(&mut self, cond: ValueId, then_block: BlockId, else_block: BlockId) {
        self.push(Op::Brif(cond, then_block, else_block));
    }

    /// [`Op::Jump`].
    pub fn jump(&mut self, block: BlockId) {
        self.push(Op::Jump(block));
    }

    /// [`Op::Switch`].
    pub fn switch(&mut self, selector: ValueId, cases: Vec<(u32, BlockId)>, default: BlockId) {
        self.push(Op::Switch(selector, cases, default));
    }

    /// [`Op::Return`].
    pub fn ret(&mut self, value: ValueId) {
        self.push(Op::Return(value));
    }

    /// Start the function: create the entry block, make it current and seal it (it has no
    /// predecessors). Returns the entry block.
    pub fn begin_entry(&mut self) -> BlockId {
        let entry = self.create_block();
        self.switch_to_block(entry);
        self.seal_block(entry);
        entry
    }

    /// Fall through into a fresh block: create it, jump to it, make it current and seal it
    /// (its only predecessor is the jump). Returns the new block.
    pub fn fall_into_new_block(&mut self) -> BlockId {
        let next = self.create_block();
        self.jump(next);
        self.switch_to_block(next);
        self.seal_block(next);
        next
    }

    /// `var = var + imm` at the current position.
    pub fn add_imm_to_var(&mut self, var: VarId, imm: i64) {
        let old = self.use_var(var);
        let k = self.iconst(imm);
        let new = self.iadd(old, k);
        self.def_var(var, new);
    }
}
