//! `--time-passes`: where a job's wall time went, as a table in the layout of opt's
//! `-time-passes` report.
//!
//! Stages that run alone (reading the input file, the module level, printing a whole module)
//! are timed by the wall clock. In the streamed phase, workers read, verify, run passes and
//! print while the writer writes, all at once: each stage's *thread time* (summed over the
//! threads that ran it) is measured, and the phase's wall time is split between its stages in
//! proportion to their thread time. So the wall column adds up to the run's wall time; what no
//! stage covered (start-up, joining threads) is the row "Untimed".
//!
//! Invariants: rows are sorted by wall time, largest first (as opt sorts), ties in stage
//! order; the Total row is the whole run's wall time; part-of rows (mem2reg's CFG and
//! dominator trees) are in a second table, never counted twice.

use std::time::Duration;

/// One row: a stage, its time summed over threads, its share of the wall clock.
#[derive(Clone, Debug)]
pub struct TimeRow {
    /// The stage (`Read function bodies`, `mem2reg`, `Write output`, ...).
    pub name: String,
    /// Time the stage ran, summed over the threads that ran it.
    pub thread: Duration,
    /// Its share of the wall clock.
    pub wall: Duration,
}

impl TimeRow {
    /// A stage that ran alone: thread time and wall time are one.
    pub fn alone(name: &str, d: Duration) -> Self {
        Self {
            name: name.to_string(),
            thread: d,
            wall: d,
        }
    }
}

/// Rows for stages that ran at once during `wall`: `wall` split in proportion to their
/// thread times (evenly when none was measured).
pub fn split_phase(wall: Duration, stages: Vec<(String, Duration)>) -> Vec<TimeRow> {
    let sum: f64 = stages.iter().map(|(_, d)| d.as_secs_f64()).sum();
    let n = stages.len().max(1) as f64;
    stages
        .into_iter()
        .map(|(name, thread)| {
            let share = if sum > 0.0 {
                thread.as_secs_f64() / sum
            } else {
                1.0 / n
            };
            TimeRow {
                name,
                thread,
                wall: wall.mul_f64(share),
            }
        })
        .collect()
}

const RULE: &str =
    "===-------------------------------------------------------------------------===\n";

/// The report: the stages of `rows` (plus "Untimed", the rest of `total`), then, when there
/// are any, the parts of stages (`parts`: name and thread time) in a table of their own.
pub fn render(rows: &[TimeRow], parts: &[(String, Duration)], total: Duration) -> String {
    let mut rows = rows.to_vec();
    let timed: Duration = rows.iter().map(|r| r.wall).sum();
    rows.push(TimeRow::alone("Untimed", total.saturating_sub(timed)));
    rows.sort_by_key(|r| std::cmp::Reverse(r.wall));
    let mut s = table("mem2reg execution timing report", &rows, total);
    if !parts.is_empty() {
        let rows: Vec<TimeRow> = parts
            .iter()
            .map(|(n, d)| TimeRow {
                name: n.clone(),
                thread: *d,
                wall: Duration::ZERO,
            })
            .collect();
        s += &table(
            "Parts of the stages above (thread time)",
            &rows,
            Duration::ZERO,
        );
    }
    s
}

fn table(title: &str, rows: &[TimeRow], wall: Duration) -> String {
    let thread: Duration = rows.iter().map(|r| r.thread).sum();
    let wall = wall.max(rows.iter().map(|r| r.wall).sum());
    let pct = |d: Duration, of: Duration| {
        if of.is_zero() {
            0.0
        } else {
            100.0 * d.as_secs_f64() / of.as_secs_f64()
        }
    };
    let cell = |d: Duration, of: Duration| format!("{:7.4} ({:5.1}%)", d.as_secs_f64(), pct(d, of));
    let pad = (79usize.saturating_sub(title.len())) / 2;
    let mut s = String::from(RULE);
    s += &format!("{}{title}\n", " ".repeat(pad));
    s += RULE;
    s += &format!(
        "  Total Execution Time: {:.4} seconds ({:.4} wall clock)\n\n",
        thread.as_secs_f64(),
        wall.as_secs_f64()
    );
    s += "   --Thread Time--   ---Wall Time---  --- Name ---\n";
    for r in rows {
        s += &format!(
            "  {}  {}  {}\n",
            cell(r.thread, thread),
            cell(r.wall, wall),
            r.name
        );
    }
    s += &format!(
        "  {}  {}  Total\n\n",
        cell(thread, thread),
        cell(wall, wall)
    );
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn phase_split_adds_up_and_rows_sort_by_wall() {
        let ms = Duration::from_millis;
        let mut rows = vec![TimeRow::alone("Read module level", ms(10))];
        rows.extend(split_phase(
            ms(90),
            vec![("mem2reg".into(), ms(40)), ("Print".into(), ms(80))],
        ));
        assert_eq!(rows[1].wall, ms(30));
        assert_eq!(rows[2].wall, ms(60));
        let text = render(&rows, &[("CFG".into(), ms(5))], ms(104));
        let names: Vec<&str> = text
            .lines()
            .filter(|l| l.contains('%'))
            .map(|l| l.rsplit("  ").next().unwrap())
            .collect();
        assert_eq!(
            names,
            [
                "Print",
                "mem2reg",
                "Read module level",
                "Untimed",
                "Total",
                "CFG",
                "Total"
            ]
        );
        assert!(text.contains("0.1040 (100.0%)  Total"), "{text}");
    }
}
