//! Timing: repeat a build until enough runs (and time) are collected, keep the median; and run
//! one benchmark case (one shape at one size) on every side.

use std::time::Duration;

use crate::cranelift_side::CraneliftTimer;
use crate::ours;
use crate::script::Script;
use crate::shapes::Shape;
use crate::validate::{validate, Invalid};

/// How many runs to time.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Policy {
    /// Time at least this many runs.
    pub min_runs: usize,
    /// Keep going (up to `max_runs`) until the timed runs add up to this much.
    pub min_total: Duration,
    /// Never time more runs than this.
    pub max_runs: usize,
}

impl Default for Policy {
    fn default() -> Self {
        Policy {
            min_runs: 5,
            min_total: Duration::from_secs(1),
            max_runs: 1000,
        }
    }
}

/// The timings of one side on one case.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    /// Median of the timed runs.
    pub median: Duration,
    /// How many runs were timed (after one untimed warm-up).
    pub runs: usize,
}

/// One warm-up call, then timed calls of `once` as `policy` says; `once` returns the time of
/// the part that counts.
pub fn measure(policy: &Policy, mut once: impl FnMut() -> Duration) -> Sample {
    once();
    let mut times = Vec::new();
    let mut total = Duration::ZERO;
    while times.len() < policy.min_runs.max(1)
        || (total < policy.min_total && times.len() < policy.max_runs)
    {
        let t = once();
        total += t;
        times.push(t);
    }
    Sample {
        median: median(&mut times),
        runs: times.len(),
    }
}

/// The median of non-empty `times` (mean of the two middle ones for an even count).
pub fn median(times: &mut [Duration]) -> Duration {
    assert!(!times.is_empty(), "median of no times");
    times.sort_unstable();
    let mid = times.len() / 2;
    if times.len() % 2 == 1 {
        times[mid]
    } else {
        (times[mid - 1] + times[mid]) / 2
    }
}

/// The result of one case: a shape at one size, timed on each side.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CaseResult {
    /// The workload shape.
    pub shape: Shape,
    /// Its size.
    pub n: u32,
    /// Number of ops in the script.
    pub ops: usize,
    /// mem2reg's builder; `None` until it exists.
    pub ours: Option<Sample>,
    /// cranelift-frontend.
    pub cranelift: Sample,
}

impl CaseResult {
    /// ours / cranelift, when ours exists.
    pub fn ratio(&self) -> Option<f64> {
        self.ours
            .map(|o| o.median.as_secs_f64() / self.cranelift.median.as_secs_f64())
    }
}

/// Generates (untimed) and checks the script, then times every side on it.
pub fn run_case(shape: Shape, n: u32, policy: &Policy) -> Result<CaseResult, Invalid> {
    let script: Script = shape.script(n);
    validate(&script)?;
    let mut cranelift = CraneliftTimer::new();
    let cranelift = measure(policy, || cranelift.time_once(&script));
    let ours = ours::measure_ours(&script, policy);
    Ok(CaseResult {
        shape,
        n,
        ops: script.ops.len(),
        ours,
        cranelift,
    })
}
