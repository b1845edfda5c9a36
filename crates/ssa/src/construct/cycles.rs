//! Redundant phi cycles: Braun et al.'s `removeRedundantPhis` (CC 2013, section 3.2,
//! Algorithm 5), after trivial phis are gone ([`super::fold`]); on request
//! ([`super::Options::remove_cycles`], `Builder::set_remove_redundant_cycles`).
//!
//! Removing trivial phis one at a time can leave a group of phis that only use each other and
//! one value from outside: `a = phi(x, b)`, `b = phi(a, x)` both stand for `x`, but neither is
//! trivial alone. Such groups arise where a variable is assigned what it already holds (`v =
//! v` in nested loops), even in reducible control flow, and the two constructions (whole
//! function, on the fly) need not leave the same ones. The strongly connected components of
//! the graph of phis (an edge from a phi to each phi among its operands) are visited with every
//! component after the ones it uses (Tarjan's order); a component whose operands from outside
//! it are one value is replaced by that value (by the undefined value if it has none).
//!
//! One departure: Braun et al. go on into a component with several outside operands, whose
//! *inner* phis (those whose operands are all inside it) may still be redundant among
//! themselves, level after level. On a deep loop nest every level peels off one loop, which
//! made gen_scale's nest at N = 4000 take minutes; here a component is taken or left whole,
//! so the pass stays linear.
//!
//! Invariants: each phi is replaced at most once, by a value from outside its component, so
//! chains of replacements end; one walk over every phi's operands, plus one more for the
//! phis of components of several phis or whose operands were replaced; the result depends
//! only on the inputs (components are visited in an order fixed by phi numbers).

/// The caller's side, over phis numbered by `u32`.
pub trait Cycles {
    /// A value an operand may be.
    type Value: Copy + Eq;

    /// The phi `v` is, if it is a phi still there.
    fn phi(&self, v: Self::Value) -> Option<u32>;

    /// Calls `f` with each operand of phi `k` that counts (resolved through earlier
    /// replacements; operands from unreachable predecessors left out), repeats allowed.
    fn operands(&self, k: u32, f: impl FnMut(Self::Value));

    /// Replaces every phi of `group` by `by` (`None`: the undefined value).
    fn replace(&mut self, group: &[u32], by: Option<Self::Value>);
}

/// Replaces the redundant groups among the phis `phis` (see the module docs).
pub fn remove_redundant_cycles<C: Cycles>(phis: &[u32], c: &mut C) {
    let graph = Graph::read(phis, c);
    let mut replaced = vec![false; phis.len()];
    let (order, ends) = graph.components();
    let mut members = Vec::new();
    let mut from = 0;
    for end in ends {
        let group = &order[from..end as usize];
        from = end as usize;
        // A phi on no cycle, whose operands nothing replaced, is as trivial-phi removal left
        // it: not trivial (most phis: no second walk over their operands).
        if let [i] = *group {
            let uses_replaced = graph.edges(i).iter().any(|&j| replaced[j as usize]);
            if !uses_replaced && graph.several[i as usize] {
                continue;
            }
        }
        members.clear();
        members.extend(group.iter().map(|&i| phis[i as usize]));
        members.sort_unstable();
        if replace_if_redundant(&members, c) {
            group.iter().for_each(|&i| replaced[i as usize] = true);
        }
    }
}

/// The graph of a set of phis, numbered by position in the set.
struct Graph {
    /// Each phi's edges within the set, as compressed rows: row `i` is
    /// `targets[start[i]..start[i + 1]]`.
    start: Vec<u32>,
    targets: Vec<u32>,
    /// Whether the phi's operands, besides itself, are more than one value.
    several: Vec<bool>,
}

/// Not visited yet (and not in the set).
const UNSEEN: u32 = u32::MAX;

impl Graph {
    /// One walk over the operands of every phi of `set`.
    fn read<C: Cycles>(set: &[u32], c: &C) -> Self {
        // Each phi's position in `set` (a table as long as the largest phi number: the caller's
        // phis are numbered densely).
        let max = set.iter().copied().max().map_or(0, |m| m as usize + 1);
        let mut local = vec![UNSEEN; max];
        for (i, &k) in set.iter().enumerate() {
            local[k as usize] = i as u32;
        }
        let mut g = Graph {
            start: Vec::with_capacity(set.len() + 1),
            targets: Vec::new(),
            several: Vec::with_capacity(set.len()),
        };
        g.start.push(0);
        for &k in set {
            let (mut first, mut several) = (None, false);
            c.operands(k, |v| {
                let phi = c.phi(v);
                if phi == Some(k) {
                    return;
                }
                let q = phi.and_then(|q| local.get(q as usize)).copied();
                if let Some(q) = q.filter(|&q| q != UNSEEN) {
                    g.targets.push(q);
                }
                match first {
                    None => first = Some(v),
                    Some(f) if f == v => {}
                    Some(_) => several = true,
                }
            });
            g.start.push(g.targets.len() as u32);
            g.several.push(several);
        }
        g
    }

    fn edges(&self, i: u32) -> &[u32] {
        &self.targets[self.start[i as usize] as usize..self.start[i as usize + 1] as usize]
    }

    /// The strongly connected components, each after every component it has an edge to
    /// (Tarjan, without recursion), as positions in the set: all of them in one list, and
    /// where each ends in it.
    fn components(&self) -> (Vec<u32>, Vec<u32>) {
        let n = self.several.len();
        let mut t = Tarjan {
            index: vec![UNSEEN; n],
            low: vec![0; n],
            on_stack: vec![false; n],
            stack: Vec::new(),
            next: 0,
            calls: Vec::new(),
        };
        let (mut order, mut ends) = (Vec::with_capacity(n), Vec::new());
        for root in 0..n as u32 {
            if t.index[root as usize] != UNSEEN {
                continue;
            }
            t.enter(root);
            while let Some(&(v, done)) = t.calls.last() {
                if let Some(&w) = self.edges(v).get(done) {
                    t.calls.last_mut().expect("not empty").1 += 1;
                    if t.index[w as usize] == UNSEEN {
                        t.enter(w);
                    } else if t.on_stack[w as usize] {
                        t.low[v as usize] = t.low[v as usize].min(t.index[w as usize]);
                    }
                    continue;
                }
                t.calls.pop();
                if let Some(&(parent, _)) = t.calls.last() {
                    t.low[parent as usize] = t.low[parent as usize].min(t.low[v as usize]);
                }
                if t.low[v as usize] == t.index[v as usize] {
                    while let Some(w) = t.stack.pop() {
                        t.on_stack[w as usize] = false;
                        order.push(w);
                        if w == v {
                            break;
                        }
                    }
                    ends.push(order.len() as u32);
                }
            }
        }
        (order, ends)
    }
}

/// Tarjan's state over phis numbered `0..n` locally.
struct Tarjan {
    /// Visit order (`UNSEEN` before the visit), and the least reachable on the stack.
    index: Vec<u32>,
    low: Vec<u32>,
    on_stack: Vec<bool>,
    stack: Vec<u32>,
    next: u32,
    /// The depth-first walk: (phi, how many of its edges are done).
    calls: Vec<(u32, usize)>,
}

impl Tarjan {
    fn enter(&mut self, v: u32) {
        self.index[v as usize] = self.next;
        self.low[v as usize] = self.next;
        self.next += 1;
        self.stack.push(v);
        self.on_stack[v as usize] = true;
        self.calls.push((v, 0));
    }
}

/// Replaces the phis of `group` (sorted) by the one value they take from outside it, if there
/// is at most one; whether it did.
fn replace_if_redundant<C: Cycles>(group: &[u32], c: &mut C) -> bool {
    let inside = |v: C::Value| c.phi(v).is_some_and(|q| group.binary_search(&q).is_ok());
    let (mut outside, mut several) = (None, false);
    for &k in group {
        c.operands(k, |v| {
            if inside(v) {
                return;
            }
            match outside {
                None => outside = Some(v),
                Some(o) if o == v => {}
                Some(_) => several = true,
            }
        });
        if several {
            return false;
        }
    }
    c.replace(group, outside);
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Phis over values: `Ok(i)` is an outside value, `Err(k)` is phi k.
    struct Toy {
        ops: Vec<Vec<Result<u32, u32>>>,
        by: Vec<Option<Option<Result<u32, u32>>>>,
    }

    impl Toy {
        fn new(ops: Vec<Vec<Result<u32, u32>>>) -> Self {
            let by = vec![None; ops.len()];
            Toy { ops, by }
        }

        fn resolve(&self, mut v: Result<u32, u32>) -> Result<u32, u32> {
            while let Err(k) = v {
                match self.by[k as usize] {
                    Some(Some(w)) => v = w,
                    _ => break,
                }
            }
            v
        }
    }

    impl Cycles for Toy {
        type Value = Result<u32, u32>;
        fn phi(&self, v: Self::Value) -> Option<u32> {
            v.err().filter(|&k| self.by[k as usize].is_none())
        }
        fn operands(&self, k: u32, mut f: impl FnMut(Self::Value)) {
            self.ops[k as usize]
                .iter()
                .for_each(|&o| f(self.resolve(o)));
        }
        fn replace(&mut self, group: &[u32], by: Option<Self::Value>) {
            for &k in group {
                self.by[k as usize] = Some(by);
            }
        }
    }

    /// What each phi of `ops` became, after [`remove_redundant_cycles`] on all of them.
    fn after(ops: Vec<Vec<Result<u32, u32>>>) -> Vec<Option<Option<Result<u32, u32>>>> {
        let all: Vec<u32> = (0..ops.len() as u32).collect();
        let mut t = Toy::new(ops);
        remove_redundant_cycles(&all, &mut t);
        t.by
    }

    #[test]
    fn a_pair_of_phis_copying_each_other_is_their_outside_value() {
        // a = phi(x, b), b = phi(a, x)
        let by = after(vec![vec![Ok(7), Err(1)], vec![Err(0), Ok(7)]]);
        assert_eq!(by, [Some(Some(Ok(7))), Some(Some(Ok(7)))]);
    }

    #[test]
    fn a_cycle_with_two_outside_values_stays_whole() {
        // a = phi(x, c), b = phi(a, c), c = phi(b, y): a and c take x and y from outside.
        let by = after(vec![
            vec![Ok(1), Err(2)],
            vec![Err(0), Err(2)],
            vec![Err(1), Ok(2)],
        ]);
        assert_eq!(by, [None, None, None]);
    }

    #[test]
    fn groups_that_use_a_replaced_group_see_its_value() {
        // a <-> b take only x: both are x. c <-> d take a and x: once a is x, they are x too.
        let by = after(vec![
            vec![Ok(5), Err(1)],
            vec![Err(0), Ok(5)],
            vec![Err(0), Err(3)],
            vec![Err(2), Ok(5)],
        ]);
        assert_eq!(by, [Some(Some(Ok(5))); 4]);
    }

    #[test]
    fn a_cycle_of_nothing_but_itself_is_undefined() {
        // a = phi(b), b = phi(a); c = phi(a, x) then uses the replaced a: not redundant.
        let by = after(vec![vec![Err(1)], vec![Err(0)], vec![Err(0), Ok(3)]]);
        assert_eq!(by, [Some(None), Some(None), None]);
    }
}
