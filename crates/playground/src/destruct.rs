//! Phi elimination, as steps: for each edge into a block with φs, the parallel copy it performs
//! (every φ takes its value for that edge, all at once), where the copies can go (end of the
//! predecessor, head of the successor, a new block on a split critical edge), and the copy
//! sequenced into moves, with a temporary for each cycle (the swap problem). The plan is the
//! `ssa` crate's ([`ssa::destruct::plan`]), the one `phi-elim` applies; this module only names
//! and explains it.
//!
//! Invariants: [`SsaFn`] is IR-agnostic (front ends fill it from the function after
//! construction); values are interned names, so the plan sees exactly the IR's values; steps are
//! in plan order (blocks in layout order, then predecessors); at most a caller-given number of
//! steps is recorded.

use std::collections::HashMap;

use serde::Serialize;
use ssa::destruct::parallel_copy::Slot;
use ssa::destruct::{plan, Loc, PhiFunction, Place, Plan};
use ssa::{Block, Graph};

/// A φ: its result and its `(predecessor, value)` pairs.
#[derive(Clone, Debug)]
pub struct PhiView {
    /// The result's name.
    pub dst: String,
    /// Incoming values by predecessor (block indices).
    pub incoming: Vec<(u32, String)>,
}

/// A function in SSA form, as phi elimination sees it.
#[derive(Clone, Debug, Default)]
pub struct SsaFn {
    /// Block names, layout order; block 0 is the entry.
    pub blocks: Vec<String>,
    /// Successors (terminator order).
    pub succs: Vec<Vec<u32>>,
    /// Each block's φs.
    pub phis: Vec<Vec<PhiView>>,
    /// Edges that cannot be split (an `indirectbr`'s, an unwind edge).
    pub no_split: Vec<(u32, u32)>,
    /// Blocks whose end cannot take copies (a terminator defining a value).
    pub no_end: Vec<u32>,
}

/// The copies of one edge.
#[derive(Clone, Debug, Serialize)]
pub struct EdgeView {
    /// `[pred, succ]`.
    pub edge: [String; 2],
    /// `end`, `head`, `split`, `before-terminator`.
    pub place: &'static str,
    /// The parallel copy, `[dst, src]` per φ (self-copies included).
    pub parallel: Vec<[String; 2]>,
    /// The sequenced moves, `[dst, src]`; `tmpK` is a temporary.
    pub moves: Vec<[String; 2]>,
    /// Temporaries used.
    pub temps: usize,
}

/// One step.
#[derive(Clone, Debug, Serialize)]
pub struct Step {
    /// `edge`, `place`, `move`, `temp`, `done`.
    pub kind: &'static str,
    /// The edge concerned.
    pub edge: Option<[String; 2]>,
    /// What happens, in words.
    pub text: String,
    /// The moves of this edge done so far (after the step).
    pub done: usize,
}

/// Counts of the plan.
#[derive(Clone, Copy, Debug, Serialize, Default, PartialEq, Eq)]
pub struct Counts {
    /// φs removed.
    pub phis: usize,
    /// Copies (moves into φ results, self-copies excluded).
    pub copies: usize,
    /// Temporaries (one per cycle).
    pub temps: usize,
    /// Critical edges split.
    pub split: usize,
}

/// Phi elimination of one function.
#[derive(Clone, Debug, Serialize)]
pub struct PhiElim {
    /// Counts.
    pub counts: Counts,
    /// Per edge with copies.
    pub edges: Vec<EdgeView>,
    /// The steps.
    pub steps: Vec<Step>,
    /// Whether some steps were left out.
    pub truncated: bool,
}

/// A φ with interned values: its result and `(predecessor, value)` pairs.
type InternedPhi = (u32, Vec<(u32, u32)>);

/// [`SsaFn`] with interned values, as [`PhiFunction`].
struct Interned<'a> {
    f: &'a SsaFn,
    names: Vec<String>,
    phis: Vec<Vec<InternedPhi>>,
}

impl<'a> Interned<'a> {
    fn new(f: &'a SsaFn) -> Self {
        let mut ids: HashMap<&str, u32> = HashMap::new();
        let mut names = Vec::new();
        let mut id = |s: &'a str| {
            *ids.entry(s).or_insert_with(|| {
                names.push(s.to_string());
                names.len() as u32 - 1
            })
        };
        let phis = (f.phis.iter())
            .map(|ps| {
                ps.iter()
                    .map(|p| {
                        (
                            id(&p.dst),
                            p.incoming.iter().map(|(b, v)| (*b, id(v))).collect(),
                        )
                    })
                    .collect()
            })
            .collect();
        Interned { f, names, phis }
    }
}

impl Graph for Interned<'_> {
    fn num_blocks(&self) -> usize {
        self.f.blocks.len()
    }
    fn entry(&self) -> Option<Block> {
        (!self.f.blocks.is_empty()).then_some(Block(0))
    }
    fn successors(&self, b: Block) -> impl Iterator<Item = Block> + '_ {
        self.f.succs[b.index()].iter().map(|&s| Block(s))
    }
}

impl PhiFunction for Interned<'_> {
    type Value = u32;
    fn phis(&self, b: Block, out: &mut Vec<u32>) {
        out.extend(self.phis[b.index()].iter().map(|p| p.0));
    }
    fn incoming(&self, b: Block, k: usize, out: &mut Vec<(Block, u32)>) {
        out.extend(
            self.phis[b.index()][k]
                .1
                .iter()
                .map(|&(p, v)| (Block(p), v)),
        );
    }
    fn can_split(&self, pred: Block, succ: Block) -> bool {
        !self.f.no_split.contains(&(pred.0, succ.0))
    }
    fn end_usable(&self, pred: Block) -> bool {
        !self.f.no_end.contains(&pred.0)
    }
}

/// Plans phi elimination of `f` and explains it in at most `budget` steps.
pub fn eliminate(f: &SsaFn, budget: usize) -> Result<PhiElim, String> {
    if f.blocks.is_empty() {
        return Ok(PhiElim {
            counts: Counts::default(),
            edges: Vec::new(),
            steps: Vec::new(),
            truncated: false,
        });
    }
    let g = Interned::new(f);
    let p = plan(&g).map_err(|e| format!("phi elimination: {e}"))?;
    let counts = Counts {
        phis: p.stats.phis,
        copies: p.stats.copies,
        temps: p.stats.temps,
        split: p.stats.edges_split,
    };
    let mut out = PhiElim {
        counts,
        edges: Vec::new(),
        steps: Vec::new(),
        truncated: false,
    };
    let mut preds = vec![0usize; f.blocks.len()];
    for ss in &f.succs {
        for &s in ss {
            preds[s as usize] += 1;
        }
    }
    for e in &p.edges {
        let succ = p.blocks[e.succ].block;
        let edge = [
            f.blocks[e.pred.index()].clone(),
            f.blocks[succ.index()].clone(),
        ];
        let parallel: Vec<[String; 2]> = (f.phis[succ.index()].iter())
            .filter_map(|ph| {
                ph.incoming
                    .iter()
                    .find(|i| i.0 == e.pred.0)
                    .map(|i| [ph.dst.clone(), i.1.clone()])
            })
            .collect();
        let moves: Vec<[String; 2]> = p.moves[e.moves.clone()]
            .iter()
            .map(|m| [slot(&g, &p, m.dst), slot(&g, &p, m.src)])
            .collect();
        let temps = p.moves[e.moves.clone()]
            .iter()
            .filter(|m| matches!(m.dst, Slot::Temp(_)))
            .count();
        let view = EdgeView {
            edge,
            place: e.place.name(),
            parallel,
            moves,
            temps,
        };
        if out.steps.len() < budget {
            let why = place_why(
                e.place,
                &view.edge,
                distinct(&f.succs[e.pred.index()]),
                preds[succ.index()],
            );
            explain_edge(&view, why, &mut out.steps);
        } else {
            out.truncated = true;
        }
        out.edges.push(view);
    }
    let c = out.counts;
    out.steps.push(Step {
        kind: "done",
        edge: None,
        text: format!(
            "Done: {} φs become {} copies, with {} temporaries and {} split edges.",
            c.phis, c.copies, c.temps, c.split
        ),
        done: 0,
    });
    if out.steps.len() > budget {
        out.steps.truncate(budget);
        out.truncated = true;
    }
    Ok(out)
}

/// The name of a move's place.
fn slot(g: &Interned, p: &Plan<u32>, s: Slot<Loc<u32>>) -> String {
    match s {
        Slot::Loc(Loc::Val(v)) => g.names[v as usize].clone(),
        Slot::Loc(Loc::In(k)) => format!("in({})", g.names[p.phis[k as usize] as usize]),
        Slot::Temp(k) => format!("tmp{k}"),
    }
}

/// Why an edge's copies go where they go (`succs`: the predecessor's distinct successors,
/// `preds`: the successor's incoming edges).
fn place_why(place: Place, edge: &[String; 2], succs: usize, preds: usize) -> String {
    let [pn, sn] = edge;
    match place {
        Place::End => format!("{pn} has one successor, so the copies go at its end, before its branch."),
        Place::Head => format!("{sn} has one predecessor, so the copies go at its head."),
        Place::Split => format!("{pn} → {sn} is a critical edge ({pn} has {succs} successors, {sn} {preds} incoming edges): copies at the end of {pn} would also run on its other edges (the lost-copy problem), so the edge is split with a new block that holds them."),
        Place::BeforeTerm => format!("{pn} → {sn} cannot be split: the copies go before {pn}'s terminator into incoming variables, read at the head of {sn}."),
    }
}

/// The steps of one edge: its parallel copy, its place (`why`), its moves.
fn explain_edge(v: &EdgeView, why: String, steps: &mut Vec<Step>) {
    let [pn, sn] = &v.edge;
    let pc: Vec<String> = v
        .parallel
        .iter()
        .map(|[d, s]| format!("{d} ← {s}"))
        .collect();
    let edge = Some(v.edge.clone());
    let step = |kind, text: String, done| Step {
        kind,
        edge: edge.clone(),
        text,
        done,
    };
    steps.push(step(
        "edge",
        format!(
            "Edge {pn} → {sn}: the φs of {sn} take their values all at once, a parallel copy: {}.",
            pc.join(" ‖ ")
        ),
        0,
    ));
    steps.push(step("place", why, 0));
    for (k, [d, s]) in v.moves.iter().enumerate() {
        let text = match (d.starts_with("tmp"), v.parallel.iter().any(|p| &p[0] == s) && !s.starts_with("tmp")) {
            (true, _) => format!("{d} ← {s}: the copies form a cycle (the swap problem), so {s}'s old value is saved in a temporary first."),
            (false, true) => format!("{d} ← {s}: {s} is read before the move that overwrites it."),
            _ => format!("{d} ← {s}."),
        };
        steps.push(step(
            if d.starts_with("tmp") { "temp" } else { "move" },
            text,
            k + 1,
        ));
    }
}

fn distinct(s: &[u32]) -> usize {
    let mut v = s.to_vec();
    v.sort_unstable();
    v.dedup();
    v.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn phi(dst: &str, inc: &[(u32, &str)]) -> PhiView {
        PhiView {
            dst: dst.into(),
            incoming: inc.iter().map(|&(b, v)| (b, v.to_string())).collect(),
        }
    }

    #[test]
    fn swap_needs_a_temporary_and_lost_copy_a_split() {
        // entry -> head; head -> head, exit: a, b swap on the back edge.
        let f = SsaFn {
            blocks: vec!["entry".into(), "head".into(), "exit".into()],
            succs: vec![vec![1], vec![1, 2], vec![]],
            phis: vec![
                vec![],
                vec![
                    phi("a", &[(0, "x"), (1, "b")]),
                    phi("b", &[(0, "y"), (1, "a")]),
                ],
                vec![],
            ],
            ..SsaFn::default()
        };
        let e = eliminate(&f, 100).unwrap();
        assert_eq!(
            e.counts,
            Counts {
                phis: 2,
                copies: 4,
                temps: 1,
                split: 1
            }
        );
        assert_eq!(e.edges[1].place, "split");
        assert_eq!(e.edges[1].temps, 1);
        assert_eq!(e.edges[1].moves.len(), 3);
        assert!(e.steps.iter().any(|s| s.kind == "temp"));
        assert_eq!(e.steps.last().unwrap().kind, "done");
        assert!(eliminate(&f, 2).unwrap().truncated);
    }
}
