//! Text dumps of the analyses in the layout of LLVM 19's `opt -passes='print<domtree>'` and
//! `opt -passes='print<domfrontier>'` (written to stderr by `opt`), checked line by line against
//! `opt-19` output in the tests below.
//!
//! `print<domtree>` (LLVM's `DominatorTreeBase::print` and `PrintDomTree`):
//! ```text
//! DominatorTree for function: f
//! =============================--------------------------------
//! Inorder Dominator Tree: DFSNumbers invalid: 0 slow queries.
//!   [1] %entry {4294967295,4294967295} [0]
//!     [2] %a {4294967295,4294967295} [1]
//! Roots: %entry
//! ```
//! A node line is indented by two spaces per level, shows `[level + 1]`, the block, its DFS
//! numbers and `[level]`. `opt` prints right after building the tree, before DFS numbers are
//! computed, hence `4294967295` and "DFSNumbers invalid"; [`print_domtree`] reproduces that
//! exactly (children in the same order as `opt`, see [`DomTree::children`]), and
//! [`print_domtree_with_dfs_numbers`] prints the form LLVM uses once numbers are valid, with ours
//! (numbered as LLVM's `updateDFSNumbers` does).
//!
//! `print<domfrontier>` (LLVM's `DominanceFrontierBase::print`): one line per reachable block,
//! `  DomFrontier for BB %b is:\t` then ` %y` per frontier member. `opt` orders the lines by the
//! blocks' addresses in memory (a `std::map` keyed by pointer), which cannot be reproduced; we
//! use layout order. Within a line `opt` uses insertion order of its bottom-up computation
//! (`ForwardDominanceFrontierBase::calculate`); [`print_domfrontier`] replays that computation so
//! each line's members come in `opt`'s order.
//!
//! Deep trees print long indentation (the format is quadratic in depth); that is `opt`'s layout.

use llvm_ir::ir::{Block, Function};
use llvm_ir::lexical::unescape;
use llvm_ir::print::Numbering;
use llvm_ir::util::fxhash::FxHashSet;
use ssa::cfg::Cfg;
use ssa::domtree::DomTree;
use std::fmt::Write;

/// The function's name as LLVM's `getName()` gives it: without quotes, escapes decoded.
pub fn function_name(func: &Function) -> String {
    match func.text(func.name) {
        [b'"', inner @ .., b'"'] => String::from_utf8_lossy(&unescape(inner)).into_owned(),
        raw => String::from_utf8_lossy(raw).into_owned(),
    }
}

/// `print<domtree>` for `func`, exactly as `opt-19` prints it.
pub fn print_domtree(func: &Function) -> String {
    domtree_text(func, false)
}

/// `print<domtree>` in the form LLVM uses once DFS numbers are valid, with this tree's numbers.
pub fn print_domtree_with_dfs_numbers(func: &Function) -> String {
    domtree_text(func, true)
}

fn domtree_text(func: &Function, with_numbers: bool) -> String {
    let cfg = llvm_ir::ir::cfg::cfg_of(func);
    let dt = DomTree::compute(&cfg);
    let num = Numbering::compute(func);
    let mut s = String::new();
    let _ = writeln!(s, "DominatorTree for function: {}", function_name(func));
    s.push_str("=============================--------------------------------\n");
    s.push_str("Inorder Dominator Tree: ");
    if !with_numbers {
        s.push_str("DFSNumbers invalid: 0 slow queries.");
    }
    s.push('\n');
    for &b in dt.preorder() {
        let level = dt.depth(b).unwrap_or(0);
        let (i, o) = if with_numbers {
            (dt.dfs_in(b).unwrap_or(0), dt.dfs_out(b).unwrap_or(0))
        } else {
            (u32::MAX, u32::MAX)
        };
        for _ in 0..=level {
            s.push_str("  ");
        }
        let _ = writeln!(
            s,
            "[{}] {} {{{i},{o}}} [{level}]",
            level + 1,
            num.block_ref(func, b)
        );
    }
    s.push_str("Roots: ");
    if let Some(r) = dt.root() {
        s.push_str(&num.block_ref(func, r));
        s.push(' ');
    }
    s.push('\n');
    s
}

/// `print<domfrontier>` for `func`: `opt-19`'s lines, in layout order (see the module docs).
pub fn print_domfrontier(func: &Function) -> String {
    let cfg = llvm_ir::ir::cfg::cfg_of(func);
    let dt = DomTree::compute(&cfg);
    let num = Numbering::compute(func);
    let df = frontiers_in_llvm_order(&cfg, &dt);
    let mut s = String::new();
    let _ = writeln!(s, "DominanceFrontier for function: {}", function_name(func));
    for &b in cfg.blocks() {
        if !dt.is_reachable(b) {
            continue;
        }
        let _ = write!(s, "  DomFrontier for BB {} is:\t", num.block_ref(func, b));
        for &y in &df[b.index()] {
            s.push(' ');
            s.push_str(&num.block_ref(func, y));
        }
        s.push('\n');
    }
    s
}

/// The frontiers of every block, each in the insertion order of LLVM's
/// `ForwardDominanceFrontierBase::calculate`: the successors `y` of `x` with `idom(y) != x`
/// first, then the members of the children's frontiers not strictly dominated by `x`, the
/// children taken from last to first (LLVM's work stack). Iterative, as LLVM's is.
pub fn frontiers_in_llvm_order(cfg: &Cfg, dt: &DomTree) -> Vec<Vec<Block>> {
    let n = cfg.num_block_ids();
    let mut sets: Vec<Vec<Block>> = vec![Vec::new(); n];
    let mut member: FxHashSet<(Block, Block)> = FxHashSet::default();
    let Some(root) = dt.root() else {
        return sets;
    };
    let mut visited = vec![false; n];
    let mut work: Vec<(Block, Option<Block>)> = vec![(root, None)];
    while let Some(&(cur, parent)) = work.last() {
        if !visited[cur.index()] {
            visited[cur.index()] = true;
            for &y in cfg.succs(cur) {
                if dt.idom(y) != Some(cur) && member.insert((cur, y)) {
                    sets[cur.index()].push(y);
                }
            }
        }
        let mut pushed = false;
        for &c in dt.children(cur) {
            if !visited[c.index()] {
                work.push((c, Some(cur)));
                pushed = true;
            }
        }
        if pushed {
            continue;
        }
        let Some(p) = parent else { break };
        let mine = std::mem::take(&mut sets[cur.index()]);
        for &y in &mine {
            if !dt.strictly_dominates(p, y) && member.insert((p, y)) {
                sets[p.index()].push(y);
            }
        }
        sets[cur.index()] = mine;
        work.pop();
    }
    sets
}

#[cfg(test)]
mod tests;
