//! The data structures of toy-ir: entities, operands, instructions, terminators, blocks and
//! functions, plus the CFG queries every other module needs (successor and predecessor edges).
//!
//! # Entities
//! - [`Block`]: a dense index into [`Function::blocks`]; block 0 is the entry.
//! - [`Temp`]: a value produced by an instruction, a block parameter or a function parameter.
//!   Before SSA construction each temp is defined once; after out-of-SSA a temp may be assigned
//!   several times (by [`Inst::Copy`]), so the IR itself does not require single assignment.
//! - [`Var`]: a mutable variable (a stack slot), read and written any number of times; a variable
//!   never written reads as 0.
//!
//! # Two ways to merge values
//! One IR holds both classic SSA [`Inst::Phi`]s and *block parameters* (Cranelift, MLIR, Swift
//! SIL): a block may declare [`BlockData::params`], and every edge into it then passes one
//! argument per parameter in its [`Target::args`]. Phis name their incoming values by
//! predecessor block, so the two edges of a duplicate edge (a branch with both targets equal)
//! must carry the same value; block arguments are per edge and may differ. A block may use
//! both; all its phis and parameters are assigned in parallel on entry.
//!
//! # Edges
//! The CFG is syntactic: every target of every terminator is an edge, unreachable blocks
//! included, duplicates kept. [`Function::successors`] lists a block's edges in terminator
//! order (branch: then, else; switch: the cases in order, then the default) and
//! [`Function::pred_edges`] lists the edges into each block ordered by (predecessor index, slot).
//! Both skip targets that are out of range, so analyses never index out of bounds on
//! unverified input.

/// A basic block: its index in [`Function::blocks`] (layout order). Block 0 is the entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Block(pub u32);

/// A temporary: a value defined by an instruction, a block parameter or a function parameter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Temp(pub u32);

/// A mutable variable (stack slot); reads of a variable never written give 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Var(pub u32);

impl Block {
    /// The block's index as a `usize`, for indexing [`Function::blocks`].
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl Temp {
    /// The temp's number as a `usize`.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl Var {
    /// The variable's number as a `usize`.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// An instruction operand: a temp or an immediate integer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Operand {
    /// The current value of a temp.
    Temp(Temp),
    /// A constant.
    Imm(i64),
}

impl Operand {
    /// The temp read by this operand, if any.
    pub fn temp(self) -> Option<Temp> {
        match self {
            Operand::Temp(t) => Some(t),
            Operand::Imm(_) => None,
        }
    }
}

impl From<Temp> for Operand {
    fn from(t: Temp) -> Self {
        Operand::Temp(t)
    }
}

impl From<i64> for Operand {
    fn from(v: i64) -> Self {
        Operand::Imm(v)
    }
}

/// A binary operator on `i64`. Every operator is total: see [`BinOp::eval`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinOp {
    /// Wrapping addition.
    Add,
    /// Wrapping subtraction.
    Sub,
    /// Wrapping multiplication.
    Mul,
    /// Signed division truncating toward zero; `x / 0 == 0`, `MIN / -1 == MIN`.
    Div,
    /// Signed remainder with the sign of the dividend; `x % 0 == 0`, `MIN % -1 == 0`.
    Rem,
    /// Bitwise and.
    And,
    /// Bitwise or.
    Or,
    /// Bitwise exclusive or.
    Xor,
    /// Shift left by `b & 63`.
    Shl,
    /// Arithmetic shift right by `b & 63`.
    Shr,
    /// 1 if equal, else 0.
    Eq,
    /// 1 if not equal, else 0.
    Ne,
    /// 1 if `a < b` (signed), else 0.
    Lt,
    /// 1 if `a <= b` (signed), else 0.
    Le,
    /// 1 if `a > b` (signed), else 0.
    Gt,
    /// 1 if `a >= b` (signed), else 0.
    Ge,
}

impl BinOp {
    /// Every operator, in the order of the enum.
    pub const ALL: [BinOp; 16] = [
        BinOp::Add,
        BinOp::Sub,
        BinOp::Mul,
        BinOp::Div,
        BinOp::Rem,
        BinOp::And,
        BinOp::Or,
        BinOp::Xor,
        BinOp::Shl,
        BinOp::Shr,
        BinOp::Eq,
        BinOp::Ne,
        BinOp::Lt,
        BinOp::Le,
        BinOp::Gt,
        BinOp::Ge,
    ];

    /// Applies the operator. Total and deterministic: no overflow panics, no division trap.
    pub fn eval(self, a: i64, b: i64) -> i64 {
        match self {
            BinOp::Add => a.wrapping_add(b),
            BinOp::Sub => a.wrapping_sub(b),
            BinOp::Mul => a.wrapping_mul(b),
            BinOp::Div if b == 0 => 0,
            BinOp::Div => a.wrapping_div(b),
            BinOp::Rem if b == 0 => 0,
            BinOp::Rem => a.wrapping_rem(b),
            BinOp::And => a & b,
            BinOp::Or => a | b,
            BinOp::Xor => a ^ b,
            BinOp::Shl => a << (b & 63),
            BinOp::Shr => a >> (b & 63),
            BinOp::Eq => i64::from(a == b),
            BinOp::Ne => i64::from(a != b),
            BinOp::Lt => i64::from(a < b),
            BinOp::Le => i64::from(a <= b),
            BinOp::Gt => i64::from(a > b),
            BinOp::Ge => i64::from(a >= b),
        }
    }

    /// The operator's mnemonic in the text form (`add`, `lt`, ...).
    pub fn name(self) -> &'static str {
        match self {
            BinOp::Add => "add",
            BinOp::Sub => "sub",
            BinOp::Mul => "mul",
            BinOp::Div => "div",
            BinOp::Rem => "rem",
            BinOp::And => "and",
            BinOp::Or => "or",
            BinOp::Xor => "xor",
            BinOp::Shl => "shl",
            BinOp::Shr => "shr",
            BinOp::Eq => "eq",
            BinOp::Ne => "ne",
            BinOp::Lt => "lt",
            BinOp::Le => "le",
            BinOp::Gt => "gt",
            BinOp::Ge => "ge",
        }
    }

    /// The operator with the given mnemonic, if any.
    pub fn from_name(name: &str) -> Option<BinOp> {
        BinOp::ALL.into_iter().find(|op| op.name() == name)
    }
}

/// A non-terminator instruction.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Inst {
    /// `dst = const value`.
    Const {
        /// The defined temp.
        dst: Temp,
        /// The constant.
        value: i64,
    },
    /// `dst = op a, b`.
    Binary {
        /// The operator.
        op: BinOp,
        /// The defined temp.
        dst: Temp,
        /// Left operand.
        a: Operand,
        /// Right operand.
        b: Operand,
    },
    /// `dst = read var`: the variable's current value (0 if never written).
    Read {
        /// The defined temp.
        dst: Temp,
        /// The variable read.
        var: Var,
    },
    /// `write var, src`.
    Write {
        /// The variable written.
        var: Var,
        /// The value stored.
        src: Operand,
    },
    /// `dst = copy src`: after out-of-SSA a temp may be the destination of several copies.
    Copy {
        /// The assigned temp.
        dst: Temp,
        /// The value copied.
        src: Operand,
    },
    /// `dst = phi [b: v], ...`: one argument per predecessor edge (a predecessor that reaches
    /// this block by two edges appears twice, with equal values). Phis come first in a block.
    Phi {
        /// The defined temp.
        dst: Temp,
        /// `(predecessor, value on the edge from it)`, in any order.
        args: Vec<(Block, Operand)>,
    },
    /// `print src`: appends the value to the observable trace (and consumes one unit of fuel).
    Print {
        /// The value printed.
        src: Operand,
    },
}

impl Inst {
    /// The temp this instruction assigns, if any.
    pub fn dst(&self) -> Option<Temp> {
        match self {
            Inst::Const { dst, .. }
            | Inst::Binary { dst, .. }
            | Inst::Read { dst, .. }
            | Inst::Copy { dst, .. }
            | Inst::Phi { dst, .. } => Some(*dst),
            Inst::Write { .. } | Inst::Print { .. } => None,
        }
    }

    /// The operands this instruction reads, in order (a phi's arguments included).
    pub fn operands(&self) -> Vec<Operand> {
        match self {
            Inst::Const { .. } | Inst::Read { .. } => Vec::new(),
            Inst::Binary { a, b, .. } => vec![*a, *b],
            Inst::Write { src, .. } | Inst::Copy { src, .. } | Inst::Print { src } => vec![*src],
            Inst::Phi { args, .. } => args.iter().map(|&(_, v)| v).collect(),
        }
    }

    /// Mutable access to the operands, in the order of [`Inst::operands`] (for rewriting uses).
    pub fn operands_mut(&mut self) -> Vec<&mut Operand> {
        match self {
            Inst::Const { .. } | Inst::Read { .. } => Vec::new(),
            Inst::Binary { a, b, .. } => vec![a, b],
            Inst::Write { src, .. } | Inst::Copy { src, .. } | Inst::Print { src } => vec![src],
            Inst::Phi { args, .. } => args.iter_mut().map(|(_, v)| v).collect(),
        }
    }

    /// True for [`Inst::Phi`].
    pub fn is_phi(&self) -> bool {
        matches!(self, Inst::Phi { .. })
    }
}

/// A branch target: the block and the arguments for its [`BlockData::params`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Target {
    /// The destination block.
    pub block: Block,
    /// One argument per parameter of `block` (empty for a block without parameters).
    pub args: Vec<Operand>,
}

impl Target {
    /// A target without block arguments.
    pub fn new(block: Block) -> Self {
        Target {
            block,
            args: Vec::new(),
        }
    }
}

/// A block terminator.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Term {
    /// Unconditional jump.
    Jump(Target),
    /// Goes to `then_to` if `cond != 0`, else to `else_to`; both may name the same block (two
    /// edges to one successor).
    Branch {
        /// The condition.
        cond: Operand,
        /// Target when the condition is non-zero.
        then_to: Target,
        /// Target when the condition is zero.
        else_to: Target,
    },
    /// Goes to the first case whose value equals `value`, else to `default`. Several cases may
    /// name the same block; a case value repeated is allowed and only its first case is taken.
    Switch {
        /// The scrutinee.
        value: Operand,
        /// `(case value, target)` in order.
        cases: Vec<(i64, Target)>,
        /// Target when no case matches.
        default: Target,
    },
    /// Returns from the function.
    Return(Operand),
}

impl Term {
    /// The targets in edge order: branch then/else, switch cases then default.
    pub fn targets(&self) -> Vec<&Target> {
        match self {
            Term::Jump(t) => vec![t],
            Term::Branch {
                then_to, else_to, ..
            } => vec![then_to, else_to],
            Term::Switch { cases, default, .. } => cases
                .iter()
                .map(|(_, t)| t)
                .chain(std::iter::once(default))
                .collect(),
            Term::Return(_) => Vec::new(),
        }
    }

    /// Target `slot` in the order of [`Term::targets`], without collecting them all.
    pub fn target(&self, slot: usize) -> Option<&Target> {
        match self {
            Term::Jump(t) => (slot == 0).then_some(t),
            Term::Branch {
                then_to, else_to, ..
            } => [then_to, else_to].get(slot).copied(),
            Term::Switch { cases, default, .. } => match cases.get(slot) {
                Some((_, t)) => Some(t),
                None => (slot == cases.len()).then_some(default),
            },
            Term::Return(_) => None,
        }
    }

    /// Target `slot`, mutable, in the order of [`Term::targets`], without collecting them all.
    pub fn target_mut(&mut self, slot: usize) -> Option<&mut Target> {
        match self {
            Term::Jump(t) => (slot == 0).then_some(t),
            Term::Branch {
                then_to, else_to, ..
            } => match slot {
                0 => Some(then_to),
                1 => Some(else_to),
                _ => None,
            },
            Term::Switch { cases, default, .. } => {
                let n = cases.len();
                match cases.get_mut(slot) {
                    Some((_, t)) => Some(t),
                    None => (slot == n).then_some(default),
                }
            }
            Term::Return(_) => None,
        }
    }

    /// Mutable access to the targets, in the same order as [`Term::targets`].
    pub fn targets_mut(&mut self) -> Vec<&mut Target> {
        match self {
            Term::Jump(t) => vec![t],
            Term::Branch {
                then_to, else_to, ..
            } => vec![then_to, else_to],
            Term::Switch { cases, default, .. } => cases
                .iter_mut()
                .map(|(_, t)| t)
                .chain(std::iter::once(default))
                .collect(),
            Term::Return(_) => Vec::new(),
        }
    }

    /// The operands read by the terminator itself and by its block arguments, in order.
    pub fn operands(&self) -> Vec<Operand> {
        let own = match self {
            Term::Jump(_) => None,
            Term::Branch { cond, .. } => Some(*cond),
            Term::Switch { value, .. } => Some(*value),
            Term::Return(v) => Some(*v),
        };
        let args = self
            .targets()
            .into_iter()
            .flat_map(|t| t.args.iter().copied());
        own.into_iter().chain(args).collect()
    }

    /// Mutable access to the operands, in the order of [`Term::operands`] (for rewriting uses).
    pub fn operands_mut(&mut self) -> Vec<&mut Operand> {
        fn args(t: &mut Target) -> std::slice::IterMut<'_, Operand> {
            t.args.iter_mut()
        }
        match self {
            Term::Jump(t) => args(t).collect(),
            Term::Branch {
                cond,
                then_to,
                else_to,
            } => std::iter::once(cond)
                .chain(args(then_to))
                .chain(args(else_to))
                .collect(),
            Term::Switch {
                value,
                cases,
                default,
            } => std::iter::once(value)
                .chain(cases.iter_mut().flat_map(|(_, t)| t.args.iter_mut()))
                .chain(args(default))
                .collect(),
            Term::Return(v) => vec![v],
        }
    }
}

/// One basic block.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct BlockData {
    /// Block parameters, assigned from the [`Target::args`] of the edge taken.
    pub params: Vec<Temp>,
    /// Instructions; phis, if any, come first.
    pub insts: Vec<Inst>,
    /// The terminator; `None` only in malformed IR (the verifier reports it).
    pub term: Option<Term>,
    /// A synthetic block consumes no fuel on entry (see [`crate::interp`]): blocks made by
    /// splitting edges, and glue blocks a front end emits that stand for no counted event.
    pub synthetic: bool,
}

/// A function: parameters and blocks in layout order, block 0 being the entry.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Function {
    /// Function parameters, defined before the entry block runs (from `run`'s arguments).
    pub params: Vec<Temp>,
    /// The blocks; `Block(i)` is `blocks[i]`.
    pub blocks: Vec<BlockData>,
}

impl Function {
    /// The entry block, `Block(0)`.
    pub const ENTRY: Block = Block(0);

    /// The block's data, or `None` if the index is out of range.
    pub fn block(&self, b: Block) -> Option<&BlockData> {
        self.blocks.get(b.index())
    }

    /// All blocks, `Block(0)` to `Block(n - 1)`.
    pub fn block_ids(&self) -> impl Iterator<Item = Block> {
        (0..self.blocks.len() as u32).map(Block)
    }

    /// The successor edges of `b` in edge order, duplicates kept, out-of-range targets skipped.
    pub fn successors(&self, b: Block) -> Vec<Block> {
        let Some(term) = self.block(b).and_then(|d| d.term.as_ref()) else {
            return Vec::new();
        };
        let n = self.blocks.len();
        term.targets()
            .into_iter()
            .map(|t| t.block)
            .filter(|s| s.index() < n)
            .collect()
    }

    /// For every block, the source of each edge into it, ordered by (predecessor, slot).
    pub fn pred_edges(&self) -> Vec<Vec<Block>> {
        let mut preds = vec![Vec::new(); self.blocks.len()];
        for b in self.block_ids() {
            for s in self.successors(b) {
                preds[s.index()].push(b);
            }
        }
        preds
    }

    /// One more than the largest temp number defined or used anywhere (0 if none): the next
    /// fresh temp. Temps need not be dense.
    pub fn temp_count(&self) -> u32 {
        let mut max = None;
        let mut see = |t: Temp| max = max.max(Some(t.0));
        self.params.iter().for_each(|&t| see(t));
        for data in &self.blocks {
            data.params.iter().for_each(|&t| see(t));
            for inst in &data.insts {
                inst.dst().into_iter().for_each(&mut see);
                inst.operands()
                    .iter()
                    .filter_map(|o| o.temp())
                    .for_each(&mut see);
            }
            let term_ops = data.term.as_ref().map(Term::operands).unwrap_or_default();
            term_ops.iter().filter_map(|o| o.temp()).for_each(&mut see);
        }
        max.map_or(0, |m: u32| m.saturating_add(1))
    }

    /// One more than the largest variable number read or written (0 if none).
    pub fn var_count(&self) -> u32 {
        let vars = self
            .blocks
            .iter()
            .flat_map(|d| &d.insts)
            .filter_map(|i| match i {
                Inst::Read { var, .. } | Inst::Write { var, .. } => Some(var.0),
                _ => None,
            });
        vars.max().map_or(0, |m| m.saturating_add(1))
    }
}
