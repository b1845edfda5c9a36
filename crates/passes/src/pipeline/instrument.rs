//! opt's pass instrumentation, and the source order of `--explain`.
//!
//! - `-debug-pass-manager`: `Running pass: PromotePass on f (4 instructions)` before each pass
//!   (`on [module]` for module passes), as opt-19 prints it (opt's analysis lines aside).
//! - `-print-before-all` / `-print-after-all`: `; *** IR Dump Before PromotePass on f ***` and
//!   the function's text (the whole module's for module passes). As in opt, the verifier is
//!   not dumped.
//!
//! All of it goes to the report's `printed` text in the order the passes ran, so it
//! interleaves with printer passes' output as opt's stderr does.
//!
//! `--explain` paragraphs are written as mem2reg decides (fast paths first, slots left in
//! memory last); [`SourceOrder`] re-sorts one function's paragraphs into source order
//! (`byval` arguments, then allocas in layout order), keeping each slot's paragraphs in order.

use std::fmt::Write;

use llvm_ir::ir::{Function, Inst, Opcode};

use super::{table, Pass, RunOptions};

/// When a dump is taken.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum When {
    /// `-print-before-all`.
    Before,
    /// `-print-after-all`.
    After,
}

/// The number of instructions in `f`'s body.
fn inst_count(f: &Function) -> usize {
    f.layout
        .blocks()
        .map(|b| f.layout.block_insts(b).count())
        .sum()
}

/// opt's `-debug-pass-manager` line for a function pass.
pub fn running_line(pass: Pass, f: &Function) -> String {
    let n = inst_count(f);
    let s = if n == 1 { "" } else { "s" };
    format!(
        "Running pass: {} on {} ({n} instruction{s})\n",
        table::pass_info(pass).class,
        f.name_str()
    )
}

/// opt's `-debug-pass-manager` line for a module pass.
pub fn running_module_line(pass: Pass) -> String {
    format!(
        "Running pass: {} on [module]\n",
        table::pass_info(pass).class
    )
}

/// The header of a dump: `; *** IR Dump After PromotePass on f ***` (`unit`: the function's
/// name, or `[module]`).
pub fn dump_header(pass: Pass, when: When, unit: &str) -> String {
    let w = match when {
        When::Before => "Before",
        When::After => "After",
    };
    format!(
        "; *** IR Dump {w} {} on {unit} ***\n",
        table::pass_info(pass).class
    )
}

/// Whether `pass` is dumped `when` under `opts` (never the verifier, as in opt).
pub fn dumps(pass: Pass, when: When, opts: &RunOptions) -> bool {
    let on = match when {
        When::Before => opts.print_before_all,
        When::After => opts.print_after_all,
    };
    on && pass != Pass::Verify
}

/// Writes what the instrumentation shows for function pass `pass` on `f` `when` into `out`.
pub fn function_pass(f: &Function, pass: Pass, when: When, opts: &RunOptions, out: &mut String) {
    if f.layout.num_blocks() == 0 {
        return;
    }
    // opt dumps before the pass, then says it runs it.
    if dumps(pass, when, opts) {
        out.push_str(&dump_header(pass, when, &f.name_str()));
        let mut text = Vec::new();
        llvm_ir::print::print_function(f, &mut text);
        out.push_str(&String::from_utf8_lossy(&text));
    }
    if when == When::Before && opts.debug_pass_manager {
        out.push_str(&running_line(pass, f));
    }
}

/// The source position of each slot of one function, taken before mem2reg runs, to sort its
/// `--explain` paragraphs.
pub struct SourceOrder {
    /// `(name as the input spells it, position)`: arguments first, then allocas.
    before: Vec<(String, usize)>,
    /// The allocas, with their positions (named again after the pass: slots left in memory
    /// are explained under the names the output gives them).
    allocas: Vec<(Inst, usize)>,
}

impl SourceOrder {
    /// Records `f`'s arguments and allocas.
    pub fn take(f: &Function) -> Self {
        let num = llvm_ir::print::Numbering::compute(f);
        let mut before: Vec<(String, usize)> = f
            .params
            .iter()
            .enumerate()
            .map(|(k, &p)| (num.value_ref(f, p), k))
            .collect();
        let mut allocas = Vec::new();
        for b in f.layout.blocks() {
            for i in f.layout.block_insts(b) {
                if f.dfg.insts[i].opcode == Opcode::Alloca {
                    let pos = f.params.len() + allocas.len();
                    if let Some(r) = f.dfg.insts[i].result.expand() {
                        before.push((num.value_ref(f, r), pos));
                    }
                    allocas.push((i, pos));
                }
            }
        }
        Self { before, allocas }
    }

    /// Sorts `text` (one function's paragraphs, each a line `F: SLOT...` and its indented
    /// continuation lines) into source order; `f` is the function after the pass.
    pub fn sort(&self, f: &Function, text: &str) -> String {
        let num = llvm_ir::print::Numbering::compute(f);
        let params = f.params.iter().enumerate();
        let mut after: Vec<(String, usize)> =
            params.map(|(k, &p)| (num.value_ref(f, p), k)).collect();
        after.extend(
            (self.allocas.iter())
                .filter(|(i, _)| f.layout.is_inst_inserted(*i))
                .filter_map(|&(i, pos)| {
                    Some((num.value_ref(f, f.dfg.insts[i].result.expand()?), pos))
                }),
        );
        let prefix = format!("{}: ", f.name_str());
        let mut paras: Vec<(usize, String)> = Vec::new();
        for line in text.split_inclusive('\n') {
            match (line.starts_with(' '), paras.last_mut()) {
                (true, Some(last)) => last.1.push_str(line),
                _ => {
                    let rest = line.strip_prefix(&prefix).unwrap_or(line);
                    let left = rest.contains(": stays in memory: ");
                    let names = if left { &after } else { &self.before };
                    paras.push((position(names, rest), line.to_string()));
                }
            }
        }
        paras.sort_by_key(|p| p.0);
        let mut out = String::with_capacity(text.len());
        for (_, p) in paras {
            let _ = write!(out, "{p}");
        }
        out
    }
}

/// The position of the slot `rest` (`%x: ...` or `%x (byval argument): ...`) names; unknown
/// slots go last.
fn position(names: &[(String, usize)], rest: &str) -> usize {
    names
        .iter()
        .filter(|(n, _)| {
            rest.strip_prefix(n.as_str())
                .is_some_and(|t| t.starts_with(": ") || t.starts_with(" ("))
        })
        .max_by_key(|(n, _)| n.len())
        .map_or(usize::MAX, |&(_, pos)| pos)
}
