//! The JSON API's one computation: `POST /api/model` with a [`Request`] (source text, language,
//! options, the views wanted) answers a [`Model`]: pure functions of the request, no state.
//!
//! Views (`views`, default all): `passes` (the function after each pass, and the counts),
//! `diff`, `cfg` (a picture per stage), `dom` (dominator tree picture and per-block facts),
//! `frontier` (per-block facts), `placement`, `renaming`, `phielim`.
//!
//! Limits, so that any request answers quickly with a result or a clear error: pictures for at
//! most [`MAX_PICTURE_BLOCKS`] blocks; at most [`MAX_STEPS`] steps per stepping view (fewer
//! when there are many variables, see [`step_budget`]); frontier lists only while their total
//! stays under [`MAX_FRONTIER`]; functions of more than [`MAX_BLOCKS`] blocks are refused.
//! Invariants: the same request gives the same bytes; nothing here panics on any input (the
//! server still catches a panic as a last resort).

use serde::{Deserialize, Serialize};
use ssa::Block;

use crate::destruct::{eliminate, PhiElim};
use crate::diff::{diff, Diff};
use crate::front::{FlavourCount, Front, Options, UserError};
use crate::lesson::Analysis;
use crate::picture::{line, picture, Picture};
use crate::placement::{fast_path, place_all, Flavour, Placement};
use crate::renaming::{rename, Renaming};

/// Blocks beyond which no picture is drawn.
pub const MAX_PICTURE_BLOCKS: usize = 50;
/// Steps per stepping view, at most.
pub const MAX_STEPS: usize = 4000;
/// Frontier entries (summed over blocks) beyond which the lists are left out.
pub const MAX_FRONTIER: usize = 200_000;
/// Blocks beyond which a function is refused.
pub const MAX_BLOCKS: usize = 50_000;
/// Every view, in the order the page shows them.
pub const VIEWS: [&str; 8] = [
    "passes",
    "diff",
    "cfg",
    "dom",
    "frontier",
    "placement",
    "renaming",
    "phielim",
];

/// A request (every field but `source` optional).
#[derive(Clone, Debug, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct Request {
    /// `llvm` (default) or `while`.
    pub lang: Option<String>,
    /// The program.
    pub source: String,
    /// The function to show (LLVM; default the first).
    pub function: Option<String>,
    /// `minimal`, `semi-pruned`, `pruned` (default).
    pub flavour: Option<String>,
    /// Promote entry-block slots only (LLVM).
    pub entry_only: Option<bool>,
    /// mem2reg's phi-copy limit (LLVM).
    pub phi_copy_limit: Option<u64>,
    /// Promote at most this many variables (while-language).
    pub max_promoted: Option<usize>,
    /// Fold trivial φs (while-language; default true).
    pub fold: Option<bool>,
    /// `copies` (default) or `slots`.
    pub lowering: Option<String>,
    /// The views wanted (default all).
    pub views: Option<Vec<String>>,
}

/// Per-block facts: edges, dominator tree, frontier.
#[derive(Clone, Debug, Serialize)]
pub struct BlockInfo {
    /// The block.
    pub name: String,
    /// Successors.
    pub succs: Vec<String>,
    /// Predecessors (distinct).
    pub preds: Vec<String>,
    /// Immediate dominator (none for the entry and unreachable blocks).
    pub idom: Option<String>,
    /// Dominator-tree children.
    pub children: Vec<String>,
    /// Depth in the dominator tree.
    pub depth: Option<u32>,
    /// Dominance frontier (left out past [`MAX_FRONTIER`]).
    pub df: Vec<String>,
    /// Reachable from the entry.
    pub reachable: bool,
}

/// A stage's text.
#[derive(Clone, Debug, Serialize)]
pub struct StageText {
    /// `input`, `ssa`, `out`.
    pub id: &'static str,
    /// Title.
    pub title: String,
    /// The printed function.
    pub text: String,
    /// Its blocks' names, layout order (the text's labels, an unnamed entry first).
    pub blocks: Vec<String>,
    /// Their keys (see [`crate::front::Stage::keys`]).
    pub keys: Vec<String>,
}

/// The answer (views not asked for are left out).
#[derive(Clone, Debug, Serialize)]
pub struct Model {
    /// `llvm` or `while`.
    pub lang: &'static str,
    /// Functions of the input.
    pub functions: Vec<String>,
    /// The function shown.
    pub function: String,
    /// The flavour shown.
    pub flavour: &'static str,
    /// Remarks and limits met.
    pub notes: Vec<String>,
    /// Blocks, instructions that access variables, variables.
    pub size: [usize; 3],
    /// Counts per flavour.
    pub counts: Vec<FlavourCount>,
    /// The function after each pass.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stages: Option<Vec<StageText>>,
    /// Diffs: input to SSA, SSA to phi elimination.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub diffs: Option<Vec<Diff>>,
    /// A CFG picture per stage.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cfg: Option<Vec<Picture>>,
    /// Per-block facts.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub blocks: Option<Vec<BlockInfo>>,
    /// The dominator tree's picture.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub domtree: Option<Picture>,
    /// Placement steps.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub placement: Option<Placement>,
    /// Renaming steps.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub renaming: Option<Renaming>,
    /// Phi elimination steps.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub phielim: Option<PhiElim>,
}

/// Why a request gives no model: the HTTP status and what to show.
#[derive(Clone, Debug, PartialEq)]
pub struct ApiError {
    /// 400 for bad requests, 422 for programs with errors.
    pub status: u16,
    /// The error.
    pub error: UserError,
}

impl ApiError {
    fn bad(message: impl Into<String>) -> Self {
        ApiError {
            status: 400,
            error: UserError::plain(message),
        }
    }
}

/// Parses a request body (JSON).
pub fn parse_request(body: &[u8]) -> Result<Request, ApiError> {
    let text = std::str::from_utf8(body).map_err(|e| {
        ApiError::bad(format!(
            "the request body is not UTF-8 text ({e}); send JSON"
        ))
    })?;
    serde_json::from_str(text)
        .map_err(|e| ApiError::bad(format!("the request body is not a valid request: {e}")))
}

/// Answers a request (see the module docs).
pub fn model(req: &Request) -> Result<Model, ApiError> {
    let (o, views) = options(req)?;
    let want = |v: &str| views.iter().any(|w| w == v);
    let front = match req.lang.as_deref().unwrap_or("llvm") {
        "llvm" => crate::llvm::front(&req.source, req.function.as_deref(), &o),
        "while" => crate::whilelang::front(&req.source, &o),
        other => {
            return Err(ApiError::bad(format!(
                "unknown language '{other}': use 'llvm' or 'while'"
            )))
        }
    }
    .map_err(|error| ApiError { status: 422, error })?;
    let l = &front.lesson;
    if l.blocks.len() > MAX_BLOCKS {
        return Err(ApiError {
            status: 422,
            error: UserError::plain(format!(
                "@{} has {} blocks; the playground takes at most {MAX_BLOCKS}",
                front.function,
                l.blocks.len()
            )),
        });
    }
    let a = Analysis::new(l).ok_or_else(|| ApiError::bad("the function has no blocks"))?;
    let mut m = Model {
        lang: front.lang,
        functions: front.functions.clone(),
        function: front.function.clone(),
        flavour: o.flavour.name(),
        notes: front.notes.clone(),
        size: [l.blocks.len(), l.num_events(), l.vars.len()],
        counts: front.counts.clone(),
        stages: None,
        diffs: None,
        cfg: None,
        blocks: None,
        domtree: None,
        placement: None,
        renaming: None,
        phielim: None,
    };
    let budget = step_budget(l.vars.len());
    if want("passes") {
        m.stages = Some(
            front
                .stages
                .iter()
                .map(|s| StageText {
                    id: s.id,
                    title: s.title.clone(),
                    text: s.text.clone(),
                    blocks: s.blocks.clone(),
                    keys: s.keys.clone(),
                })
                .collect(),
        );
    }
    if want("diff") {
        let s = &front.stages;
        m.diffs = Some(vec![
            diff(s[0].id, s[1].id, &s[0].text, &s[1].text),
            diff(s[1].id, s[2].id, &s[1].text, &s[2].text),
        ]);
    }
    if want("cfg") {
        m.cfg = Some(
            front
                .stages
                .iter()
                .map(|s| {
                    picture(
                        s.id,
                        &s.blocks,
                        &s.keys,
                        s.lines.clone(),
                        &s.edges,
                        MAX_PICTURE_BLOCKS,
                    )
                })
                .collect(),
        );
    }
    if want("dom") || want("frontier") {
        m.blocks = Some(blocks(&front, &a, &mut m.notes));
    }
    if want("dom") {
        m.domtree = Some(domtree(&front, &a));
    }
    let placement = (want("placement") || want("renaming")).then(|| {
        let fast: Vec<Option<String>> = (0..l.vars.len() as u32)
            .map(|v| front.fast_paths.then(|| fast_path(l, &a, v)).flatten())
            .collect();
        place_all(l, &a, o.flavour, &fast, budget)
    });
    if want("renaming") {
        let p = placement.as_ref().expect("computed above");
        let index: std::collections::HashMap<&str, u32> = l
            .blocks
            .iter()
            .enumerate()
            .map(|(k, b)| (b.as_str(), k as u32))
            .collect();
        let phis: Vec<Vec<Block>> = (p.vars.iter())
            .map(|v| {
                v.phis
                    .iter()
                    .filter_map(|n| index.get(n.as_str()))
                    .map(|&k| Block(k))
                    .collect()
            })
            .collect();
        let names = match front.lang {
            "llvm" => crate::llvm::phi_names(l, &front.ssa, &phis),
            _ => front.phi_names.clone(),
        };
        let name = |b: Block, v: u32| names.get(&(b.0, v)).cloned();
        m.renaming = Some(rename(l, &a, &phis, &name, budget));
    }
    if want("placement") {
        m.placement = placement;
    }
    if want("phielim") {
        m.phielim = Some(eliminate(&front.ssa, budget).map_err(|e| ApiError {
            status: 422,
            error: UserError::plain(e),
        })?);
    }
    Ok(m)
}

/// The options and views of a request.
fn options(req: &Request) -> Result<(Options, Vec<String>), ApiError> {
    let mut o = Options::default();
    if let Some(f) = &req.flavour {
        o.flavour = Flavour::from_name(f).ok_or_else(|| {
            ApiError::bad(format!(
                "unknown flavour '{f}': use minimal, semi-pruned or pruned"
            ))
        })?;
    }
    o.entry_only = req.entry_only.unwrap_or(false);
    o.phi_copy_limit = req.phi_copy_limit;
    o.max_promoted = req.max_promoted;
    o.fold = req.fold.unwrap_or(true);
    if let Some(l) = &req.lowering {
        if l != "copies" && l != "slots" {
            return Err(ApiError::bad(format!(
                "unknown lowering '{l}': use copies or slots"
            )));
        }
        o.lowering = l.clone();
    }
    let views = req
        .views
        .clone()
        .unwrap_or_else(|| VIEWS.iter().map(|v| v.to_string()).collect());
    if let Some(v) = views.iter().find(|v| !VIEWS.contains(&v.as_str())) {
        return Err(ApiError::bad(format!(
            "unknown view '{v}': the views are {}",
            VIEWS.join(", ")
        )));
    }
    Ok((o, views))
}

/// Steps per stepping view: [`MAX_STEPS`], fewer when each step carries many variables'
/// stacks, so that an answer stays a few megabytes at most.
pub fn step_budget(vars: usize) -> usize {
    MAX_STEPS.min(400_000 / (vars + 1))
}

/// Per-block facts of the input function.
fn blocks(front: &Front, a: &Analysis, notes: &mut Vec<String>) -> Vec<BlockInfo> {
    let l = &front.lesson;
    let with_df = a.df.total_len() <= MAX_FRONTIER;
    if !with_df {
        notes.push(format!("The dominance frontiers hold {} entries in all: lists are left out past {MAX_FRONTIER}.", a.df.total_len()));
    }
    (0..l.blocks.len() as u32)
        .map(|b| {
            let b = Block(b);
            let mut succs = a.cfg.distinct_succs(b).to_vec();
            succs.sort_unstable();
            BlockInfo {
                name: l.name(b).into(),
                succs: l.names(&succs),
                preds: l.names(a.cfg.distinct_preds(b)),
                idom: a.dt.idom(b).map(|d| l.name(d).into()),
                children: l.names(&a.children(b)),
                depth: a.dt.depth(b),
                df: if with_df {
                    l.names(&a.frontier(b))
                } else {
                    Vec::new()
                },
                reachable: a.cfg.is_reachable(b),
            }
        })
        .collect()
}

/// The dominator tree as a picture (reachable blocks, one line each: the frontier).
fn domtree(front: &Front, a: &Analysis) -> Picture {
    let l = &front.lesson;
    let reach: Vec<Block> = (0..l.blocks.len() as u32)
        .map(Block)
        .filter(|&b| a.cfg.is_reachable(b))
        .collect();
    let names: Vec<String> = l.names(&reach);
    if reach.len() > MAX_PICTURE_BLOCKS {
        return picture(
            "domtree",
            &names,
            &names,
            vec![Vec::new(); names.len()],
            &[],
            MAX_PICTURE_BLOCKS,
        );
    }
    let index = |b: Block| reach.iter().position(|&r| r == b);
    let lines = (reach.iter())
        .map(|&b| {
            vec![line(
                &format!("DF = {{{}}}", l.names(&a.frontier(b)).join(", ")),
                "df",
            )]
        })
        .collect();
    let edges: Vec<(u32, u32)> = (reach.iter())
        .filter_map(|&b| Some((index(a.dt.idom(b)?)? as u32, index(b)? as u32)))
        .collect();
    picture("domtree", &names, &names, lines, &edges, MAX_PICTURE_BLOCKS)
}
