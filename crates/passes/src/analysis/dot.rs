//! Graphviz files of a function's CFG and dominator tree, in the format of LLVM 19's
//! `opt -passes=dot-cfg` / `dot-cfg-only` / `dot-dom` / `dot-dom-only`.
//!
//! ```text
//! digraph "CFG for 'f' function" {
//!     label="CFG for 'f' function";
//!
//!     Node0x0 [shape=record,fontname="Courier",label="{entry:\l|  %c = icmp sgt i32 %a, 0\l  br i1 %c, label %t, label %j\l|{<s0>T|<s1>F}}"];
//!     Node0x0:s0 -> Node0x1;
//!     Node0x0:s1 -> Node0x2;
//!     ...
//! }
//! ```
//! (Lines inside the graph are indented with a tab.) What is LLVM's, reproduced: file names
//! (`.f.dot` for the CFG, `dom.f.dot` / `domonly.f.dot` for the tree, written to the current
//! directory), the graph's name and label, one `record` node per block with the label line,
//! the instructions (`\l`-terminated lines, wrapped at 80 columns with LLVM's `\l...`
//! continuation, escaped by LLVM's `DOT::EscapeString`), the edge ports (`T`/`F` for
//! conditional branches, `def` and the case values for switches, at most 64 then
//! `truncated...`), edges in successor order with repeats, CFG nodes in layout order, tree
//! nodes in the order `print<domtree>` lists them, each followed by its edges.
//!
//! What differs, on purpose: node names are `Node0x` + the block's id in hex instead of a
//! memory address, so output is deterministic; CFG nodes carry no heat colors and edges no
//! branch-probability tooltips (those need LLVM's block-frequency analysis); and phis are
//! highlighted: a record cannot color one row, so the phi lines form their own row of the
//! record, right under the label, and a block holding phis is filled light yellow. Comments
//! (`; ...` outside quotes, which multi-line instructions read from text may hold) are dropped,
//! as LLVM drops them; so are debug records (`#dbg_value(...)`), which LLVM does not print in
//! labels.

use std::fmt::Write as _;
use std::path::Path;

use super::print::{function_name, print_domfrontier, print_domtree};
use llvm_ir::ir::{Block, Function, Module, Opcode, ValueDef};
use llvm_ir::lexical::unescape;
use llvm_ir::print::Numbering;
use ssa::cfg::Cfg;
use ssa::domtree::DomTree;

/// Which graph, and whether nodes show instructions.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum DotKind {
    /// `dot-cfg`: the CFG with instructions.
    Cfg,
    /// `dot-cfg-only`: the CFG with block names only.
    CfgOnly,
    /// `dot-dom`: the dominator tree with instructions.
    Dom,
    /// `dot-dom-only`: the dominator tree with block names only.
    DomOnly,
}

impl DotKind {
    /// The file `opt-19` writes for `func`: `.f.dot`, `dom.f.dot` or `domonly.f.dot`; the CFG
    /// files start with `cfg_prefix` (opt's `-cfg-dot-filename-prefix`, may name a folder).
    pub fn file_name(self, func: &Function, cfg_prefix: &str) -> String {
        let prefix = match self {
            DotKind::Cfg | DotKind::CfgOnly => cfg_prefix,
            DotKind::Dom => "dom",
            DotKind::DomOnly => "domonly",
        };
        format!("{prefix}.{}.dot", function_name(func))
    }

    fn simple(self) -> bool {
        matches!(self, DotKind::CfgOnly | DotKind::DomOnly)
    }
}

/// The printer passes of the pipeline (opt's names): text dumps and Graphviz files.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Printer {
    /// `print<domtree>`: [`super::print::print_domtree`] of every function.
    DomTree,
    /// `print<domfrontier>`: [`super::print::print_domfrontier`] of every function.
    DomFrontier,
    /// `dot-cfg`, `dot-cfg-only`, `dot-dom`, `dot-dom-only`: files in the current directory.
    Dot(DotKind),
}

impl Printer {
    /// The printer named `name` in a `-passes=` pipeline.
    pub fn from_name(name: &str) -> Option<Printer> {
        Some(match name {
            "print<domtree>" => Printer::DomTree,
            "print<domfrontier>" => Printer::DomFrontier,
            "dot-cfg" => Printer::Dot(DotKind::Cfg),
            "dot-cfg-only" => Printer::Dot(DotKind::CfgOnly),
            "dot-dom" => Printer::Dot(DotKind::Dom),
            "dot-dom-only" => Printer::Dot(DotKind::DomOnly),
            _ => return None,
        })
    }

    /// Its name in a pipeline.
    pub fn pass_name(self) -> &'static str {
        match self {
            Printer::DomTree => "print<domtree>",
            Printer::DomFrontier => "print<domfrontier>",
            Printer::Dot(DotKind::Cfg) => "dot-cfg",
            Printer::Dot(DotKind::CfgOnly) => "dot-cfg-only",
            Printer::Dot(DotKind::Dom) => "dot-dom",
            Printer::Dot(DotKind::DomOnly) => "dot-dom-only",
        }
    }

    /// Runs it over `m` in function order: dumps go to `log` (opt writes them to stderr), as do
    /// the `Writing '.f.dot'...` lines of the file writers.
    pub fn run(self, m: &Module, cfg_prefix: &str, log: &mut String) {
        m.functions
            .values()
            .for_each(|f| self.run_function(f, cfg_prefix, log));
    }

    /// Runs the printer on one function: text to `log`, or its `.dot` file written to the
    /// current directory (with opt's `Writing '...'...` line in `log`); `cfg_prefix` as in
    /// [`DotKind::file_name`].
    pub fn run_function(self, func: &Function, cfg_prefix: &str, log: &mut String) {
        match self {
            Printer::DomTree => log.push_str(&print_domtree(func)),
            Printer::DomFrontier => log.push_str(&print_domfrontier(func)),
            // opt-19 skips the dominator-tree writers (not the CFG's) on `optnone` functions.
            Printer::Dot(DotKind::Dom | DotKind::DomOnly) if func.optnone => {}
            Printer::Dot(kind) => write_dot_file(func, kind, cfg_prefix, Path::new("."), log),
        }
    }
}

/// The DOT text of `func`'s graph of kind `kind`.
pub fn function_dot(func: &Function, kind: DotKind) -> String {
    let cfg = llvm_ir::ir::cfg::cfg_of(func);
    let num = Numbering::compute(func);
    let g = Graph {
        func,
        num: &num,
        simple: kind.simple(),
    };
    match kind {
        DotKind::Cfg | DotKind::CfgOnly => g.cfg(&cfg),
        DotKind::Dom | DotKind::DomOnly => g.dom(&DomTree::compute(&cfg)),
    }
}

/// Writes one file per function of `m` into `dir`, as `opt` does, appending `opt`'s
/// `Writing '.f.dot'...` lines (and `  error opening file for writing!` on failure) to `log`.
pub fn write_dot_files(m: &Module, kind: DotKind, cfg_prefix: &str, dir: &Path, log: &mut String) {
    for func in m.functions.values() {
        write_dot_file(func, kind, cfg_prefix, dir, log);
    }
}

/// Writes `func`'s file into `dir`, logging as [`write_dot_files`] does.
pub fn write_dot_file(
    func: &Function,
    kind: DotKind,
    cfg_prefix: &str,
    dir: &Path,
    log: &mut String,
) {
    let name = kind.file_name(func, cfg_prefix);
    let _ = writeln!(log, "Writing '{name}'...");
    if std::fs::write(dir.join(&name), function_dot(func, kind)).is_err() {
        log.push_str("  error opening file for writing!\n");
    }
}

/// One graph being written.
struct Graph<'a> {
    func: &'a Function,
    num: &'a Numbering,
    simple: bool,
}

impl Graph<'_> {
    fn header(&self, title: &str, out: &mut String) {
        let t = escape(&format!(
            "{title} for '{}' function",
            function_name(self.func)
        ));
        let _ = write!(out, "digraph \"{t}\" {{\n\tlabel=\"{t}\";\n\n");
    }

    /// The CFG: blocks in layout order, each followed by its out-edges.
    fn cfg(&self, cfg: &Cfg) -> String {
        let mut out = String::new();
        self.header("CFG", &mut out);
        for &b in cfg.blocks() {
            let ports = edge_labels(self.func, b);
            let fill = if self.has_phi(b) {
                "style=filled,fillcolor=\"#fff2b3\","
            } else {
                ""
            };
            let _ = writeln!(
                out,
                "\t{} [shape=record,{fill}fontname=\"Courier\",label=\"{{{}{}}}\"];",
                node(b),
                self.label(b),
                port_field(&ports)
            );
            for (k, &s) in cfg.succs(b).iter().enumerate() {
                let port = if ports.get(k).is_some_and(|p| !p.is_empty()) {
                    format!(":s{}", k.min(64))
                } else {
                    String::new()
                };
                let _ = writeln!(out, "\t{}{port} -> {};", node(b), node(s));
            }
        }
        out.push_str("}\n");
        out
    }

    /// The dominator tree: nodes in tree preorder, each followed by its child edges.
    fn dom(&self, dt: &DomTree) -> String {
        let mut out = String::new();
        self.header("Dominator tree", &mut out);
        for &b in dt.preorder() {
            let fill = if self.has_phi(b) && !self.simple {
                "style=filled,fillcolor=\"#fff2b3\","
            } else {
                ""
            };
            let _ = writeln!(
                out,
                "\t{} [shape=record,{fill}label=\"{{{}}}\"];",
                node(b),
                self.label(b)
            );
            for &c in dt.children(b) {
                let _ = writeln!(out, "\t{} -> {};", node(b), node(c));
            }
        }
        out.push_str("}\n");
        out
    }

    fn has_phi(&self, b: Block) -> bool {
        !self.simple
            && self
                .func
                .layout
                .first_inst(b)
                .is_some_and(|i| self.func.dfg.opcode(i) == Opcode::Phi)
    }

    /// The escaped label of `b` (without the braces and ports).
    fn label(&self, b: Block) -> String {
        if self.simple {
            return escape(&self.simple_name(b));
        }
        let mut name = Vec::new();
        self.num.write_block_name(self.func, b, &mut name);
        let mut raw = String::from_utf8_lossy(&name).into_owned();
        // LLVM writes the row separator after the label line as `\|` (two columns for the
        // wrapping, one `|` once escaped).
        raw.push_str(":\n\\|");
        let mut phi_lines = 0usize;
        for i in self.func.layout.block_insts(b) {
            if self.func.dfg.opcode(i) == Opcode::DbgRecord {
                continue; // LLVM prints instructions only, not the debug records attached to them
            }
            let text = strip_comments(&self.num.inst_text(self.func, i));
            if self.func.dfg.opcode(i) == Opcode::Phi {
                phi_lines += 1 + text.matches('\n').count();
            }
            raw.push_str("  ");
            raw.push_str(&text);
            raw.push('\n');
        }
        let wrapped = String::from_utf8_lossy(&wrap_lines(raw.as_bytes())).into_owned();
        let label = escape(&wrapped);
        if phi_lines == 0 {
            return label;
        }
        split_rows(&label, &[1 + phi_lines])
    }

    /// LLVM's simple label: the block's name (unquoted, unescaped), or `%N` when unnamed.
    fn simple_name(&self, b: Block) -> String {
        let n = self.func.dfg.blocks[b].name;
        if n.is_none() {
            return self.num.block_ref(self.func, b);
        }
        match self.func.text(n) {
            [b'"', inner @ .., b'"'] => String::from_utf8_lossy(&unescape(inner)).into_owned(),
            raw => String::from_utf8_lossy(raw).into_owned(),
        }
    }
}

/// `Node0x` + the block id in hex.
fn node(b: Block) -> String {
    format!("Node0x{:x}", b.index())
}

/// LLVM's edge source labels of `b`'s successors: `T`/`F` for a conditional `br`, `def` and
/// the case values for a `switch`, empty otherwise.
fn edge_labels(func: &Function, b: Block) -> Vec<String> {
    let Some(t) = func.terminator(b) else {
        return Vec::new();
    };
    let n = func.dfg.inst_blocks(t).len();
    match func.dfg.opcode(t) {
        Opcode::Br if n == 2 => vec!["T".into(), "F".into()],
        Opcode::Switch => {
            let vals = func.dfg.inst_values(t);
            (0..n)
                .map(|k| match k {
                    0 => "def".to_string(),
                    _ => vals.get(k).map_or(String::new(), |&v| case_text(func, v)),
                })
                .collect()
        }
        _ => vec![String::new(); n],
    }
}

/// A switch case value as LLVM prints the `APInt` (signed decimal).
fn case_text(func: &Function, v: llvm_ir::ir::Value) -> String {
    match func.dfg.values[func.dfg.resolve(v)].def {
        ValueDef::Const(t) => match func.text(t) {
            b"true" => "-1".into(),
            b"false" => "0".into(),
            s => String::from_utf8_lossy(s).into_owned(),
        },
        _ => String::new(),
    }
}

/// `|{<s0>T|<s1>F}` when any label is non-empty (at most 64 ports, as LLVM's `GraphWriter`).
fn port_field(labels: &[String]) -> String {
    if labels.iter().all(|l| l.is_empty()) {
        return String::new();
    }
    let mut s = String::from("|{");
    for (k, l) in labels.iter().take(64).enumerate() {
        if k > 0 {
            s.push('|');
        }
        let _ = write!(s, "<s{k}>{}", escape(l));
    }
    if labels.len() > 64 {
        s.push_str("|<s64>truncated...");
    }
    s.push('}');
    s
}

/// `line` without a `;` comment outside double quotes (trailing text of the line only).
fn strip_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut quoted = false;
    let mut skipping = false;
    for c in text.chars() {
        match c {
            '\n' => {
                skipping = false;
                quoted = false;
            }
            _ if skipping => continue,
            '"' => quoted = !quoted,
            ';' if !quoted => {
                skipping = true;
                continue;
            }
            _ => {}
        }
        out.push(c);
    }
    out
}

/// LLVM's `getCompleteNodeLabel` line handling, byte for byte: each `\n` becomes `\l`; a line
/// reaching 80 columns is broken at its last space (or right there) with `\l...`, with LLVM's
/// column bookkeeping (the `l` of a `\l` counts as a column, and characters before a break
/// are counted again). Streaming: only the unfinished tail of a line is kept in a buffer.
fn wrap_lines(raw: &[u8]) -> Vec<u8> {
    const MAX_COLUMNS: usize = 80;
    let mut out = Vec::with_capacity(raw.len() + raw.len() / 8);
    let mut buf: Vec<u8> = Vec::new();
    let mut input = raw.iter();
    // LLVM's `i`, `ColNum` and `LastSpace` (0 there, `None` here, means "no space yet"),
    // as indices into `buf`, the part of LLVM's string not yet moved to `out`.
    let (mut i, mut col, mut last): (usize, usize, Option<usize>) = (0, 0, None);
    loop {
        let keep = last.unwrap_or(i);
        if keep >= 256 {
            out.extend(buf.drain(..keep));
            i -= keep;
            last = last.map(|l| l - keep);
        }
        if i == buf.len() {
            match input.next() {
                Some(&c) => buf.push(c),
                None => break,
            }
        }
        if buf[i] == b'\n' {
            buf[i] = b'\\';
            buf.insert(i + 1, b'l');
            col = 0;
            last = None;
        } else if col == MAX_COLUMNS {
            let l = *last.get_or_insert(i);
            buf.splice(l..l, *b"\\l...");
            col = i - l;
            last = None;
            i += 3;
        } else {
            col += 1;
        }
        if buf[i] == b' ' {
            last = Some(i);
        }
        i += 1;
    }
    out.extend(buf);
    out
}

/// LLVM's `DOT::EscapeString`: `\n` -> `\\n`, tab -> two spaces, `{ } < > | "` escaped, a
/// backslash kept before `l` (a `\l` line end), dropped before `| { }`, escaped otherwise.
pub fn escape(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len() + 16);
    let mut k = 0;
    while k < b.len() {
        let c = b[k];
        match c {
            b'\n' => out.extend_from_slice(b"\\n"),
            b'\t' => out.extend_from_slice(b"  "),
            b'\\' if b.get(k + 1) == Some(&b'l') => out.push(c),
            b'\\' if matches!(b.get(k + 1), Some(b'|' | b'{' | b'}')) => {
                out.push(b[k + 1]);
                k += 1;
            }
            b'\\' | b'{' | b'}' | b'<' | b'>' | b'|' | b'"' => {
                out.push(b'\\');
                out.push(c);
            }
            _ => out.push(c),
        }
        k += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Inserts a `|` record separator after the line ends (`\l` not followed by `...`) numbered
/// `rows` (1-based, increasing).
fn split_rows(label: &str, rows: &[usize]) -> String {
    let b = label.as_bytes();
    let mut out = String::with_capacity(label.len() + rows.len());
    let (mut line, mut next) = (0usize, 0usize);
    let mut start = 0;
    let mut k = 0;
    while k + 1 < b.len() {
        if b[k] == b'\\' && b[k + 1] == b'l' && !b[k + 2..].starts_with(b"...") {
            line += 1;
            if rows.get(next) == Some(&line) {
                out.push_str(&label[start..k + 2]);
                out.push('|');
                start = k + 2;
                next += 1;
            }
            k += 2;
            continue;
        }
        if b[k] == b'\\' {
            k += 1; // an escaped character: skip it too
        }
        k += 1;
    }
    out.push_str(&label[start..]);
    out
}

#[cfg(test)]
mod tests;
