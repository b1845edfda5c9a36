//! Parallel-copy sequentialization: turning a simultaneous assignment into ordered moves.
//!
//! Phi elimination turns the phis of a block into one *parallel copy* per incoming edge: every
//! destination is assigned at the same time, from the values its source held *before* the
//! copy. Hardware (and our IR) only has sequential moves, so naive emission runs into the
//! *lost-copy* problem (a chain emitted in the wrong order reads an already-overwritten source)
//! and the *swap* problem (a cycle cannot be ordered at all without a temporary).
//!
//! This module implements Algorithm 1 of Boissinot, Darte, Rastello, Dupont de Dinechin and
//! Guillon, *Revisiting Out-of-SSA Translation for Correctness, Code Quality, and Efficiency*
//! (CGO 2009), in the style of regalloc2's `src/moves.rs`: a `ready` stack of destinations
//! whose old value nobody needs any more, a `todo` list of every destination, `pred[b]` (the
//! source of the copy into `b`) and `loc[a]` (where the old value of `a` lives right now). A
//! destination that fans out saves its value in its first copy, and later readers (including
//! the rest of a cycle) read that copy, so only a cycle that nothing outside it reads ever
//! needs a temporary.
//!
//! One deviation from the printed algorithm: when a destination `b` is taken from `todo`, the
//! paper decides whether `b` still waits on a cycle by comparing `b` with `loc[pred[b]]` (the
//! printed `=` is a known typo for `≠`). Even corrected, that test misfires once `pred[b]` fans
//! out and `loc[pred[b]]` has moved on to a sibling written after `b`: the already written `b`
//! is reported as waiting, costing a needless temporary and move. We test `loc[b] == b`
//! instead: "`b` still holds its own old value", which (see the proof at
//! [`Sequentializer::sequentialize`]) is true exactly for the destinations left on closed
//! cycles.
//!
//! # Terms
//!
//! A *copy* is a pair `(dst, src)`. A *self-copy* has `dst == src` and is a no-op. The *copy
//! graph* has an edge `dst → src` per copy that is not a self-copy; since every destination has
//! one source it is a functional graph, and each of its weakly connected components holds at
//! most one cycle. A *closed cycle* is a cycle of that graph (length ≥ 2) none of whose
//! locations is read by a copy outside the cycle, i.e. a rotation with no fan-out.
//!
//! # Invariants of the output
//!
//! For copies over locations `L` (any `Copy + Eq + Hash` type: an SSA value id, a register
//! number, a stack slot...), the emitted moves, executed in order:
//! - give every destination the old value of its source, and leave every location that is not
//!   a destination unchanged (self-copies included: they emit nothing);
//! - write each non-self destination exactly once, directly with its final value, and write no
//!   other input location;
//! - write each temporary ([`Slot::Temp`], numbered densely from 0 in order of creation) exactly
//!   once and read it exactly once, later;
//! - use exactly one temporary per closed cycle and none elsewhere (chains, trees, fan-out, and
//!   cycles that something outside reads need none). That is the minimum for any sequence that
//!   writes each destination once, so `moves == copies + temps` is minimal too;
//! - a source that is never a destination is always read in place; a destination's old value is
//!   read in place until it is first moved out, and from that first copy afterwards.
//!
//! The output depends only on the order of the input copies, never on hashing: the hash map
//! only interns locations to dense `u32` indices in first-seen order. Cost is linear in the
//! number of copies (expected, for the interning); a [`Sequentializer`] keeps its buffers
//! between calls so phi elimination does not allocate per edge.

use std::collections::hash_map::Entry;
use std::fmt;
use std::hash::Hash;

use rustc_hash::FxHashMap;

/// A place a move reads or writes: an input location or a temporary the sequence introduced.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Slot<L> {
    /// A location of the input copies.
    Loc(L),
    /// The `k`-th temporary of this sequence (dense from 0, each written once, then read once).
    Temp(u32),
}

/// One sequential move `dst <- src`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Move<L> {
    /// The place written.
    pub dst: Slot<L>,
    /// The place read.
    pub src: Slot<L>,
}

impl<L: fmt::Display> fmt::Display for Slot<L> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Slot::Loc(l) => l.fmt(f),
            Slot::Temp(k) => write!(f, "tmp{k}"),
        }
    }
}

impl<L: fmt::Display> fmt::Display for Move<L> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} <- {}", self.dst, self.src)
    }
}

/// What one sequentialization produced.
#[derive(Clone, Copy, PartialEq, Eq, Default, Debug)]
pub struct Stats {
    /// Copies that are not self-copies (each becomes exactly one move into its destination).
    pub copies: usize,
    /// Moves emitted: always `copies + temps`.
    pub moves: usize,
    /// Temporaries introduced: the number of closed cycles.
    pub temps: usize,
}

/// Why a parallel copy was rejected.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ParallelCopyError<L> {
    /// This location is the destination of two copies (self-copies count).
    DuplicateDst(L),
}

impl<L: fmt::Debug> fmt::Display for ParallelCopyError<L> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParallelCopyError::DuplicateDst(l) => {
                write!(f, "parallel copy assigns {l:?} more than once")
            }
        }
    }
}

impl<L: fmt::Debug> std::error::Error for ParallelCopyError<L> {}

/// "No location": an unset `pred` / `loc` entry.
const NONE: u32 = u32::MAX;

/// A reusable parallel-copy sequentializer; keeps its scratch buffers between calls.
///
/// Internally every location is interned to a dense `u32` index (first-seen order) and the
/// algorithm runs over dense vectors:
/// - `pred[b]`: the source of the copy into `b`, or `NONE` if `b` is not a non-self destination;
/// - `loc[a]`: where the old value of source `a` is now (`NONE` if `a` is no source; an index
///   `< n` is a location, `n + k` is temporary `k`, with `n` the number of locations). For a
///   destination it changes at most once (to its first copy or its temporary); for a location
///   that is only a source it stays `a`;
/// - `todo`: every non-self destination, in input order; `ready`: a stack of destinations that
///   may be written now because no pending move reads their old value in place.
#[derive(Clone, Debug)]
pub struct Sequentializer<L> {
    index: FxHashMap<L, u32>,
    locs: Vec<L>,
    pred: Vec<u32>,
    loc: Vec<u32>,
    is_dst: Vec<bool>,
    todo: Vec<u32>,
    ready: Vec<u32>,
    scratch: Vec<Move<L>>,
}

impl<L: Copy + Eq + Hash> Default for Sequentializer<L> {
    fn default() -> Self {
        Self::new()
    }
}

impl<L: Copy + Eq + Hash> Sequentializer<L> {
    /// A sequentializer with empty buffers.
    pub fn new() -> Self {
        Self {
            index: FxHashMap::default(),
            locs: Vec::new(),
            pred: Vec::new(),
            loc: Vec::new(),
            is_dst: Vec::new(),
            todo: Vec::new(),
            ready: Vec::new(),
            scratch: Vec::new(),
        }
    }

    fn clear(&mut self) {
        self.index.clear();
        self.locs.clear();
        self.pred.clear();
        self.loc.clear();
        self.is_dst.clear();
        self.todo.clear();
        self.ready.clear();
    }

    fn intern(&mut self, l: L) -> u32 {
        match self.index.entry(l) {
            Entry::Occupied(e) => *e.get(),
            Entry::Vacant(e) => {
                let i = u32::try_from(self.locs.len())
                    .ok()
                    .filter(|&i| i < NONE)
                    .expect("parallel copy over more than u32::MAX - 1 locations");
                e.insert(i);
                self.locs.push(l);
                self.pred.push(NONE);
                self.loc.push(NONE);
                self.is_dst.push(false);
                i
            }
        }
    }

    /// The slot that the internal place `p` (`< n`: location, `n + k`: temporary `k`) names.
    fn slot(&self, p: u32) -> Slot<L> {
        let n = self.locs.len() as u32;
        if p < n {
            Slot::Loc(self.locs[p as usize])
        } else {
            Slot::Temp(p - n)
        }
    }

    /// Appends to `out` a sequence of moves equivalent to the parallel copy `copies` (pairs
    /// `(dst, src)`), with the invariants of the module doc. On error, `out` is unchanged.
    ///
    /// Why it is correct: a destination is pushed on `ready` only when no move still to come
    /// reads its old value in place: either it is no source at all, or its old value was just
    /// moved to its first copy (or to a temporary), where every later reader finds it through
    /// `loc`. Such a copy is itself a destination already written, or a temporary, so it is
    /// never overwritten. Each destination is pushed at most once (only when its `loc` leaves
    /// itself, which happens once), hence written once.
    ///
    /// Why the cycle test is exact: when `ready` runs dry, let `U` be the destinations not yet
    /// written. Each `b` in `U` still has `loc[b] == b` (else it would have been pushed) and is
    /// read by at least one copy (else it was ready from the start), all of whose destinations
    /// are in `U` (a written reader would have moved `b` out). Following readers inside the
    /// finite `U` must loop, and since a cycle node's unique source is on the cycle, `U` is a
    /// disjoint union of closed cycles, every location still holding its own value. So a
    /// destination from `todo` with `loc[b] == b` is exactly one on a closed cycle: saving it
    /// into one temporary makes it ready, and the cycle unwinds back to a read of that
    /// temporary. Destinations already written have `loc[b] != b` and are skipped.
    pub fn sequentialize(
        &mut self,
        copies: &[(L, L)],
        out: &mut Vec<Move<L>>,
    ) -> Result<Stats, ParallelCopyError<L>> {
        self.clear();
        for &(d, s) in copies {
            let di = self.intern(d) as usize;
            if std::mem::replace(&mut self.is_dst[di], true) {
                return Err(ParallelCopyError::DuplicateDst(d));
            }
            if d == s {
                continue;
            }
            let si = self.intern(s);
            self.pred[di] = si;
            self.loc[si as usize] = si;
            self.todo.push(di as u32);
        }

        // Destinations nobody reads can be written at once. Pushed in reverse so that they
        // pop in input order, which keeps the output close to the order of the phis.
        for &b in self.todo.iter().rev() {
            if self.loc[b as usize] == NONE {
                self.ready.push(b);
            }
        }

        let start = out.len();
        let n = self.locs.len() as u32;
        let mut temps = 0u32;
        let mut next = 0;
        loop {
            while let Some(b) = self.ready.pop() {
                let a = self.pred[b as usize];
                let c = self.loc[a as usize];
                out.push(Move {
                    dst: Slot::Loc(self.locs[b as usize]),
                    src: self.slot(c),
                });
                // First move of `a`'s old value out of `a`: if `a` is a destination, later
                // readers use the copy `b` and `a` itself may now be overwritten.
                if c == a && self.pred[a as usize] != NONE {
                    self.loc[a as usize] = b;
                    self.ready.push(a);
                }
            }
            let Some(&b) = self.todo.get(next) else {
                break;
            };
            next += 1;
            if self.loc[b as usize] == b {
                // `b` lies on a closed cycle: park its value in a temporary and unwind.
                out.push(Move {
                    dst: Slot::Temp(temps),
                    src: Slot::Loc(self.locs[b as usize]),
                });
                self.loc[b as usize] = n + temps;
                temps += 1;
                self.ready.push(b);
            }
        }

        let stats = Stats {
            copies: self.todo.len(),
            moves: out.len() - start,
            temps: temps as usize,
        };
        debug_assert_eq!(stats.moves, stats.copies + stats.temps);
        Ok(stats)
    }

    /// Like [`Self::sequentialize`], but temporaries are locations too: `fresh` is called once
    /// per temporary, in order of creation, and must return a location distinct from every
    /// location of `copies` and from every other temporary (phi elimination makes a new SSA
    /// value). Appends `(dst, src)` pairs to `out`; on error, `out` is unchanged and `fresh`
    /// was not called.
    pub fn sequentialize_with(
        &mut self,
        copies: &[(L, L)],
        mut fresh: impl FnMut() -> L,
        out: &mut Vec<(L, L)>,
    ) -> Result<Stats, ParallelCopyError<L>> {
        let mut moves = std::mem::take(&mut self.scratch);
        moves.clear();
        let result = self.sequentialize(copies, &mut moves);
        if let Ok(stats) = result {
            let mut temps: Vec<L> = Vec::with_capacity(stats.temps);
            out.reserve(moves.len());
            for m in &moves {
                let src = match m.src {
                    Slot::Loc(l) => l,
                    Slot::Temp(k) => temps[k as usize],
                };
                let dst = match m.dst {
                    Slot::Loc(l) => l,
                    Slot::Temp(k) => {
                        debug_assert_eq!(k as usize, temps.len(), "temporaries are dense");
                        let t = fresh();
                        debug_assert!(
                            !self.index.contains_key(&t) && !temps.contains(&t),
                            "fresh() returned a location already in use"
                        );
                        temps.push(t);
                        t
                    }
                };
                out.push((dst, src));
            }
        }
        self.scratch = moves;
        result
    }
}

/// A sequentialized parallel copy: the moves, in execution order, and their statistics.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Sequence<M> {
    /// The moves, to be executed in order: [`Move`]s, or `(dst, src)` pairs once temporaries
    /// are locations.
    pub moves: Vec<M>,
    /// Counts of copies, moves and temporaries.
    pub stats: Stats,
}

/// Sequentializes the parallel copy `copies` (pairs `(dst, src)`); see the module doc for the
/// guarantees. Temporaries appear as [`Slot::Temp`].
pub fn sequentialize<L: Copy + Eq + Hash>(
    copies: &[(L, L)],
) -> Result<Sequence<Move<L>>, ParallelCopyError<L>> {
    let mut moves = Vec::with_capacity(copies.len());
    let stats = Sequentializer::new().sequentialize(copies, &mut moves)?;
    Ok(Sequence { moves, stats })
}

/// Sequentializes `copies` into `(dst, src)` pairs over `L`, calling `fresh` for each
/// temporary; see [`Sequentializer::sequentialize_with`].
pub fn sequentialize_with<L: Copy + Eq + Hash>(
    copies: &[(L, L)],
    fresh: impl FnMut() -> L,
) -> Result<Sequence<(L, L)>, ParallelCopyError<L>> {
    let mut moves = Vec::with_capacity(copies.len());
    let stats = Sequentializer::new().sequentialize_with(copies, fresh, &mut moves)?;
    Ok(Sequence { moves, stats })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::Rng;

    fn seq(copies: &[(u32, u32)]) -> (Vec<Move<u32>>, Stats) {
        let Sequence { moves, stats } = sequentialize(copies).expect("valid parallel copy");
        (moves, stats)
    }

    fn show(moves: &[Move<u32>]) -> Vec<String> {
        moves.iter().map(|m| m.to_string()).collect()
    }

    /// Runs `moves` on a register file where location `i` starts with value `i` (all distinct)
    /// and checks the result is the simultaneous assignment `copies`, plus the structural
    /// invariants: each non-self destination written once, no other location written, each
    /// temporary written once before being read once, `moves == copies + temps`.
    fn check(copies: &[(u32, u32)], moves: &[Move<u32>], stats: Stats) {
        let nlocs = copies.iter().map(|&(d, s)| d.max(s) + 1).max().unwrap_or(0) as usize;
        let mut regs: Vec<u64> = (0..nlocs as u64).collect();
        let mut temps: Vec<Option<u64>> = vec![None; stats.temps];
        let mut temp_reads = vec![0usize; stats.temps];
        let mut writes = vec![0usize; nlocs];
        for m in moves {
            let v = match m.src {
                Slot::Loc(l) => regs[l as usize],
                Slot::Temp(k) => {
                    temp_reads[k as usize] += 1;
                    temps[k as usize].expect("temporary read before written")
                }
            };
            match m.dst {
                Slot::Loc(l) => {
                    writes[l as usize] += 1;
                    regs[l as usize] = v;
                }
                Slot::Temp(k) => {
                    assert!(temps[k as usize].is_none(), "temporary written twice");
                    temps[k as usize] = Some(v);
                }
            }
        }
        let mut expected: Vec<u64> = (0..nlocs as u64).collect();
        let mut expected_writes = vec![0usize; nlocs];
        for &(d, s) in copies {
            expected[d as usize] = s as u64;
            if d != s {
                expected_writes[d as usize] = 1;
            }
        }
        assert_eq!(regs, expected, "copies {copies:?} moves {:?}", show(moves));
        assert_eq!(writes, expected_writes, "copies {copies:?}");
        assert!(temps.iter().all(Option::is_some), "temporary never written");
        assert!(
            temp_reads.iter().all(|&r| r == 1),
            "temporary not read once"
        );
        let nonself = copies.iter().filter(|&&(d, s)| d != s).count();
        assert_eq!(stats.copies, nonself);
        assert_eq!(stats.moves, moves.len());
        assert_eq!(stats.moves, stats.copies + stats.temps);
    }

    /// The number of closed cycles, computed independently of the algorithm.
    ///
    /// Definition: take the copy graph with one edge `dst → src` per copy with `dst != src`
    /// (self-copies are no-ops, not cycles). Each location has at most one outgoing edge, so
    /// every cycle is found by walking `src` links. A cycle `x1 ← x2 ← ... ← xk ← x1` (k ≥ 2)
    /// is *closed* when each `xi` is read by exactly one non-self copy, the one inside the
    /// cycle. Those, and only those, need a temporary: every location on the cycle must be
    /// written, and the first one written loses its old value unless it was saved, which only
    /// a temporary can do when no destination outside the cycle reads it. A cycle with
    /// fan-out (some `xi` also copied to a location off the cycle) needs none: that outside
    /// copy is made first and the cycle reads it.
    fn closed_cycles(copies: &[(u32, u32)]) -> usize {
        let n = copies.iter().map(|&(d, s)| d.max(s) + 1).max().unwrap_or(0) as usize;
        let mut src = vec![None; n];
        let mut readers = vec![0usize; n];
        for &(d, s) in copies {
            if d != s {
                src[d as usize] = Some(s as usize);
                readers[s as usize] += 1;
            }
        }
        // 0 = unvisited, 1 = on the current walk, 2 = finished.
        let mut state = vec![0u8; n];
        let mut count = 0;
        for start in 0..n {
            let mut path = Vec::new();
            let mut x = start;
            while state[x] == 0 {
                state[x] = 1;
                path.push(x);
                match src[x] {
                    Some(s) => x = s,
                    None => break,
                }
            }
            if state[x] == 1 && src[x].is_some() {
                // `x` closes a cycle found on this walk: the path from `x`'s position on.
                let pos = path.iter().position(|&p| p == x).unwrap();
                let cycle = &path[pos..];
                assert!(cycle.len() >= 2);
                if cycle.iter().all(|&c| readers[c] == 1) {
                    count += 1;
                }
            }
            for p in path {
                state[p] = 2;
            }
        }
        count
    }

    fn check_all(copies: &[(u32, u32)]) -> (Vec<Move<u32>>, Stats) {
        let (moves, stats) = seq(copies);
        check(copies, &moves, stats);
        assert_eq!(stats.temps, closed_cycles(copies), "copies {copies:?}");
        (moves, stats)
    }

    #[test]
    fn empty() {
        let (moves, stats) = check_all(&[]);
        assert!(moves.is_empty());
        assert_eq!(stats, Stats::default());
    }

    #[test]
    fn self_copies_only() {
        let (moves, stats) = check_all(&[(1, 1), (4, 4)]);
        assert!(moves.is_empty());
        assert_eq!(stats, Stats::default());
    }

    #[test]
    fn chain_in_dependency_order() {
        // a <- b, b <- c (a=0, b=1, c=2): `a` must read `b` before `b` is overwritten,
        // whichever order the copies come in.
        let (moves, stats) = check_all(&[(0, 1), (1, 2)]);
        assert_eq!(show(&moves), ["0 <- 1", "1 <- 2"]);
        assert_eq!(stats.temps, 0);
        let (moves, _) = check_all(&[(1, 2), (0, 1)]);
        assert_eq!(show(&moves), ["0 <- 1", "1 <- 2"]);
        let (moves, _) = check_all(&[(3, 2), (1, 0), (2, 1)]);
        assert_eq!(show(&moves), ["3 <- 2", "2 <- 1", "1 <- 0"]);
    }

    #[test]
    fn swap_uses_one_temporary() {
        let (moves, stats) = check_all(&[(0, 1), (1, 0)]);
        assert_eq!(show(&moves), ["tmp0 <- 0", "0 <- 1", "1 <- tmp0"]);
        assert_eq!(
            stats,
            Stats {
                copies: 2,
                moves: 3,
                temps: 1
            }
        );
    }

    #[test]
    fn rotation_uses_one_temporary() {
        let (moves, stats) = check_all(&[(0, 1), (1, 2), (2, 0)]);
        assert_eq!(show(&moves), ["tmp0 <- 0", "0 <- 1", "1 <- 2", "2 <- tmp0"]);
        assert_eq!(stats.temps, 1);
    }

    #[test]
    fn two_disjoint_cycles_use_two_temporaries() {
        let (moves, stats) = check_all(&[(0, 1), (2, 3), (1, 0), (3, 4), (4, 2)]);
        assert_eq!(
            show(&moves),
            [
                "tmp0 <- 0",
                "0 <- 1",
                "1 <- tmp0",
                "tmp1 <- 2",
                "2 <- 3",
                "3 <- 4",
                "4 <- tmp1"
            ]
        );
        assert_eq!(
            stats,
            Stats {
                copies: 5,
                moves: 7,
                temps: 2
            }
        );
    }

    #[test]
    fn one_source_many_destinations_read_in_place() {
        let (moves, stats) = check_all(&[(1, 0), (2, 0), (3, 0)]);
        assert_eq!(show(&moves), ["1 <- 0", "2 <- 0", "3 <- 0"]);
        assert_eq!(stats.temps, 0);
    }

    #[test]
    fn cycle_with_fan_out_needs_no_temporary() {
        // b <- a, a <- b, c <- b (a=0, b=1, c=2): `c` takes b's old value first, `b` can then
        // be written, and `a` reads b's old value from `c`. The fan-out is the saved copy.
        let (moves, stats) = check_all(&[(1, 0), (0, 1), (2, 1)]);
        assert_eq!(show(&moves), ["2 <- 1", "1 <- 0", "0 <- 2"]);
        assert_eq!(stats.temps, 0);
    }

    #[test]
    fn cycle_with_tail_and_fan_out() {
        // Swap 0,1; 2 <- 1 and 3 <- 2 hang off the cycle as a tail: 3 reads 2 before 2 is
        // overwritten, 2 saves 1, and the cycle closes through 2. No temporary.
        let (moves, stats) = check_all(&[(0, 1), (1, 0), (2, 1), (3, 2)]);
        assert_eq!(show(&moves), ["3 <- 2", "2 <- 1", "1 <- 0", "0 <- 2"]);
        assert_eq!(stats.temps, 0);
        // A cycle fanning out from two of its nodes, next to a closed swap: one temporary.
        let copies = [
            (0, 1),
            (1, 2),
            (2, 0),
            (5, 0),
            (6, 2),
            (7, 6),
            (3, 4),
            (4, 3),
        ];
        let (_, stats) = check_all(&copies);
        assert_eq!(stats.temps, 1);
    }

    #[test]
    fn duplicate_sources() {
        // One source read by several destinations, some on a cycle: 0 feeds 1, 2 and 3 while
        // 0 <- 1 closes the cycle. 2 saves 0, so again no temporary; once 0's value has
        // left, its other readers (1 and 3) read the saved copy in 2.
        let (moves, stats) = check_all(&[(0, 1), (1, 0), (2, 0), (3, 0)]);
        assert_eq!(show(&moves), ["2 <- 0", "0 <- 1", "1 <- 2", "3 <- 2"]);
        assert_eq!(stats.temps, 0);
        // Duplicate sources that are not destinations, with a chain.
        check_all(&[(1, 5), (2, 5), (5, 6), (3, 6)]);
    }

    #[test]
    fn duplicate_destination_is_an_error() {
        let mut s = Sequentializer::new();
        let mut out = vec![Move {
            dst: Slot::Loc(9),
            src: Slot::Loc(8),
        }];
        for bad in [
            &[(0, 1), (0, 2)][..],
            &[(0, 1), (0, 1)],
            &[(0, 0), (0, 1)],
            &[(2, 3), (0, 1), (0, 0)],
        ] {
            assert_eq!(
                s.sequentialize(bad, &mut out),
                Err(ParallelCopyError::DuplicateDst(0))
            );
            assert_eq!(out.len(), 1, "output untouched on error");
        }
        let mut called = false;
        let mut pairs = Vec::new();
        let r = s.sequentialize_with(
            &[(0, 1), (1, 0), (1, 2)],
            || {
                called = true;
                99
            },
            &mut pairs,
        );
        assert_eq!(r, Err(ParallelCopyError::DuplicateDst(1)));
        assert!(!called && pairs.is_empty());
        assert_eq!(
            r.unwrap_err().to_string(),
            "parallel copy assigns 1 more than once"
        );
    }

    #[test]
    fn fresh_temporaries_as_locations() {
        // Generic locations; the closure names the temporaries.
        let mut names = ["t1", "t0"].into_iter().rev();
        let copies = [
            ("a", "b"),
            ("b", "a"),
            ("c", "d"),
            ("d", "e"),
            ("e", "c"),
            ("f", "f"),
        ];
        let Sequence {
            moves: pairs,
            stats,
        } = sequentialize_with(&copies, || names.next().unwrap()).unwrap();
        assert_eq!(
            pairs,
            [
                ("t0", "a"),
                ("a", "b"),
                ("b", "t0"),
                ("t1", "c"),
                ("c", "d"),
                ("d", "e"),
                ("e", "t1"),
            ]
        );
        assert_eq!(stats.temps, 2);
        assert_eq!(stats.moves, 7);
    }

    #[test]
    fn sequentializer_is_reusable() {
        let mut s = Sequentializer::new();
        let mut out = Vec::new();
        s.sequentialize(&[(0, 1), (1, 0)], &mut out).unwrap();
        let first = out.len();
        // Different locations, same indices internally: nothing must leak between runs.
        let stats = s.sequentialize(&[(7, 8), (8, 9)], &mut out).unwrap();
        assert_eq!(stats.temps, 0);
        assert_eq!(show(&out[first..]), ["7 <- 8", "8 <- 9"]);
        let mut pairs = Vec::new();
        let mut next = 100;
        for _ in 0..3 {
            pairs.clear();
            let stats = s
                .sequentialize_with(
                    &[(0, 1), (1, 2), (2, 0)],
                    || {
                        next += 1;
                        next
                    },
                    &mut pairs,
                )
                .unwrap();
            assert_eq!(stats.temps, 1);
            assert_eq!(pairs.len(), 4);
        }
        assert_eq!(next, 103);
    }

    #[test]
    fn long_rotation_and_chain() {
        let n = 100_000u32;
        let rot: Vec<(u32, u32)> = (0..n).map(|i| (i, (i + 1) % n)).collect();
        let (moves, stats) = check_all(&rot);
        assert_eq!((stats.temps, moves.len()), (1, n as usize + 1));
        let chain: Vec<(u32, u32)> = (0..n).rev().map(|i| (i, i + 1)).collect();
        let (_, stats) = check_all(&chain);
        assert_eq!(stats.temps, 0);
    }

    fn shuffle<T>(rng: &mut Rng, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            v.swap(i, rng.below(i as u64 + 1) as usize);
        }
    }

    /// A random permutation of a random subset of `0..n`, as copies `i <- perm(i)`: only
    /// cycles and self-copies, no fan-out, so every non-trivial cycle is closed.
    fn random_permutation(rng: &mut Rng, n: u32) -> Vec<(u32, u32)> {
        let mut locs: Vec<u32> = (0..n).filter(|_| rng.below(4) != 0).collect();
        let mut perm = locs.clone();
        shuffle(rng, &mut perm);
        let mut copies: Vec<(u32, u32)> = locs.drain(..).zip(perm).collect();
        shuffle(rng, &mut copies);
        copies
    }

    /// A random functional graph: a random set of destinations, each with a source drawn from
    /// `0..n` (possibly itself, another destination, or a location that is only read).
    fn random_function(rng: &mut Rng, n: u32) -> Vec<(u32, u32)> {
        let mut copies = Vec::new();
        for d in 0..n {
            if rng.below(3) != 0 {
                copies.push((d, rng.below(n as u64) as u32));
            }
        }
        shuffle(rng, &mut copies);
        copies
    }

    /// Disjoint chains and cycles over shuffled locations, with random trees hung off them
    /// (fan-out, tails into cycles) and some self-copies.
    fn random_structured(rng: &mut Rng, n: u32) -> Vec<(u32, u32)> {
        let mut fresh: Vec<u32> = (0..n).collect();
        shuffle(rng, &mut fresh);
        let mut copies = Vec::new();
        let mut sources = Vec::new();
        while fresh.len() >= 2 {
            let len = 1 + rng.below(fresh.len().min(6) as u64) as usize;
            let group: Vec<u32> = fresh.drain(fresh.len() - len..).collect();
            match rng.below(4) {
                0 if len >= 2 => {
                    // cycle g0 <- g1 <- ... <- g(len-1) <- g0
                    for i in 0..len {
                        copies.push((group[i], group[(i + 1) % len]));
                    }
                }
                1 => {
                    // self-copies
                    copies.extend(group.iter().map(|&g| (g, g)));
                }
                _ => {
                    // chain g0 <- g1 <- ... <- g(len-1); the last one is only read
                    for w in group.windows(2) {
                        copies.push((w[0], w[1]));
                    }
                }
            }
            sources.extend(group);
            // Hang a fan-out tree off what exists so far, from locations not yet written.
            if rng.below(3) == 0 && !fresh.is_empty() {
                let leaf = fresh.pop().unwrap();
                let src = sources[rng.below(sources.len() as u64) as usize];
                copies.push((leaf, src));
                sources.push(leaf);
            }
        }
        shuffle(rng, &mut copies);
        copies
    }

    #[test]
    fn property_random_parallel_copies() {
        let mut rng = Rng::new(0x5eed_0fc0_91e5);
        let mut s = Sequentializer::new();
        let mut out = Vec::new();
        let mut total_temps = 0;
        for round in 0..6000u32 {
            let n = 1 + rng.below(if round % 10 == 0 { 64 } else { 12 }) as u32;
            let copies = match round % 3 {
                0 => random_permutation(&mut rng, n),
                1 => random_function(&mut rng, n),
                _ => random_structured(&mut rng, n),
            };
            out.clear();
            let stats = s.sequentialize(&copies, &mut out).unwrap();
            check(&copies, &out, stats);
            assert_eq!(stats.temps, closed_cycles(&copies), "copies {copies:?}");
            // Determinism: a fresh run and the convenience function agree exactly.
            assert_eq!(seq(&copies).0, out);
            total_temps += stats.temps;
        }
        // The generators do exercise cycles.
        assert!(total_temps > 1000, "{total_temps}");
    }

    #[test]
    fn property_closed_cycles_count_on_permutations() {
        // On a permutation of all of 0..n with no fan-out, the temporaries are exactly the
        // cycles of length >= 2 in its cycle decomposition (counted here a third way).
        let mut rng = Rng::new(42);
        for _ in 0..2000 {
            let n = 1 + rng.below(20) as usize;
            let mut perm: Vec<u32> = (0..n as u32).collect();
            shuffle(&mut rng, &mut perm);
            let copies: Vec<(u32, u32)> = (0..n as u32).zip(perm.iter().copied()).collect();
            let mut seen = vec![false; n];
            let mut cycles = 0;
            for i in 0..n {
                let mut len = 0;
                let mut j = i;
                while !seen[j] {
                    seen[j] = true;
                    j = perm[j] as usize;
                    len += 1;
                }
                if len >= 2 {
                    cycles += 1;
                }
            }
            let (moves, stats) = check_all(&copies);
            assert_eq!(stats.temps, cycles);
            let fixed = (0..n).filter(|&i| perm[i] as usize == i).count();
            assert_eq!(moves.len(), n - fixed + cycles);
        }
    }
}
