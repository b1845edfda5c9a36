//! Random programs already in strict SSA form, for testing out-of-SSA on its own.
//!
//! Values cross blocks through *merges*: phis ([`Style::Phis`]), block parameters
//! ([`Style::BlockParams`]) or a per-block mix ([`Style::Mixed`]). A merge's incoming value on
//! an edge from `p` is chosen among the temps available at the end of `p` (defined in `p` or in
//! a block dominating it; dominators come from [`crate::analysis`], i.e. from the `ssa`
//! library, whose own tests check its dominators against two independent algorithms), the merges of the same block when `p` is a back edge (so that parallel copies form
//! rotations), or immediates. Two literature patterns are planted on purpose:
//! - the **swap problem** (Briggs et al. 1998): two merges of a loop header whose back-edge
//!   values are each other (`a, b = b, a`);
//! - the **lost-copy problem** (Briggs et al. 1998; Boissinot et al. 2009): a merge `x` whose
//!   back-edge value is `x1 = x + 1`, defined in the header, with `x` printed in blocks
//!   dominated by the header, after the loop included (its latch's back edge is usually
//!   critical: the guard branches back or out).
//!
//! Invariants: the output passes [`crate::verify_ssa`]; the only variables are the loop
//! counters of the shape (written only by their guards, so runs terminate as for
//! [`super::vars`]); the entry block has no merges; phis give equal values on the duplicate
//! edges of one predecessor, while block arguments may differ per edge.

use std::collections::BTreeMap;

use arbitrary::{Result, Unstructured};

use super::{binop, guard, immediate, operand, shape, Config, ShapeTerm, TempGen};
use crate::analysis::Dominators;
use crate::ir::{Block, BlockData, Function, Inst, Operand, Target, Temp, Term};

/// How merges are expressed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// Phis only.
    Phis,
    /// Block parameters only.
    BlockParams,
    /// Each block chooses.
    Mixed,
}

/// Generates a strict-SSA function (see the module doc).
pub fn function(u: &mut Unstructured, cfg: &Config, style: Style) -> Result<Function> {
    let shape = shape(u, cfg, 0)?;
    let mut temps = TempGen::default();
    let params: Vec<Temp> = (0..u.int_in_range(0..=cfg.max_params)?)
        .map(|_| temps.fresh())
        .collect();
    let skeleton = skeleton(&shape, params);
    let n = skeleton.blocks.len();
    let mut g = Gen {
        dom: Dominators::compute(&skeleton),
        f: skeleton,
        temps,
        merges: vec![Vec::new(); n],
        defs: vec![Vec::new(); n],
        patterns: vec![Pattern::default(); n],
    };
    let preds = g.f.pred_edges();
    let mut order: Vec<Block> = g.dom.reverse_postorder().collect();
    order.extend(g.f.block_ids().filter(|&b| !g.dom.is_reachable(b)));
    for b in order {
        let has_preds = !preds[b.index()].is_empty();
        g.block(u, cfg, b, &shape.terms[b.index()], has_preds)?;
    }
    g.connect(u, style)?;
    Ok(g.f)
}

/// The shape as a function with empty blocks and placeholder conditions, for dominators.
fn skeleton(shape: &super::Shape, params: Vec<Temp>) -> Function {
    let t = Target::new;
    let blocks = shape.terms.iter().map(|st| {
        let term = match st {
            ShapeTerm::Return => Term::Return(Operand::Imm(0)),
            ShapeTerm::Jump(b) => Term::Jump(t(*b)),
            ShapeTerm::Branch(a, b) => Term::Branch {
                cond: Operand::Imm(0),
                then_to: t(*a),
                else_to: t(*b),
            },
            ShapeTerm::Guarded { back, exit, .. } => Term::Branch {
                cond: Operand::Imm(0),
                then_to: t(*back),
                else_to: t(*exit),
            },
            ShapeTerm::Switch(cases, d) => Term::Switch {
                value: Operand::Imm(0),
                cases: cases.iter().map(|&(k, b)| (k, t(b))).collect(),
                default: t(*d),
            },
        };
        BlockData {
            term: Some(term),
            ..BlockData::default()
        }
    });
    Function {
        params,
        blocks: blocks.collect(),
    }
}

/// Which literature pattern a block's merges carry.
#[derive(Clone, Copy, Debug, Default)]
struct Pattern {
    /// Merges 0 and 1 swap on back edges.
    swap: bool,
    /// The last merge increments on back edges: `(x, x1)`.
    lost_copy: Option<(Temp, Temp)>,
}

struct Gen {
    f: Function,
    dom: Dominators,
    temps: TempGen,
    /// Per block: the temps merged on entry (phis or parameters).
    merges: Vec<Vec<Temp>>,
    /// Per block: every temp it defines (merges first).
    defs: Vec<Vec<Temp>>,
    patterns: Vec<Pattern>,
}

impl Gen {
    /// Temps available at the start of `b`: parameters and definitions of strict dominators.
    fn avail_start(&self, b: Block) -> Vec<Temp> {
        let mut avail = self.f.params.clone();
        let mut cur = self.dom.idom(b);
        while let Some(d) = cur {
            avail.extend(&self.defs[d.index()]);
            cur = self.dom.idom(d);
        }
        avail
    }

    /// Merges available at the start of `b` (its own and its dominators'), for prints.
    fn merges_in_scope(&self, b: Block) -> Vec<Temp> {
        let mut found = self.merges[b.index()].clone();
        let mut cur = self.dom.idom(b);
        while let Some(d) = cur {
            found.extend(&self.merges[d.index()]);
            cur = self.dom.idom(d);
        }
        found
    }

    /// Has a predecessor dominated by `b` (a back edge into `b`).
    fn has_back_edge(&self, b: Block) -> bool {
        let preds = self
            .f
            .block_ids()
            .filter(|&p| self.f.successors(p).contains(&b));
        preds.into_iter().any(|p| self.dom.dominates(b, p))
    }

    fn block(
        &mut self,
        u: &mut Unstructured,
        cfg: &Config,
        b: Block,
        st: &ShapeTerm,
        has_preds: bool,
    ) -> Result<()> {
        let mut insts = Vec::new();
        let mut avail = self.avail_start(b);
        if b != Function::ENTRY && has_preds {
            self.make_merges(u, b)?;
        }
        avail.extend(&self.merges[b.index()]);
        if let Some((x, x1)) = self.patterns[b.index()].lost_copy {
            insts.push(Inst::Binary {
                op: crate::BinOp::Add,
                dst: x1,
                a: x.into(),
                b: 1.into(),
            });
            avail.push(x1);
        }
        let printable = self.merges_in_scope(b);
        for &m in &self.merges[b.index()] {
            if u.ratio(1, 2)? {
                insts.push(Inst::Print { src: m.into() });
            }
        }
        self.body(u, cfg, &mut insts, &mut avail, &printable)?;
        let term = self.term(u, st, &mut insts, &avail)?;
        let defs = insts.iter().filter_map(Inst::dst);
        let all: Vec<Temp> = self.merges[b.index()].iter().copied().chain(defs).collect();
        self.defs[b.index()] = all;
        let data = &mut self.f.blocks[b.index()];
        data.insts = insts;
        data.term = Some(term);
        Ok(())
    }

    fn make_merges(&mut self, u: &mut Unstructured, b: Block) -> Result<()> {
        // Loop headers always merge something: that is where the interesting copies are.
        let back = self.has_back_edge(b);
        let m = u.int_in_range(usize::from(back)..=3)?;
        let merges: Vec<Temp> = (0..m).map(|_| self.temps.fresh()).collect();
        let p = &mut self.patterns[b.index()];
        p.swap = back && m >= 2 && u.ratio(2, 3)?;
        if back && m >= 1 && u.ratio(1, 2)? {
            p.lost_copy = Some((merges[m - 1], self.temps.fresh()));
        }
        self.merges[b.index()] = merges;
        Ok(())
    }

    fn body(
        &mut self,
        u: &mut Unstructured,
        cfg: &Config,
        insts: &mut Vec<Inst>,
        avail: &mut Vec<Temp>,
        printable: &[Temp],
    ) -> Result<()> {
        for _ in 0..u.int_in_range(0..=cfg.max_insts)? {
            let inst = match u.int_in_range(0..=5)? {
                0..=2 => {
                    let (op, a, b) = (binop(u)?, operand(u, avail)?, operand(u, avail)?);
                    Inst::Binary {
                        op,
                        dst: self.temps.fresh(),
                        a,
                        b,
                    }
                }
                3 if !printable.is_empty() && u.ratio(1, 2)? => Inst::Print {
                    src: (*u.choose(printable)?).into(),
                },
                3 => Inst::Print {
                    src: operand(u, avail)?,
                },
                4 => Inst::Const {
                    dst: self.temps.fresh(),
                    value: immediate(u)?,
                },
                _ => Inst::Copy {
                    dst: self.temps.fresh(),
                    src: operand(u, avail)?,
                },
            };
            avail.extend(inst.dst());
            insts.push(inst);
        }
        Ok(())
    }

    fn term(
        &mut self,
        u: &mut Unstructured,
        st: &ShapeTerm,
        insts: &mut Vec<Inst>,
        avail: &[Temp],
    ) -> Result<Term> {
        let t = Target::new;
        Ok(match st {
            ShapeTerm::Return => Term::Return(operand(u, avail)?),
            ShapeTerm::Jump(b) => Term::Jump(t(*b)),
            ShapeTerm::Branch(a, b) => Term::Branch {
                cond: operand(u, avail)?,
                then_to: t(*a),
                else_to: t(*b),
            },
            ShapeTerm::Switch(cases, d) => Term::Switch {
                value: operand(u, avail)?,
                cases: cases.iter().map(|&(k, b)| (k, t(b))).collect(),
                default: t(*d),
            },
            ShapeTerm::Guarded {
                counter,
                limit,
                back,
                exit,
            } => {
                let cond = guard(insts, &mut self.temps, *counter, *limit);
                Term::Branch {
                    cond: cond.into(),
                    then_to: t(*back),
                    else_to: t(*exit),
                }
            }
        })
    }

    /// The value merge `i` of `b` receives on an edge from `p`.
    fn incoming(&self, u: &mut Unstructured, b: Block, i: usize, p: Block) -> Result<Operand> {
        let merges = &self.merges[b.index()];
        let pattern = self.patterns[b.index()];
        let back = self.dom.dominates(b, p);
        if back && pattern.swap && i < 2 {
            return Ok(merges[1 - i].into());
        }
        match pattern.lost_copy {
            Some((_, x1)) if back && i == merges.len() - 1 => return Ok(x1.into()),
            _ => {}
        }
        if back && u.ratio(1, 3)? {
            return Ok((*u.choose(merges)?).into());
        }
        let mut end = if self.dom.is_reachable(p) {
            self.avail_start(p)
        } else {
            self.f.params.clone()
        };
        end.extend(&self.defs[p.index()]);
        operand(u, &end)
    }

    /// Chooses every edge's incoming values and writes them as phis or block arguments.
    fn connect(&mut self, u: &mut Unstructured, style: Style) -> Result<()> {
        let n = self.f.blocks.len();
        let as_params: Vec<bool> = (0..n)
            .map(|_| match style {
                Style::Phis => Ok(false),
                Style::BlockParams => Ok(true),
                Style::Mixed => u.ratio(1, 2),
            })
            .collect::<Result<_>>()?;
        // Phi arguments: one value per (block, predecessor), repeated for duplicate edges.
        let mut per_pred: BTreeMap<(Block, Block), Vec<Operand>> = BTreeMap::new();
        let mut phi_args: Vec<Vec<Vec<(Block, Operand)>>> = (0..n)
            .map(|b| vec![Vec::new(); self.merges[b].len()])
            .collect();
        for p in self.f.block_ids() {
            for (slot, b) in self.f.successors(p).into_iter().enumerate() {
                let fresh = as_params[b.index()] || !per_pred.contains_key(&(b, p));
                if fresh {
                    let vals = (0..self.merges[b.index()].len())
                        .map(|i| self.incoming(u, b, i, p))
                        .collect::<Result<Vec<_>>>()?;
                    per_pred.insert((b, p), vals);
                }
                let vals = per_pred[&(b, p)].clone();
                if as_params[b.index()] {
                    let term = self.f.blocks[p.index()].term.as_mut();
                    if let Some(target) = term.and_then(|t| t.targets_mut().into_iter().nth(slot)) {
                        target.args = vals;
                    }
                } else {
                    for (i, v) in vals.into_iter().enumerate() {
                        phi_args[b.index()][i].push((p, v));
                    }
                }
            }
        }
        for (b, args) in phi_args.into_iter().enumerate() {
            let merges = std::mem::take(&mut self.merges[b]);
            let data = &mut self.f.blocks[b];
            if as_params[b] {
                data.params = merges;
                continue;
            }
            let phis = merges
                .into_iter()
                .zip(args)
                .map(|(dst, args)| Inst::Phi { dst, args });
            data.insts.splice(0..0, phis);
        }
        Ok(())
    }
}
