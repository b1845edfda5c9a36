//! The text form of toy-ir: `Display` for functions and their parts.
//!
//! The output is what [`crate::parse`] reads, and `parse(&f.to_string()) == Ok(f)` for every
//! function whose blocks all have terminators or not (a block without a terminator prints
//! without one and parses back so). The format, one item per line:
//!
//! ```text
//! fn(t0, t1)                       ; only when the function has parameters
//! b0:
//!   t2 = const 7
//!   t3 = add t0, -1                ; add sub mul div rem and or xor shl shr eq ne lt le gt ge
//!   t4 = read v0
//!   write v0, t3
//!   t5 = copy t4
//!   print t5
//!   br t3, b1(t2), b2
//! b1(t6) synthetic:                ; block parameters; `synthetic` consumes no fuel
//!   t7 = phi [b0: t6], [b2: 3]
//!   switch t7, [1: b2, -5: b1(t7)], default b2
//! b2:
//!   jump b1(0)
//! ```
//!
//! `ret v` returns. Output is deterministic: it follows the data structure's order exactly.

use std::fmt::{self, Display, Formatter};

use crate::ir::{Block, BlockData, Function, Inst, Operand, Target, Temp, Term, Var};

impl Display for Block {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(f, "b{}", self.0)
    }
}

impl Display for Temp {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(f, "t{}", self.0)
    }
}

impl Display for Var {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(f, "v{}", self.0)
    }
}

impl Display for Operand {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            Operand::Temp(t) => t.fmt(f),
            Operand::Imm(v) => v.fmt(f),
        }
    }
}

/// Writes `items` separated by `", "`.
fn comma_list<T: Display>(f: &mut Formatter<'_>, items: &[T]) -> fmt::Result {
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            f.write_str(", ")?;
        }
        item.fmt(f)?;
    }
    Ok(())
}

impl Display for Target {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        self.block.fmt(f)?;
        if !self.args.is_empty() {
            f.write_str("(")?;
            comma_list(f, &self.args)?;
            f.write_str(")")?;
        }
        Ok(())
    }
}

impl Display for Inst {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            Inst::Const { dst, value } => write!(f, "{dst} = const {value}"),
            Inst::Binary { op, dst, a, b } => write!(f, "{dst} = {} {a}, {b}", op.name()),
            Inst::Read { dst, var } => write!(f, "{dst} = read {var}"),
            Inst::Write { var, src } => write!(f, "write {var}, {src}"),
            Inst::Copy { dst, src } => write!(f, "{dst} = copy {src}"),
            Inst::Print { src } => write!(f, "print {src}"),
            Inst::Phi { dst, args } => {
                write!(f, "{dst} = phi")?;
                for (i, (b, v)) in args.iter().enumerate() {
                    let sep = if i == 0 { " " } else { ", " };
                    write!(f, "{sep}[{b}: {v}]")?;
                }
                Ok(())
            }
        }
    }
}

impl Display for Term {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            Term::Jump(t) => write!(f, "jump {t}"),
            Term::Branch {
                cond,
                then_to,
                else_to,
            } => write!(f, "br {cond}, {then_to}, {else_to}"),
            Term::Return(v) => write!(f, "ret {v}"),
            Term::Switch {
                value,
                cases,
                default,
            } => {
                write!(f, "switch {value}, [")?;
                for (i, (k, t)) in cases.iter().enumerate() {
                    let sep = if i == 0 { "" } else { ", " };
                    write!(f, "{sep}{k}: {t}")?;
                }
                write!(f, "], default {default}")
            }
        }
    }
}

/// Writes one block: its header line, instructions and terminator.
fn write_block(f: &mut Formatter<'_>, b: Block, data: &BlockData) -> fmt::Result {
    b.fmt(f)?;
    if !data.params.is_empty() {
        f.write_str("(")?;
        comma_list(f, &data.params)?;
        f.write_str(")")?;
    }
    if data.synthetic {
        f.write_str(" synthetic")?;
    }
    f.write_str(":\n")?;
    for inst in &data.insts {
        writeln!(f, "  {inst}")?;
    }
    if let Some(term) = &data.term {
        writeln!(f, "  {term}")?;
    }
    Ok(())
}

impl Display for Function {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        if !self.params.is_empty() {
            f.write_str("fn(")?;
            comma_list(f, &self.params)?;
            f.write_str(")\n")?;
        }
        for (b, data) in self.block_ids().zip(&self.blocks) {
            write_block(f, b, data)?;
        }
        Ok(())
    }
}
