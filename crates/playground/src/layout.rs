//! A layered ("Sugiyama") drawing of a directed graph, in pure Rust: the CFG and dominator-tree
//! pictures. Written here rather than taken from a crate or a JavaScript library because the
//! playground's graphs are small (it draws at most [`crate::api::MAX_PICTURE_BLOCKS`] blocks),
//! the coordinates become part of the tested JSON model, and the result must be deterministic.
//!
//! Steps, as Graphviz's `dot` does them in spirit:
//! 1. *cycles*: a depth-first search from node 0 (then from unvisited nodes in index order)
//!    numbers nodes in reverse postorder; an edge to a node no later in that order is a back
//!    edge and is laid out reversed (self-loops are drawn apart);
//! 2. *layers*: longest path from the sources, in that order;
//! 3. *dummies*: an edge spanning several layers gets one dummy node per layer it crosses;
//! 4. *order*: barycentre sweeps down and up, keeping the order with the fewest crossings;
//! 5. *x*: each sweep moves nodes toward the mean of their neighbours' centres, as close as the
//!    order and minimum gaps allow (weighted isotonic regression, exact and linear per layer);
//! 6. *routes*: polylines from a port on the source's bottom through the dummies to the
//!    target's top; back edges leave the source's top and enter the target's bottom.
//!
//! Invariants: output depends only on the input; no recursion; nodes of one layer never
//! overlap (gap [`GAP_X`]); coordinates are non-negative.

/// Horizontal gap between neighbours in a layer.
pub const GAP_X: f64 = 28.0;
/// Vertical gap between layers.
pub const GAP_Y: f64 = 44.0;
/// Margin around the drawing.
pub const MARGIN: f64 = 16.0;
/// How far right of a forward edge's ports a back edge leaves and enters its blocks.
const BACK_SHIFT: f64 = 14.0;
/// Width of a dummy node (a bend of a long edge).
const DUMMY_W: f64 = 8.0;
/// Ordering sweeps (each one down and one up).
const SWEEPS: usize = 8;
/// Coordinate sweeps.
const X_SWEEPS: usize = 6;

/// An edge's drawing.
#[derive(Clone, Debug, PartialEq)]
pub struct Route {
    /// The polyline, from the source to the target.
    pub points: Vec<(f64, f64)>,
    /// Whether the edge points up (a back edge, laid out reversed) or is a self-loop.
    pub back: bool,
}

/// A drawing: node top-left corners, edge routes (in input order), total size.
#[derive(Clone, Debug, PartialEq)]
pub struct Layout {
    /// Top-left corner of each node.
    pub pos: Vec<(f64, f64)>,
    /// Each edge's route.
    pub routes: Vec<Route>,
    /// Total width.
    pub width: f64,
    /// Total height.
    pub height: f64,
}

/// The working graph: real nodes first, then dummies.
struct Work {
    w: Vec<f64>,
    layer: Vec<usize>,
    /// Per node, DAG neighbours above and below (real and dummy).
    up: Vec<Vec<usize>>,
    down: Vec<Vec<usize>>,
    layers: Vec<Vec<usize>>,
    x: Vec<f64>,
}

/// Lays out nodes of the given `(width, height)` with `edges` (see the module docs).
pub fn layout(sizes: &[(f64, f64)], edges: &[(u32, u32)]) -> Layout {
    let n = sizes.len();
    if n == 0 {
        return Layout {
            pos: Vec::new(),
            routes: Vec::new(),
            width: 2.0 * MARGIN,
            height: 2.0 * MARGIN,
        };
    }
    let edges: Vec<(usize, usize)> = (edges.iter())
        .map(|&(a, b)| (a as usize, b as usize))
        .filter(|&(a, b)| a < n && b < n)
        .collect();
    let rank = rpo_rank(n, &edges);
    // DAG edges (top, bottom) per input edge; None for self-loops.
    let dag: Vec<Option<(usize, usize)>> = (edges.iter())
        .map(|&(a, b)| match (a == b, rank[b] <= rank[a]) {
            (true, _) => None,
            (false, true) => Some((b, a)),
            (false, false) => Some((a, b)),
        })
        .collect();
    let mut wk = Work::new(sizes, &rank, &dag);
    let chains = wk.add_dummies(&dag);
    wk.order(&rank);
    wk.place_x();
    let (tops, heights) = layer_tops(&wk, sizes);
    let pos: Vec<(f64, f64)> = (0..n)
        .map(|v| (wk.x[v] - sizes[v].0 / 2.0, tops[wk.layer[v]]))
        .collect();
    let routes = (0..edges.len())
        .map(|k| {
            route(
                &wk, sizes, &pos, &tops, &heights, edges[k], dag[k], &chains[k],
            )
        })
        .collect();
    let width = (0..wk.w.len())
        .map(|v| wk.x[v] + wk.w[v] / 2.0)
        .fold(0.0, f64::max)
        + MARGIN
        + 24.0;
    let height =
        tops.last().copied().unwrap_or(0.0) + heights.last().copied().unwrap_or(0.0) + MARGIN;
    Layout {
        pos,
        routes,
        width,
        height,
    }
}

/// Reverse-postorder rank of every node: DFS from 0, then from the rest in index order.
fn rpo_rank(n: usize, edges: &[(usize, usize)]) -> Vec<usize> {
    let mut succ = vec![Vec::new(); n];
    for &(a, b) in edges {
        succ[a].push(b);
    }
    let (mut seen, mut post) = (vec![false; n], Vec::with_capacity(n));
    for root in 0..n {
        if seen[root] {
            continue;
        }
        seen[root] = true;
        let mut stack = vec![(root, 0usize)];
        while let Some((v, k)) = stack.last_mut() {
            let v = *v;
            match succ[v].get(*k) {
                Some(&s) => {
                    *k += 1;
                    if !seen[s] {
                        seen[s] = true;
                        stack.push((s, 0));
                    }
                }
                None => {
                    post.push(v);
                    stack.pop();
                }
            }
        }
    }
    let mut rank = vec![0; n];
    for (i, &v) in post.iter().rev().enumerate() {
        rank[v] = i;
    }
    rank
}

impl Work {
    fn new(sizes: &[(f64, f64)], rank: &[usize], dag: &[Option<(usize, usize)>]) -> Work {
        let n = sizes.len();
        let mut by_rank: Vec<usize> = (0..n).collect();
        by_rank.sort_by_key(|&v| rank[v]);
        let mut preds = vec![Vec::new(); n];
        for &(a, b) in dag.iter().flatten() {
            preds[b].push(a);
        }
        let mut layer = vec![0usize; n];
        for &v in &by_rank {
            layer[v] = preds[v].iter().map(|&p| layer[p] + 1).max().unwrap_or(0);
        }
        Work {
            w: sizes.iter().map(|s| s.0).collect(),
            layer,
            up: vec![Vec::new(); n],
            down: vec![Vec::new(); n],
            layers: Vec::new(),
            x: Vec::new(),
        }
    }

    /// Splits long DAG edges with dummies; returns each edge's chain (top to bottom, dummies
    /// only).
    fn add_dummies(&mut self, dag: &[Option<(usize, usize)>]) -> Vec<Vec<usize>> {
        let mut chains = Vec::with_capacity(dag.len());
        for &e in dag {
            let Some((a, b)) = e else {
                chains.push(Vec::new());
                continue;
            };
            let mut chain = Vec::new();
            let mut prev = a;
            for l in self.layer[a] + 1..self.layer[b] {
                let d = self.w.len();
                self.w.push(DUMMY_W);
                self.layer.push(l);
                self.up.push(vec![prev]);
                self.down.push(Vec::new());
                self.down[prev].push(d);
                chain.push(d);
                prev = d;
            }
            self.down[prev].push(b);
            self.up[b].push(prev);
            chains.push(chain);
        }
        chains
    }

    /// Orders each layer by barycentre sweeps, keeping the best order seen.
    fn order(&mut self, rank: &[usize]) {
        let depth = self.layer.iter().max().map_or(0, |&m| m + 1);
        self.layers = vec![Vec::new(); depth];
        // Real nodes by rank, dummies in creation order (after their source).
        let mut all: Vec<usize> = (0..self.w.len()).collect();
        all.sort_by_key(|&v| (rank.get(v).copied().unwrap_or(usize::MAX), v));
        for v in all {
            self.layers[self.layer[v]].push(v);
        }
        let mut best = (self.crossings(), self.layers.clone());
        for _ in 0..SWEEPS {
            for l in 1..depth {
                self.sort_layer(l, true);
            }
            for l in (0..depth.saturating_sub(1)).rev() {
                self.sort_layer(l, false);
            }
            let c = self.crossings();
            if c < best.0 {
                best = (c, self.layers.clone());
            }
        }
        self.layers = best.1;
    }

    /// Sorts layer `l` by the mean position of each node's neighbours above (`down` sweep) or
    /// below; nodes without such neighbours keep their place.
    fn sort_layer(&mut self, l: usize, from_above: bool) {
        let other = if from_above { l - 1 } else { l + 1 };
        let mut pos = vec![0usize; self.w.len()];
        for (i, &v) in self.layers[other].iter().enumerate() {
            pos[v] = i;
        }
        let keys: Vec<(f64, usize)> = (self.layers[l].iter().enumerate())
            .map(|(i, &v)| {
                let ns = if from_above {
                    &self.up[v]
                } else {
                    &self.down[v]
                };
                match ns.is_empty() {
                    true => (i as f64, v),
                    false => (
                        ns.iter().map(|&u| pos[u] as f64).sum::<f64>() / ns.len() as f64,
                        v,
                    ),
                }
            })
            .collect();
        let mut sorted = keys;
        sorted.sort_by(|a, b| a.0.total_cmp(&b.0));
        self.layers[l] = sorted.into_iter().map(|k| k.1).collect();
    }

    /// Edge crossings between adjacent layers (pairwise; the graphs are small).
    fn crossings(&self) -> usize {
        let mut pos = vec![0usize; self.w.len()];
        for layer in &self.layers {
            for (i, &v) in layer.iter().enumerate() {
                pos[v] = i;
            }
        }
        let mut total = 0;
        for layer in &self.layers {
            let es: Vec<(usize, usize)> = (layer.iter())
                .flat_map(|&v| self.down[v].iter().map(move |&d| (v, d)))
                .map(|(a, b)| (pos[a], pos[b]))
                .collect();
            for i in 0..es.len() {
                for j in i + 1..es.len() {
                    let (a, b) = (es[i], es[j]);
                    if (a.0 < b.0 && a.1 > b.1) || (a.0 > b.0 && a.1 < b.1) {
                        total += 1;
                    }
                }
            }
        }
        total
    }

    /// Centres: packed, then pulled toward neighbours sweep by sweep.
    fn place_x(&mut self) {
        self.x = vec![0.0; self.w.len()];
        for layer in &self.layers {
            let mut at = MARGIN;
            for &v in layer {
                self.x[v] = at + self.w[v] / 2.0;
                at += self.w[v] + GAP_X;
            }
        }
        for s in 0..X_SWEEPS {
            let from_above = s % 2 == 0;
            let ls: Vec<usize> = match from_above {
                true => (1..self.layers.len()).collect(),
                false => (0..self.layers.len().saturating_sub(1)).rev().collect(),
            };
            for l in ls {
                self.pull(l, from_above);
            }
        }
        let min = (0..self.w.len())
            .map(|v| self.x[v] - self.w[v] / 2.0)
            .fold(f64::INFINITY, f64::min);
        for x in &mut self.x {
            *x += MARGIN - min;
        }
    }

    /// Moves layer `l` toward its neighbours' centres: the least-squares placement that keeps
    /// the order and the gaps (pool-adjacent-violators on `x - minimum offset`).
    fn pull(&mut self, l: usize, from_above: bool) {
        let layer = self.layers[l].clone();
        let mut offset = Vec::with_capacity(layer.len());
        let mut acc = 0.0;
        for (i, &v) in layer.iter().enumerate() {
            if i > 0 {
                acc += (self.w[layer[i - 1]] + self.w[v]) / 2.0 + GAP_X;
            }
            offset.push(acc);
        }
        // Blocks of (weighted sum, weight, count) for PAV.
        let mut blocks: Vec<(f64, f64, usize)> = Vec::new();
        for (i, &v) in layer.iter().enumerate() {
            let ns = if from_above {
                &self.up[v]
            } else {
                &self.down[v]
            };
            let (want, wt) = match ns.is_empty() {
                true => (self.x[v], 0.5),
                false => (
                    ns.iter().map(|&u| self.x[u]).sum::<f64>() / ns.len() as f64,
                    1.0 + ns.len() as f64,
                ),
            };
            blocks.push(((want - offset[i]) * wt, wt, 1));
            while blocks.len() > 1 {
                let (s2, w2, c2) = blocks[blocks.len() - 1];
                let (s1, w1, c1) = blocks[blocks.len() - 2];
                if s1 / w1 <= s2 / w2 {
                    break;
                }
                blocks.truncate(blocks.len() - 2);
                blocks.push((s1 + s2, w1 + w2, c1 + c2));
            }
        }
        let mut i = 0;
        for (s, w, c) in blocks {
            for _ in 0..c {
                self.x[layer[i]] = s / w + offset[i];
                i += 1;
            }
        }
    }
}

/// Each layer's top and height.
fn layer_tops(wk: &Work, sizes: &[(f64, f64)]) -> (Vec<f64>, Vec<f64>) {
    let mut heights = vec![0.0f64; wk.layers.len()];
    for (v, s) in sizes.iter().enumerate() {
        heights[wk.layer[v]] = heights[wk.layer[v]].max(s.1);
    }
    for h in &mut heights {
        *h = h.max(12.0);
    }
    let mut tops = Vec::with_capacity(heights.len());
    let mut at = MARGIN;
    for h in &heights {
        tops.push(at);
        at += h + GAP_Y;
    }
    (tops, heights)
}

/// The polyline of input edge `e` laid out as `dag` through `chain`.
#[allow(clippy::too_many_arguments)]
fn route(
    wk: &Work,
    sizes: &[(f64, f64)],
    pos: &[(f64, f64)],
    tops: &[f64],
    heights: &[f64],
    e: (usize, usize),
    dag: Option<(usize, usize)>,
    chain: &[usize],
) -> Route {
    let (a, b) = e;
    let Some((top, bottom)) = dag else {
        let (x, y) = (pos[a].0 + sizes[a].0, pos[a].1);
        let h = sizes[a].1;
        let points = vec![
            (x, y + h * 0.3),
            (x + 20.0, y + h * 0.3),
            (x + 20.0, y + h * 0.7),
            (x, y + h * 0.7),
        ];
        return Route { points, back: true };
    };
    let port = |v: usize, toward: f64| {
        let (l, w) = (pos[v].0, sizes[v].0);
        (toward.clamp(l + w * 0.2, l + w * 0.8) * 0.5 + (l + w / 2.0) * 0.5)
            .clamp(l + 4.0, l + w - 4.0)
    };
    let first_x = chain.first().map_or(wk.x[bottom], |&d| wk.x[d]);
    let last_x = chain.last().map_or(wk.x[top], |&d| wk.x[d]);
    let mut pts = vec![(port(top, first_x), pos[top].1 + sizes[top].1)];
    for &d in chain {
        let l = wk.layer[d];
        pts.push((wk.x[d], tops[l]));
        pts.push((wk.x[d], tops[l] + heights[l]));
    }
    pts.push((port(bottom, last_x), pos[bottom].1));
    let back = top != a;
    if back {
        pts.reverse();
        let n = pts.len();
        // Leave the source's top, enter the target's bottom, beside the forward edge's ports.
        let shift = |x: f64, v: usize| (x + BACK_SHIFT).min(pos[v].0 + sizes[v].0 - 4.0);
        pts[0] = (shift(pts[0].0, a), pos[a].1);
        pts[n - 1] = (shift(pts[n - 1].0, b), pos[b].1 + sizes[b].1);
    }
    Route { points: pts, back }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn overlaps(l: &Layout, sizes: &[(f64, f64)]) -> bool {
        (0..sizes.len()).any(|i| {
            (i + 1..sizes.len()).any(|j| {
                let (a, b) = (l.pos[i], l.pos[j]);
                a.0 < b.0 + sizes[j].0
                    && b.0 < a.0 + sizes[i].0
                    && a.1 < b.1 + sizes[j].1
                    && b.1 < a.1 + sizes[i].1
            })
        })
    }

    #[test]
    fn diamond_with_loop_is_layered_and_disjoint() {
        let sizes = vec![(80.0, 40.0); 5];
        let edges = [(0, 1), (0, 2), (1, 3), (2, 3), (3, 1), (3, 4), (4, 4)];
        let l = layout(&sizes, &edges);
        assert!(!overlaps(&l, &sizes));
        assert!(l.pos[0].1 < l.pos[1].1 && l.pos[1].1 < l.pos[3].1 && l.pos[3].1 < l.pos[4].1);
        assert!(l.routes[4].back && !l.routes[0].back && l.routes[6].back);
        assert!(l.pos.iter().all(|p| p.0 >= 0.0 && p.1 >= 0.0));
        assert_eq!(l, layout(&sizes, &edges), "deterministic");
    }

    #[test]
    fn long_edges_bend_through_dummies() {
        let sizes = vec![(60.0, 30.0); 4];
        let l = layout(&sizes, &[(0, 1), (1, 2), (2, 3), (0, 3)]);
        assert_eq!(l.routes[3].points.len(), 2 + 2 * 2);
        assert!(!overlaps(&l, &sizes));
        let empty = layout(&[], &[]);
        assert!(empty.pos.is_empty());
    }
}
