//! The printers against `opt-19` output: each case is a CFG, the function
//! `testutil::function_from_edges` builds from it (blocks `%0..`, `br`/`switch` on `%c`/`%x`),
//! and what `opt-19 -passes='print<domtree>'` / `'print<domfrontier>'` printed for the same
//! function written as a `.ll` file (generated once by a script; three hand-picked graphs and
//! nine random ones).

use super::*;
use crate::analysis::testutil::function_from_edges;
use llvm_ir::ir::FuncId;
use ssa::testing::{b, typed};

/// `(blocks, edges, opt's print<domtree>, opt's print<domfrontier>)`.
type Case = (usize, &'static [(u32, u32)], &'static str, &'static str);

const CASES: &[Case] = &[
    (
        9,
        &[(0, 1), (0, 2), (1, 4), (2, 4), (2, 3), (2, 3), (3, 3), (3, 4), (4, 5), (4, 6), (5, 1), (7, 4), (8, 7)],
        "DominatorTree for function: f\n=============================--------------------------------\nInorder Dominator Tree: DFSNumbers invalid: 0 slow queries.\n  [1] %0 {4294967295,4294967295} [0]\n    [2] %1 {4294967295,4294967295} [1]\n    [2] %4 {4294967295,4294967295} [1]\n      [3] %5 {4294967295,4294967295} [2]\n      [3] %6 {4294967295,4294967295} [2]\n    [2] %2 {4294967295,4294967295} [1]\n      [3] %3 {4294967295,4294967295} [2]\nRoots: %0 \n",
        "DominanceFrontier for function: f\n  DomFrontier for BB %6 is:\t\n  DomFrontier for BB %4 is:\t %1\n  DomFrontier for BB %5 is:\t %1\n  DomFrontier for BB %1 is:\t %4\n  DomFrontier for BB %2 is:\t %4\n  DomFrontier for BB %3 is:\t %3 %4\n  DomFrontier for BB %0 is:\t\n",
    ),
    (
        7,
        &[(0, 1), (0, 2), (1, 2), (1, 3), (2, 1), (2, 4), (3, 5), (4, 5), (5, 1), (5, 6)],
        "DominatorTree for function: f\n=============================--------------------------------\nInorder Dominator Tree: DFSNumbers invalid: 0 slow queries.\n  [1] %0 {4294967295,4294967295} [0]\n    [2] %1 {4294967295,4294967295} [1]\n      [3] %3 {4294967295,4294967295} [2]\n    [2] %2 {4294967295,4294967295} [1]\n      [3] %4 {4294967295,4294967295} [2]\n    [2] %5 {4294967295,4294967295} [1]\n      [3] %6 {4294967295,4294967295} [2]\nRoots: %0 \n",
        "DominanceFrontier for function: f\n  DomFrontier for BB %6 is:\t\n  DomFrontier for BB %2 is:\t %1 %5\n  DomFrontier for BB %3 is:\t %5\n  DomFrontier for BB %4 is:\t %5\n  DomFrontier for BB %5 is:\t %1\n  DomFrontier for BB %1 is:\t %2 %5\n  DomFrontier for BB %0 is:\t\n",
    ),
    (
        7,
        &[(0, 1), (1, 2), (1, 6), (2, 3), (3, 3), (3, 4), (4, 5), (4, 2), (5, 1)],
        "DominatorTree for function: f\n=============================--------------------------------\nInorder Dominator Tree: DFSNumbers invalid: 0 slow queries.\n  [1] %0 {4294967295,4294967295} [0]\n    [2] %1 {4294967295,4294967295} [1]\n      [3] %2 {4294967295,4294967295} [2]\n        [4] %3 {4294967295,4294967295} [3]\n          [5] %4 {4294967295,4294967295} [4]\n            [6] %5 {4294967295,4294967295} [5]\n      [3] %6 {4294967295,4294967295} [2]\nRoots: %0 \n",
        "DominanceFrontier for function: f\n  DomFrontier for BB %6 is:\t\n  DomFrontier for BB %5 is:\t %1\n  DomFrontier for BB %2 is:\t %2 %1\n  DomFrontier for BB %1 is:\t %1\n  DomFrontier for BB %4 is:\t %2 %1\n  DomFrontier for BB %3 is:\t %3 %2 %1\n  DomFrontier for BB %0 is:\t\n",
    ),
    (
        4,
        &[(1, 3), (3, 2), (1, 2), (1, 1), (0, 1), (3, 1)],
        "DominatorTree for function: f\n=============================--------------------------------\nInorder Dominator Tree: DFSNumbers invalid: 0 slow queries.\n  [1] %0 {4294967295,4294967295} [0]\n    [2] %1 {4294967295,4294967295} [1]\n      [3] %3 {4294967295,4294967295} [2]\n      [3] %2 {4294967295,4294967295} [2]\nRoots: %0 \n",
        "DominanceFrontier for function: f\n  DomFrontier for BB %3 is:\t %2 %1\n  DomFrontier for BB %1 is:\t %1\n  DomFrontier for BB %0 is:\t\n  DomFrontier for BB %2 is:\t\n",
    ),
    (
        11,
        &[(3, 8), (10, 4), (7, 9), (0, 3), (1, 6), (5, 10), (7, 5), (0, 4), (0, 7)],
        "DominatorTree for function: f\n=============================--------------------------------\nInorder Dominator Tree: DFSNumbers invalid: 0 slow queries.\n  [1] %0 {4294967295,4294967295} [0]\n    [2] %3 {4294967295,4294967295} [1]\n      [3] %8 {4294967295,4294967295} [2]\n    [2] %4 {4294967295,4294967295} [1]\n    [2] %7 {4294967295,4294967295} [1]\n      [3] %9 {4294967295,4294967295} [2]\n      [3] %5 {4294967295,4294967295} [2]\n        [4] %10 {4294967295,4294967295} [3]\nRoots: %0 \n",
        "DominanceFrontier for function: f\n  DomFrontier for BB %4 is:\t\n  DomFrontier for BB %8 is:\t\n  DomFrontier for BB %7 is:\t %4\n  DomFrontier for BB %9 is:\t\n  DomFrontier for BB %0 is:\t\n  DomFrontier for BB %5 is:\t %4\n  DomFrontier for BB %3 is:\t\n  DomFrontier for BB %10 is:\t %4\n",
    ),
    (
        10,
        &[(1, 3), (5, 9), (2, 3), (6, 8), (0, 8), (5, 7), (5, 2), (5, 8), (9, 7), (0, 2), (0, 6), (7, 9), (0, 5), (4, 5), (8, 7)],
        "DominatorTree for function: f\n=============================--------------------------------\nInorder Dominator Tree: DFSNumbers invalid: 0 slow queries.\n  [1] %0 {4294967295,4294967295} [0]\n    [2] %8 {4294967295,4294967295} [1]\n    [2] %7 {4294967295,4294967295} [1]\n    [2] %9 {4294967295,4294967295} [1]\n    [2] %2 {4294967295,4294967295} [1]\n      [3] %3 {4294967295,4294967295} [2]\n    [2] %6 {4294967295,4294967295} [1]\n    [2] %5 {4294967295,4294967295} [1]\nRoots: %0 \n",
        "DominanceFrontier for function: f\n  DomFrontier for BB %2 is:\t\n  DomFrontier for BB %8 is:\t %7\n  DomFrontier for BB %9 is:\t %7\n  DomFrontier for BB %6 is:\t %8\n  DomFrontier for BB %5 is:\t %9 %7 %2 %8\n  DomFrontier for BB %7 is:\t %9\n  DomFrontier for BB %3 is:\t\n  DomFrontier for BB %0 is:\t\n",
    ),
    (
        12,
        &[(1, 6), (9, 1), (5, 11), (9, 10), (9, 3), (5, 8), (1, 9), (10, 2), (0, 2), (3, 11), (0, 4), (2, 5), (2, 9), (4, 1), (0, 9), (0, 1), (2, 3)],
        "DominatorTree for function: f\n=============================--------------------------------\nInorder Dominator Tree: DFSNumbers invalid: 0 slow queries.\n  [1] %0 {4294967295,4294967295} [0]\n    [2] %2 {4294967295,4294967295} [1]\n      [3] %5 {4294967295,4294967295} [2]\n        [4] %8 {4294967295,4294967295} [3]\n    [2] %11 {4294967295,4294967295} [1]\n    [2] %9 {4294967295,4294967295} [1]\n      [3] %10 {4294967295,4294967295} [2]\n    [2] %1 {4294967295,4294967295} [1]\n      [3] %6 {4294967295,4294967295} [2]\n    [2] %3 {4294967295,4294967295} [1]\n    [2] %4 {4294967295,4294967295} [1]\nRoots: %0 \n",
        "DominanceFrontier for function: f\n  DomFrontier for BB %9 is:\t %1 %3 %2\n  DomFrontier for BB %8 is:\t\n  DomFrontier for BB %5 is:\t %11\n  DomFrontier for BB %3 is:\t %11\n  DomFrontier for BB %0 is:\t\n  DomFrontier for BB %1 is:\t %9\n  DomFrontier for BB %10 is:\t %2\n  DomFrontier for BB %2 is:\t %9 %3 %11\n  DomFrontier for BB %6 is:\t\n  DomFrontier for BB %4 is:\t %1\n  DomFrontier for BB %11 is:\t\n",
    ),
    (
        10,
        &[(2, 1), (1, 3), (3, 8), (0, 4), (1, 6), (2, 7), (8, 4), (1, 2), (3, 5), (0, 4), (0, 7), (8, 7), (2, 8)],
        "DominatorTree for function: f\n=============================--------------------------------\nInorder Dominator Tree: DFSNumbers invalid: 0 slow queries.\n  [1] %0 {4294967295,4294967295} [0]\n    [2] %4 {4294967295,4294967295} [1]\n    [2] %7 {4294967295,4294967295} [1]\nRoots: %0 \n",
        "DominanceFrontier for function: f\n  DomFrontier for BB %7 is:\t\n  DomFrontier for BB %4 is:\t\n  DomFrontier for BB %0 is:\t\n",
    ),
    (
        2,
        &[(0, 1)],
        "DominatorTree for function: f\n=============================--------------------------------\nInorder Dominator Tree: DFSNumbers invalid: 0 slow queries.\n  [1] %0 {4294967295,4294967295} [0]\n    [2] %1 {4294967295,4294967295} [1]\nRoots: %0 \n",
        "DominanceFrontier for function: f\n  DomFrontier for BB %0 is:\t\n  DomFrontier for BB %1 is:\t\n",
    ),
    (
        2,
        &[(0, 1), (1, 1)],
        "DominatorTree for function: f\n=============================--------------------------------\nInorder Dominator Tree: DFSNumbers invalid: 0 slow queries.\n  [1] %0 {4294967295,4294967295} [0]\n    [2] %1 {4294967295,4294967295} [1]\nRoots: %0 \n",
        "DominanceFrontier for function: f\n  DomFrontier for BB %0 is:\t\n  DomFrontier for BB %1 is:\t %1\n",
    ),
    (
        11,
        &[(0, 7), (5, 8), (0, 2), (1, 5), (10, 7), (0, 3), (0, 1), (6, 9), (7, 10), (5, 6)],
        "DominatorTree for function: f\n=============================--------------------------------\nInorder Dominator Tree: DFSNumbers invalid: 0 slow queries.\n  [1] %0 {4294967295,4294967295} [0]\n    [2] %7 {4294967295,4294967295} [1]\n      [3] %10 {4294967295,4294967295} [2]\n    [2] %2 {4294967295,4294967295} [1]\n    [2] %3 {4294967295,4294967295} [1]\n    [2] %1 {4294967295,4294967295} [1]\n      [3] %5 {4294967295,4294967295} [2]\n        [4] %8 {4294967295,4294967295} [3]\n        [4] %6 {4294967295,4294967295} [3]\n          [5] %9 {4294967295,4294967295} [4]\nRoots: %0 \n",
        "DominanceFrontier for function: f\n  DomFrontier for BB %8 is:\t\n  DomFrontier for BB %6 is:\t\n  DomFrontier for BB %0 is:\t\n  DomFrontier for BB %10 is:\t %7\n  DomFrontier for BB %5 is:\t\n  DomFrontier for BB %2 is:\t\n  DomFrontier for BB %7 is:\t %7\n  DomFrontier for BB %1 is:\t\n  DomFrontier for BB %3 is:\t\n  DomFrontier for BB %9 is:\t\n",
    ),
    (
        4,
        &[(0, 2), (0, 1), (0, 3), (0, 2), (2, 3)],
        "DominatorTree for function: f\n=============================--------------------------------\nInorder Dominator Tree: DFSNumbers invalid: 0 slow queries.\n  [1] %0 {4294967295,4294967295} [0]\n    [2] %2 {4294967295,4294967295} [1]\n    [2] %3 {4294967295,4294967295} [1]\n    [2] %1 {4294967295,4294967295} [1]\nRoots: %0 \n",
        "DominanceFrontier for function: f\n  DomFrontier for BB %2 is:\t %3\n  DomFrontier for BB %1 is:\t\n  DomFrontier for BB %3 is:\t\n  DomFrontier for BB %0 is:\t\n",
    ),
];

fn sorted_lines(s: &str) -> Vec<&str> {
    let mut v: Vec<&str> = s.lines().collect();
    v[1..].sort_unstable();
    v
}

#[test]
fn domtree_matches_opt_exactly() {
    for (i, &(n, edges, want, _)) in CASES.iter().enumerate() {
        let m = function_from_edges(n, b(0), &typed(edges));
        assert_eq!(print_domtree(&m.functions[FuncId(0)]), want, "case {i}");
    }
}

#[test]
fn domfrontier_matches_opt_up_to_line_order() {
    for (i, &(n, edges, _, want)) in CASES.iter().enumerate() {
        let m = function_from_edges(n, b(0), &typed(edges));
        let got = print_domfrontier(&m.functions[FuncId(0)]);
        // Same lines (each with opt's member order); opt orders lines by address.
        assert_eq!(sorted_lines(&got), sorted_lines(want), "case {i}");
    }
}

#[test]
fn domfrontier_lines_follow_layout_and_sets_match() {
    let (n, edges, _, _) = CASES[0];
    let m = function_from_edges(n, b(0), &typed(edges));
    let func = &m.functions[FuncId(0)];
    let got = print_domfrontier(func);
    assert_eq!(
        got,
        "DominanceFrontier for function: f\n  DomFrontier for BB %0 is:\t\n  \
         DomFrontier for BB %1 is:\t %4\n  DomFrontier for BB %2 is:\t %4\n  \
         DomFrontier for BB %3 is:\t %3 %4\n  DomFrontier for BB %4 is:\t %1\n  \
         DomFrontier for BB %5 is:\t %1\n  DomFrontier for BB %6 is:\t\n"
    );
    // The replayed LLVM order holds the same sets as the runner algorithm.
    for &(n, edges, _, _) in CASES {
        let g = Cfg::from_edges(n, b(0), &typed(edges));
        let dt = DomTree::compute(&g);
        let df = ssa::frontier::DominanceFrontiers::compute(&g, &dt);
        for (x, mut set) in frontiers_in_llvm_order(&g, &dt).into_iter().enumerate() {
            set.sort_unstable_by_key(|&y| g.layout_position(y));
            assert_eq!(set, df.frontier(Block::new(x)));
        }
    }
}

#[test]
fn domtree_with_dfs_numbers() {
    let (n, edges, _, _) = CASES[0];
    let m = function_from_edges(n, b(0), &typed(edges));
    let got = print_domtree_with_dfs_numbers(&m.functions[FuncId(0)]);
    assert_eq!(
        got,
        "DominatorTree for function: f\n\
         =============================--------------------------------\n\
         Inorder Dominator Tree: \n  \
         [1] %0 {0,13} [0]\n    \
         [2] %1 {1,2} [1]\n    \
         [2] %4 {3,8} [1]\n      \
         [3] %5 {4,5} [2]\n      \
         [3] %6 {6,7} [2]\n    \
         [2] %2 {9,12} [1]\n      \
         [3] %3 {10,11} [2]\n\
         Roots: %0 \n"
    );
}

#[test]
fn function_names_are_unquoted() {
    let mut m = function_from_edges(1, b(0), &[]);
    let func = &mut m.functions[FuncId(0)];
    func.name = func.dfg.strings.add(b"\"a b\\41\"");
    assert_eq!(function_name(func), "a bA");
    assert!(print_domtree(func).starts_with("DominatorTree for function: a bA\n"));
}

/// A module read by the real parser: named blocks, a switch with duplicate targets, unreachable
/// blocks, three functions. Expected text is `opt-19`'s, verbatim for `print<domtree>`.
const NAMED: &str = "define i32 @f(i1 %c, i32 %x) {
entry:
  br i1 %c, label %a, label %b
a:
  br label %j
b:
  switch i32 %x, label %j [ i32 1, label %l
                            i32 2, label %l ]
l:
  br i1 %c, label %l, label %j
j:
  br i1 %c, label %entry2, label %exit
entry2:
  br label %a
exit:
  ret i32 0
dead:
  br label %j
dead2:
  br label %dead
}
define void @g() {
  br label %1
1:
  br label %1
}
define void @\"h \\5C\"() {
  ret void
}
";

const NAMED_DOMTREE: &str = "DominatorTree for function: f
=============================--------------------------------
Inorder Dominator Tree: DFSNumbers invalid: 0 slow queries.
  [1] %entry {4294967295,4294967295} [0]
    [2] %a {4294967295,4294967295} [1]
    [2] %j {4294967295,4294967295} [1]
      [3] %entry2 {4294967295,4294967295} [2]
      [3] %exit {4294967295,4294967295} [2]
    [2] %b {4294967295,4294967295} [1]
      [3] %l {4294967295,4294967295} [2]
Roots: %entry 
DominatorTree for function: g
=============================--------------------------------
Inorder Dominator Tree: DFSNumbers invalid: 0 slow queries.
  [1] %0 {4294967295,4294967295} [0]
    [2] %1 {4294967295,4294967295} [1]
Roots: %0 
DominatorTree for function: h \\
=============================--------------------------------
Inorder Dominator Tree: DFSNumbers invalid: 0 slow queries.
  [1] %0 {4294967295,4294967295} [0]
Roots: %0 
";

const NAMED_DOMFRONTIER: &str = "DominanceFrontier for function: f
  DomFrontier for BB %b is:\t %j
  DomFrontier for BB %l is:\t %l %j
  DomFrontier for BB %exit is:\t
  DomFrontier for BB %a is:\t %j
  DomFrontier for BB %j is:\t %a
  DomFrontier for BB %entry is:\t
  DomFrontier for BB %entry2 is:\t %a
DominanceFrontier for function: g
  DomFrontier for BB %1 is:\t %1
  DomFrontier for BB %0 is:\t
DominanceFrontier for function: h \\
  DomFrontier for BB %0 is:\t
";

#[test]
fn parsed_module_matches_opt() {
    let m = llvm_reader::parse_with(NAMED.as_bytes().to_vec().into(), llvm_ir::Threads::ONE)
        .expect("parses");
    let funcs: Vec<&Function> = m.functions.values().collect();
    let domtree: String = funcs.iter().map(|f| print_domtree(f)).collect();
    assert_eq!(domtree, NAMED_DOMTREE);
    // opt prints one function's lines in address order: compare per function, as sets.
    let mut want = NAMED_DOMFRONTIER.split("DominanceFrontier for function: ");
    want.next();
    for (f, want) in funcs.iter().zip(want) {
        let got = print_domfrontier(f);
        let want = format!("DominanceFrontier for function: {want}");
        assert_eq!(sorted_lines(&got), sorted_lines(&want));
    }
}
