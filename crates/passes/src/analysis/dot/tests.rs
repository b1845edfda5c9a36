//! The DOT writer against what `opt-19 -passes=dot-cfg` / `dot-dom` wrote for the same
//! functions (node names and opt's heat colors and probability tooltips aside; the phi row and
//! fill are ours), plus the corner cases: wrapping, escaping, 64-port truncation, 100,000
//! blocks.

use super::*;
use llvm_ir::ir::FuncId;

fn module(src: &str) -> Module {
    llvm_reader::parse(src.as_bytes().to_vec().into()).expect("test input parses")
}

fn dot(src: &str, kind: DotKind) -> String {
    function_dot(&module(src).functions[FuncId(0)], kind)
}

const CALL: &str = "call i32 (...) @g(i32 1, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1, \
    i32 1, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1)";

fn switch_src() -> String {
    format!(
        "declare i32 @g(...)

define i32 @f(i32 %c) {{
entry:
  %x = {CALL}
  switch i32 %c, label %bbbb [
    i32 -1, label %bbbb
    i32 7, label %exit
  ]

bbbb:
  %p = phi i32 [ 0, %entry ], [ 0, %entry ]
  %rbbbb = {CALL}
  br i1 true, label %exit, label %exit

exit:
  ret i32 0
}}
"
    )
}

/// opt-19's labels of the three blocks, verbatim (the `bbbb` one without our phi row).
const OPT_LABELS: [&str; 3] = [
    "{entry:\\l|  %x = call i32 (...) @g(i32 1, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1,\\l... \
     i32 1, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1,\\l... i32 1, \
     i32 1)\\l  switch i32 %c, label %bbbb [\\l    i32 -1, label %bbbb\\l    i32 7, label \
     %exit\\l  ]\\l|{<s0>def|<s1>-1|<s2>7}}",
    "{bbbb:\\l|  %p = phi i32 [ 0, %entry ], [ 0, %entry ]\\l  %rbbbb = call i32 (...) @g(i32 \
     1, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1,\\l... i32 1, i32 1, i32 1, i32 1, i32 1, i32 \
     1, i32 1, i32 1, i32 1, i32 1, i32 1,\\l... i32 1, i32 1)\\l  br i1 true, label %exit, \
     label %exit\\l|{<s0>T|<s1>F}}",
    "{exit:\\l|  ret i32 0\\l}",
];

#[test]
fn cfg_file_matches_opt() {
    let got = dot(&switch_src(), DotKind::Cfg);
    let phi_row = OPT_LABELS[1].replacen("%entry ]\\l", "%entry ]\\l|", 1);
    let want = format!(
        "digraph \"CFG for 'f' function\" {{
\tlabel=\"CFG for 'f' function\";

\tNode0x0 [shape=record,fontname=\"Courier\",label=\"{}\"];
\tNode0x0:s0 -> Node0x1;
\tNode0x0:s1 -> Node0x1;
\tNode0x0:s2 -> Node0x2;
\tNode0x1 [shape=record,style=filled,fillcolor=\"#fff2b3\",fontname=\"Courier\",label=\"{phi_row}\"];
\tNode0x1:s0 -> Node0x2;
\tNode0x1:s1 -> Node0x2;
\tNode0x2 [shape=record,fontname=\"Courier\",label=\"{}\"];
}}
",
        OPT_LABELS[0], OPT_LABELS[2]
    );
    assert_eq!(got, want);
}

#[test]
fn dom_files_list_the_tree_in_print_domtree_order() {
    let got = dot(&switch_src(), DotKind::DomOnly);
    let want = "digraph \"Dominator tree for 'f' function\" {
\tlabel=\"Dominator tree for 'f' function\";

\tNode0x0 [shape=record,label=\"{entry}\"];
\tNode0x0 -> Node0x1;
\tNode0x0 -> Node0x2;
\tNode0x1 [shape=record,label=\"{bbbb}\"];
\tNode0x2 [shape=record,label=\"{exit}\"];
}
";
    assert_eq!(got, want);
    let full = dot(&switch_src(), DotKind::Dom);
    let entry = OPT_LABELS[0].split("|{<s0>").next().unwrap();
    assert!(full.contains(&format!("\tNode0x0 [shape=record,label=\"{entry}}}\"];")));
}

#[test]
fn unnamed_blocks_and_quoted_function_names() {
    let src = "define void @\"q z\"() {\n  br label %1\n1:\n  ret void\n}\n";
    let m = module(src);
    let f = &m.functions[FuncId(0)];
    assert_eq!(DotKind::Cfg.file_name(f, ""), ".q z.dot");
    assert_eq!(DotKind::Dom.file_name(f, ""), "dom.q z.dot");
    assert_eq!(DotKind::DomOnly.file_name(f, ""), "domonly.q z.dot");
    assert_eq!(DotKind::Cfg.file_name(f, "out/cfg"), "out/cfg.q z.dot");
    assert_eq!(DotKind::Dom.file_name(f, "out/cfg"), "dom.q z.dot");
    let full = function_dot(f, DotKind::Cfg);
    assert!(
        full.starts_with("digraph \"CFG for 'q z' function\" {\n"),
        "{full}"
    );
    assert!(full.contains("label=\"{0:\\l|  br label %1\\l}\"];\n\tNode0x0 -> Node0x1;\n"));
    let simple = function_dot(f, DotKind::CfgOnly);
    assert!(simple.contains("label=\"{%0}\"") && simple.contains("label=\"{%1}\""));
}

#[test]
fn escaping_follows_llvm() {
    assert_eq!(escape("a{b}<c>|\"d\""), "a\\{b\\}\\<c\\>\\|\\\"d\\\"");
    assert_eq!(escape("x\\ly\\|z\\0\t\n"), "x\\ly|z\\\\0  \\n");
    let src =
        "@s = global [3 x i8] c\"{|\\00\"\ndefine ptr @f() {\nentry:\n  ret ptr @s ; comment\n}\n";
    let d = dot(src, DotKind::Cfg);
    assert!(d.contains("label=\"{entry:\\l|  ret ptr @s\\l}\""), "{d}");
}

#[test]
fn wrapping_matches_llvm_on_lines_of_every_length() {
    // opt-19's breaks for a header then instruction lines of growing length (`n` spaces
    // apart), computed by the algorithm the module docs describe; checked against opt once.
    let raw = b"b:\n\\|  %r = call i32 (...) @g(i32 1, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1, \
i32 1, i32 1, i32 1, i32 1)\n  br label %x\n";
    let got = String::from_utf8(wrap_lines(raw)).unwrap();
    assert_eq!(
        got,
        "b:\\l\\|  %r = call i32 (...) @g(i32 1, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1,\\l... \
         i32 1, i32 1, i32 1, i32 1)\\l  br label %x\\l"
    );
    // A run with no space is cut right at the column limit.
    let long = format!("{}\n", "y".repeat(200));
    let w = String::from_utf8(wrap_lines(long.as_bytes())).unwrap();
    let parts: Vec<&str> = w.split("\\l").collect();
    assert_eq!(parts[0].len(), 80);
    assert!(parts[1].starts_with("...") && parts.len() == 4, "{w}");
}

#[test]
fn more_than_64_successors_are_truncated_like_graphwriter() {
    let cases: String = (0..70)
        .map(|k| format!("    i32 {k}, label %b{}\n", k % 3))
        .collect();
    let src = format!(
        "define void @s(i32 %c) {{\nentry:\n  switch i32 %c, label %b0 [\n{cases}  ]\nb0:\n  ret void\nb1:\n  ret void\nb2:\n  ret void\n}}\n"
    );
    let d = dot(&src, DotKind::CfgOnly);
    assert!(d.contains("|<s63>62|<s64>truncated...}}\"];"), "{d}");
    assert_eq!(d.matches(":s64 -> ").count(), 7);
    assert_eq!(d.matches(" -> ").count(), 71);
}

#[test]
fn printers_run_as_passes() {
    let m = module(&switch_src());
    let mut log = String::new();
    Printer::from_name("print<domtree>")
        .unwrap()
        .run(&m, "", &mut log);
    assert!(log.starts_with("DominatorTree for function: f\n"));
    assert_eq!(Printer::DomFrontier.pass_name(), "print<domfrontier>");
    for name in ["dot-cfg", "dot-cfg-only", "dot-dom", "dot-dom-only"] {
        assert_eq!(Printer::from_name(name).unwrap().pass_name(), name);
    }
    let dir = std::env::temp_dir().join(format!("dot-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut log = String::new();
    write_dot_files(&m, DotKind::Dom, "", &dir, &mut log);
    assert_eq!(log, "Writing 'dom.f.dot'...\n");
    assert!(std::fs::read_to_string(dir.join("dom.f.dot"))
        .unwrap()
        .ends_with("}\n"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn dominator_trees_of_optnone_functions_are_not_written() {
    let m = module("define void @o() optnone noinline {\n  ret void\n}\n");
    let mut log = String::new();
    Printer::Dot(DotKind::Dom).run(&m, "", &mut log);
    assert_eq!(log, "");
    let dir = std::env::temp_dir().join(format!("dot-optnone-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    write_dot_files(&m, DotKind::Cfg, "", &dir, &mut log);
    assert_eq!(log, "Writing '.o.dot'...\n");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn hundred_thousand_blocks() {
    use crate::analysis::testutil::function_from_edges;
    let n = 100_000;
    let edges: Vec<(Block, Block)> = (0..n - 1)
        .map(|i| (Block::new(i), Block::new(i + 1)))
        .collect();
    let m = function_from_edges(n, Block(0), &edges);
    let f = &m.functions[FuncId(0)];
    let cfg = function_dot(f, DotKind::Cfg);
    assert_eq!(cfg.matches(" -> ").count(), n - 1);
    let dom = function_dot(f, DotKind::DomOnly);
    assert_eq!(dom.matches(" -> ").count(), n - 1);
}
