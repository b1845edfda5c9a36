//! Output of the `peer` binary: one line per case, growth per 4x N per shape, or all of it as
//! JSON. Formatting only; numbers come from [`crate::measure`].

use crate::measure::{CaseResult, Sample};
use crate::shapes::Shape;

/// How a side's time grew between two sizes of one shape, normalised to a 4x step in N.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Growth {
    /// The shape.
    pub shape: Shape,
    /// The smaller size.
    pub from: u32,
    /// The larger size.
    pub to: u32,
    /// Ours' time factor per 4x N, when ours exists.
    pub ours: Option<f64>,
    /// cranelift's time factor per 4x N.
    pub cranelift: f64,
}

/// `(t_to / t_from)` rescaled to a 4x step: `(t_to / t_from) ^ (ln 4 / ln(to / from))`.
pub fn per_4x(t_from: f64, t_to: f64, from: u32, to: u32) -> f64 {
    let steps = (f64::from(to) / f64::from(from)).ln() / 4f64.ln();
    (t_to / t_from).powf(1.0 / steps)
}

fn secs(s: &Sample) -> f64 {
    s.median.as_secs_f64()
}

/// Growth between consecutive sizes of each shape (results in any order; sizes sorted).
pub fn growth(results: &[CaseResult]) -> Vec<Growth> {
    let mut out = Vec::new();
    for shape in Shape::ALL {
        let mut rows: Vec<&CaseResult> = results.iter().filter(|r| r.shape == shape).collect();
        rows.sort_by_key(|r| r.n);
        rows.dedup_by_key(|r| r.n);
        out.extend(rows.windows(2).map(|w| growth_step(w[0], w[1])));
    }
    out
}

fn growth_step(a: &CaseResult, b: &CaseResult) -> Growth {
    let ours = match (a.ours, b.ours) {
        (Some(x), Some(y)) => Some(per_4x(secs(&x), secs(&y), a.n, b.n)),
        _ => None,
    };
    let cranelift = per_4x(secs(&a.cranelift), secs(&b.cranelift), a.n, b.n);
    Growth {
        shape: a.shape,
        from: a.n,
        to: b.n,
        ours,
        cranelift,
    }
}

fn opt(x: Option<f64>, digits: usize) -> String {
    x.map_or("-".to_string(), |v| format!("{v:.digits$}"))
}

/// `peer SHAPE N ours_s cranelift_s ratio`, `-` where ours does not exist yet.
pub fn case_line(r: &CaseResult) -> String {
    let ours = opt(r.ours.map(|s| secs(&s)), 6);
    let ratio = opt(r.ratio(), 3);
    format!(
        "peer {} {} {} {:.6} {}",
        r.shape.name(),
        r.n,
        ours,
        secs(&r.cranelift),
        ratio
    )
}

/// `growth SHAPE FROM->TO ours_per4x cranelift_per4x`.
pub fn growth_line(g: &Growth) -> String {
    let ours = opt(g.ours, 2);
    format!(
        "growth {} {}->{} {} {:.2}",
        g.shape.name(),
        g.from,
        g.to,
        ours,
        g.cranelift
    )
}

fn json_opt(x: Option<f64>) -> String {
    x.map_or("null".to_string(), |v| format!("{v:.9}"))
}

fn case_json(r: &CaseResult) -> String {
    format!(
        "{{\"shape\":\"{}\",\"n\":{},\"ops\":{},\"ours_s\":{},\"ours_runs\":{},\"cranelift_s\":{:.9},\"cranelift_runs\":{},\"ratio\":{}}}",
        r.shape.name(),
        r.n,
        r.ops,
        json_opt(r.ours.map(|s| secs(&s))),
        r.ours.map_or("null".to_string(), |s| s.runs.to_string()),
        secs(&r.cranelift),
        r.cranelift.runs,
        json_opt(r.ratio()),
    )
}

fn growth_json(g: &Growth) -> String {
    format!(
        "{{\"shape\":\"{}\",\"from\":{},\"to\":{},\"ours_per_4x\":{},\"cranelift_per_4x\":{:.6}}}",
        g.shape.name(),
        g.from,
        g.to,
        json_opt(g.ours),
        g.cranelift,
    )
}

/// The whole report as one JSON object: `{"cases": [...], "growth": [...]}`.
pub fn to_json(results: &[CaseResult], growth: &[Growth]) -> String {
    let cases: Vec<String> = results.iter().map(case_json).collect();
    let growth: Vec<String> = growth.iter().map(growth_json).collect();
    format!(
        "{{\"cases\":[{}],\"growth\":[{}]}}",
        cases.join(","),
        growth.join(",")
    )
}
