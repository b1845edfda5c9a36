//! Metadata node definitions by number, filled as the module reader meets `!N = ...` lines.
//!
//! A dense vector while the numbers are dense (as every printer writes them: `!0` up to about
//! the node count), a hash map otherwise. A `-g` module defines hundreds of thousands of
//! nodes, and a `-g` promotion asks for many of them per function: a vector stores and
//! answers without hashing or rehashing.
//!
//! Invariants: `Dense` holds `u32::MAX` as `start` for numbers without a definition, and
//! its length is one more than the largest number defined; the representation never changes
//! what [`MdTable::get`] answers; `count` and `max` are the number of nodes defined and the
//! largest number among them.

use crate::util::fxhash::FxHashMap;

/// A metadata node definition `!N = [distinct] ...`: twelve bytes (a `-g` module has
/// hundreds of thousands).
#[derive(Clone, Copy, Debug)]
pub struct MdNode {
    /// Span of the node itself (`!{...}` or `!DIxxx(...)`), after `distinct`.
    pub start: u32,
    /// End of that span, with [`MdNode::DISTINCT`] set when it was declared `distinct`.
    end_distinct: u32,
    /// For a `!DILocation` whose only reference is its scope (most nodes of a `-g` module):
    /// that scope's number, so the writer's numbering need not read the text again;
    /// `u32::MAX` otherwise.
    pub location_scope: u32,
}

impl MdNode {
    const DISTINCT: u32 = 1 << 31;

    /// A node spanning `start..end` (below 2 GiB), `distinct` or not, with no
    /// [`MdNode::location_scope`].
    pub fn new(start: u32, end: u32, distinct: bool) -> Self {
        let flag = if distinct { Self::DISTINCT } else { 0 };
        MdNode {
            start,
            end_distinct: end | flag,
            location_scope: u32::MAX,
        }
    }

    /// End of the node's span.
    pub fn end(&self) -> u32 {
        self.end_distinct & !Self::DISTINCT
    }

    /// Whether it was declared `distinct`.
    pub fn distinct(&self) -> bool {
        self.end_distinct & Self::DISTINCT != 0
    }
}

/// Node definitions by number (see the module documentation), with their count and the
/// largest number defined (what the printer numbers new nodes after).
#[derive(Clone, Debug, Default)]
pub struct MdTable {
    nodes: Nodes,
    count: usize,
    max: Option<u32>,
}

#[derive(Clone, Debug)]
enum Nodes {
    /// Indexed by number.
    Dense(Vec<MdNode>),
    /// By number, for sparse numbering.
    Sparse(FxHashMap<u32, MdNode>),
}

const NONE: MdNode = MdNode {
    start: u32::MAX,
    end_distinct: 0,
    location_scope: u32::MAX,
};

/// Whether numbers up to `max` are dense enough for a vector, with `defined` of them defined.
fn dense_enough(max: u32, defined: usize) -> bool {
    max as usize <= 2 * defined + 1024
}

impl Default for Nodes {
    fn default() -> Self {
        Nodes::Dense(Vec::new())
    }
}

impl MdTable {
    /// Defines `!id`; false, changing nothing, if `!id` has a definition.
    pub fn define(&mut self, id: u32, node: MdNode) -> bool {
        let new = self.nodes.define(id, node, self.count);
        if new {
            self.count += 1;
            self.max = self.max.max(Some(id));
        }
        new
    }

    /// The largest number defined.
    pub fn max_id(&self) -> Option<u32> {
        self.max
    }

    /// The table for reading: a map that turned out dense enough becomes a vector (numbers
    /// defined out of order, the largest first).
    pub fn finish(self) -> Self {
        let nodes = match self.nodes {
            Nodes::Sparse(m) if self.max.is_some_and(|max| dense_enough(max, m.len())) => {
                let mut v = vec![NONE; self.max.map_or(0, |max| max as usize + 1)];
                for (id, n) in m {
                    v[id as usize] = n;
                }
                Nodes::Dense(v)
            }
            nodes => nodes,
        };
        MdTable { nodes, ..self }
    }

    /// The definition of `!id`.
    #[inline]
    pub fn get(&self, id: u32) -> Option<&MdNode> {
        match &self.nodes {
            Nodes::Dense(v) => v.get(id as usize).filter(|n| n.start != u32::MAX),
            Nodes::Sparse(m) => m.get(&id),
        }
    }

    /// Whether `!id` is defined.
    #[inline]
    pub fn contains(&self, id: u32) -> bool {
        self.get(id).is_some()
    }
}

impl Nodes {
    /// Defines `!id`, where `defined` nodes are defined already; false, changing nothing, if
    /// `!id` has a definition.
    fn define(&mut self, id: u32, node: MdNode, defined: usize) -> bool {
        if let Nodes::Dense(v) = self {
            let i = id as usize;
            if i < v.len() {
                if v[i].start != u32::MAX {
                    return false;
                }
                v[i] = node;
                return true;
            }
            if dense_enough(id, defined + 1) {
                v.resize(i + 1, NONE);
                v[i] = node;
                return true;
            }
            let map = v
                .iter()
                .enumerate()
                .filter(|(_, n)| n.start != u32::MAX)
                .map(|(i, &n)| (i as u32, n))
                .collect();
            *self = Nodes::Sparse(map);
        }
        match self {
            Nodes::Sparse(m) => match m.entry(id) {
                std::collections::hash_map::Entry::Occupied(_) => false,
                std::collections::hash_map::Entry::Vacant(e) => {
                    e.insert(node);
                    true
                }
            },
            Nodes::Dense(_) => unreachable!("made sparse above"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(start: u32) -> MdNode {
        MdNode::new(start, start + 1, false)
    }

    fn table(defs: &[u32]) -> MdTable {
        let mut t = MdTable::default();
        for &id in defs {
            assert!(t.define(id, node(10 * id)), "!{id} defined twice");
        }
        assert_eq!(t.max_id(), defs.iter().copied().max());
        t.finish()
    }

    #[test]
    fn dense_and_sparse() {
        let t = table(&[0, 2]);
        assert!(matches!(t.nodes, Nodes::Dense(_)));
        assert_eq!(t.get(2).map(|n| n.start), Some(20));
        assert!(t.contains(0) && !t.contains(1) && !t.contains(3) && !t.contains(u32::MAX));
        let t = table(&[0, 2, 4_000_000]);
        assert!(matches!(t.nodes, Nodes::Sparse(_)));
        assert_eq!(t.get(4_000_000).map(|n| n.start), Some(40_000_000));
        assert!(t.contains(0) && t.contains(2) && !t.contains(1));
        assert!(!table(&[]).contains(0));
        // The largest first: a map while filling, a vector once all are in.
        let t = table(&(0..3000).rev().collect::<Vec<_>>());
        assert!(matches!(t.nodes, Nodes::Dense(_)) && t.contains(0) && t.contains(2999));
    }

    #[test]
    fn a_second_definition_changes_nothing() {
        for ids in [&[5u32, 1][..], &[5, 1, 9_000_000]] {
            let mut t = MdTable::default();
            for &id in ids {
                t.define(id, node(id));
            }
            assert!(!t.define(5, node(77)));
            assert_eq!(t.max_id(), ids.iter().copied().max());
            assert_eq!(t.get(5).map(|n| n.start), Some(5));
        }
    }
}
