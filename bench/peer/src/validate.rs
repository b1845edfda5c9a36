//! Well-formedness of builder scripts, checked without any IR.
//!
//! A well-formed script: refers only to blocks, variables and values that exist; declares
//! variables in order; appends instructions only to an open current block; ends every block with
//! exactly one terminator; enters every block once; seals every block exactly once, never branches
//! to a sealed block or to the entry block; uses truth values only as branch conditions; returns
//! at least once; and has the counts its header claims.
//!
//! It also seals **as early as a real front end would**: between the last branch to a block (or
//! its creation, if nothing branches to it) and its seal there is no op other than
//! `CreateBlock`, `SwitchToBlock` or `SealBlock`. So loop headers are sealed right after their
//! back edge, and the SSA builder sees incomplete phis in loops just as it would in a compiler.

use std::fmt;

use crate::script::{BlockId, Op, Script, ValueId, VarId};

/// Why a script is not well-formed, and at which op (`ops.len()` for end-of-script checks).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Invalid {
    /// Index of the offending op.
    pub op_index: usize,
    /// What is wrong.
    pub reason: String,
}

impl fmt::Display for Invalid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "op {}: {}", self.op_index, self.reason)
    }
}

impl std::error::Error for Invalid {}

/// Checks that `script` is well-formed (see the module doc).
pub fn validate(script: &Script) -> Result<(), Invalid> {
    let mut checker = Checker::default();
    for (i, op) in script.ops.iter().enumerate() {
        checker.at = i;
        checker.op(op).map_err(|reason| Invalid {
            op_index: i,
            reason,
        })?;
    }
    checker.at = script.ops.len();
    checker.finish(script).map_err(|reason| Invalid {
        op_index: script.ops.len(),
        reason,
    })
}

/// What the checker knows about one block.
#[derive(Clone, Debug)]
struct BlockInfo {
    created_at: usize,
    last_branch_to: Option<usize>,
    entered: bool,
    terminated: bool,
    sealed: bool,
}

/// The kind of a value: a 64-bit integer, or a truth value from a comparison.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Int,
    Cond,
}

#[derive(Debug, Default)]
struct Checker {
    at: usize,
    blocks: Vec<BlockInfo>,
    vars: u32,
    values: Vec<Kind>,
    current: Option<BlockId>,
    entry: Option<BlockId>,
    last_relevant: Option<usize>,
    returns: usize,
}

type Check = Result<(), String>;

impl Checker {
    fn op(&mut self, op: &Op) -> Check {
        if !matches!(
            op,
            Op::CreateBlock | Op::SwitchToBlock(_) | Op::SealBlock(_)
        ) {
            self.last_relevant = Some(self.at);
        }
        match op {
            Op::CreateBlock => self.create_block(),
            Op::SwitchToBlock(b) => self.switch_to(*b),
            Op::SealBlock(b) => self.seal(*b),
            Op::DeclareVar(v) => self.declare(*v),
            Op::DefVar(v, x) => self.open().and(self.var(*v)).and(self.kind(*x, Kind::Int)),
            _ if op.produces_value() => self.value_op(op),
            _ => self.terminator(op),
        }
    }

    fn create_block(&mut self) -> Check {
        let info = BlockInfo {
            created_at: self.at,
            last_branch_to: None,
            entered: false,
            terminated: false,
            sealed: false,
        };
        self.blocks.push(info);
        Ok(())
    }

    fn block(&mut self, b: BlockId) -> Result<&mut BlockInfo, String> {
        self.blocks
            .get_mut(b.0 as usize)
            .ok_or(format!("block {} used before created", b.0))
    }

    fn switch_to(&mut self, b: BlockId) -> Check {
        if let Some(cur) = self.current {
            if !self.blocks[cur.0 as usize].terminated {
                return Err(format!(
                    "switch to block {} while block {} is open",
                    b.0, cur.0
                ));
            }
        }
        let first = self.entry.is_none();
        let info = self.block(b)?;
        if info.entered {
            return Err(format!("block {} entered twice", b.0));
        }
        info.entered = true;
        if first && info.last_branch_to.is_some() {
            return Err(format!("entry block {} has a predecessor", b.0));
        }
        self.entry.get_or_insert(b);
        self.current = Some(b);
        Ok(())
    }

    fn seal(&mut self, b: BlockId) -> Check {
        let last_relevant = self.last_relevant;
        let info = self.block(b)?;
        if info.sealed {
            return Err(format!("block {} sealed twice", b.0));
        }
        info.sealed = true;
        let anchor = info.last_branch_to.unwrap_or(info.created_at);
        match last_relevant {
            Some(r) if r > anchor => {
                Err(format!("block {} sealed late (op {r} came between)", b.0))
            }
            _ => Ok(()),
        }
    }

    fn declare(&mut self, v: VarId) -> Check {
        if v.0 != self.vars {
            return Err(format!(
                "variable {} declared out of order (expected {})",
                v.0, self.vars
            ));
        }
        self.vars += 1;
        Ok(())
    }

    fn open(&self) -> Check {
        match self.current {
            Some(b) if !self.blocks[b.0 as usize].terminated => Ok(()),
            Some(b) => Err(format!("instruction after block {}'s terminator", b.0)),
            None => Err("instruction outside any block".to_string()),
        }
    }

    fn var(&self, v: VarId) -> Check {
        if v.0 < self.vars {
            Ok(())
        } else {
            Err(format!("variable {} used before declared", v.0))
        }
    }

    fn kind(&self, x: ValueId, want: Kind) -> Check {
        match self.values.get(x.0 as usize) {
            Some(k) if *k == want => Ok(()),
            Some(k) => Err(format!("value {} is {k:?}, expected {want:?}", x.0)),
            None => Err(format!("value {} used before produced", x.0)),
        }
    }

    fn value_op(&mut self, op: &Op) -> Check {
        self.open()?;
        let kind = match op {
            Op::UseVar(v) => self.var(*v).map(|_| Kind::Int),
            Op::Iconst(_) => Ok(Kind::Int),
            Op::Iadd(a, b) => self
                .kind(*a, Kind::Int)
                .and(self.kind(*b, Kind::Int))
                .map(|_| Kind::Int),
            Op::IcmpSlt(a, b) => self
                .kind(*a, Kind::Int)
                .and(self.kind(*b, Kind::Int))
                .map(|_| Kind::Cond),
            _ => unreachable!("not a value op: {op:?}"),
        }?;
        self.values.push(kind);
        Ok(())
    }

    fn terminator(&mut self, op: &Op) -> Check {
        self.open()?;
        match op {
            Op::Brif(c, _, _) => self.kind(*c, Kind::Cond)?,
            Op::Switch(sel, cases, _) => self.switch_cases(*sel, cases)?,
            Op::Return(v) => {
                self.kind(*v, Kind::Int)?;
                self.returns += 1;
            }
            _ => {}
        }
        for target in op.successors() {
            self.branch_to(target)?;
        }
        let cur = self.current.expect("open() checked a current block");
        self.blocks[cur.0 as usize].terminated = true;
        Ok(())
    }

    fn switch_cases(&self, sel: ValueId, cases: &[(u32, BlockId)]) -> Check {
        self.kind(sel, Kind::Int)?;
        let mut keys: Vec<u32> = cases.iter().map(|c| c.0).collect();
        keys.sort_unstable();
        match keys.windows(2).find(|w| w[0] == w[1]) {
            Some(w) => Err(format!("switch case {} appears twice", w[0])),
            None => Ok(()),
        }
    }

    fn branch_to(&mut self, b: BlockId) -> Check {
        if self.entry == Some(b) {
            return Err(format!("branch to entry block {}", b.0));
        }
        let at = self.at;
        let info = self.block(b)?;
        if info.sealed {
            return Err(format!("branch to sealed block {}", b.0));
        }
        info.last_branch_to = Some(at);
        Ok(())
    }

    fn finish(&self, script: &Script) -> Check {
        self.open().err().ok_or("last block has no terminator")?;
        for (i, info) in self.blocks.iter().enumerate() {
            if !(info.entered && info.terminated && info.sealed) {
                return Err(format!("block {i} not entered, terminated and sealed"));
            }
        }
        if self.returns == 0 {
            return Err("no return".to_string());
        }
        self.counts_match(script)
    }

    fn counts_match(&self, script: &Script) -> Check {
        let seen = (
            self.blocks.len() as u32,
            self.vars,
            self.values.len() as u32,
        );
        if seen != (script.blocks, script.vars, script.values) {
            return Err(format!(
                "header counts (blocks, vars, values) {:?} but ops give {seen:?}",
                (script.blocks, script.vars, script.values)
            ));
        }
        Ok(())
    }
}
