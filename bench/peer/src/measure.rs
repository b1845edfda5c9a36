//! Timing: repeat a build until enough runs (and time) are collected, keep the median; and run
//! one benchmark case (one shape at one size) on every side.

use std::time::{Duration, Instant};

use crate::cranelift_side::CraneliftTimer;
use crate::ours::OursTimer;
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
    /// Stop (after at least one timed run) once the timed runs add up to this much, even
    /// below `min_runs`: a case that takes a minute per run (cranelift on nest at N = 16,000)
    /// is timed once or twice, not five times.
    pub max_total: Duration,
}

impl Default for Policy {
    fn default() -> Self {
        Policy {
            min_runs: 5,
            min_total: Duration::from_secs(1),
            max_runs: 1000,
            max_total: Duration::from_secs(30),
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

/// Times one call of `build` (building one function); dropping what it built happens after
/// the clock stops, so neither side pays for freeing its output.
pub fn time_build<T>(build: impl FnOnce() -> T) -> Duration {
    let start = Instant::now();
    let built = build();
    let elapsed = start.elapsed();
    drop(std::hint::black_box(built));
    elapsed
}

/// One warm-up call, then timed calls of `once` as `policy` says; `once` returns the time of
/// the part that counts.
pub fn measure(policy: &Policy, once: impl FnMut() -> Duration) -> Sample {
    let mut side = Side::new(once);
    while side.wants_more(policy) {
        side.run();
    }
    side.sample()
}

/// [`measure`] for two sides at once, their timed runs interleaved (a, b, a, b, ...) so that
/// both see the same machine: each side gets one warm-up call, then runs until it has what
/// `policy` asks (a side that has enough stops while the other goes on). A warm-up that takes
/// at least `policy.min_total` counts as a timed run: caches cannot skew a run that long, and
/// the slowest cases (cranelift on nest at N = 16,000: about a minute) would otherwise run once
/// more for nothing.
pub fn measure_pair(
    policy: &Policy,
    a: impl FnMut() -> Duration,
    b: impl FnMut() -> Duration,
) -> (Sample, Sample) {
    let (mut a, mut b) = (Side::new(a), Side::new(b));
    a.warm_up(policy);
    b.warm_up(policy);
    while a.wants_more(policy) || b.wants_more(policy) {
        if a.wants_more(policy) {
            a.run();
        }
        if b.wants_more(policy) {
            b.run();
        }
    }
    (a.sample(), b.sample())
}

/// One side's timed runs so far.
struct Side<F> {
    once: F,
    times: Vec<Duration>,
    total: Duration,
    warm: bool,
}

impl<F: FnMut() -> Duration> Side<F> {
    fn new(once: F) -> Self {
        Side {
            once,
            times: Vec::new(),
            total: Duration::ZERO,
            warm: false,
        }
    }

    /// The untimed first call (timed after all when it is long, see [`measure_pair`]).
    fn warm_up(&mut self, policy: &Policy) {
        let t = (self.once)();
        self.warm = true;
        if t >= policy.min_total {
            self.record(t);
        }
    }

    fn wants_more(&self, policy: &Policy) -> bool {
        if !self.times.is_empty() && self.total >= policy.max_total {
            return false;
        }
        self.times.len() < policy.min_runs.max(1)
            || (self.total < policy.min_total && self.times.len() < policy.max_runs)
    }

    fn run(&mut self) {
        if !self.warm {
            (self.once)();
            self.warm = true;
        }
        let t = (self.once)();
        self.record(t);
    }

    fn record(&mut self, t: Duration) {
        self.total += t;
        self.times.push(t);
    }

    fn sample(mut self) -> Sample {
        Sample {
            median: median(&mut self.times),
            runs: self.times.len(),
        }
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
    /// mem2reg's builder (always measured now; `None` is kept for reports of a side left out).
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

/// Generates (untimed) and checks the script, then times both sides on it, their runs
/// interleaved ([`measure_pair`]).
pub fn run_case(shape: Shape, n: u32, policy: &Policy) -> Result<CaseResult, Invalid> {
    let script: Script = shape.script(n);
    validate(&script)?;
    let mut cranelift = CraneliftTimer::new();
    let mut ours = OursTimer::new();
    let (ours, cranelift) = measure_pair(
        policy,
        || ours.time_once(&script),
        || cranelift.time_once(&script),
    );
    Ok(CaseResult {
        shape,
        n,
        ops: script.ops.len(),
        ours: Some(ours),
        cranelift,
    })
}
