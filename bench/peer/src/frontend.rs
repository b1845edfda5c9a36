//! The [`FrontEnd`] trait — one method per script op — and [`replay`], which drives any
//! implementation of it with a [`Script`].
//!
//! Each SSA builder under test (cranelift-frontend, mem2reg's own) implements [`FrontEnd`] with
//! its own block, variable and value handles; [`replay`] maps the script's dense ids to them.
//! The mapping costs the same for every implementation, so it is part of the timed replay.

use crate::script::{Op, Script};

/// What a front end asks of an on-the-fly SSA builder while it builds one function.
///
/// The function returns one 64-bit integer; every variable and value is a 64-bit integer except
/// the result of [`FrontEnd::icmp_slt`], which only feeds [`FrontEnd::brif`].
pub trait FrontEnd {
    /// The builder's block handle.
    type Block: Copy;
    /// The builder's variable handle.
    type Var: Copy;
    /// The builder's value handle.
    type Value: Copy;
    /// What [`FrontEnd::finish`] hands back.
    type Output;

    /// Create a new, empty block.
    fn create_block(&mut self) -> Self::Block;
    /// Append the following instructions to `block`.
    fn switch_to_block(&mut self, block: Self::Block);
    /// All predecessors of `block` are now known.
    fn seal_block(&mut self, block: Self::Block);
    /// Declare a new 64-bit integer variable.
    fn declare_var(&mut self) -> Self::Var;
    /// Assign `value` to `var` at the current position.
    fn def_var(&mut self, var: Self::Var, value: Self::Value);
    /// The value of `var` at the current position.
    fn use_var(&mut self, var: Self::Var) -> Self::Value;
    /// A 64-bit constant.
    fn iconst(&mut self, imm: i64) -> Self::Value;
    /// Wrapping 64-bit `a + b`.
    fn iadd(&mut self, a: Self::Value, b: Self::Value) -> Self::Value;
    /// Signed `a < b`, as a branch condition.
    fn icmp_slt(&mut self, a: Self::Value, b: Self::Value) -> Self::Value;
    /// Conditional branch.
    fn brif(&mut self, cond: Self::Value, then_block: Self::Block, else_block: Self::Block);
    /// Unconditional branch.
    fn jump(&mut self, block: Self::Block);
    /// Multiway branch on the selector's low 32 bits (unsigned); `cases` are distinct.
    fn switch(&mut self, selector: Self::Value, cases: &[(u32, Self::Block)], default: Self::Block);
    /// Return `value`.
    fn ret(&mut self, value: Self::Value);
    /// Complete the function (cranelift: `finalize()`), handing back the result.
    fn finish(self) -> Self::Output;
}

/// Replays `script` into `fe` and finishes it. The script must be well-formed
/// (see [`crate::validate::validate`]); ids out of range panic.
pub fn replay<F: FrontEnd>(script: &Script, fe: F) -> F::Output {
    let mut replayer = Replayer::new(script, fe);
    for op in &script.ops {
        replayer.step(op);
    }
    replayer.fe.finish()
}

/// Replay state: the builder plus the maps from script ids to its handles.
struct Replayer<F: FrontEnd> {
    fe: F,
    blocks: Vec<F::Block>,
    vars: Vec<F::Var>,
    values: Vec<F::Value>,
    cases: Vec<(u32, F::Block)>,
}

impl<F: FrontEnd> Replayer<F> {
    fn new(script: &Script, fe: F) -> Self {
        Replayer {
            fe,
            blocks: Vec::with_capacity(script.blocks as usize),
            vars: Vec::with_capacity(script.vars as usize),
            values: Vec::with_capacity(script.values as usize),
            cases: Vec::new(),
        }
    }

    fn step(&mut self, op: &Op) {
        match op {
            Op::CreateBlock => {
                let b = self.fe.create_block();
                self.blocks.push(b);
            }
            Op::SwitchToBlock(b) => self.fe.switch_to_block(self.blocks[b.0 as usize]),
            Op::SealBlock(b) => self.fe.seal_block(self.blocks[b.0 as usize]),
            Op::DeclareVar(_) => {
                let v = self.fe.declare_var();
                self.vars.push(v);
            }
            Op::DefVar(v, x) => self
                .fe
                .def_var(self.vars[v.0 as usize], self.values[x.0 as usize]),
            _ if op.produces_value() => self.step_value(op),
            _ => self.step_terminator(op),
        }
    }

    fn step_value(&mut self, op: &Op) {
        let val = |i: &crate::script::ValueId| self.values[i.0 as usize];
        let v = match op {
            Op::UseVar(v) => self.fe.use_var(self.vars[v.0 as usize]),
            Op::Iconst(k) => self.fe.iconst(*k),
            Op::Iadd(a, b) => {
                let (a, b) = (val(a), val(b));
                self.fe.iadd(a, b)
            }
            Op::IcmpSlt(a, b) => {
                let (a, b) = (val(a), val(b));
                self.fe.icmp_slt(a, b)
            }
            _ => unreachable!("not a value-producing op: {op:?}"),
        };
        self.values.push(v);
    }

    fn step_terminator(&mut self, op: &Op) {
        let block = |b: &crate::script::BlockId| self.blocks[b.0 as usize];
        match op {
            Op::Brif(c, t, e) => {
                let (c, t, e) = (self.values[c.0 as usize], block(t), block(e));
                self.fe.brif(c, t, e)
            }
            Op::Jump(b) => {
                let b = block(b);
                self.fe.jump(b)
            }
            Op::Switch(sel, cases, default) => self.step_switch(sel.0, cases, default.0),
            Op::Return(v) => self.fe.ret(self.values[v.0 as usize]),
            _ => unreachable!("not a terminator: {op:?}"),
        }
    }

    fn step_switch(&mut self, sel: u32, cases: &[(u32, crate::script::BlockId)], default: u32) {
        self.cases.clear();
        let blocks = &self.blocks;
        self.cases
            .extend(cases.iter().map(|(k, b)| (*k, blocks[b.0 as usize])));
        let (sel, default) = (self.values[sel as usize], self.blocks[default as usize]);
        self.fe.switch(sel, &self.cases, default);
    }
}
