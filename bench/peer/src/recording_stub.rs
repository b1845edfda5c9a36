//! **Not the real "ours".** A trivial [`FrontEnd`] that only records the calls it receives back
//! into [`Op`]s, so tests can check that [`crate::frontend::replay`] delivers a script exactly.
//!
//! It builds no SSA at all; its timings mean nothing and the `peer` binary never reports it.
//! mem2reg's real on-the-fly builder will be a second implementation of [`FrontEnd`].

use crate::frontend::FrontEnd;
use crate::script::{BlockId, Op, Script, ValueId, VarId};

/// Records every call as the [`Op`] that would have caused it, numbering ids like a script.
#[derive(Debug, Default)]
pub struct RecordingStub {
    script: Script,
}

impl RecordingStub {
    /// An empty recorder.
    pub fn new() -> Self {
        Self::default()
    }

    fn value(&mut self, op: Op) -> ValueId {
        self.script.ops.push(op);
        self.script.values += 1;
        ValueId(self.script.values - 1)
    }
}

impl FrontEnd for RecordingStub {
    type Block = BlockId;
    type Var = VarId;
    type Value = ValueId;
    type Output = Script;

    fn create_block(&mut self) -> BlockId {
        self.script.ops.push(Op::CreateBlock);
        self.script.blocks += 1;
        BlockId(self.script.blocks - 1)
    }

    fn switch_to_block(&mut self, block: BlockId) {
        self.script.ops.push(Op::SwitchToBlock(block));
    }

    fn seal_block(&mut self, block: BlockId) {
        self.script.ops.push(Op::SealBlock(block));
    }

    fn declare_var(&mut self) -> VarId {
        let var = VarId(self.script.vars);
        self.script.ops.push(Op::DeclareVar(var));
        self.script.vars += 1;
        var
    }

    fn def_var(&mut self, var: VarId, value: ValueId) {
        self.script.ops.push(Op::DefVar(var, value));
    }

    fn use_var(&mut self, var: VarId) -> ValueId {
        self.value(Op::UseVar(var))
    }

    fn iconst(&mut self, imm: i64) -> ValueId {
        self.value(Op::Iconst(imm))
    }

    fn iadd(&mut self, a: ValueId, b: ValueId) -> ValueId {
        self.value(Op::Iadd(a, b))
    }

    fn icmp_slt(&mut self, a: ValueId, b: ValueId) -> ValueId {
        self.value(Op::IcmpSlt(a, b))
    }

    fn brif(&mut self, cond: ValueId, then_block: BlockId, else_block: BlockId) {
        self.script.ops.push(Op::Brif(cond, then_block, else_block));
    }

    fn jump(&mut self, block: BlockId) {
        self.script.ops.push(Op::Jump(block));
    }

    fn switch(&mut self, selector: ValueId, cases: &[(u32, BlockId)], default: BlockId) {
        self.script
            .ops
            .push(Op::Switch(selector, cases.to_vec(), default));
    }

    fn ret(&mut self, value: ValueId) {
        self.script.ops.push(Op::Return(value));
    }

    fn finish(self) -> Script {
        self.script
    }
}
