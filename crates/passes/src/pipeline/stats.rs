//! The run's statistics in one list — mem2reg's counters with every other pass's — and opt's
//! `-stats` table.
//!
//! Each counter has a debug type (the pass, `mem2reg`), LLVM's variable name (`NumPromoted`)
//! and LLVM's sentence (`Number of alloca's promoted`); counters LLVM lacks get names and
//! sentences in the same style. As in LLVM, rows are sorted by debug type, then variable name,
//! and counters that stayed zero (or whose pass never ran) are left out.

use super::RunReport;
use crate::transform::mem2reg::Stats;

/// One counter of a run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Statistic {
    /// The pass that keeps it (LLVM's `DEBUG_TYPE`): `mem2reg`, `phi-elim`, `reg2mem`.
    pub pass: &'static str,
    /// LLVM's variable name for it (`NumPromoted`), or one in that style.
    pub name: &'static str,
    /// LLVM's sentence (`Number of alloca's promoted`), or one in that style.
    pub description: &'static str,
    /// The count, summed over functions and passes.
    pub value: u64,
}

/// `(key in RunReport::stats, variable name, sentence)` of the counters other passes keep.
const OTHER: &[(&str, &str, &str)] = &[
    ("phi-elim.phis", "NumPhis", "Number of phi nodes eliminated"),
    ("phi-elim.copies", "NumCopies", "Number of copies inserted"),
    (
        "phi-elim.temporaries",
        "NumTemps",
        "Number of temporaries for copy cycles",
    ),
    (
        "phi-elim.edges-split",
        "NumEdgesSplit",
        "Number of critical edges split",
    ),
    (
        "phi-elim.fallback-edges",
        "NumFallbackEdges",
        "Number of edges with copies before a shared terminator",
    ),
    (
        "reg2mem.edges-split",
        "NumEdgesSplit",
        "Number of critical edges split",
    ),
    (
        "reg2mem.values-demoted",
        "NumRegsDemoted",
        "Number of registers demoted",
    ),
    (
        "reg2mem.phis-demoted",
        "NumPhisDemoted",
        "Number of phi-nodes demoted",
    ),
];

/// mem2reg's counters as rows (LLVM's names for those LLVM keeps).
fn mem2reg_rows(s: &Stats) -> [(&'static str, &'static str, u64); 9] {
    [
        ("NumPromoted", "Number of alloca's promoted", s.promoted),
        (
            "NumSingleStore",
            "Number of alloca's promoted with a single store",
            s.single_store,
        ),
        (
            "NumLocalPromoted",
            "Number of alloca's promoted within one block",
            s.single_block,
        ),
        ("NumDeadAlloca", "Number of dead alloca's removed", s.dead),
        (
            "NumPHIInsert",
            "Number of PHI nodes inserted",
            s.phis_inserted,
        ),
        (
            "NumPHIFolded",
            "Number of PHI nodes placed and folded away",
            s.phis_folded,
        ),
        (
            "NumLoadsRemoved",
            "Number of loads removed",
            s.loads_removed,
        ),
        (
            "NumStoresRemoved",
            "Number of stores removed",
            s.stores_removed,
        ),
        (
            "NumNotPromoted",
            "Number of alloca's left in memory",
            s.not_promoted,
        ),
    ]
}

impl RunReport {
    /// Every non-zero counter of the run, mem2reg's included, in LLVM's order (pass, then
    /// variable name). A counter this table does not know keeps its key as its sentence.
    pub fn statistics(&self) -> Vec<Statistic> {
        let mut rows: Vec<Statistic> = mem2reg_rows(&self.mem2reg.stats)
            .into_iter()
            .map(|(name, description, value)| Statistic {
                pass: "mem2reg",
                name,
                description,
                value,
            })
            .collect();
        for (key, value) in &self.stats {
            let known = OTHER.iter().find(|(k, _, _)| k == key);
            let (pass, name, description) = match known {
                Some(&(k, name, desc)) => (k.split_once('.').map_or(k, |(p, _)| p), name, desc),
                None => ("pipeline", "Other", "Other counter"),
            };
            rows.push(Statistic {
                pass,
                name,
                description,
                value: *value,
            });
        }
        rows.retain(|r| r.value != 0);
        rows.sort_by(|a, b| (a.pass, a.name, a.description).cmp(&(b.pass, b.name, b.description)));
        rows
    }

    /// The statistics as opt's `-stats` prints them (LLVM's `PrintStatistics`): a banner, one
    /// right-aligned value, the pass and the sentence per row, and a blank line. Empty when
    /// every counter is zero, as opt prints nothing then.
    pub fn stats_text(&self) -> String {
        let rows = self.statistics();
        if rows.is_empty() {
            return String::new();
        }
        let vw = rows
            .iter()
            .map(|r| r.value.to_string().len())
            .max()
            .unwrap_or(0);
        let pw = rows.iter().map(|r| r.pass.len()).max().unwrap_or(0);
        let rule = format!("==={}===\n", "-".repeat(73));
        let mut out =
            format!("{rule}                          ... Statistics Collected ...\n{rule}\n");
        for r in rows {
            out += &format!("{:>vw$} {:<pw$} - {}\n", r.value, r.pass, r.description);
        }
        out.push('\n');
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zero_rows_and_unrun_passes_are_left_out_in_llvms_order() {
        let mut r = RunReport::default();
        assert_eq!(r.stats_text(), "");
        r.mem2reg.stats.promoted = 12;
        r.mem2reg.stats.dead = 1;
        r.stats.push(("phi-elim.copies".into(), 3));
        r.stats.push(("phi-elim.phis".into(), 0));
        let rows = r.statistics();
        let names: Vec<_> = rows.iter().map(|s| (s.pass, s.name)).collect();
        assert_eq!(
            names,
            [
                ("mem2reg", "NumDeadAlloca"),
                ("mem2reg", "NumPromoted"),
                ("phi-elim", "NumCopies")
            ]
        );
        let text = r.stats_text();
        assert!(
            text.ends_with(
                " 1 mem2reg  - Number of dead alloca's removed\n\
             12 mem2reg  - Number of alloca's promoted\n \
             3 phi-elim - Number of copies inserted\n\n"
            ),
            "{text}"
        );
    }
}
