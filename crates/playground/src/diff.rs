//! Line diffs of a function before and after a pass (Myers, by the `similar` crate), with a
//! deadline so that a huge, very different pair of texts cannot hold a worker: past it the diff
//! is still correct, only coarser.
//!
//! Invariants: replaying the diff's kept and removed lines gives the old text, its kept and
//! added lines the new one; the result depends only on the texts (the deadline can only make a
//! diff coarser on a slow machine, never wrong).

use std::time::Duration;

use serde::Serialize;
use similar::{Algorithm, ChangeTag, TextDiff};

/// How long a diff may search for a minimal edit script.
pub const DEADLINE: Duration = Duration::from_millis(40);

/// A diff between two stages.
#[derive(Clone, Debug, Serialize)]
pub struct Diff {
    /// The stage before.
    pub from: &'static str,
    /// The stage after.
    pub to: &'static str,
    /// `[" ", line]` kept, `["-", line]` removed, `["+", line]` added, in order.
    pub lines: Vec<[String; 2]>,
    /// Lines added.
    pub added: usize,
    /// Lines removed.
    pub removed: usize,
}

/// The diff from `old` (stage `from`) to `new` (stage `to`).
pub fn diff(from: &'static str, to: &'static str, old: &str, new: &str) -> Diff {
    let d = TextDiff::configure()
        .algorithm(Algorithm::Myers)
        .timeout(DEADLINE)
        .diff_lines(old, new);
    let mut out = Diff {
        from,
        to,
        lines: Vec::new(),
        added: 0,
        removed: 0,
    };
    for c in d.iter_all_changes() {
        let tag = match c.tag() {
            ChangeTag::Equal => " ",
            ChangeTag::Delete => {
                out.removed += 1;
                "-"
            }
            ChangeTag::Insert => {
                out.added += 1;
                "+"
            }
        };
        out.lines
            .push([tag.into(), c.value().trim_end_matches('\n').to_string()]);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replays_both_sides() {
        let (a, b) = ("x\ny\nz\n", "x\nphi\nz\nw\n");
        let d = diff("input", "ssa", a, b);
        let old: Vec<&str> = d
            .lines
            .iter()
            .filter(|l| l[0] != "+")
            .map(|l| l[1].as_str())
            .collect();
        let new: Vec<&str> = d
            .lines
            .iter()
            .filter(|l| l[0] != "-")
            .map(|l| l[1].as_str())
            .collect();
        assert_eq!(old, ["x", "y", "z"]);
        assert_eq!(new, ["x", "phi", "z", "w"]);
        assert_eq!((d.added, d.removed), (2, 1));
    }
}
