//! Pre-SSA random programs: values flow between blocks only through mutable variables.
//!
//! Invariants of the output: every temp is defined exactly once, in the block that uses it and
//! before its uses (function parameters excepted: usable everywhere), so all cross-block data
//! flow goes through [`Inst::Read`]/[`Inst::Write`] and SSA construction has the whole job. No
//! phis, no block parameters, no synthetic blocks. Variables are read before any write on many
//! paths (reading 0), written in loop bodies, and printed often so that a wrong reaching
//! definition shows in the trace. Loop counters (`Var(max data var + 1)`, ...) are written
//! only by their guards.

use arbitrary::{Result, Unstructured};

use super::{binop, guard, immediate, operand, shape, Config, ShapeTerm, TempGen};
use crate::ir::{Block, BlockData, Function, Inst, Operand, Target, Temp, Term, Var};

/// Generates a pre-SSA function (see the module doc).
pub fn function(u: &mut Unstructured, cfg: &Config) -> Result<Function> {
    let n_vars = u.int_in_range(1..=cfg.max_vars.max(1))?;
    let shape = shape(u, cfg, n_vars)?;
    let n_params = u.int_in_range(0..=cfg.max_params)?;
    let mut temps = TempGen::default();
    let params: Vec<Temp> = (0..n_params).map(|_| temps.fresh()).collect();
    let all_vars: Vec<Var> = (0..n_vars)
        .map(Var)
        .chain(shape.counters.iter().copied())
        .collect();
    let mut blocks = Vec::with_capacity(shape.terms.len());
    for st in &shape.terms {
        let avail = params.clone();
        let mut b = BlockGen {
            u: &mut *u,
            temps: &mut temps,
            n_vars,
            avail,
            insts: vec![],
        };
        b.body(cfg, &all_vars)?;
        let term = b.term(st)?;
        blocks.push(BlockData {
            params: vec![],
            insts: b.insts,
            term: Some(term),
            synthetic: false,
        });
    }
    Ok(Function { params, blocks })
}

struct BlockGen<'a, 'b> {
    u: &'a mut Unstructured<'b>,
    temps: &'a mut TempGen,
    /// Data variables are `Var(0)` to `Var(n_vars - 1)`.
    n_vars: u32,
    /// Temps usable here: function parameters and this block's definitions so far.
    avail: Vec<Temp>,
    insts: Vec<Inst>,
}

impl BlockGen<'_, '_> {
    fn def(&mut self, make: impl FnOnce(Temp) -> Inst) -> Temp {
        let t = self.temps.fresh();
        self.insts.push(make(t));
        self.avail.push(t);
        t
    }

    fn read(&mut self, var: Var) -> Temp {
        self.def(|dst| Inst::Read { dst, var })
    }

    fn operand(&mut self) -> Result<Operand> {
        operand(self.u, &self.avail)
    }

    /// Random instructions: reads, arithmetic, writes of data variables, prints.
    fn body(&mut self, cfg: &Config, all_vars: &[Var]) -> Result<()> {
        for _ in 0..self.u.int_in_range(0..=cfg.max_insts)? {
            match self.u.int_in_range(0..=9)? {
                0..=1 => {
                    let var = *self.u.choose(all_vars)?;
                    self.read(var);
                }
                2..=3 => {
                    let (op, a, b) = (binop(self.u)?, self.operand()?, self.operand()?);
                    self.def(|dst| Inst::Binary { op, dst, a, b });
                }
                4..=5 => {
                    let var = self.data_var()?;
                    let src = self.operand()?;
                    self.insts.push(Inst::Write { var, src });
                }
                6..=7 => {
                    let var = *self.u.choose(all_vars)?;
                    let t = self.read(var);
                    self.insts.push(Inst::Print { src: t.into() });
                }
                8 => {
                    let src = self.operand()?;
                    self.insts.push(Inst::Print { src });
                }
                _ if self.u.ratio(1, 2)? => {
                    let value = immediate(self.u)?;
                    self.def(|dst| Inst::Const { dst, value });
                }
                _ => {
                    let src = self.operand()?;
                    self.def(|dst| Inst::Copy { dst, src });
                }
            }
        }
        Ok(())
    }

    fn data_var(&mut self) -> Result<Var> {
        Ok(Var(self.u.int_in_range(0..=self.n_vars.max(1) - 1)?))
    }

    /// A data condition: an available temp, a fresh read, or rarely an immediate.
    fn condition(&mut self) -> Result<Operand> {
        if self.avail.is_empty() || self.u.ratio(1, 4)? {
            let var = self.data_var()?;
            return Ok(self.read(var).into());
        }
        self.operand()
    }

    fn term(&mut self, st: &ShapeTerm) -> Result<Term> {
        let t = Target::new;
        Ok(match st {
            ShapeTerm::Return => Term::Return(self.operand()?),
            ShapeTerm::Jump(b) => Term::Jump(t(*b)),
            ShapeTerm::Branch(a, b) => Term::Branch {
                cond: self.condition()?,
                then_to: t(*a),
                else_to: t(*b),
            },
            ShapeTerm::Switch(cases, default) => Term::Switch {
                value: self.condition()?,
                cases: cases
                    .iter()
                    .map(|&(k, b): &(i64, Block)| (k, t(b)))
                    .collect(),
                default: t(*default),
            },
            ShapeTerm::Guarded {
                counter,
                limit,
                back,
                exit,
            } => {
                let cond = guard(&mut self.insts, self.temps, *counter, *limit);
                Term::Branch {
                    cond: cond.into(),
                    then_to: t(*back),
                    else_to: t(*exit),
                }
            }
        })
    }
}
