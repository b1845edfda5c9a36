//! Random call sequences, misuse included, on the function builder and on the `ssa` library's
//! on-the-fly builder it wraps: no call panics, and each call succeeds or fails exactly as a
//! small model of the documented rules says (unknown blocks and variables, code with no
//! current block, in a terminated block or in a block sealed without predecessors, edges into
//! the entry or a sealed block, sealing twice, finishing with blocks unterminated or unsealed).
//! A function that finishes passes `verify` (but for cycles of synthetic blocks, which random
//! calls make); the raw builder's phis have one operand per edge.

use std::collections::HashMap;

use arbitrary::{Result, Unstructured};
use ssa::construct::on_the_fly::{Builder, BuilderError, Sink};
use ssa::construct::Var as SVar;
use toy_ir::frontend::{FrontendError, FunctionBuilder};
use toy_ir::{verify, BinOp, Block, ErrorKind, Merges, Operand, Var};

/// What the front end has done to a block, as the model tracks it.
#[derive(Clone, Copy, Default)]
struct B {
    sealed: bool,
    terminated: bool,
    preds: usize,
}

/// The model of one function under construction.
#[derive(Default)]
struct Model {
    blocks: Vec<B>,
    vars: u32,
    cur: Option<Block>,
    /// Temps the builder returned for this function (operands for later calls).
    temps: Vec<Operand>,
}

impl Model {
    /// The error code must fail with, if any (the builder's checking order).
    fn open(&self) -> Option<FrontendError> {
        let Some(b) = self.cur else {
            return Some(FrontendError::NoCurrentBlock);
        };
        let s = self.blocks[b.index()];
        if s.terminated {
            return Some(FrontendError::Terminated(b));
        }
        (s.sealed && s.preds == 0 && b != Block(0))
            .then(|| FrontendError::Builder(BuilderError::Unreachable(b.into())))
    }

    fn var_error(&self, v: Var) -> Option<FrontendError> {
        self.open().or_else(|| {
            (v.0 >= self.vars)
                .then_some(FrontendError::Builder(BuilderError::UnknownVar(SVar(v.0))))
        })
    }

    fn edge_error(&self, targets: &[Block]) -> Option<FrontendError> {
        let from = self.cur.map(ssa::Block::from);
        self.open().or_else(|| {
            targets
                .iter()
                .find_map(|&t| match self.blocks.get(t.index()) {
                    None => Some(BuilderError::UnknownBlock(t.into()).into()),
                    Some(_) if t == Block(0) => {
                        Some(BuilderError::EdgeIntoEntry { from: from? }.into())
                    }
                    Some(s) if s.sealed => Some(
                        BuilderError::EdgeIntoSealed {
                            from: from?,
                            to: t.into(),
                        }
                        .into(),
                    ),
                    Some(_) => None,
                })
        })
    }

    fn finish_error(&self) -> Option<FrontendError> {
        if self.blocks.is_empty() {
            return Some(FrontendError::NoBlocks);
        }
        let pick = |f: fn(&B) -> bool| -> Vec<usize> {
            (self.blocks.iter().enumerate())
                .filter(|(_, s)| f(s))
                .map(|(b, _)| b)
                .collect()
        };
        let unterminated = pick(|s| !s.terminated);
        if !unterminated.is_empty() {
            return Some(FrontendError::Unterminated(
                unterminated.into_iter().map(|b| Block(b as u32)).collect(),
            ));
        }
        let unsealed = pick(|s| !s.sealed);
        (!unsealed.is_empty()).then(|| {
            let bs = unsealed.into_iter().map(ssa::Block::new).collect();
            FrontendError::Builder(BuilderError::Unsealed(bs))
        })
    }
}

/// A block number, sometimes one that does not exist.
fn block(u: &mut Unstructured, m: &Model) -> Result<Block> {
    Ok(Block(u.int_in_range(0..=m.blocks.len() as u32)?))
}

fn operand(u: &mut Unstructured, m: &Model) -> Result<Operand> {
    if m.temps.is_empty() || u.ratio(1, 3)? {
        return Ok(Operand::Imm(u.int_in_range(-2..=2)?));
    }
    Ok(*u.choose(&m.temps)?)
}

/// Compares a call's result with the model's verdict; on success runs `then`.
fn expect<T: std::fmt::Debug>(
    got: std::result::Result<T, FrontendError>,
    want: Option<FrontendError>,
) -> Option<T> {
    match (got, want) {
        (Ok(v), None) => Some(v),
        (Err(e), Some(w)) => {
            assert_eq!(e, w);
            assert!(!e.to_string().is_empty());
            None
        }
        (got, want) => panic!("got {got:?}, the model says {want:?}"),
    }
}

/// One random call on the function builder, checked against the model.
fn step(u: &mut Unstructured, fb: &mut FunctionBuilder, m: &mut Model) -> Result<()> {
    match u.int_in_range(0..=13)? {
        0 => {
            fb.declare_var();
            m.vars += 1;
        }
        1 | 2 => {
            let b = if u.arbitrary()? {
                fb.create_block()
            } else {
                fb.create_synthetic_block()
            };
            assert_eq!(b.index(), m.blocks.len());
            m.blocks.push(B::default());
        }
        3 => {
            let b = block(u, m)?;
            let want =
                (b.index() >= m.blocks.len()).then(|| BuilderError::UnknownBlock(b.into()).into());
            if expect(fb.switch_to_block(b), want).is_some() {
                m.cur = Some(b);
            }
        }
        4 => {
            let b = block(u, m)?;
            let want = match m.blocks.get(b.index()) {
                None => Some(BuilderError::UnknownBlock(b.into())),
                Some(s) if s.sealed => Some(BuilderError::AlreadySealed(b.into())),
                Some(_) => None,
            };
            if expect(fb.seal_block(b), want.map(Into::into)).is_some() {
                m.blocks[b.index()].sealed = true;
            }
        }
        5 => {
            let v = Var(u.int_in_range(0..=m.vars)?);
            let x = operand(u, m)?;
            expect(fb.def_var(v, x), m.var_error(v));
        }
        6 | 7 => {
            let v = Var(u.int_in_range(0..=m.vars)?);
            let want = m.var_error(v);
            if let Some(x) = expect(fb.use_var(v), want) {
                m.temps.push(x);
            }
        }
        8 => {
            let (a, b) = (operand(u, m)?, operand(u, m)?);
            let t = if u.arbitrary()? {
                fb.binary(BinOp::Add, a, b)
            } else {
                fb.iconst(7)
            };
            if let Some(t) = expect(t, m.open()) {
                m.temps.push(t.into());
            }
        }
        9 => {
            let x = operand(u, m)?;
            expect(fb.print(x), m.open());
        }
        10..=12 => terminate(u, fb, m)?,
        _ => finish(fb, m),
    }
    Ok(())
}

/// A random terminator: jump, branch, switch or return.
fn terminate(u: &mut Unstructured, fb: &mut FunctionBuilder, m: &mut Model) -> Result<()> {
    let x = operand(u, m)?;
    let targets: Vec<Block> = match u.int_in_range(0..=3)? {
        0 => vec![],
        1 => vec![block(u, m)?],
        2 => vec![block(u, m)?, block(u, m)?],
        _ => (0..u.int_in_range(1..=3)?)
            .map(|_| block(u, m))
            .collect::<Result<_>>()?,
    };
    let want = m.edge_error(&targets);
    let got = match targets[..] {
        [] => fb.ret(x),
        [t] => fb.jump(t),
        [t, e] => fb.branch(x, t, e),
        [.., d] => {
            let cases: Vec<(i64, Block)> = (targets[..targets.len() - 1].iter().enumerate())
                .map(|(k, &b)| (k as i64, b))
                .collect();
            fb.switch(x, &cases, d)
        }
    };
    if expect(got, want).is_some() {
        let from = m.cur.expect("checked by the model");
        m.blocks[from.index()].terminated = true;
        targets.iter().for_each(|t| m.blocks[t.index()].preds += 1);
    }
    Ok(())
}

fn finish(fb: &mut FunctionBuilder, m: &mut Model) {
    let want = m.finish_error();
    if let Some(f) = expect(fb.finish(), want) {
        // Random calls may loop through synthetic blocks only: the one rule left to the caller.
        if let Err(errs) = verify(&f) {
            let ok = errs.iter().all(|e| e.kind == ErrorKind::SyntheticCycle);
            assert!(ok, "{errs:?}\n{f}");
        }
        *m = Model::default();
    }
}

#[test]
fn random_calls_on_the_function_builder_follow_the_rules() {
    arbtest::arbtest(|u| {
        let merges = *u.choose(&[Merges::Phis, Merges::BlockParams])?;
        let mut fb = FunctionBuilder::new(merges);
        let mut m = Model::default();
        while !u.is_empty() {
            step(u, &mut fb, &mut m)?;
        }
        // Complete it properly: terminate and seal everything, then finish.
        for b in 0..m.blocks.len() {
            let b = Block(b as u32);
            if !m.blocks[b.index()].terminated {
                fb.switch_to_block(b).unwrap();
                m.cur = Some(b);
                // A block sealed without predecessors takes no code; its terminator is code.
                if m.open().is_none() {
                    fb.ret(Operand::Imm(0)).unwrap();
                    m.blocks[b.index()].terminated = true;
                }
            }
        }
        for b in 0..m.blocks.len() {
            if !m.blocks[b].sealed {
                fb.seal_block(Block(b as u32)).unwrap();
                m.blocks[b].sealed = true;
            }
        }
        finish(&mut fb, &mut m);
        Ok(())
    })
    .budget_ms(2_000);
}

/// A sink that checks what the raw builder asks: operands set once, per edge, on live phis.
#[derive(Default)]
struct Phis {
    next: u32,
    /// Live phis: block and operand count (`None` until set).
    live: HashMap<u32, (ssa::Block, Option<usize>)>,
}

impl Sink for Phis {
    type Value = u32;
    fn new_phi(&mut self, block: ssa::Block, _var: SVar) -> u32 {
        self.next += 1;
        self.live.insert(1000 + self.next, (block, None));
        1000 + self.next
    }
    fn set_phi_operands(&mut self, phi: u32, _block: ssa::Block, operands: &[u32]) {
        let p = self.live.get_mut(&phi).expect("operands for a live phi");
        assert!(p.1.is_none(), "operands set twice");
        p.1 = Some(operands.len());
    }
    fn replace_phi(&mut self, phi: u32, by: u32) {
        assert_ne!(phi, by);
        self.live.remove(&phi).expect("a live phi replaced");
    }
    fn undefined(&mut self, _var: SVar) -> u32 {
        0
    }
}

#[test]
fn random_calls_on_the_raw_builder_never_panic() {
    arbtest::arbtest(|u| {
        let (mut b, mut sink) = (Builder::<u32>::new(), Phis::default());
        let (mut sealed, mut preds, mut vars): (Vec<bool>, Vec<usize>, u32) = (vec![], vec![], 0);
        while !u.is_empty() {
            let n = sealed.len() as u32;
            let blk = ssa::Block(u.int_in_range(0..=n)?);
            let var = SVar(u.int_in_range(0..=vars)?);
            let known = blk.0 < n;
            let dead = known && sealed[blk.index()] && preds[blk.index()] == 0 && blk.0 != 0;
            let access_ok = var.0 < vars && known && !dead;
            match u.int_in_range(0..=6)? {
                0 => {
                    b.declare_var();
                    vars += 1;
                }
                1 => {
                    b.create_block();
                    sealed.push(false);
                    preds.push(0);
                }
                2 => {
                    let to = ssa::Block(u.int_in_range(0..=n)?);
                    let ok = known && to.0 < n && !sealed[to.index()] && to.0 != 0;
                    assert_eq!(b.add_edge(blk, to).is_ok(), ok);
                    if ok {
                        preds[to.index()] += 1;
                    }
                }
                3 => assert_eq!(
                    b.def_var(var, blk, u.int_in_range(1..=9)?).is_ok(),
                    access_ok
                ),
                4 => assert_eq!(b.use_var(var, blk, &mut sink).is_ok(), access_ok),
                5 => {
                    let ok = known && !sealed[blk.index()];
                    assert_eq!(b.seal_block(blk, &mut sink).is_ok(), ok);
                    if ok {
                        sealed[blk.index()] = true;
                    }
                }
                _ => {
                    let ok = sealed.iter().all(|&s| s);
                    assert_eq!(b.finish(&mut sink).is_ok(), ok);
                    if ok {
                        for &(blk, ops) in sink.live.values() {
                            assert_eq!(ops, Some(preds[blk.index()]), "one operand per edge");
                        }
                        (sealed, preds, vars, sink) = (vec![], vec![], 0, Phis::default());
                    }
                }
            }
        }
        Ok(())
    })
    .budget_ms(2_000);
}
