//! The users of every value of a function, in layout order: what LLVM keeps as use lists,
//! computed here in one pass over the operands when a round of promotion starts.
//!
//! Invariant: built from placed instructions only, with operands resolved through the
//! function's alias table; it describes the function as it was when built, so callers check
//! `layout.is_inst_inserted` for instructions removed since. A recomputation reuses the
//! buffers of the previous one (the pass keeps one index per thread), so a function costs
//! no allocation here once the buffers are as large as it needs.

use crate::entity::EntityRef;
use crate::ir::{Function, Inst, Value};

/// Users of values as a compressed table: `users(v)` lists `(instruction, operand index)`.
#[derive(Default)]
pub struct UseIndex {
    /// `users[offs[v]..offs[v + 1]]` are the users of value `v`; `offs.len()` is the number
    /// of values plus one.
    offs: Vec<u32>,
    users: Vec<(Inst, u32)>,
}

impl UseIndex {
    /// The users of every value of `func`.
    pub fn compute(func: &Function) -> Self {
        let order: Vec<Inst> = func
            .layout
            .blocks()
            .flat_map(|b| func.layout.block_insts(b))
            .collect();
        let mut u = Self::default();
        u.recompute(func, &order);
        u
    }

    /// Recomputes the index for `func`, whose placed instructions in layout order are
    /// `order`, reusing this index's buffers.
    pub fn recompute(&mut self, func: &Function, order: &[Inst]) {
        let dfg = &func.dfg;
        let n = dfg.values.len();
        let insts = || order.iter().copied();
        // Count into offs[v + 1], turn the counts into start offsets shifted by one, then
        // fill: each fill bumps offs[v + 1], which ends as the end of v's list.
        self.offs.clear();
        self.offs.resize(n + 2, 0);
        for i in insts() {
            for &v in dfg.inst_values(i) {
                self.offs[dfg.resolve(v).index() + 2] += 1;
            }
        }
        for k in 2..n + 2 {
            self.offs[k] += self.offs[k - 1];
        }
        let total = self.offs[n + 1] as usize;
        self.users.clear();
        self.users.resize(total, (Inst(0), 0));
        for i in insts() {
            for (k, &v) in dfg.inst_values(i).iter().enumerate() {
                let slot = &mut self.offs[dfg.resolve(v).index() + 1];
                self.users[*slot as usize] = (i, k as u32);
                *slot += 1;
            }
        }
        self.offs.pop();
    }

    /// Users of `v` (instruction and operand position), in layout order.
    pub fn users(&self, v: Value) -> &[(Inst, u32)] {
        let i = v.index();
        if i + 1 >= self.offs.len() {
            return &[];
        }
        &self.users[self.offs[i] as usize..self.offs[i + 1] as usize]
    }
}
