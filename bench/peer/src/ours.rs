//! Ours: [`FrontEnd`] implemented with mem2reg's on-the-fly SSA builder, through toy-ir's
//! function builder ([`toy_ir::frontend::FunctionBuilder`], over
//! `ssa::construct::on_the_fly::Builder`), building a whole [`toy_ir::Function`] in SSA form,
//! `finish` included, as [`crate::cranelift_side`] builds a cranelift `Function`, `finalize`
//! included. Merges are block parameters with branch arguments, as in cranelift's IR (toy-ir's
//! phis would cost one argument list per phi where parameters cost one per edge).
//!
//! The mapping keeps the two sides' work alike: every value-producing op is one instruction
//! (`iconst` is a `const` instruction, not an immediate operand), a switch first reduces its
//! selector to its low 32 bits (cranelift's `ireduce`), and the builder is reused between
//! functions as cranelift's `FunctionBuilderContext` is. Scripts are validated before they are
//! replayed, so a refused call is a bug of the harness: it panics with the builder's message.

use std::time::Duration;

use toy_ir::frontend::{FrontendError, FunctionBuilder};
use toy_ir::{BinOp, Block, Function, Merges, Operand, Var};

use crate::frontend::{replay, FrontEnd};
use crate::measure::{Policy, Sample};
use crate::script::Script;

/// A [`FrontEnd`] over toy-ir's [`FunctionBuilder`].
pub struct OursSide<'a> {
    fb: &'a mut FunctionBuilder,
}

impl<'a> OursSide<'a> {
    /// Builds into `fb` (empty: fresh, or after a `finish`).
    pub fn new(fb: &'a mut FunctionBuilder) -> Self {
        OursSide { fb }
    }
}

/// The builder refused a call of a validated script: a harness bug.
fn ok<T>(r: Result<T, FrontendError>) -> T {
    r.unwrap_or_else(|e| panic!("toy-ir function builder refused a validated script: {e}"))
}

impl FrontEnd for OursSide<'_> {
    type Block = Block;
    type Var = Var;
    type Value = Operand;
    type Output = Function;

    fn create_block(&mut self) -> Block {
        self.fb.create_block()
    }

    fn switch_to_block(&mut self, block: Block) {
        ok(self.fb.switch_to_block(block))
    }

    fn seal_block(&mut self, block: Block) {
        ok(self.fb.seal_block(block))
    }

    fn declare_var(&mut self) -> Var {
        self.fb.declare_var()
    }

    fn def_var(&mut self, var: Var, value: Operand) {
        ok(self.fb.def_var(var, value))
    }

    fn use_var(&mut self, var: Var) -> Operand {
        ok(self.fb.use_var(var))
    }

    fn iconst(&mut self, imm: i64) -> Operand {
        ok(self.fb.iconst(imm)).into()
    }

    fn iadd(&mut self, a: Operand, b: Operand) -> Operand {
        ok(self.fb.binary(BinOp::Add, a, b)).into()
    }

    fn icmp_slt(&mut self, a: Operand, b: Operand) -> Operand {
        ok(self.fb.binary(BinOp::Lt, a, b)).into()
    }

    fn brif(&mut self, cond: Operand, then_block: Block, else_block: Block) {
        ok(self.fb.branch(cond, then_block, else_block))
    }

    fn jump(&mut self, block: Block) {
        ok(self.fb.jump(block))
    }

    fn switch(&mut self, selector: Operand, cases: &[(u32, Block)], default: Block) {
        let low = ok(self
            .fb
            .binary(BinOp::And, selector, Operand::Imm(0xffff_ffff)));
        let cases: Vec<(i64, Block)> = cases.iter().map(|&(k, b)| (i64::from(k), b)).collect();
        ok(self.fb.switch(low.into(), &cases, default))
    }

    fn ret(&mut self, value: Operand) {
        ok(self.fb.ret(value))
    }

    fn finish(self) -> Function {
        ok(self.fb.finish())
    }
}

/// Builds the script's function with our builder, reusing `fb`.
pub fn build(script: &Script, fb: &mut FunctionBuilder) -> Function {
    replay(script, OursSide::new(fb))
}

/// Times our builder building whole functions from one script, reusing one builder.
pub struct OursTimer {
    fb: FunctionBuilder,
}

impl Default for OursTimer {
    fn default() -> Self {
        OursTimer {
            fb: FunctionBuilder::new(Merges::BlockParams),
        }
    }
}

impl OursTimer {
    /// A timer with a fresh builder.
    pub fn new() -> Self {
        Self::default()
    }

    /// Time one build: replay and `finish`; dropping the built function happens after the clock
    /// stops (as on cranelift's side).
    pub fn time_once(&mut self, script: &Script) -> Duration {
        crate::measure::time_build(|| build(script, &mut self.fb))
    }
}

/// Times our builder on `script` alone (see [`crate::measure::run_case`] for the side-by-side
/// runs the report uses).
pub fn measure_ours(script: &Script, policy: &Policy) -> Sample {
    let mut timer = OursTimer::new();
    crate::measure::measure(policy, || timer.time_once(script))
}
