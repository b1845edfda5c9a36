//! Removing trivial phis, recursively: a phi whose operands (ignoring itself) are all one value
//! is replaced by that value, and the phis that used it are looked at again, since they may
//! have become trivial in turn (Braun et al. 2013, `tryRemoveTrivialPhi`; LLVM's mem2reg folds
//! with `simplifyPHINode` the same way).
//!
//! What "trivial" means is the caller's ([`Folder::try_fold`]: the plain rule, or LLVM's with
//! its `undef`/`poison` cases); this module is the worklist. Each phi is queued once at the
//! start (last first, so the first phi is tried first) and again only when a phi it uses folds.
//! When phi `k` folds into phi `q`, the users of `k` now use `q`: they are remembered as `q`'s
//! users too, so that when `q` folds later they are looked at again.
//!
//! Invariants: `O(phis + operands)` plus the re-queued work, which is bounded by the users of
//! the folded phis; the result depends only on the inputs (no hash-map iteration decides).

use rustc_hash::FxHashMap;

/// The caller's side of trivial-phi removal, over phis numbered `0..n`.
pub trait Folder {
    /// Calls `f` with the index of every phi among the operands of phi `k` (resolved through
    /// earlier folds), repeats allowed. Called once per phi, before any fold.
    fn operand_phis(&self, k: usize, f: impl FnMut(u32));

    /// Folds phi `k` if it is trivial: replaces its uses by the one value it stands for and
    /// removes it. Returns `None` if `k` is not trivial, else `Some(q)` where `q` is the phi
    /// that value is (if it is one of the phis).
    fn try_fold(&mut self, k: usize) -> Option<Option<u32>>;
}

/// Folds the trivial phis among `0..n`; returns which phis are left.
pub fn fold_trivial_phis(n: usize, folder: &mut impl Folder) -> Vec<bool> {
    let users = PhiUsers::compute(n, folder);
    let mut alive = vec![true; n];
    let mut work: Vec<u32> = (0..n as u32).rev().collect();
    let mut queued = vec![true; n];
    // Phis that took over a use of phi k's result from a phi that folded into k (few phis
    // fold: a map, not a list per phi).
    let mut inherited: FxHashMap<u32, Vec<u32>> = FxHashMap::default();
    while let Some(k) = work.pop() {
        queued[k as usize] = false;
        if !alive[k as usize] {
            continue;
        }
        let Some(into) = folder.try_fold(k as usize) else {
            continue;
        };
        alive[k as usize] = false;
        // k's users now use what k stood for: when that (a phi) folds later, they must be
        // looked at again too.
        let moved = inherited.remove(&k).unwrap_or_default();
        let mut to_v = Vec::new();
        for &j in users.of(k).iter().chain(&moved) {
            if alive[j as usize] && !queued[j as usize] {
                queued[j as usize] = true;
                work.push(j);
            }
            to_v.push(j);
        }
        if let Some(q) = into {
            if q != k {
                inherited.entry(q).or_default().extend(to_v);
            }
        }
    }
    alive
}

/// For each phi, the phis that take it as an operand (compressed rows: one allocation for all).
struct PhiUsers {
    /// Row `k` is `users[start[k]..start[k + 1]]`.
    start: Vec<u32>,
    users: Vec<u32>,
}

impl PhiUsers {
    fn compute(n: usize, folder: &impl Folder) -> Self {
        // The (used, user) pairs once (resolving operands is the costly part), then sorted into
        // rows by counting.
        let mut pairs: Vec<(u32, u32)> = Vec::new();
        let mut start = vec![0u32; n + 1];
        for k in 0..n {
            folder.operand_phis(k, |q| {
                start[q as usize + 1] += 1;
                pairs.push((q, k as u32));
            });
        }
        for k in 0..n {
            start[k + 1] += start[k];
        }
        let mut fill = start.clone();
        let mut users = vec![0u32; pairs.len()];
        for (q, k) in pairs {
            users[fill[q as usize] as usize] = k;
            fill[q as usize] += 1;
        }
        Self { start, users }
    }

    /// The phis using phi `k`.
    fn of(&self, k: u32) -> &[u32] {
        &self.users[self.start[k as usize] as usize..self.start[k as usize + 1] as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Phis over values: `Ok(i)` is an outside value, `Err(k)` is phi k.
    struct Toy {
        ops: Vec<Vec<Result<u32, u32>>>,
        /// What each folded phi became.
        fwd: Vec<Option<Result<u32, u32>>>,
    }

    impl Toy {
        fn resolve(&self, mut v: Result<u32, u32>) -> Result<u32, u32> {
            while let Err(k) = v {
                match self.fwd[k as usize] {
                    Some(w) => v = w,
                    None => break,
                }
            }
            v
        }
    }

    impl Folder for Toy {
        fn operand_phis(&self, k: usize, mut f: impl FnMut(u32)) {
            for &o in &self.ops[k] {
                if let Err(q) = self.resolve(o) {
                    f(q);
                }
            }
        }

        fn try_fold(&mut self, k: usize) -> Option<Option<u32>> {
            let me = Err(k as u32);
            let mut same = None;
            for &o in &self.ops[k] {
                let o = self.resolve(o);
                if o == me || Some(o) == same {
                    continue;
                }
                if same.is_some() {
                    return None;
                }
                same = Some(o);
            }
            let v = same?;
            self.fwd[k] = Some(v);
            Some(v.err())
        }
    }

    #[test]
    fn chains_of_trivial_phis_fold_into_one_value() {
        // phi0 = (x, phi1); phi1 = (phi0, phi0, phi1): both stand for x.
        let mut t = Toy {
            ops: vec![vec![Ok(7), Err(1)], vec![Err(0), Err(0), Err(1)]],
            fwd: vec![None; 2],
        };
        let alive = fold_trivial_phis(2, &mut t);
        assert_eq!(alive, vec![false, false]);
        assert_eq!(t.resolve(Err(1)), Ok(7));
    }

    #[test]
    fn a_phi_of_two_values_stays_and_keeps_its_users() {
        // phi0 = (x, y); phi1 = (phi0, phi1); phi2 = (phi1, z).
        let mut t = Toy {
            ops: vec![
                vec![Ok(1), Ok(2)],
                vec![Err(0), Err(1)],
                vec![Err(1), Ok(3)],
            ],
            fwd: vec![None; 3],
        };
        let alive = fold_trivial_phis(3, &mut t);
        assert_eq!(alive, vec![true, false, true]);
        assert_eq!(t.resolve(Err(1)), Err(0));
    }

    #[test]
    fn users_inherited_through_a_fold_are_revisited() {
        // phi2 = (phi1, x) uses phi1; phi1 = (phi0) folds into phi0 first; then phi0 = (x)
        // folds, and phi2 = (x, x) must be looked at again.
        let mut t = Toy {
            ops: vec![
                vec![Ok(5), Err(3)],
                vec![Err(0)],
                vec![Err(1), Ok(5)],
                vec![Err(0)],
            ],
            fwd: vec![None; 4],
        };
        let alive = fold_trivial_phis(4, &mut t);
        assert_eq!(alive, vec![false, false, false, false]);
    }
}
