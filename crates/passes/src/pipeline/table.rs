//! The table of passes a `-passes=` pipeline accepts: each pass's names, opt's class name (for
//! `-debug-pass-manager` and `-print-after-all` headers) and a one-line description (for
//! `--help`). Parsing, `--help` and "did you mean" all read this one table, so they cannot
//! drift apart.
//!
//! Invariants: every [`Pass`] value appears exactly once; names are unique across the table.

use super::Pass;
use crate::analysis::dot::{DotKind, Printer};

/// One pass of the table.
#[derive(Clone, Copy, Debug)]
pub struct PassInfo {
    /// The pass.
    pub pass: Pass,
    /// Its name in a pipeline (opt's spelling where opt has the pass).
    pub name: &'static str,
    /// Other names it answers to.
    pub aliases: &'static [&'static str],
    /// opt-19's class name (`PromotePass`), as `-debug-pass-manager` prints it.
    pub class: &'static str,
    /// What it does, in one line.
    pub help: &'static str,
}

const fn info(pass: Pass, name: &'static str, class: &'static str, help: &'static str) -> PassInfo {
    PassInfo {
        pass,
        name,
        aliases: &[],
        class,
        help,
    }
}

/// Every pass a pipeline accepts, in the order `--help` lists them.
pub const PASSES: &[PassInfo] = &[
    info(
        Pass::Mem2Reg,
        "mem2reg",
        "PromotePass",
        "Promote stack slots to SSA values with phis (LLVM's algorithm)",
    ),
    PassInfo {
        pass: Pass::Verify,
        name: "verify",
        aliases: &["require<verify>"],
        class: "VerifierPass",
        help: "Check SSA form and operand types; errors stop the run",
    },
    info(
        Pass::PhiElim,
        "phi-elim",
        "PhiElimPass",
        "Phis become parallel copies on edges, lowered to stack slots",
    ),
    info(
        Pass::Reg2Mem,
        "reg2mem",
        "RegToMemPass",
        "Demote cross-block values and phis to stack slots (LLVM's reg2mem)",
    ),
    info(
        Pass::Debugify,
        "debugify",
        "NewPMDebugifyPass",
        "Synthetic debug info on every instruction (LLVM's debugify)",
    ),
    info(
        Pass::CheckDebugify,
        "check-debugify",
        "NewPMCheckDebugifyPass",
        "Report, on stderr, the locations and variables lost since debugify",
    ),
    info(
        Pass::Print(Printer::DomTree),
        "print<domtree>",
        "DominatorTreePrinterPass",
        "Print each function's dominator tree to stderr (opt's layout)",
    ),
    info(
        Pass::Print(Printer::DomFrontier),
        "print<domfrontier>",
        "DominanceFrontierPrinterPass",
        "Print each function's dominance frontiers to stderr (opt's layout)",
    ),
    info(
        Pass::Print(Printer::Dot(DotKind::Cfg)),
        "dot-cfg",
        "CFGPrinterPass",
        "Write each function's CFG with instructions to .FUNCTION.dot",
    ),
    info(
        Pass::Print(Printer::Dot(DotKind::CfgOnly)),
        "dot-cfg-only",
        "CFGOnlyPrinterPass",
        "Write each function's CFG, block names only, to .FUNCTION.dot",
    ),
    info(
        Pass::Print(Printer::Dot(DotKind::Dom)),
        "dot-dom",
        "DOTGraphTraitsPrinter<llvm::DominatorTreeAnalysis, false>",
        "Write each function's dominator tree with instructions to dom.FUNCTION.dot",
    ),
    info(
        Pass::Print(Printer::Dot(DotKind::DomOnly)),
        "dot-dom-only",
        "DOTGraphTraitsPrinter<llvm::DominatorTreeAnalysis, true>",
        "Write each function's dominator tree, block names only, to domonly.FUNCTION.dot",
    ),
    info(
        Pass::Analyses,
        "analyses",
        "AnalysesPass",
        "CFG, dominator tree, live-in bound and pruned IDF of every slot, computed and dropped",
    ),
];

/// The table's entry for `pass`.
pub fn pass_info(pass: Pass) -> &'static PassInfo {
    PASSES
        .iter()
        .find(|i| i.pass == pass)
        .expect("every pass is in the table")
}

/// The pass named `name` (a name or an alias).
pub fn lookup(name: &str) -> Option<Pass> {
    PASSES
        .iter()
        .find(|i| i.name == name || i.aliases.contains(&name))
        .map(|i| i.pass)
}

/// Every name a pipeline accepts, aliases included, in table order.
pub fn all_names() -> impl Iterator<Item = &'static str> {
    PASSES
        .iter()
        .flat_map(|i| std::iter::once(i.name).chain(i.aliases.iter().copied()))
}

/// The accepted name closest to `name` by edit distance, when it is close enough to be a
/// likely typo (at most a third of the name's length, and at least one edit allowed).
pub fn closest(name: &str) -> Option<&'static str> {
    let limit = (name.chars().count() / 3).max(1);
    all_names()
        .map(|n| (edit_distance(name, n), n))
        .filter(|&(d, _)| d <= limit)
        .min_by_key(|&(d, _)| d)
        .map(|(_, n)| n)
}

/// Levenshtein distance over characters.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diag = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let next = (diag + usize::from(ca != cb))
                .min(row[j] + 1)
                .min(row[j + 1] + 1);
            diag = row[j + 1];
            row[j + 1] = next;
        }
    }
    row[b.len()]
}

/// The `PASSES:` section of `--help`: one line per pass (aliases after a comma), descriptions
/// aligned, wrapped at 100 columns.
pub fn help_text() -> String {
    let heads: Vec<String> = PASSES
        .iter()
        .map(|i| {
            std::iter::once(i.name)
                .chain(i.aliases.iter().copied())
                .collect::<Vec<_>>()
                .join(", ")
        })
        .collect();
    let width = heads.iter().map(|h| h.len()).max().unwrap_or(0).max(24) + 2;
    let mut out = String::new();
    for (h, i) in heads.iter().zip(PASSES) {
        let mut line = format!("  {h:<width$}");
        for word in i.help.split(' ') {
            if line.len() + word.len() > 98 && !line.trim().is_empty() {
                out.push_str(line.trim_end());
                out.push('\n');
                line = " ".repeat(width + 2);
            }
            line.push_str(word);
            line.push(' ');
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_pass_once_and_names_unique() {
        let names: Vec<_> = all_names().collect();
        let mut sorted = names.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), names.len());
        for i in PASSES {
            assert_eq!(lookup(i.name), Some(i.pass));
            assert_eq!(pass_info(i.pass).name, i.name);
        }
    }

    #[test]
    fn typos_find_the_pass() {
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(closest("mem2rg"), Some("mem2reg"));
        assert_eq!(closest("phielim"), Some("phi-elim"));
        assert_eq!(closest("print<domtre>"), Some("print<domtree>"));
        assert_eq!(closest("instcombine"), None);
    }

    #[test]
    fn help_lists_every_name() {
        let help = help_text();
        for n in all_names() {
            assert!(help.contains(n), "{n} missing from\n{help}");
        }
    }
}
