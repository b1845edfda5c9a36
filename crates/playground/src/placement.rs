//! Phi placement, one variable at a time, as steps a student can follow: the variable's
//! definition blocks, its upward-exposed uses and live-in blocks, then the classic worklist of
//! Cytron et al. (the form of [`ssa::idf::idf_worklist`]): take a block from the worklist, look
//! at its dominance frontier, place a φ at each frontier block not yet given one (pruned SSA:
//! only where the variable is live on entry), and put each new φ's block on the worklist,
//! since a φ is a new definition.
//!
//! Invariants: the φ blocks of a variable are exactly
//! `idf_worklist(cfg, df, defs, live-in restriction)` for its flavour (a test checks it);
//! lists are in layout order; steps are deterministic (the worklist is a stack, as in
//! `idf_worklist`); at most a caller-given number of steps is recorded in all (the rest is
//! summarised), so a 10,000-block function cannot produce a huge answer.

use serde::Serialize;
use ssa::idf::{idf_worklist, iterated_frontier, BlockSet};
use ssa::liveness::LiveInCalculator;
use ssa::Block;

use crate::lesson::{Analysis, Kind, Lesson};

/// Which SSA form is built.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum Flavour {
    /// Cytron et al.: a φ at every block of the iterated frontier of the definitions.
    Minimal,
    /// Briggs et al.: as minimal, for variables read before written in some block only.
    SemiPruned,
    /// Only where the variable is live on entry (LLVM's choice).
    #[default]
    Pruned,
}

impl Flavour {
    /// All three, from the most φs to the fewest.
    pub const ALL: [Flavour; 3] = [Flavour::Minimal, Flavour::SemiPruned, Flavour::Pruned];

    /// `minimal`, `semi-pruned`, `pruned` (the command line's `--ssa` spelling).
    pub fn name(self) -> &'static str {
        match self {
            Flavour::Minimal => "minimal",
            Flavour::SemiPruned => "semi-pruned",
            Flavour::Pruned => "pruned",
        }
    }

    /// The flavour named `s` (see [`Flavour::name`]).
    pub fn from_name(s: &str) -> Option<Flavour> {
        Flavour::ALL.into_iter().find(|f| f.name() == s)
    }
}

/// One step of a variable's placement.
#[derive(Clone, Debug, Serialize)]
pub struct Step {
    /// `start`, `pop`, `place`, `prune`, `again`, `skip`, `fast`, `done`.
    pub kind: &'static str,
    /// The block the step is about, if any.
    pub block: Option<String>,
    /// What happens, in words.
    pub text: String,
    /// The worklist after the step (its top last).
    pub worklist: Vec<String>,
    /// The φ blocks so far.
    pub phis: Vec<String>,
    /// The blocks pruned so far.
    pub pruned: Vec<String>,
    /// The frontier being scanned (`pop` and the steps after it).
    pub frontier: Vec<String>,
}

/// A frontier block that gets no φ, and why.
#[derive(Clone, Debug, Serialize)]
pub struct Pruned {
    /// The block.
    pub block: String,
    /// Why it gets no φ.
    pub why: String,
}

/// The placement of one variable.
#[derive(Clone, Debug, Serialize)]
pub struct VarPlacement {
    /// The variable.
    pub var: String,
    /// Blocks that write it.
    pub defs: Vec<String>,
    /// Blocks that read it before any write in the block (upward-exposed uses).
    pub uses: Vec<String>,
    /// Blocks it is live on entry to.
    pub live_in: Vec<String>,
    /// The iterated dominance frontier of `defs`.
    pub idf: Vec<String>,
    /// Where its φs go.
    pub phis: Vec<String>,
    /// Frontier blocks without a φ, and why.
    pub pruned: Vec<Pruned>,
    /// The fast path LLVM's mem2reg takes for it instead (no φs), if any.
    pub fast_path: Option<String>,
    /// The steps (empty once the step budget is spent).
    pub steps: Vec<Step>,
}

/// Placement of every variable.
#[derive(Clone, Debug, Serialize)]
pub struct Placement {
    /// The SSA flavour.
    pub flavour: &'static str,
    /// Per variable, in the lesson's order.
    pub vars: Vec<VarPlacement>,
    /// Whether some steps were left out (budget spent).
    pub truncated: bool,
}

/// Places φs for every variable of `l` (see the module docs). `fast[v]` names the fast path the
/// real pass took for variable `v`, if any; at most `budget` steps are recorded in all.
pub fn place_all(
    l: &Lesson,
    a: &Analysis,
    flavour: Flavour,
    fast: &[Option<String>],
    budget: usize,
) -> Placement {
    let mut live = LiveInCalculator::new(&a.cfg);
    let mut left = budget;
    let mut truncated = false;
    let mut vars = Vec::with_capacity(l.vars.len());
    for v in 0..l.vars.len() {
        let (defs, uses) = gather(l, v as u32);
        let mut live_in = Vec::new();
        let set = live.compute(&defs, &uses, &mut live_in).clone();
        live_in.sort_unstable();
        let cx = Cx {
            l,
            a,
            var: &l.vars[v],
            defs: &defs,
            live: &set,
            flavour,
            local: uses.is_empty(),
            budget: left,
        };
        let mut r = cx.replay(fast.get(v).cloned().flatten());
        if r.steps.len() >= left {
            r.steps.clear();
            truncated = true;
            left = 0;
        }
        left -= r.steps.len();
        vars.push(VarPlacement {
            var: l.vars[v].clone(),
            defs: l.names(&defs),
            uses: l.names(&uses),
            live_in: l.names(&live_in),
            idf: l.names(&iterated_frontier(&a.cfg, &a.dt, &defs, None)),
            ..r
        });
    }
    Placement {
        flavour: flavour.name(),
        vars,
        truncated,
    }
}

/// The φ blocks of variable `v` by the library's worklist ([`idf_worklist`]), for the tests.
pub fn oracle(l: &Lesson, a: &Analysis, flavour: Flavour, v: u32) -> Vec<Block> {
    let (defs, uses) = gather(l, v);
    let mut live = LiveInCalculator::new(&a.cfg);
    let set = live.compute(&defs, &uses, &mut Vec::new()).clone();
    match flavour {
        Flavour::Minimal => idf_worklist(&a.cfg, &a.df, &defs, None),
        Flavour::SemiPruned if uses.is_empty() => Vec::new(),
        Flavour::SemiPruned => idf_worklist(&a.cfg, &a.df, &defs, None),
        Flavour::Pruned => idf_worklist(&a.cfg, &a.df, &defs, Some(&set)),
    }
}

/// The fast path LLVM's mem2reg takes for variable `v` of `l` instead of placing φs, if any
/// (its `PromoteMemToReg` rules): no loads or stores; a single store dominating every load; or
/// every access in one block with no load before the first store.
pub fn fast_path(l: &Lesson, a: &Analysis, v: u32) -> Option<String> {
    let acc: Vec<(Block, &crate::lesson::Event)> = (l.events.iter().enumerate())
        .flat_map(|(b, es)| {
            es.iter()
                .filter(move |e| e.var == v)
                .map(move |e| (Block(b as u32), e))
        })
        .collect();
    let defs: Vec<_> = acc.iter().filter(|x| x.1.kind == Kind::Def).collect();
    if acc.is_empty() {
        return Some("no loads or stores (the slot is deleted)".into());
    }
    if let [(db, d)] = defs[..] {
        let dominated = |(ub, u): &(Block, &crate::lesson::Event)| match *ub == *db {
            true => u.line > d.line,
            false => a.dt.strictly_dominates(*db, *ub),
        };
        if acc.iter().filter(|x| x.1.kind == Kind::Use).all(dominated) {
            return Some("one store, dominating every load (loads take the stored value)".into());
        }
    }
    let one_block = acc.iter().all(|x| x.0 == acc[0].0);
    let use_first = acc[0].1.kind == Kind::Use;
    (one_block && (!use_first || defs.is_empty()))
        .then(|| "used in one block only (each load takes the store before it)".into())
}

/// The blocks that write `v` and those that read it before writing it, in layout order.
fn gather(l: &Lesson, v: u32) -> (Vec<Block>, Vec<Block>) {
    let (mut defs, mut uses) = (Vec::new(), Vec::new());
    for (b, evs) in l.events.iter().enumerate() {
        let mut mine = evs.iter().filter(|e| e.var == v);
        let Some(first) = mine.next() else { continue };
        if first.kind == Kind::Use {
            uses.push(Block(b as u32));
        }
        if first.kind == Kind::Def || mine.any(|e| e.kind == Kind::Def) {
            defs.push(Block(b as u32));
        }
    }
    (defs, uses)
}

/// One variable's replay.
struct Cx<'a> {
    l: &'a Lesson,
    a: &'a Analysis,
    var: &'a str,
    defs: &'a [Block],
    live: &'a dyn BlockSet,
    flavour: Flavour,
    /// No upward-exposed use: the variable does not live across blocks.
    local: bool,
    /// Steps left to record; past it, none are (the caller drops the partial list).
    budget: usize,
}

/// The worklist's state.
#[derive(Default)]
struct State {
    work: Vec<Block>,
    phis: Vec<Block>,
    pruned: Vec<Block>,
    frontier: Vec<Block>,
    steps: Vec<Step>,
}

impl Cx<'_> {
    /// Runs the worklist, recording steps; returns the result fields of a [`VarPlacement`].
    fn replay(&self, fast: Option<String>) -> VarPlacement {
        let mut s = State::default();
        let n = self.a.cfg.num_block_ids();
        let (mut is_def, mut added, mut seen_pruned) =
            (vec![false; n], vec![false; n], vec![false; n]);
        if let Some(what) = &fast {
            let text = format!("LLVM's mem2reg takes a fast path for {}: {what}. No φ is needed; the classic algorithm below agrees.", self.var);
            self.step(&mut s, "fast", None, text);
        }
        for &d in self.defs {
            if self.a.cfg.is_reachable(d) && !is_def[d.index()] {
                is_def[d.index()] = true;
                s.work.push(d);
            }
        }
        let start = format!(
            "{} is written in {}: they start the worklist.",
            self.var,
            self.list(self.defs)
        );
        self.step(&mut s, "start", None, start);
        if self.flavour == Flavour::SemiPruned && self.local {
            let text = format!("{} is never read before it is written in a block, so it does not live across blocks: semi-pruned SSA gives it no φ.", self.var);
            s.work.clear();
            self.step(&mut s, "skip", None, text);
        }
        let mut why = Vec::new();
        while let Some(x) = s.work.pop() {
            s.frontier = self.a.frontier(x);
            let text = format!(
                "Take {} from the worklist. DF({0}) = {{{}}}.",
                self.l.name(x),
                self.list(&s.frontier)
            );
            self.step(&mut s, "pop", Some(x), text);
            for y in s.frontier.clone() {
                let yn = self.l.name(y);
                if added[y.index()] {
                    let text = format!("{yn} already has a φ for {}.", self.var);
                    self.step(&mut s, "again", Some(y), text);
                } else if self.flavour == Flavour::Pruned && !self.live.contains_block(y) {
                    if !seen_pruned[y.index()] {
                        seen_pruned[y.index()] = true;
                        s.pruned.push(y);
                        why.push((
                            y,
                            Pruned {
                                block: yn.to_string(),
                                why: self.pruned_why(),
                            },
                        ));
                    }
                    let text = format!("{yn} is in the frontier, but {}: pruned, no φ (and nothing flows on from it).", self.pruned_why());
                    self.step(&mut s, "prune", Some(y), text);
                } else {
                    added[y.index()] = true;
                    s.phis.push(y);
                    let text = match is_def[y.index()] {
                        true => format!("Place a φ for {} at {yn} ({yn} already writes {0}, so it is on the worklist already).", self.var),
                        false => {
                            s.work.push(y);
                            format!("Place a φ for {} at {yn}. The φ is a new write of {0}: {yn} joins the worklist.", self.var)
                        }
                    };
                    self.step(&mut s, "place", Some(y), text);
                }
            }
        }
        s.frontier.clear();
        s.phis.sort_unstable();
        s.pruned.sort_unstable();
        let done = match s.phis.is_empty() {
            true => format!("Done: {} needs no φ.", self.var),
            false => format!("Done: φs for {} at {}.", self.var, self.list(&s.phis)),
        };
        self.step(&mut s, "done", None, done);
        if self.flavour == Flavour::SemiPruned && self.local {
            let local = |b: Block| Pruned {
                block: self.l.name(b).into(),
                why: "semi-pruned: not live across blocks".into(),
            };
            why = self.a_idf().into_iter().map(|b| (b, local(b))).collect();
        }
        why.sort_by_key(|p| p.0);
        VarPlacement {
            var: String::new(),
            defs: Vec::new(),
            uses: Vec::new(),
            live_in: Vec::new(),
            idf: Vec::new(),
            phis: self.l.names(&s.phis),
            pruned: why.into_iter().map(|p| p.1).collect(),
            fast_path: fast,
            steps: s.steps,
        }
    }

    fn a_idf(&self) -> Vec<Block> {
        iterated_frontier(&self.a.cfg, &self.a.dt, self.defs, None)
    }

    fn pruned_why(&self) -> String {
        format!(
            "{} is not live on entry to it (no path from it reads {0} before writing it)",
            self.var
        )
    }

    fn list(&self, bs: &[Block]) -> String {
        self.l.names(bs).join(", ")
    }

    fn step(&self, s: &mut State, kind: &'static str, block: Option<Block>, text: String) {
        if s.steps.len() >= self.budget {
            return;
        }
        let sorted = |v: &Vec<Block>| {
            let mut v = v.clone();
            v.sort_unstable();
            capped(self.l.names(&v), false)
        };
        let (phis, pruned) = (sorted(&s.phis), sorted(&s.pruned));
        s.steps.push(Step {
            kind,
            block: block.map(|b| self.l.name(b).to_string()),
            text,
            worklist: capped(self.l.names(&s.work), true),
            phis,
            pruned,
            frontier: capped(self.l.names(&s.frontier), false),
        });
    }
}

/// How many names a step's list shows.
pub const SHOWN: usize = 40;

/// `names`, at most [`SHOWN`] of them: the first ones, or with `top` the last ones (the top of
/// a stack); a `… N more` entry stands for the rest.
pub fn capped(mut names: Vec<String>, top: bool) -> Vec<String> {
    if names.len() <= SHOWN {
        return names;
    }
    let more = format!("… {} more", names.len() - SHOWN);
    match top {
        true => {
            names.drain(..names.len() - SHOWN);
            names.insert(0, more);
        }
        false => {
            names.truncate(SHOWN);
            names.push(more);
        }
    }
    names
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lesson::tests_support::looped;

    #[test]
    fn loop_counter_gets_a_phi_at_the_header() {
        let l = looped();
        let a = Analysis::new(&l).unwrap();
        for f in Flavour::ALL {
            let p = place_all(&l, &a, f, &[], 1000);
            assert_eq!(p.vars[0].phis, vec!["loop".to_string()], "{f:?}");
            assert_eq!(oracle(&l, &a, f, 0), vec![Block(1)]);
            let kinds: Vec<_> = p.vars[0].steps.iter().map(|s| s.kind).collect();
            assert_eq!(kinds, ["start", "pop", "place", "pop", "done"], "{f:?}");
        }
    }

    #[test]
    fn budget_truncates_steps_not_results() {
        let l = looped();
        let a = Analysis::new(&l).unwrap();
        let p = place_all(&l, &a, Flavour::Pruned, &[], 3);
        assert!(p.truncated);
        assert!(p.vars[0].steps.is_empty());
        assert_eq!(p.vars[0].phis, vec!["loop".to_string()]);
    }
}
