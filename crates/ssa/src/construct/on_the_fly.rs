//! SSA while the front end is still emitting code: the on-the-fly builder of Braun, Buchwald,
//! Hack, Leißa, Mallon and Zwinkau ("Simple and Efficient Construction of Static Single
//! Assignment Form", CC 2013), for any IR, linear on every shape.
//!
//! The front end declares variables, creates blocks, reports edges (when it emits the branch
//! that ends the predecessor, after its last definition), defines and uses variables in blocks,
//! and seals a block once all its predecessors are known. Its IR makes phis (or block
//! parameters) and replaces removed ones through the [`Sink`] trait. As in Braun et al.:
//! - a use finds a definition earlier in its block at once; otherwise it follows a chain of
//!   sealed single-predecessor blocks, memoizing the answer in every block on the way, so no
//!   chain is walked twice (the quadratic case of wasmtime issue 4923 stays linear); a chain
//!   that closes on itself (unreachable blocks) reads the undefined value;
//! - in an *unsealed* block a use makes an *incomplete* phi; sealing the block gives it one
//!   operand per predecessor edge;
//! - a phi whose operands, ignoring itself, are one value is *trivial*: it is removed and
//!   replaced by that value, and the phis that used it are looked at again (recursively, by a
//!   worklist);
//! - a use with no definition on some path reads the sink's [`Sink::undefined`] value.
//!
//! One departure, for linear time: at a *sealed* block with several predecessors, Braun et al.
//! make a phi and look the variable up in every predecessor at once. On a loop nest that look-up
//! runs through every inner loop header, making a trivial phi at each (cranelift-frontend, which
//! follows the paper, takes 56 s on 16,000 nested loops). Here such a use makes a *pending* phi
//! and goes no further; at [`Builder::finish`] all pending phis are resolved together by the
//! whole-function algorithm of [`super::build`] (phis at the iterated dominance frontier of the
//! definitions, renaming in one walk), which needs no walk through blocks where the variable
//! is not live. A pending phi the frontier keeps gets its operands then; the others are replaced
//! by the value that reaches them. A last worklist pass removes the phis that became trivial.
//!
//! Misuse is an [`Err`], never a panic: an undeclared variable or unknown block, sealing twice,
//! an edge into a sealed block or into the entry, using or defining a variable in a block
//! sealed without predecessors (it can never run), finishing with unsealed blocks.
//!
//! Invariants: every operation costs amortized constant time (hash look-ups; each
//! `(variable, block)` pair is memoized at most once, and a value found within
//! [`SHORT_WALK`] steps is not memoized: it is found again within as many),
//! [`Builder::finish`] is linear in the function (and does nothing but reset when no phi was
//! made); no allocation per block; the result depends only on the calls made, never on
//! hash-map iteration order.

use std::fmt;
use std::hash::Hash;

use rustc_hash::FxHashMap;

use super::Var;
use crate::Block;

/// A value of the user's IR as the builder keeps it. Besides comparing values, the builder
/// must tell which values are phis it made: [`PhiKey::phi_key`] numbers them, and the builder
/// looks the number up in a dense table (as Cranelift's values are indices), never a hash map.
pub trait PhiKey: Copy + Eq + Hash {
    /// A number for this value if it may be a phi (for an IR whose values are indices: the
    /// index), or `None` if it never is (a constant). Two phis must not share a number. The
    /// numbers of phis should be dense: the builder's table grows to the largest it sees below
    /// [`PHI_KEY_DENSE_LIMIT`] (larger ones go to a hash map).
    fn phi_key(self) -> Option<u32>;
}

impl PhiKey for u32 {
    #[inline]
    fn phi_key(self) -> Option<u32> {
        Some(self)
    }
}

/// Phi numbers ([`PhiKey::phi_key`]) from this one up are kept in a hash map rather than in
/// the dense table (so a sink with sparse numbers costs no memory).
pub const PHI_KEY_DENSE_LIMIT: u32 = 1 << 24;

/// The user's IR, as the builder changes it.
pub trait Sink {
    /// A value of the IR.
    type Value: PhiKey;

    /// Makes an operandless phi for `var` at the start of `block` (or a block parameter) and
    /// returns its result.
    fn new_phi(&mut self, block: Block, var: Var) -> Self::Value;

    /// Gives `phi`, of `block`, its operands: one per predecessor edge of `block`, in the order
    /// the edges were added ([`Builder::add_edge`]). Called once per phi that is kept so far.
    fn set_phi_operands(&mut self, phi: Self::Value, block: Block, operands: &[Self::Value]);

    /// `phi` is removed: every use of it (in instructions and in other phis' operands) is to
    /// read `by` instead.
    fn replace_phi(&mut self, phi: Self::Value, by: Self::Value);

    /// The value of `var` where it has no definition on some path (undef, poison, zero...).
    fn undefined(&mut self, var: Var) -> Self::Value;
}

/// A misuse of the builder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BuilderError {
    /// The variable was not declared.
    UnknownVar(Var),
    /// The block was not created.
    UnknownBlock(Block),
    /// The block was sealed before.
    AlreadySealed(Block),
    /// An edge into a block already sealed (its predecessors were said to be all known).
    EdgeIntoSealed {
        /// The edge's source.
        from: Block,
        /// The sealed block.
        to: Block,
    },
    /// An edge into the entry block (the entry has no predecessors: a loop back to the start
    /// needs a block of its own after the entry).
    EdgeIntoEntry {
        /// The edge's source.
        from: Block,
    },
    /// A use or definition in a block sealed without predecessors, other than the entry: it
    /// can never run.
    Unreachable(Block),
    /// [`Builder::finish`] with blocks still unsealed.
    Unsealed(Vec<Block>),
}

impl fmt::Display for BuilderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BuilderError::UnknownVar(v) => write!(f, "{v} was not declared"),
            BuilderError::UnknownBlock(b) => write!(f, "{b} was not created"),
            BuilderError::AlreadySealed(b) => write!(f, "{b} is sealed already"),
            BuilderError::EdgeIntoSealed { from, to } => write!(
                f,
                "edge {from} -> {to} into a sealed block (seal a block only once all its predecessors are known)"
            ),
            BuilderError::EdgeIntoEntry { from } => write!(
                f,
                "edge {from} -> entry: the entry block has no predecessors (branch to a block after it)"
            ),
            BuilderError::Unreachable(b) => write!(
                f,
                "{b} was sealed without predecessors, so it never runs: emit no code there"
            ),
            BuilderError::Unsealed(bs) => {
                write!(f, "finish with unsealed blocks:")?;
                for b in bs {
                    write!(f, " {b}")?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for BuilderError {}

/// What a build did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BuilderStats {
    /// Phis made (incomplete, pending, and those the final resolution added).
    pub phis_made: usize,
    /// Phis removed as trivial, or replaced when resolved.
    pub phis_removed: usize,
    /// Phis made pending at sealed merge blocks (see the module docs).
    pub pending: usize,
    /// Steps of look-ups from a block to its only predecessor: at most [`SHORT_WALK`] per
    /// look-up, plus one per `(variable, block)` pair memoized.
    pub walked: usize,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum State {
    /// In an unsealed block, waiting for its operands.
    Incomplete,
    /// At a sealed merge block, resolved at `finish`.
    Pending,
    /// Has its operands.
    Complete,
    /// Removed (replaced).
    Removed,
}

struct PhiInfo<V> {
    var: Var,
    block: Block,
    value: V,
    state: State,
    /// Its operands, a range of `Builder::ops` (complete phis).
    ops: std::ops::Range<u32>,
    /// What replaced it (removed phis).
    by: V,
    /// The next incomplete phi of its block ([`NO_PHI`]: the last).
    next: u32,
}

/// A look-up that walks at most this many blocks memoizes nothing: walking them again costs
/// about what the memo entries would (a hash-map probe per block), so every look-up stays
/// within this many steps plus a walk that is memoized (and never walked again).
pub const SHORT_WALK: usize = 4;

/// No phi (in [`Builder::phi_at`]).
const NO_PHI: u32 = u32::MAX;

/// No edge: the end of a list of [`Builder::edges`] (and of [`Builder::user_links`]).
const NO_EDGE: u32 = u32::MAX;

struct BlockInfo<V> {
    sealed: bool,
    /// Whether some of the block's entries of [`Builder::map`] are in the memo (if not,
    /// looking there is pointless).
    spilled: bool,
    /// Edges into the block so far.
    npreds: u32,
    /// The first and last of them, a list through [`Builder::edges`] in the order they were
    /// added (no allocation per block).
    first: u32,
    last: u32,
    /// One entry of [`Builder::map`] kept here rather than in the hash map: most blocks have
    /// at most one (a chain of blocks each defining one variable needs no hashing at all).
    inline: Option<(Var, V)>,
    /// Incomplete phis, to complete at sealing: the first and last of a list through
    /// [`PhiInfo::next`] in the order they were made ([`NO_PHI`]: none; no allocation per
    /// block).
    incomplete: (u32, u32),
}

impl<V> BlockInfo<V> {
    fn new() -> Self {
        BlockInfo {
            sealed: false,
            spilled: false,
            npreds: 0,
            first: NO_EDGE,
            last: NO_EDGE,
            inline: None,
            incomplete: (NO_PHI, NO_PHI),
        }
    }
}

/// An edge into a block: its source, and the next edge into the same block.
#[derive(Clone, Copy)]
struct Edge {
    from: Block,
    next: u32,
}

/// The on-the-fly SSA builder (see the module docs).
pub struct Builder<V> {
    blocks: Vec<BlockInfo<V>>,
    /// Every edge, linked into its target's list of predecessors.
    edges: Vec<Edge>,
    num_vars: u32,
    /// Per variable, its last definition: the block and value (`None`: none yet). Older
    /// definitions are in `map` and `defs`.
    last: Vec<Option<(Block, V)>>,
    /// Per `(variable, block)`: the value at the end of the block if it defines the variable,
    /// else at its start (a memoized look-up, or the block's phi). One entry per block may be
    /// kept in the block instead ([`BlockInfo::inline`]): see [`Builder::memo`]; the others
    /// are in a hash map that keeps one block's entries together (see [`memo`]).
    map: memo::Memo<V>,
    /// Every definition that is a block's last of its variable, in the order they were made
    /// final (for the resolution at `finish`).
    defs: Vec<(Block, Var, V)>,
    phis: Vec<PhiInfo<V>>,
    /// Per phi number ([`PhiKey::phi_key`]) below [`PHI_KEY_DENSE_LIMIT`]: the phi (index into
    /// `phis`) with that number, or [`NO_PHI`].
    phi_at: Vec<u32>,
    /// The same for larger numbers (empty unless a sink hands them out).
    phi_at_sparse: FxHashMap<u32, u32>,
    ops: Vec<V>,
    /// Per phi, the phis that take it as an operand.
    /// Per phi, the first and last of its [`Builder::user_links`] (or [`NO_EDGE`]): a list in
    /// one array, so no phi allocates, and a removed phi's users move to its replacement in
    /// O(1).
    users: Vec<(u32, u32)>,
    /// The lists of [`Builder::users`]: a user phi and the next link.
    user_links: Vec<(u32, u32)>,
    /// Whether some phi was removed (if not, values need no resolving).
    any_removed: bool,
    pending: Vec<u32>,
    /// Per block, whether it is reachable (known at `finish` only; empty before).
    reachable: Vec<bool>,
    path: Vec<Block>,
    work: Vec<u32>,
    /// [`Builder::finish`]'s buffers.
    resolve_bufs: resolve::Resolve<V>,
    stats: BuilderStats,
    /// Remove redundant phi cycles at `finish` ([`Builder::set_remove_redundant_cycles`]); a
    /// setting, kept by [`Builder::reset`].
    remove_cycles: bool,
}

impl<V: PhiKey> Default for Builder<V> {
    fn default() -> Self {
        Self {
            blocks: Vec::new(),
            edges: Vec::new(),
            num_vars: 0,
            last: Vec::new(),
            map: memo::Memo::default(),
            defs: Vec::new(),
            phis: Vec::new(),
            phi_at: Vec::new(),
            phi_at_sparse: FxHashMap::default(),
            ops: Vec::new(),
            users: Vec::new(),
            user_links: Vec::new(),
            any_removed: false,
            pending: Vec::new(),
            reachable: Vec::new(),
            path: Vec::new(),
            work: Vec::new(),
            resolve_bufs: resolve::Resolve::default(),
            stats: BuilderStats::default(),
            remove_cycles: false,
        }
    }
}

impl<V: PhiKey> Builder<V> {
    /// An empty builder.
    pub fn new() -> Self {
        Self::default()
    }

    /// Whether [`Builder::finish`] also removes groups of phis that only use each other and
    /// one value from outside ([`crate::construct::cycles`]: minimal where a variable is
    /// assigned what it holds; off by default, as it walks every phi once more).
    pub fn set_remove_redundant_cycles(&mut self, on: bool) {
        self.remove_cycles = on;
    }

    /// Forgets everything, keeping the buffers (for the next function).
    pub fn reset(&mut self) {
        self.blocks.clear();
        self.edges.clear();
        self.num_vars = 0;
        self.last.clear();
        self.map.clear();
        self.defs.clear();
        // Only the entries of this function's phis are set: reset those.
        for ph in &self.phis {
            if let Some(i) = ph.value.phi_key().filter(|&i| i < PHI_KEY_DENSE_LIMIT) {
                if let Some(slot) = self.phi_at.get_mut(i as usize) {
                    *slot = NO_PHI;
                }
            }
        }
        self.phis.clear();
        self.phi_at_sparse.clear();
        self.ops.clear();
        self.users.clear();
        self.user_links.clear();
        self.any_removed = false;
        self.pending.clear();
        self.reachable.clear();
        self.stats = BuilderStats::default();
    }

    /// Declares a variable.
    pub fn declare_var(&mut self) -> Var {
        self.last.push(None);
        self.num_vars += 1;
        Var(self.num_vars - 1)
    }

    /// Creates a block; the first one is the entry.
    pub fn create_block(&mut self) -> Block {
        self.blocks.push(BlockInfo::new());
        Block::new(self.blocks.len() - 1)
    }

    /// Adds the edge `from -> to`: call it when the branch that ends `from` is emitted (after
    /// `from`'s last definition). Repeated edges count once each.
    pub fn add_edge(&mut self, from: Block, to: Block) -> Result<(), BuilderError> {
        self.block(from)?;
        let t = self.block(to)?;
        if t.sealed {
            return Err(BuilderError::EdgeIntoSealed { from, to });
        }
        if to == Block(0) {
            return Err(BuilderError::EdgeIntoEntry { from });
        }
        let e = self.edges.len() as u32;
        self.edges.push(Edge {
            from,
            next: NO_EDGE,
        });
        let info = &mut self.blocks[to.index()];
        match info.last {
            NO_EDGE => info.first = e,
            last => self.edges[last as usize].next = e,
        }
        info.last = e;
        info.npreds += 1;
        Ok(())
    }

    /// Assigns `value` to `var` in `block`.
    pub fn def_var(&mut self, var: Var, block: Block, value: V) -> Result<(), BuilderError> {
        self.check(var, block)?;
        let old = self.last[var.index()].replace((block, value));
        if let Some((b, v)) = old.filter(|&(b, _)| b != block) {
            self.set_memo(var, b, v);
            self.defs.push((b, var, v));
        }
        Ok(())
    }

    /// The value of `var` at this point of `block` (see the module docs).
    pub fn use_var<S: Sink<Value = V>>(
        &mut self,
        var: Var,
        block: Block,
        sink: &mut S,
    ) -> Result<V, BuilderError> {
        self.check(var, block)?;
        Ok(self.read(var, block, sink))
    }

    /// Says that every predecessor of `block` is known: its incomplete phis get their operands
    /// (and the trivial ones go).
    pub fn seal_block<S: Sink<Value = V>>(
        &mut self,
        block: Block,
        sink: &mut S,
    ) -> Result<(), BuilderError> {
        if self.block(block)?.sealed {
            return Err(BuilderError::AlreadySealed(block));
        }
        let (mut k, _) =
            std::mem::replace(&mut self.blocks[block.index()].incomplete, (NO_PHI, NO_PHI));
        if k == NO_PHI {
            self.blocks[block.index()].sealed = true;
            return Ok(());
        }
        let mut work = std::mem::take(&mut self.work);
        work.clear();
        while k != NO_PHI {
            self.complete(k, sink);
            work.push(k);
            k = self.phis[k as usize].next;
        }
        self.blocks[block.index()].sealed = true;
        // Looked at in the order they were made.
        work.reverse();
        self.remove_trivial(&mut work, sink);
        self.work = work;
        Ok(())
    }

    /// Resolves the pending phis and removes the phis that became trivial; every block must be
    /// sealed. The builder is then empty again ([`Builder::reset`]).
    pub fn finish<S: Sink<Value = V>>(
        &mut self,
        sink: &mut S,
    ) -> Result<BuilderStats, BuilderError> {
        let unsealed: Vec<Block> = (0..self.blocks.len())
            .filter(|&b| !self.blocks[b].sealed)
            .map(Block::new)
            .collect();
        if !unsealed.is_empty() {
            return Err(BuilderError::Unsealed(unsealed));
        }
        // Without phis there is nothing to resolve or remove: no graph needed.
        if !self.phis.is_empty() {
            let mut rs = std::mem::take(&mut self.resolve_bufs);
            self.compute_cfg(&mut rs);
            // Now that the graph is known, edges from unreachable blocks (which never run) are
            // no reason to keep a phi.
            self.reachable.clear();
            let reachable = (0..self.blocks.len()).map(|b| rs.cfg.is_reachable(Block::new(b)));
            self.reachable.extend(reachable);
            let mut work = std::mem::take(&mut self.work);
            work.clear();
            if !self.pending.is_empty() {
                for v in 0..self.last.len() {
                    if let Some((b, val)) = self.last[v] {
                        self.defs.push((b, Var(v as u32), val));
                    }
                }
                self.resolve_pending(&mut rs, sink, &mut work);
            }
            self.resolve_bufs = rs;
            // Every phi completed before was looked at then, and again whenever an operand of
            // it was removed; what is left to look at: the phis the resolution touched, and
            // every phi when some edge comes from an unreachable block.
            if self.reachable.contains(&false) {
                work.clear();
                work.extend((0..self.phis.len() as u32).rev());
            }
            self.remove_trivial(&mut work, sink);
            self.work = work;
            if self.remove_cycles {
                self.remove_redundant_sccs(sink);
            }
        }
        let stats = self.stats;
        self.reset();
        Ok(stats)
    }

    fn block(&self, b: Block) -> Result<&BlockInfo<V>, BuilderError> {
        self.blocks
            .get(b.index())
            .ok_or(BuilderError::UnknownBlock(b))
    }

    fn check(&self, var: Var, block: Block) -> Result<(), BuilderError> {
        if var.0 >= self.num_vars {
            return Err(BuilderError::UnknownVar(var));
        }
        let b = self.block(block)?;
        if b.sealed && b.npreds == 0 && block != Block(0) {
            return Err(BuilderError::Unreachable(block));
        }
        Ok(())
    }

    /// What `var` holds at the end of `block` if it defines it, else at the point of the
    /// look-up in it, if known.
    #[inline(always)]
    fn local(&self, var: Var, block: Block) -> Option<V> {
        match self.last[var.index()] {
            Some((b, v)) if b == block => Some(v),
            _ => self.memo(var, block),
        }
    }

    /// The entry of [`Builder::map`] for `(var, block)`: in the block, or in the memo.
    #[inline(always)]
    fn memo(&self, var: Var, block: Block) -> Option<V> {
        let info = &self.blocks[block.index()];
        match info.inline {
            Some((w, v)) if w == var => Some(v),
            _ if info.spilled => self.map.get(var, block),
            _ => None,
        }
    }

    /// Sets the entry of [`Builder::map`] for `(var, block)`.
    fn set_memo(&mut self, var: Var, block: Block, v: V) {
        let info = &mut self.blocks[block.index()];
        match info.inline {
            None => info.inline = Some((var, v)),
            Some((w, _)) if w == var => info.inline = Some((var, v)),
            Some(_) => {
                info.spilled = true;
                self.map.set(var, block, v);
            }
        }
    }

    /// `v`, or what replaced it.
    #[inline]
    fn resolve(&self, mut v: V) -> V {
        if !self.any_removed {
            return v;
        }
        // A removed phi's replacement was made before it was removed, so chains end (the
        // bound guards against a sink whose phi numbers collide).
        for _ in 0..=self.phis.len() {
            match self.phi_of(v) {
                Some(k) if self.phis[k as usize].state == State::Removed => {
                    v = self.phis[k as usize].by;
                }
                _ => break,
            }
        }
        v
    }

    /// The phi whose value is `v`, if any.
    #[inline]
    fn phi_of(&self, v: V) -> Option<u32> {
        let key = v.phi_key()?;
        let k = match self.phi_at.get(key as usize) {
            Some(&k) => k,
            None if self.phi_at_sparse.is_empty() => return None,
            None => *self.phi_at_sparse.get(&key)?,
        };
        // A stale or colliding number is not a phi of this value.
        let ph = self.phis.get(k as usize)?;
        (ph.value == v).then_some(k)
    }

    /// Notes that phi `k` has value `v`.
    fn set_phi_of(&mut self, v: V, k: u32) {
        let Some(key) = v.phi_key() else {
            return;
        };
        if key >= PHI_KEY_DENSE_LIMIT {
            self.phi_at_sparse.insert(key, k);
            return;
        }
        if self.phi_at.len() <= key as usize {
            self.phi_at.resize(key as usize + 1, NO_PHI);
        }
        self.phi_at[key as usize] = k;
    }

    /// The look-up (see the module docs): local, then up a chain of sealed single-predecessor
    /// blocks; memoized in every block passed.
    fn read<S: Sink<Value = V>>(&mut self, var: Var, block: Block, sink: &mut S) -> V {
        if let Some(v) = self.local(var, block) {
            return self.resolve(v);
        }
        // The most common case, found one step up a sealed single-predecessor edge, needs no
        // path (and would memoize nothing); otherwise the walk goes on from that predecessor,
        // already looked at.
        let info = &self.blocks[block.index()];
        let mut first_step = None;
        if info.sealed && info.npreds == 1 {
            let pred = self.edges[info.first as usize].from;
            self.stats.walked += 1;
            if let Some(v) = self.local(var, pred) {
                return self.resolve(v);
            }
            first_step = Some(pred);
        }
        let mut path = std::mem::take(&mut self.path);
        path.clear();
        let mut blk = block;
        if let Some(pred) = first_step {
            path.push(block);
            blk = pred;
        }
        let v = loop {
            let info = &self.blocks[blk.index()];
            if !info.sealed {
                break self.new_phi(var, blk, State::Incomplete, sink);
            }
            match info.npreds {
                0 => {
                    let u = sink.undefined(var);
                    self.set_memo(var, blk, u);
                    break u;
                }
                1 => {
                    path.push(blk);
                    self.stats.walked += 1;
                    blk = self.edges[info.first as usize].from;
                    if let Some(v) = self.local(var, blk) {
                        break self.resolve(v);
                    }
                    if path.len() > self.blocks.len() {
                        // A cycle of single-predecessor blocks: no path from the entry enters
                        // it, so nothing defines the variable there.
                        break sink.undefined(var);
                    }
                }
                _ => break self.new_phi(var, blk, State::Pending, sink),
            }
        };
        // A value found within a few steps is found again within as many: memoize only longer
        // walks (most walks are short, and their entries were most of the memo's size).
        if path.len() > SHORT_WALK {
            for &b in &path {
                self.set_memo(var, b, v);
            }
        }
        self.path = path;
        v
    }

    /// The predecessors of `b`, one per edge, in the order the edges were added.
    fn preds(&self, b: Block) -> impl Iterator<Item = Block> + '_ {
        let mut e = self.blocks[b.index()].first;
        std::iter::from_fn(move || {
            let edge = self.edges.get(e as usize)?;
            e = edge.next;
            Some(edge.from)
        })
    }

    /// Steps cursor `e` along a list of edges into a block: the next predecessor, if any (for
    /// loops that also need `&mut self`).
    fn next_pred(&self, e: &mut u32) -> Option<Block> {
        let edge = self.edges.get(*e as usize)?;
        *e = edge.next;
        Some(edge.from)
    }

    /// A new phi for `var` at `block`, memoized there as the block's start value.
    fn new_phi<S: Sink<Value = V>>(
        &mut self,
        var: Var,
        block: Block,
        state: State,
        sink: &mut S,
    ) -> V {
        let value = sink.new_phi(block, var);
        let k = self.phis.len() as u32;
        self.phis.push(PhiInfo {
            var,
            block,
            value,
            state,
            ops: 0..0,
            by: value,
            next: NO_PHI,
        });
        self.users.push((NO_EDGE, NO_EDGE));
        self.set_phi_of(value, k);
        self.set_memo(var, block, value);
        self.stats.phis_made += 1;
        match state {
            State::Incomplete => match self.blocks[block.index()].incomplete {
                (NO_PHI, _) => self.blocks[block.index()].incomplete = (k, k),
                (head, tail) => {
                    self.phis[tail as usize].next = k;
                    self.blocks[block.index()].incomplete = (head, k);
                }
            },
            State::Pending => {
                self.pending.push(k);
                self.stats.pending += 1;
            }
            _ => {}
        }
        value
    }

    /// Gives incomplete phi `k` its operands: the value at the end of each predecessor.
    fn complete<S: Sink<Value = V>>(&mut self, k: u32, sink: &mut S) {
        let (var, block) = (self.phis[k as usize].var, self.phis[k as usize].block);
        let start = self.ops.len();
        self.ops.reserve(self.blocks[block.index()].npreds as usize);
        let mut e = self.blocks[block.index()].first;
        while let Some(p) = self.next_pred(&mut e) {
            let v = self.read(var, p, sink);
            self.ops.push(v);
        }
        self.set_operands(k, start, sink);
    }

    /// Phi `k`'s operands are `ops[start..]`: tells the sink and notes the phis it uses.
    fn set_operands<S: Sink<Value = V>>(&mut self, k: u32, start: usize, sink: &mut S) {
        let end = self.ops.len();
        let ph = &mut self.phis[k as usize];
        ph.ops = start as u32..end as u32;
        ph.state = State::Complete;
        let (value, block) = (ph.value, ph.block);
        sink.set_phi_operands(value, block, &self.ops[start..end]);
        // Runs of one operand (a value reaching many edges) are looked up once.
        let mut prev = None;
        for i in start..end {
            let op = self.ops[i];
            if prev == Some(op) {
                continue;
            }
            prev = Some(op);
            if let Some(q) = self.phi_of(op) {
                self.add_user(q, k);
            }
        }
    }

    /// Removes the trivial phis among `work`, and those that become trivial (Braun et al.'s
    /// `tryRemoveTrivialPhi`, with a worklist instead of recursion).
    fn remove_trivial<S: Sink<Value = V>>(&mut self, work: &mut Vec<u32>, sink: &mut S) {
        while let Some(k) = work.pop() {
            let ph = &self.phis[k as usize];
            if ph.state != State::Complete {
                continue;
            }
            let me = ph.value;
            let mut same = None;
            let mut trivial = true;
            let mut prev = None;
            for (i, p) in ph.ops.clone().zip(self.preds(ph.block)) {
                if self.reachable.get(p.index()) == Some(&false) {
                    continue;
                }
                // Runs of one operand are resolved once.
                let raw = self.ops[i as usize];
                if prev == Some(raw) {
                    continue;
                }
                prev = Some(raw);
                let op = self.resolve(raw);
                if op == me || Some(op) == same {
                    continue;
                }
                if same.is_some() {
                    trivial = false;
                    break;
                }
                same = Some(op);
            }
            if !trivial {
                continue;
            }
            let var = ph.var;
            let by = match same {
                Some(v) => v,
                None => sink.undefined(var),
            };
            self.push_users(k, work);
            self.remove(k, by, sink);
        }
    }

    /// Removes phi `k`, replaced by `by`. The phis that used `k` now use `by`: if that is a
    /// phi, they become its users, to be looked at again when it is removed.
    fn remove<S: Sink<Value = V>>(&mut self, k: u32, by: V, sink: &mut S) {
        let ph = &mut self.phis[k as usize];
        ph.state = State::Removed;
        ph.by = by;
        let value = ph.value;
        sink.replace_phi(value, by);
        self.any_removed = true;
        self.stats.phis_removed += 1;
        let (first, last) = std::mem::replace(&mut self.users[k as usize], (NO_EDGE, NO_EDGE));
        if let (Some(q), true) = (self.phi_of(by), first != NO_EDGE) {
            match self.users[q as usize] {
                (NO_EDGE, _) => self.users[q as usize] = (first, last),
                (head, tail) => {
                    self.user_links[tail as usize].1 = first;
                    self.users[q as usize] = (head, last);
                }
            }
        }
    }

    /// Pushes the phis that use phi `k` (other than `k`) onto `work`.
    fn push_users(&self, k: u32, work: &mut Vec<u32>) {
        let mut l = self.users[k as usize].0;
        while let Some(&(u, next)) = self.user_links.get(l as usize) {
            if u != k {
                work.push(u);
            }
            l = next;
        }
    }

    /// Notes that phi `k` takes phi `q` as an operand (once per run of operands: the last user
    /// noted is not noted again).
    fn add_user(&mut self, q: u32, k: u32) {
        let (head, tail) = self.users[q as usize];
        if tail != NO_EDGE && self.user_links[tail as usize].0 == k {
            return;
        }
        let l = self.user_links.len() as u32;
        self.user_links.push((k, NO_EDGE));
        match head {
            NO_EDGE => self.users[q as usize] = (l, l),
            _ => {
                self.user_links[tail as usize].1 = l;
                self.users[q as usize] = (head, l);
            }
        }
    }
}

mod memo;
mod resolve;
mod scc;

#[cfg(test)]
mod tests;
