//! Renaming, as steps: the walk over the dominator tree that gives every read the value
//! reaching it (Cytron et al.; LLVM's `RenamePass`). Each variable has a stack of values; a
//! block's φs and writes push, its reads take the top (and the read's own name then stands for
//! that value, so a write of it writes the value), each edge out of the block hands the tops to
//! the φs of the successor, and leaving the block pops what it pushed.
//!
//! Invariants: the walk visits reachable blocks in dominator-tree preorder (children in layout
//! order) with an explicit stack, never recursion; a φ operand from an unreachable predecessor
//! is the lesson's undefined value (as LLVM fills it); at most a caller-given number of steps is
//! recorded (values are still computed for all), and a step shows the top
//! [`SHOWN`] values of each stack.

use std::collections::HashMap;

use serde::Serialize;
use ssa::Block;

use crate::lesson::{Analysis, Kind, Lesson};

/// How many values of each variable's stack a step shows (the top ones).
pub const SHOWN: usize = 6;

/// One step of the walk.
#[derive(Clone, Debug, Serialize)]
pub struct Step {
    /// `enter`, `phi`, `use`, `def`, `edge`, `leave`, `fold`, `done`.
    pub kind: &'static str,
    /// The block visited.
    pub block: String,
    /// What happens, in words.
    pub text: String,
    /// The instruction's line in its block (reads and writes).
    pub line: Option<u32>,
    /// The variable concerned (an index into [`Renaming::vars`]).
    pub var: Option<u32>,
    /// Each variable's stack after the step, bottom to top (the top [`SHOWN`] values).
    pub stacks: Vec<Vec<String>>,
    /// The dominator-tree path from the entry to the block.
    pub path: Vec<String>,
    /// The edge whose φ operands are filled (`edge` steps).
    pub edge: Option<[String; 2]>,
}

/// A φ and the operands renaming gave it.
#[derive(Clone, Debug, Serialize)]
pub struct PhiResult {
    /// Its block.
    pub block: String,
    /// Its variable.
    pub var: String,
    /// Its name in the output (or a stand-in when the pass folded it away).
    pub name: String,
    /// `(predecessor, value)`, in predecessor order.
    pub operands: Vec<[String; 2]>,
    /// Whether the real pass removed it as trivial (all operands one value).
    pub folded: bool,
}

/// The renaming of a lesson.
#[derive(Clone, Debug, Serialize)]
pub struct Renaming {
    /// The variables (the order of [`Step::stacks`]).
    pub vars: Vec<String>,
    /// The steps.
    pub steps: Vec<Step>,
    /// Every φ with its operands.
    pub phis: Vec<PhiResult>,
    /// What each read became: `(block, line, value)`.
    pub reads: Vec<(String, u32, String)>,
    /// Blocks the walk never reaches (their reads give the undefined value).
    pub unreachable: Vec<String>,
    /// Whether some steps were left out (budget spent).
    pub truncated: bool,
}

/// The walk's state.
struct Walk<'a> {
    l: &'a Lesson,
    a: &'a Analysis,
    /// Per block, the variables with a φ there (ascending) and each φ's index in `phis`.
    at: Vec<Vec<(u32, usize)>>,
    phis: Vec<PhiResult>,
    /// The block of each φ.
    phi_block: Vec<Block>,
    stacks: Vec<Vec<String>>,
    /// A read's result name -> the value it read.
    read_as: HashMap<String, String>,
    reads: Vec<(String, u32, String)>,
    path: Vec<Block>,
    steps: Vec<Step>,
    budget: usize,
    truncated: bool,
}

/// Renames `l` with φs at `phis[v]` for variable `v`; `name(block, var)` is the output's
/// name for that φ, `None` if the real pass folded it away. Records at most `budget` steps.
pub fn rename(
    l: &Lesson,
    a: &Analysis,
    phis: &[Vec<Block>],
    name: &dyn Fn(Block, u32) -> Option<String>,
    budget: usize,
) -> Renaming {
    let mut w = Walk {
        l,
        a,
        at: vec![Vec::new(); l.blocks.len()],
        phis: Vec::new(),
        phi_block: Vec::new(),
        stacks: vec![Vec::new(); l.vars.len()],
        read_as: HashMap::new(),
        reads: Vec::new(),
        path: Vec::new(),
        steps: Vec::new(),
        budget,
        truncated: false,
    };
    w.make_phis(phis, name);
    w.walk();
    w.finish();
    let unreachable = (0..l.blocks.len() as u32)
        .filter(|&b| !a.cfg.is_reachable(Block(b)))
        .map(|b| l.blocks[b as usize].clone())
        .collect();
    Renaming {
        vars: l.vars.clone(),
        steps: w.steps,
        phis: w.phis,
        reads: w.reads,
        unreachable,
        truncated: w.truncated,
    }
}

impl Walk<'_> {
    fn make_phis(&mut self, phis: &[Vec<Block>], name: &dyn Fn(Block, u32) -> Option<String>) {
        let mut all: Vec<(Block, u32)> = (phis.iter().enumerate())
            .flat_map(|(v, bs)| bs.iter().map(move |&b| (b, v as u32)))
            .collect();
        all.sort_unstable();
        for (b, v) in all {
            let out = name(b, v);
            let stand_in = format!("φ{}@{}", self.l.vars[v as usize], self.l.name(b));
            self.at[b.index()].push((v, self.phis.len()));
            self.phi_block.push(b);
            self.phis.push(PhiResult {
                block: self.l.name(b).into(),
                var: self.l.vars[v as usize].clone(),
                folded: out.is_none(),
                name: out.unwrap_or(stand_in),
                operands: Vec::new(),
            });
        }
    }

    /// Dominator-tree preorder with an explicit stack of (block, next child, pushes made).
    fn walk(&mut self) {
        let mut stack: Vec<(Block, usize, Vec<u32>)> = vec![(Block(0), 0, Vec::new())];
        self.enter(Block(0), &mut stack[0].2);
        while let Some((b, next, _)) = stack.last_mut() {
            let (b, k) = (*b, *next);
            *next += 1;
            match self.a.children(b).get(k) {
                Some(&c) => {
                    let mut pushed = Vec::new();
                    self.enter(c, &mut pushed);
                    stack.push((c, 0, pushed));
                }
                None => {
                    let (_, _, pushed) = stack.pop().unwrap_or((b, 0, Vec::new()));
                    self.leave(b, &pushed);
                }
            }
        }
    }

    fn enter(&mut self, b: Block, pushed: &mut Vec<u32>) {
        self.path.push(b);
        let via = match self.a.dt.idom(b) {
            Some(p) => format!(" (its immediate dominator is {})", self.l.name(p)),
            None => {
                " (the entry: every stack starts empty, which reads as the undefined value)".into()
            }
        };
        self.step(
            "enter",
            b,
            format!("Visit {}{via}.", self.l.name(b)),
            None,
            None,
        );
        for (v, k) in self.at[b.index()].clone() {
            let phi = self.phis[k].name.clone();
            self.stacks[v as usize].push(phi.clone());
            pushed.push(v);
            let text = format!(
                "The φ {phi} at {} is a new value of {}: push it.",
                self.l.name(b),
                self.l.vars[v as usize]
            );
            self.step("phi", b, text, None, Some(v));
        }
        for e in &self.l.events[b.index()] {
            let var = &self.l.vars[e.var as usize];
            match e.kind {
                Kind::Use => {
                    let top = self.top(e.var);
                    self.read_as.insert(e.text.clone(), top.clone());
                    self.reads
                        .push((self.l.name(b).into(), e.line, top.clone()));
                    let text = format!(
                        "{} reads {var}: the top of its stack is {top}, so {0} becomes {top}.",
                        e.text
                    );
                    self.step("use", b, text, Some(e.line), Some(e.var));
                }
                Kind::Def => {
                    let val = self
                        .read_as
                        .get(&e.text)
                        .cloned()
                        .unwrap_or_else(|| e.text.clone());
                    let shown = match val == e.text {
                        true => val.clone(),
                        false => format!("{} (that is, {val})", e.text),
                    };
                    self.stacks[e.var as usize].push(val);
                    pushed.push(e.var);
                    self.step(
                        "def",
                        b,
                        format!("Write {shown} to {var}: push it."),
                        Some(e.line),
                        Some(e.var),
                    );
                }
            }
        }
        self.edges_out(b);
    }

    /// Hands the top values to the φs of each distinct successor.
    fn edges_out(&mut self, b: Block) {
        let mut seen = Vec::new();
        for &s in self.a.cfg.succs(b) {
            if seen.contains(&s) || self.at[s.index()].is_empty() {
                continue;
            }
            seen.push(s);
            let mut parts = Vec::new();
            for (v, k) in self.at[s.index()].clone() {
                let top = self.top(v);
                parts.push(format!("{} gets {top}", self.phis[k].name));
                self.phis[k].operands.push([self.l.name(b).into(), top]);
            }
            let text = format!(
                "Edge {} → {}: {}.",
                self.l.name(b),
                self.l.name(s),
                parts.join(", ")
            );
            let edge = Some([self.l.name(b).to_string(), self.l.name(s).to_string()]);
            self.record("edge", b, text, None, None, edge);
        }
    }

    fn leave(&mut self, b: Block, pushed: &[u32]) {
        for &v in pushed {
            self.stacks[v as usize].pop();
        }
        let text = match pushed.is_empty() {
            true => format!("Leave {}: it pushed nothing.", self.l.name(b)),
            false => format!(
                "Leave {}: pop the {} value(s) it pushed.",
                self.l.name(b),
                pushed.len()
            ),
        };
        self.step("leave", b, text, None, None);
        self.path.pop();
    }

    /// Operands from unreachable predecessors, operand order, and the folded φs' steps.
    fn finish(&mut self) {
        let undef = self.l.undef.clone();
        for (p, &b) in self.phis.iter_mut().zip(&self.phi_block) {
            let mut ops = Vec::new();
            for &q in self.a.cfg.distinct_preds(b) {
                let qn = self.l.name(q);
                let v = (p.operands.iter().find(|o| o[0] == qn))
                    .map_or_else(|| undef.clone(), |o| o[1].clone());
                ops.push([qn.to_string(), v]);
            }
            p.operands = ops;
        }
        for k in 0..self.phis.len() {
            if self.phis[k].folded {
                let p = &self.phis[k];
                let text = format!("{} at {} is trivial (its operands are {}): the pass removes it and its uses read that value.", p.name, p.block,
                    p.operands.iter().map(|o| o[1].as_str()).collect::<Vec<_>>().join(", "));
                self.step("fold", self.phi_block[k], text, None, None);
            }
        }
        let text = format!(
            "Done: {} reads renamed, {} φs filled in.",
            self.reads.len(),
            self.phis.len()
        );
        self.step("done", Block(0), text, None, None);
    }

    /// The dominator-tree path's names: its last [`crate::placement::SHOWN`], after a
    /// `… N more` entry when longer.
    fn path_names(&self) -> Vec<String> {
        let start = self.path.len().saturating_sub(crate::placement::SHOWN);
        let mut v = self.l.names(&self.path[start..]);
        if start > 0 {
            v.insert(0, format!("… {start} more"));
        }
        v
    }

    fn top(&self, v: u32) -> String {
        self.stacks[v as usize]
            .last()
            .cloned()
            .unwrap_or_else(|| self.l.undef.clone())
    }

    fn step(
        &mut self,
        kind: &'static str,
        b: Block,
        text: String,
        line: Option<u32>,
        var: Option<u32>,
    ) {
        self.record(kind, b, text, line, var, None)
    }

    fn record(
        &mut self,
        kind: &'static str,
        b: Block,
        text: String,
        line: Option<u32>,
        var: Option<u32>,
        edge: Option<[String; 2]>,
    ) {
        if self.steps.len() >= self.budget {
            self.truncated = true;
            return;
        }
        let stacks = (self.stacks.iter())
            .map(|s| s[s.len().saturating_sub(SHOWN)..].to_vec())
            .collect();
        self.steps.push(Step {
            kind,
            block: self.l.name(b).into(),
            text,
            line,
            var,
            stacks,
            path: self.path_names(),
            edge,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lesson::tests_support::looped;

    #[test]
    fn loop_phi_gets_entry_and_back_edge_values() {
        let l = looped();
        let a = Analysis::new(&l).unwrap();
        let r = rename(&l, &a, &[vec![Block(1)]], &|_, _| Some("i.0".into()), 1000);
        assert_eq!(r.phis.len(), 1);
        let ops: Vec<_> = r.phis[0]
            .operands
            .iter()
            .map(|o| (o[0].as_str(), o[1].as_str()))
            .collect();
        assert_eq!(ops, [("entry", "0"), ("loop", "t2")]);
        let reads: Vec<_> = r.reads.iter().map(|r| r.2.as_str()).collect();
        assert_eq!(reads, ["i.0", "t2"]);
        let kinds: Vec<_> = r.steps.iter().map(|s| s.kind).collect();
        assert_eq!(
            kinds,
            [
                "enter", "def", "edge", "enter", "phi", "use", "def", "edge", "enter", "use",
                "leave", "leave", "leave", "done"
            ]
        );
        assert!(!r.truncated);
        let short = rename(&l, &a, &[vec![Block(1)]], &|_, _| None, 2);
        assert!(short.truncated && short.steps.len() == 2);
        assert!(short.phis[0].folded);
    }
}
