//! The peer: [`FrontEnd`] implemented with crates.io's cranelift-frontend `FunctionBuilder`
//! (whose `SSABuilder` is the on-the-fly SSA construction we compare against), building a whole
//! cranelift `Function` that returns an `i64`, finalize included.

use std::time::Duration;

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{
    types, AbiParam, Block, BlockCall, Function, InstBuilder, JumpTableData, Signature,
    UserFuncName, Value,
};
use cranelift_codegen::isa::{CallConv, TargetFrontendConfig};
use cranelift_codegen::settings;
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext, Switch, Variable};

use crate::frontend::{replay, FrontEnd};
use crate::script::Script;

/// A [`FrontEnd`] over a cranelift [`FunctionBuilder`].
pub struct CraneliftSide<'a> {
    builder: FunctionBuilder<'a>,
}

impl<'a> CraneliftSide<'a> {
    /// Builds into `func` (fresh from [`new_function`]) using `ctx` (empty, reusable).
    pub fn new(func: &'a mut Function, ctx: &'a mut FunctionBuilderContext) -> Self {
        CraneliftSide {
            builder: FunctionBuilder::new(func, ctx),
        }
    }
}

/// A fresh, empty function with signature `() -> i64` (System V).
pub fn new_function() -> Function {
    let mut sig = Signature::new(CallConv::SystemV);
    sig.returns.push(AbiParam::new(types::I64));
    Function::with_name_signature(UserFuncName::user(0, 0), sig)
}

/// The target description `finalize()` wants: a 64-bit System V target.
pub fn frontend_config() -> TargetFrontendConfig {
    TargetFrontendConfig {
        default_call_conv: CallConv::SystemV,
        pointer_width: target_lexicon::PointerWidth::U64,
        page_size_align_log2: 12,
    }
}

/// Builds the script's function with cranelift, reusing `ctx` (as a compiler does between
/// functions).
pub fn build(script: &Script, ctx: &mut FunctionBuilderContext) -> Function {
    let mut func = new_function();
    replay(script, CraneliftSide::new(&mut func, ctx));
    func
}

/// Builds the script's function and runs cranelift's IR verifier on it.
pub fn build_and_verify(script: &Script) -> Result<Function, String> {
    let mut ctx = FunctionBuilderContext::new();
    let func = build(script, &mut ctx);
    let flags = settings::Flags::new(settings::builder());
    cranelift_codegen::verify_function(&func, &flags).map_err(|e| e.to_string())?;
    Ok(func)
}

/// Times cranelift building whole functions from one script, reusing one builder context.
#[derive(Default)]
pub struct CraneliftTimer {
    ctx: FunctionBuilderContext,
}

impl CraneliftTimer {
    /// A timer with a fresh builder context.
    pub fn new() -> Self {
        Self::default()
    }

    /// Time one build: function creation, replay and `finalize()`; dropping the built function
    /// happens after the clock stops.
    pub fn time_once(&mut self, script: &Script) -> Duration {
        crate::measure::time_build(|| build(script, &mut self.ctx))
    }
}

impl<'a> CraneliftSide<'a> {
    /// A `br_table` over dense cases `0..n`: the selector's low 32 bits index the table.
    fn br_table(&mut self, selector: Value, cases: &[(u32, Block)], default: Block) {
        let index = self.builder.ins().ireduce(types::I32, selector);
        let dfg = &mut self.builder.func.dfg;
        let targets: Vec<BlockCall> = cases.iter().map(|c| dfg.block_call(c.1, &[])).collect();
        let data = JumpTableData::new(dfg.block_call(default, &[]), &targets);
        let table = self.builder.create_jump_table(data);
        self.builder.ins().br_table(index, table);
    }

    /// Sparse cases: cranelift-frontend's `Switch` helper on the selector's low 32 bits.
    fn sparse_switch(&mut self, selector: Value, cases: &[(u32, Block)], default: Block) {
        let index = self.builder.ins().ireduce(types::I32, selector);
        let mut switch = Switch::new();
        for (k, b) in cases {
            switch.set_entry(u128::from(*k), *b);
        }
        switch.emit(&mut self.builder, index, default);
    }
}

impl<'a> FrontEnd for CraneliftSide<'a> {
    type Block = Block;
    type Var = Variable;
    type Value = Value;
    type Output = ();

    fn create_block(&mut self) -> Block {
        self.builder.create_block()
    }

    fn switch_to_block(&mut self, block: Block) {
        self.builder.switch_to_block(block)
    }

    fn seal_block(&mut self, block: Block) {
        self.builder.seal_block(block)
    }

    fn declare_var(&mut self) -> Variable {
        self.builder.declare_var(types::I64)
    }

    fn def_var(&mut self, var: Variable, value: Value) {
        self.builder.def_var(var, value)
    }

    fn use_var(&mut self, var: Variable) -> Value {
        self.builder.use_var(var)
    }

    fn iconst(&mut self, imm: i64) -> Value {
        self.builder.ins().iconst(types::I64, imm)
    }

    fn iadd(&mut self, a: Value, b: Value) -> Value {
        self.builder.ins().iadd(a, b)
    }

    fn icmp_slt(&mut self, a: Value, b: Value) -> Value {
        self.builder.ins().icmp(IntCC::SignedLessThan, a, b)
    }

    fn brif(&mut self, cond: Value, then_block: Block, else_block: Block) {
        self.builder
            .ins()
            .brif(cond, then_block, &[], else_block, &[]);
    }

    fn jump(&mut self, block: Block) {
        self.builder.ins().jump(block, &[]);
    }

    fn switch(&mut self, selector: Value, cases: &[(u32, Block)], default: Block) {
        let dense = cases.iter().enumerate().all(|(i, c)| c.0 as usize == i);
        if dense {
            self.br_table(selector, cases, default)
        } else {
            self.sparse_switch(selector, cases, default)
        }
    }

    fn ret(&mut self, value: Value) {
        self.builder.ins().return_(&[value]);
    }

    fn finish(self) {
        self.builder.finalize(frontend_config())
    }
}
