//! The users of every value of a function, in layout order: what LLVM keeps as use lists,
//! computed here in one pass over the operands when a round of promotion starts.
//!
//! Invariant: built from placed instructions only, with operands resolved through the
//! function's alias table; it describes the function as it was when built, so callers check
//! `layout.is_inst_inserted` for instructions removed since.

use crate::entity::EntityRef;
use crate::ir::{Function, Inst, Value};

/// Users of values as a compressed table: `users(v)` lists `(instruction, operand index)`.
pub struct UseIndex {
    offs: Vec<u32>,
    users: Vec<(Inst, u32)>,
}

impl UseIndex {
    /// The users of every value of `func`.
    pub fn compute(func: &Function) -> Self {
        let dfg = &func.dfg;
        let n = dfg.values.len();
        let mut counts = vec![0u32; n + 1];
        let insts = || {
            func.layout
                .blocks()
                .flat_map(move |b| func.layout.block_insts(b))
        };
        for i in insts() {
            for &v in dfg.inst_values(i) {
                counts[dfg.resolve(v).index()] += 1;
            }
        }
        let mut offs = Vec::with_capacity(n + 1);
        let mut acc = 0u32;
        for c in &counts[..n] {
            offs.push(acc);
            acc += c;
        }
        offs.push(acc);
        let mut fill = offs.clone();
        let mut users = vec![(Inst(0), 0u32); acc as usize];
        for i in insts() {
            for (k, &v) in dfg.inst_values(i).iter().enumerate() {
                let v = dfg.resolve(v).index();
                users[fill[v] as usize] = (i, k as u32);
                fill[v] += 1;
            }
        }
        Self { offs, users }
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
