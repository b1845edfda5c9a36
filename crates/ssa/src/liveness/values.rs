//! Liveness of SSA values: the blocks each value is live into and out of, for interference
//! checks when leaving SSA form (coalescing phi operands, register allocation).
//!
//! Path exploration from each use up to the definition (Brandner, Boissinot, Darte, Dupont de
//! Dinechin, Rastello, "Computing Liveness Sets for SSA-Form Programs", 2011, the per-variable
//! variant). Conventions the caller's uses follow:
//! - a phi's operand is used at the *end* of its incoming block (live-out there, and live-in
//!   there unless defined there); phi results are defined at the *head* of their block, so a
//!   phi result is never live-in to its own block by its definition;
//! - a use after the definition in the definition's own block is not reported; a use that
//!   precedes the definition in that block (possible only in unreachable code) is, and makes
//!   the value live-in there, as the value must come around a cycle.
//!
//! Cost: one walk per value from its uses up to its definition, marking each `(value, block)`
//! pair once: `O(uses + Σ_v Σ_{b ∈ LiveIn(v)} |preds(b)|)` — linear in the size of the answer.
//! No recursion. The result is stored as CSR arrays twice: per value (blocks sorted by id) and
//! per block (values sorted by id).

use crate::cfg::Cfg;
use crate::entity::EntityRef;
use crate::Block;

/// A use of a value: the block where it is live (in), or at whose end it is used (phi operand).
#[derive(Clone, Copy)]
struct Use {
    block: Block,
    at_end: bool,
}

/// Live-in and live-out blocks of every SSA value (see the module docs); values are dense ids
/// of the caller's type `V`.
#[derive(Clone, Debug)]
pub struct ValueLiveness<V> {
    in_by_value: Csr<Block>,
    out_by_value: Csr<Block>,
    in_by_block: Csr<V>,
    out_by_block: Csr<V>,
}

/// Rows of `T` in one flat array.
#[derive(Clone, Debug)]
struct Csr<T> {
    off: Vec<u32>,
    items: Vec<T>,
}

impl<T: Copy> Csr<T> {
    #[inline]
    fn row(&self, i: usize) -> &[T] {
        match self.off.get(i + 1) {
            Some(&end) => &self.items[self.off[i] as usize..end as usize],
            None => &[],
        }
    }
}

/// The transpose of `rows` (row `r` holds `cols`): row `c` lists every `r` with `c` in row
/// `r`, in increasing `r`.
fn transpose<R: EntityRef, C: EntityRef + Copy>(rows: &Csr<C>, num_cols: usize) -> Csr<R> {
    let mut off = vec![0u32; num_cols + 1];
    for &c in &rows.items {
        off[c.index() + 1] += 1;
    }
    for i in 0..num_cols {
        off[i + 1] += off[i];
    }
    let mut pos: Vec<u32> = off[..num_cols].to_vec();
    let mut items = vec![R::new(0); rows.items.len()];
    for r in 0..rows.off.len().saturating_sub(1) {
        for &c in rows.row(r) {
            items[pos[c.index()] as usize] = R::new(r);
            pos[c.index()] += 1;
        }
    }
    Csr { off, items }
}

impl<V: EntityRef> ValueLiveness<V> {
    /// The liveness of values `0..def_block.len()` over `cfg`: value `v` is defined in
    /// `def_block[v]` (`Block::NONE`: not tracked, never live), and used as `uses` lists, each
    /// use `(value, block, at_end)`: `at_end` for a phi operand (used at the end of its incoming
    /// block), else a use in `block` that is not preceded by the definition in that block (uses
    /// after the definition in its own block are not live-in anywhere: leave them out).
    pub fn compute(
        cfg: &Cfg,
        def_block: &[Block],
        uses: impl IntoIterator<Item = (V, Block, bool)>,
    ) -> Self {
        let nb = cfg.num_block_ids();
        let uses = group_uses(def_block.len(), uses);
        let mut in_stamp = vec![u32::MAX; nb];
        let mut out_stamp = vec![u32::MAX; nb];
        let mut work: Vec<Block> = Vec::new();
        let mut ins = Csr {
            off: vec![0u32],
            items: Vec::new(),
        };
        let mut outs = Csr {
            off: vec![0u32],
            items: Vec::new(),
        };
        for (v, &d) in def_block.iter().enumerate() {
            let stamp = v as u32;
            let (in_start, out_start) = (ins.items.len(), outs.items.len());
            if !d.is_none() {
                let mut live_in = |b: Block, work: &mut Vec<Block>, ins: &mut Vec<Block>| {
                    if in_stamp[b.index()] != stamp {
                        in_stamp[b.index()] = stamp;
                        ins.push(b);
                        work.push(b);
                    }
                };
                for u in uses.row(v) {
                    if u.at_end {
                        if out_stamp[u.block.index()] != stamp {
                            out_stamp[u.block.index()] = stamp;
                            outs.items.push(u.block);
                        }
                        if u.block != d {
                            live_in(u.block, &mut work, &mut ins.items);
                        }
                    } else {
                        live_in(u.block, &mut work, &mut ins.items);
                    }
                    while let Some(b) = work.pop() {
                        for &p in cfg.distinct_preds(b) {
                            if out_stamp[p.index()] != stamp {
                                out_stamp[p.index()] = stamp;
                                outs.items.push(p);
                            }
                            if p != d {
                                live_in(p, &mut work, &mut ins.items);
                            }
                        }
                    }
                }
            }
            ins.items[in_start..].sort_unstable();
            outs.items[out_start..].sort_unstable();
            ins.off.push(ins.items.len() as u32);
            outs.off.push(outs.items.len() as u32);
        }
        Self {
            in_by_block: transpose(&ins, nb),
            out_by_block: transpose(&outs, nb),
            in_by_value: ins,
            out_by_value: outs,
        }
    }

    /// Blocks `v` is live into, sorted by block id.
    #[inline]
    pub fn live_in_blocks(&self, v: V) -> &[Block] {
        self.in_by_value.row(v.index())
    }

    /// Blocks `v` is live out of, sorted by block id.
    #[inline]
    pub fn live_out_blocks(&self, v: V) -> &[Block] {
        self.out_by_value.row(v.index())
    }

    /// Values live into `b`, sorted by value id.
    #[inline]
    pub fn live_in_values(&self, b: Block) -> &[V] {
        self.in_by_block.row(b.index())
    }

    /// Values live out of `b`, sorted by value id.
    #[inline]
    pub fn live_out_values(&self, b: Block) -> &[V] {
        self.out_by_block.row(b.index())
    }

    /// Whether `v` is live into `b` (binary search).
    #[inline]
    pub fn is_live_in(&self, v: V, b: Block) -> bool {
        self.live_in_blocks(v).binary_search(&b).is_ok()
    }

    /// Whether `v` is live out of `b` (binary search).
    #[inline]
    pub fn is_live_out(&self, v: V, b: Block) -> bool {
        self.live_out_blocks(v).binary_search(&b).is_ok()
    }
}

/// The uses grouped by value (CSR, each value's uses in the order given).
fn group_uses<V: EntityRef>(
    nv: usize,
    uses: impl IntoIterator<Item = (V, Block, bool)>,
) -> Csr<Use> {
    let pairs: Vec<(V, Use)> = uses
        .into_iter()
        .map(|(v, block, at_end)| (v, Use { block, at_end }))
        .collect();
    let mut off = vec![0u32; nv + 1];
    for &(v, _) in &pairs {
        off[v.index() + 1] += 1;
    }
    for i in 0..nv {
        off[i + 1] += off[i];
    }
    let mut pos: Vec<u32> = off[..nv].to_vec();
    let placeholder = Use {
        block: Block::NONE,
        at_end: false,
    };
    let mut items = vec![placeholder; pairs.len()];
    for &(v, u) in &pairs {
        items[pos[v.index()] as usize] = u;
        pos[v.index()] += 1;
    }
    Csr { off, items }
}
