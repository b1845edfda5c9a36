//! What a front end hands the model builder ([`crate::api`]): the lesson (the function before
//! SSA), the function after each pass as text and as blocks, the SSA function for phi
//! elimination, the names the real pass gave its φs, and the counts of every flavour. Also the
//! request options both front ends read, and the error a user sees.
//!
//! Invariants: stage 0 is the input, stage 1 the function in SSA form, stage 2 after phi
//! elimination; `Stage::lines` and `Stage::blocks` have one entry per block, in layout order;
//! the input stage's blocks are the lesson's.

use std::collections::HashMap;

use serde::Serialize;

use crate::destruct::SsaFn;
use crate::lesson::Lesson;
use crate::picture::Line;
use crate::placement::Flavour;

/// The pass options a request may set (defaults: the command line's).
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// SSA flavour.
    pub flavour: Flavour,
    /// Promote only slots of the entry block (LLVM only).
    pub entry_only: bool,
    /// Leave the costliest slots in memory while φ operands exceed this (LLVM only).
    pub phi_copy_limit: Option<u64>,
    /// Promote at most this many variables (while-language only).
    pub max_promoted: Option<usize>,
    /// Remove trivial φs (while-language only; LLVM's mem2reg always does).
    pub fold: bool,
    /// Phi elimination's output: `copies` (readable, the library form) or `slots` (LLVM IR
    /// with stack slots, what the command line prints).
    pub lowering: String,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            flavour: Flavour::Pruned,
            entry_only: false,
            phi_copy_limit: None,
            max_promoted: None,
            fold: true,
            lowering: "copies".into(),
        }
    }
}

/// An error to show the user: a message, and a position in the input when there is one.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct UserError {
    /// One line.
    pub message: String,
    /// 1-based line, when the error is at a place in the input.
    pub line: Option<usize>,
    /// 1-based column.
    pub col: Option<usize>,
    /// The command line's rendering (`input.ll:3:7: error: ...`, the line, a caret).
    pub rendered: String,
}

impl UserError {
    /// An error without a position.
    pub fn plain(message: impl Into<String>) -> Self {
        let message = message.into();
        UserError {
            rendered: format!("error: {message}\n"),
            message,
            line: None,
            col: None,
        }
    }
}

/// The function at one stage.
#[derive(Clone, Debug, Default)]
pub struct Stage {
    /// `input`, `ssa`, `out`.
    pub id: &'static str,
    /// A title for the page.
    pub title: String,
    /// The printed function.
    pub text: String,
    /// Block names, layout order.
    pub blocks: Vec<String>,
    /// Each block's key: the name of the input block it is (passes renumber unnamed LLVM
    /// blocks), or its own name for a block a pass added. Views link blocks by key.
    pub keys: Vec<String>,
    /// Each block's lines.
    pub lines: Vec<Vec<Line>>,
    /// Edges (block indices).
    pub edges: Vec<(u32, u32)>,
}

/// Counts for one flavour.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct FlavourCount {
    /// `minimal`, `semi-pruned`, `pruned`.
    pub flavour: &'static str,
    /// φs in the SSA form.
    pub phis: usize,
    /// Copies phi elimination makes.
    pub copies: usize,
    /// Temporaries phi elimination needs.
    pub temps: usize,
    /// Variables (slots) promoted.
    pub promoted: usize,
    /// Variables (slots) left in memory.
    pub left: usize,
}

/// A front end's result (see the module docs).
#[derive(Default)]
pub struct Front {
    /// `llvm` or `while`.
    pub lang: &'static str,
    /// The functions of the input (one for the while-language).
    pub functions: Vec<String>,
    /// The function shown.
    pub function: String,
    /// The function before SSA.
    pub lesson: Lesson,
    /// Whether the real pass takes LLVM's fast paths (pruned SSA on LLVM IR): placement then
    /// says which variables need no φ search ([`crate::placement::fast_path`]).
    pub fast_paths: bool,
    /// Input, SSA, after phi elimination.
    pub stages: Vec<Stage>,
    /// The SSA function, for phi elimination's steps.
    pub ssa: SsaFn,
    /// `(block, variable)` -> the name the real pass gave that φ (absent: folded away); the
    /// LLVM front end leaves it empty ([`crate::llvm::phi_names`] matches names after
    /// placement).
    pub phi_names: HashMap<(u32, u32), String>,
    /// Per flavour.
    pub counts: Vec<FlavourCount>,
    /// Remarks for the page (slots left in memory, ...).
    pub notes: Vec<String>,
}

/// Replaces the word `from` by `to` in `s` wherever it stands alone (not inside a longer
/// identifier), for showing variables by name.
pub fn replace_word(s: &str, from: &str, to: &str) -> String {
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '.';
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(i) = rest.find(from) {
        let before = rest[..i].chars().next_back();
        let after = rest[i + from.len()..].chars().next();
        out.push_str(&rest[..i]);
        match before.is_some_and(ident) || after.is_some_and(ident) {
            true => out.push_str(from),
            false => out.push_str(to),
        }
        rest = &rest[i + from.len()..];
    }
    out.push_str(rest);
    out
}

/// Marks as `copy` each line of `out` that its block in `ssa` lacks (what phi elimination
/// added), and every non-terminator line of a block `ssa` lacks (a split edge's block).
pub fn mark_added(ssa: &Stage, out: &mut Stage) {
    let index: HashMap<&str, usize> = ssa
        .keys
        .iter()
        .enumerate()
        .map(|(k, key)| (key.as_str(), k))
        .collect();
    for (key, lines) in out.keys.iter().zip(out.lines.iter_mut()) {
        let before: std::collections::HashSet<&str> = index
            .get(key.as_str())
            .map(|&k| ssa.lines[k].iter().map(|l| l.text.as_str()).collect())
            .unwrap_or_default();
        for l in lines.iter_mut() {
            if !before.contains(l.text.as_str()) && l.kind != "term" {
                l.kind = "copy";
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replaces_whole_words_only() {
        assert_eq!(replace_word("t1 = read v1", "v1", "x"), "t1 = read x");
        assert_eq!(replace_word("write v10, v1", "v1", "x"), "write v10, x");
        assert_eq!(UserError::plain("bad").rendered, "error: bad\n");
    }
}
