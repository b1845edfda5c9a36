//! Immediate dominators by Semi-NCA (Georgiadis, "Linear-Time Algorithms for Dominators and
//! Related Problems", 2005; the algorithm of LLVM's `GenericDomTreeConstruction.h`,
//! `SemiNCAInfo::runSemiNCA`), the one [`super::DomTree::compute`] uses.
//!
//! Two steps over the depth-first spanning tree of [`Cfg`] (preorder numbers `1..=m`, `0` is a
//! virtual parent of the entry):
//! 1. semidominators, in reverse preorder, with the path-compressing `eval` of Lengauer–Tarjan
//!    (iterative: an explicit stack holds the path being compressed);
//! 2. `idom(w) = NCA(parent(w), sdom(w))` in the partial dominator tree, found by walking up from
//!    the spanning-tree parent while the candidate's number exceeds `sdom(w)`.
//!
//! Invariants: numbers are preorder numbers, so every ancestor has a smaller number than its
//! descendants; `parent` is overwritten by path compression, `idom` keeps the tree parents until
//! step 2 replaces them. Near-linear (`O(E log V)` worst case, linear in practice), no recursion.

use crate::cfg::Cfg;
use crate::Block;

/// Scratch of [`idoms_into`] (no meaning between computations).
#[derive(Clone, Debug, Default)]
pub struct Work {
    parent: Vec<usize>,
    semi: Vec<usize>,
    label: Vec<usize>,
    idom: Vec<usize>,
    stack: Vec<usize>,
}

/// Immediate dominator per block index (`NONE` for the entry and for unreachable blocks).
pub fn idoms(cfg: &Cfg) -> Vec<Block> {
    let mut out = Vec::new();
    idoms_into(cfg, &mut out, &mut Work::default());
    out
}

/// [`idoms`] into `result`, reusing its buffer and `w`'s.
pub fn idoms_into(cfg: &Cfg, result: &mut Vec<Block>, w: &mut Work) {
    let n = cfg.num_block_ids();
    let order = cfg.preorder();
    let m = order.len();
    crate::util::refill(result, n, Block::NONE);
    if m == 0 {
        return;
    }
    // 1-based preorder number of a reachable block.
    let num = |b: Block| cfg.preorder_number(b).map_or(0, |p| p as usize + 1);
    let Work {
        parent,
        semi,
        label,
        idom,
        stack,
    } = w;
    crate::util::refill(parent, m + 1, 0);
    semi.clear();
    semi.extend(0..=m);
    label.clear();
    label.extend(0..=m);
    for (i, &b) in order.iter().enumerate() {
        parent[i + 1] = cfg.dfs_parent(b).map_or(0, num);
    }
    idom.clear();
    idom.extend_from_slice(parent);

    // Step 1: semidominators.
    stack.clear();
    for i in (2..=m).rev() {
        let w = order[i - 1];
        let mut s = parent[i];
        for &p in cfg.preds(w) {
            let pn = num(p);
            if pn == 0 {
                continue; // unreachable predecessor
            }
            let u = eval(pn, i + 1, parent, label, semi, stack);
            s = s.min(semi[u]);
        }
        semi[i] = s;
    }

    // Step 2: idom(w) = NCA(parent(w), sdom(w)).
    for i in 2..=m {
        let sdom = semi[i];
        let mut cand = idom[i];
        while cand > sdom {
            cand = idom[cand];
        }
        idom[i] = cand;
    }
    for i in 2..=m {
        result[order[i - 1].index()] = order[idom[i] - 1];
    }
}

/// Lengauer–Tarjan `eval` with path compression over the forest of processed vertices (numbers
/// `>= last_linked`): returns the vertex of minimal semidominator on the path from `v` up to its
/// forest root (exclusive). Mirrors LLVM's `SemiNCAInfo::eval`.
fn eval(
    v: usize,
    last_linked: usize,
    parent: &mut [usize],
    label: &mut [usize],
    semi: &[usize],
    stack: &mut Vec<usize>,
) -> usize {
    if parent[v] < last_linked {
        return label[v];
    }
    // Collect the ancestors of `v` except the root of its virtual tree.
    let mut x = v;
    loop {
        stack.push(x);
        x = parent[x];
        if parent[x] < last_linked {
            break;
        }
    }
    // Compress: point each collected vertex at the root's parent and carry down the label of
    // minimal semidominator.
    let mut p = x;
    let mut p_label = label[p];
    while let Some(y) = stack.pop() {
        parent[y] = parent[p];
        let y_label = label[y];
        if semi[p_label] < semi[y_label] {
            label[y] = p_label;
        } else {
            p_label = y_label;
        }
        p = y;
    }
    label[p]
}
