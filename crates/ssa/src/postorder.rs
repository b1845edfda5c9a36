//! Depth-first search over a CSR successor graph: preorder, postorder and DFS-tree parents, in one
//! iterative pass (an explicit stack of `(block, next successor index)` frames; no recursion, so
//! graphs 100,000 blocks deep are fine).
//!
//! Invariants of the result ([`Dfs`]):
//! - only blocks reachable from the root appear; each appears exactly once in `preorder` and once
//!   in `postorder`;
//! - successors are tried in the order given (terminator order), so the search visits the same
//!   blocks in the same order as a recursive DFS, LLVM's `po_iterator` and the DFS inside LLVM's
//!   `SemiNCAInfo::runDFS` (which pushes successors in reverse onto a stack and numbers a node when
//!   popped — that yields the same preorder and the same spanning-tree parents);
//! - `parent[b]` is the block from which `b` was first entered (`NONE` for the root and for
//!   unreachable blocks), so every parent precedes its child in preorder.
//!
//! Reverse postorder (the reverse of `postorder`) lists every block before its successors except
//! along back edges: the order iterative data-flow solvers (Cooper–Harvey–Kennedy) want.

use crate::Block;

/// The result of one depth-first search.
#[derive(Clone, Debug, Default)]
pub struct Dfs {
    /// Reachable blocks in the order first entered.
    pub preorder: Vec<Block>,
    /// Reachable blocks in the order finished.
    pub postorder: Vec<Block>,
    /// DFS-tree parent per block index (`NONE` for the root and unreachable blocks).
    pub parent: Vec<Block>,
}

/// Scratch of [`dfs_csr_into`] (no meaning between searches).
#[derive(Clone, Debug, Default)]
pub struct DfsWork {
    visited: Vec<bool>,
    /// Frame: the block and the position of its next successor to try.
    stack: Vec<(Block, u32)>,
}

/// Depth-first search from `root` over the graph whose successors of block `i` are
/// `succs[off[i] as usize..off[i + 1] as usize]` (`off.len() == num_blocks + 1`).
pub fn dfs_csr(num_blocks: usize, root: Block, off: &[u32], succs: &[Block]) -> Dfs {
    let mut out = Dfs::default();
    dfs_csr_into(
        num_blocks,
        root,
        off,
        succs,
        &mut out,
        &mut DfsWork::default(),
    );
    out
}

/// [`dfs_csr`] into `out`, reusing its buffers and `work`'s.
pub fn dfs_csr_into(
    num_blocks: usize,
    root: Block,
    off: &[u32],
    succs: &[Block],
    out: &mut Dfs,
    work: &mut DfsWork,
) {
    debug_assert_eq!(off.len(), num_blocks + 1);
    // At most every block is reached: sized once, never grown.
    out.preorder.clear();
    out.preorder.reserve(num_blocks);
    out.postorder.clear();
    out.postorder.reserve(num_blocks);
    crate::util::refill(&mut out.parent, num_blocks, Block::NONE);
    if root.is_none() {
        return;
    }
    let visited = &mut work.visited;
    crate::util::refill(visited, num_blocks, false);
    let stack = &mut work.stack;
    stack.clear();
    visited[root.index()] = true;
    out.preorder.push(root);
    stack.push((root, off[root.index()]));
    while let Some(top) = stack.last_mut() {
        let (b, ref mut next) = *top;
        let end = off[b.index() + 1];
        if *next == end {
            out.postorder.push(b);
            stack.pop();
            continue;
        }
        let s = succs[*next as usize];
        *next += 1;
        if !visited[s.index()] {
            visited[s.index()] = true;
            out.parent[s.index()] = b;
            out.preorder.push(s);
            stack.push((s, off[s.index()]));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn csr(n: usize, edges: &[(u32, u32)]) -> (Vec<u32>, Vec<Block>) {
        let mut off = vec![0u32; n + 1];
        for &(a, _) in edges {
            off[a as usize + 1] += 1;
        }
        for i in 0..n {
            off[i + 1] += off[i];
        }
        let mut pos = off.clone();
        let mut s = vec![Block(0); edges.len()];
        for &(a, b) in edges {
            s[pos[a as usize] as usize] = Block(b);
            pos[a as usize] += 1;
        }
        (off, s)
    }

    #[test]
    fn orders_match_recursive_dfs() {
        // 0 -> 1, 2 ; 1 -> 2, 3 ; 2 -> 0 ; 4 unreachable -> 0.
        let (off, s) = csr(5, &[(0, 1), (0, 2), (1, 2), (1, 3), (2, 0), (4, 0)]);
        let d = dfs_csr(5, Block(0), &off, &s);
        assert_eq!(d.preorder, vec![Block(0), Block(1), Block(2), Block(3)]);
        assert_eq!(d.postorder, vec![Block(2), Block(3), Block(1), Block(0)]);
        assert_eq!(d.parent[2], Block(1));
        assert_eq!(d.parent[3], Block(1));
        assert!(d.parent[0].is_none() && d.parent[4].is_none());
    }

    #[test]
    fn deep_chain_does_not_overflow() {
        let n = 200_000u32;
        let edges: Vec<(u32, u32)> = (0..n - 1).map(|i| (i, i + 1)).collect();
        let (off, s) = csr(n as usize, &edges);
        let d = dfs_csr(n as usize, Block(0), &off, &s);
        assert_eq!(d.postorder.len(), n as usize);
        assert_eq!(d.postorder[0], Block(n - 1));
        assert_eq!(d.preorder[n as usize - 1], Block(n - 1));
    }
}
