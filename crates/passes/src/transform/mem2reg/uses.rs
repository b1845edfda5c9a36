//! The users of every value of a function, in layout order: what LLVM keeps as use lists,
//! computed here when a round of promotion starts: room per value from one straight pass over
//! the operand pool ([`UseIndex::begin`]), then the users of each placed instruction as the
//! round's walk over the layout meets it ([`UseIndex::add`]).
//!
//! Invariant: built from placed instructions only, with operands resolved through the
//! function's alias table; it describes the function as it was when built, so callers check
//! `layout.is_inst_inserted` for instructions removed since. A recomputation reuses the
//! buffers of the previous one (the pass keeps one index per thread), so a function costs
//! no allocation here once the buffers are as large as it needs.

use llvm_ir::ir::{Function, Inst, Value};

/// Users of values as a compressed table: `users(v)` lists `(instruction, operand index)`.
#[derive(Default)]
pub struct UseIndex {
    /// `users[start[v]..end[v]]` are the users of value `v`; both have one entry per value.
    /// Room is counted over the whole operand pool, which may also hold the operands of
    /// removed instructions, so `end[v]` may fall short of `start[v + 1]`.
    start: Vec<u32>,
    end: Vec<u32>,
    users: Vec<(Inst, u32)>,
}

impl UseIndex {
    /// The users of every value of `func`.
    pub fn compute(func: &Function) -> Self {
        let mut u = Self::default();
        u.begin(func);
        for b in func.layout.blocks() {
            for i in func.layout.block_insts(b) {
                u.add(func, i);
            }
        }
        u
    }

    /// Starts a computation for `func`, reusing this index's buffers: afterwards,
    /// [`UseIndex::add`] each placed instruction in layout order.
    pub fn begin(&mut self, func: &Function) {
        let dfg = &func.dfg;
        let n = dfg.values.len();
        // Room per value: one straight pass over the operand pool (placed instructions'
        // operands are all there; the operands of removed ones only add spare room), counts
        // into start[v + 1], then turned into start offsets.
        llvm_ir::util::refill(&mut self.start, n + 1, 0);
        for &v in &dfg.value_pool {
            if let Some(c) = self.start.get_mut(dfg.resolve(v).index() + 1) {
                *c += 1;
            }
        }
        for k in 1..n + 1 {
            self.start[k] += self.start[k - 1];
        }
        let total = self.start[n] as usize;
        self.start.pop();
        self.end.clear();
        self.end.extend_from_slice(&self.start);
        // Every entry read is written by `add` first (`users(v)` stops at `end[v]`), so what
        // a reused buffer holds need not be cleared: only room is made.
        if self.users.len() < total {
            self.users.resize(total, (Inst(0), 0));
        }
    }

    /// Records the operands of `i` (the next placed instruction in layout order).
    #[inline]
    pub fn add(&mut self, func: &Function, i: Inst) {
        let dfg = &func.dfg;
        for (k, &v) in dfg.inst_values(i).iter().enumerate() {
            let at = &mut self.end[dfg.resolve(v).index()];
            self.users[*at as usize] = (i, k as u32);
            *at += 1;
        }
    }

    /// Users of `v` (instruction and operand position), in layout order.
    pub fn users(&self, v: Value) -> &[(Inst, u32)] {
        let i = v.index();
        match (self.start.get(i), self.end.get(i)) {
            (Some(&s), Some(&e)) => &self.users[s as usize..e as usize],
            _ => &[],
        }
    }
}
