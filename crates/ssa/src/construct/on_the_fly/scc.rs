//! The builder's side of redundant phi cycles ([`crate::construct::cycles`]), removed at
//! [`Builder::finish`](super::Builder::finish) after the trivial phis when asked
//! ([`Builder::set_remove_redundant_cycles`](super::Builder::set_remove_redundant_cycles)).
//!
//! Invariant: only complete phis take part; operands from unreachable predecessors are left
//! out, as in trivial-phi removal.

use super::{Builder, State};
use crate::construct::cycles::{remove_redundant_cycles, Cycles};
use crate::construct::on_the_fly::{PhiKey, Sink};

impl<V: PhiKey> Builder<V> {
    /// Replaces every redundant group of complete phis.
    pub(super) fn remove_redundant_sccs<S: Sink<Value = V>>(&mut self, sink: &mut S) {
        let phis: Vec<u32> = (0..self.phis.len() as u32)
            .filter(|&k| self.phis[k as usize].state == State::Complete)
            .collect();
        remove_redundant_cycles(&phis, &mut WithSink { b: self, sink });
    }
}

/// The builder and the user's IR, for [`Cycles`].
struct WithSink<'a, V, S> {
    b: &'a mut Builder<V>,
    sink: &'a mut S,
}

impl<V: PhiKey, S: Sink<Value = V>> Cycles for WithSink<'_, V, S> {
    type Value = V;

    fn phi(&self, v: V) -> Option<u32> {
        let k = self.b.phi_of(v)?;
        (self.b.phis[k as usize].state == State::Complete).then_some(k)
    }

    fn operands(&self, k: u32, mut f: impl FnMut(V)) {
        let b = &*self.b;
        let ph = &b.phis[k as usize];
        for (i, p) in ph.ops.clone().zip(b.preds(ph.block)) {
            if b.reachable.get(p.index()) != Some(&false) {
                f(b.resolve(b.ops[i as usize]));
            }
        }
    }

    fn replace(&mut self, group: &[u32], by: Option<V>) {
        let by = match by {
            Some(v) => v,
            None => self.sink.undefined(self.b.phis[group[0] as usize].var),
        };
        for &k in group {
            self.b.remove(k, by, self.sink);
        }
    }
}
