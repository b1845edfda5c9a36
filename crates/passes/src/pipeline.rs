//! Pass pipelines: `-passes=` parsing, running passes over a module, statistics and timing.
//!
//! A pipeline is a comma-separated list of pass names in opt's spelling; `function(...)` and
//! `module(...)` wrappers are accepted and flattened (every pass here is a function pass, run on
//! each function definition in module order, or in parallel where the pass allows — except the
//! module passes `debugify` and `check-debugify`, which the `mem2reg` crate's `stages` runs). The empty
//! pipeline only reads and writes. Invariant: a pass's output never depends on the thread count.
//!
//! The accepted names live in one table ([`PASSES`]); parsing, `--help` and the "did you mean"
//! of an unknown name read it. opt's instrumentation (`-debug-pass-manager`,
//! `-print-before-all`, `-print-after-all`) is in [`instrument`]; the run's counters, mem2reg's
//! included, are [`RunReport::statistics`].

pub mod instrument;
mod stats;
mod table;

pub use stats::Statistic;
pub use table::{closest, edit_distance, help_text, lookup, pass_info, PassInfo, PASSES};

use std::fmt;
use std::time::{Duration, Instant};

use llvm_ir::ir::{Function, Module};
use llvm_ir::util::parallel::chunk_bounds;
pub use llvm_ir::Threads;

/// A pass the pipeline can run.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Pass {
    /// `mem2reg`: promote stack slots to SSA values (see [`crate::transform::mem2reg`]).
    Mem2Reg,
    /// `verify` / `require<verify>`: the SSA verifier; errors stop the pipeline.
    Verify,
    /// `print<domtree>`, `print<domfrontier>` (text to [`RunReport::printed`]), `dot-cfg`,
    /// `dot-cfg-only`, `dot-dom`, `dot-dom-only` (files): see [`crate::analysis::dot::Printer`].
    Print(crate::analysis::dot::Printer),
    /// `phi-elim`: phis become parallel copies, lowered to stack slots (see
    /// [`crate::transform::phi_elim`]).
    PhiElim,
    /// `reg2mem`: LLVM's RegToMem (see [`crate::transform::reg2mem`]).
    Reg2Mem,
    /// `debugify` (module pass): synthetic debug info (see [`crate::transform::debugify`]).
    Debugify,
    /// `check-debugify` (module pass): what was lost since `debugify`, on stderr.
    CheckDebugify,
    /// `analyses` (ours): CFG, dominator tree, and each slot's liveness and pruned iterated
    /// frontier, computed and dropped; the function is unchanged. For benchmarks: see
    /// [`crate::analysis::slot_phis`].
    Analyses,
}

impl Pass {
    /// opt's name for the pass.
    pub fn name(self) -> &'static str {
        pass_info(self).name
    }

    /// opt-19's class name for the pass (`PromotePass`), as its instrumentation prints it.
    pub fn class_name(self) -> &'static str {
        pass_info(self).class
    }

    /// Whether this is a module pass (run on the whole module between function passes, see
    /// the `mem2reg` crate's `stages`) rather than a function pass.
    pub fn is_module_pass(self) -> bool {
        matches!(self, Pass::Debugify | Pass::CheckDebugify)
    }
}

/// A malformed `-passes=` string; the message names what is wrong (for an unknown pass name:
/// the closest valid name, if one is close, and the list of valid names).
///
/// It is a [`std::error::Error`], so `?` carries it into `Box<dyn Error>`:
///
/// ```
/// fn passes(text: &str) -> Result<Vec<passes::pipeline::Pass>, Box<dyn std::error::Error>> {
///     Ok(passes::pipeline::parse_pipeline(text)?)
/// }
/// assert_eq!(passes("mem2reg,verify")?.len(), 2);
/// let err = passes("mem2rg").unwrap_err().to_string();
/// assert!(err.starts_with("unknown pass name 'mem2rg'; did you mean 'mem2reg'?"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PipelineParseError(pub String);

impl fmt::Display for PipelineParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for PipelineParseError {}

/// The message for an unknown pass name.
fn unknown_pass(name: &str) -> PipelineParseError {
    let mut msg = format!("unknown pass name '{name}'");
    if let Some(near) = closest(name) {
        msg += &format!("; did you mean '{near}'?");
    }
    let names: Vec<&str> = table::all_names().collect();
    msg += &format!("\nvalid pass names: {}", names.join(", "));
    PipelineParseError(msg)
}

/// Parses a `-passes=` pipeline: `a,b`, `function(a,b)`, `module(function(a))`, whitespace allowed.
pub fn parse_pipeline(text: &str) -> Result<Vec<Pass>, PipelineParseError> {
    let mut passes = Vec::new();
    let mut depth = 0usize;
    let mut cur = String::new();
    let flush = |cur: &mut String, passes: &mut Vec<Pass>| -> Result<(), PipelineParseError> {
        let name = cur.trim();
        if !name.is_empty() {
            match lookup(name) {
                Some(p) => passes.push(p),
                None => return Err(unknown_pass(name)),
            }
        }
        cur.clear();
        Ok(())
    };
    let mut angle = 0usize;
    for c in text.chars() {
        match c {
            '<' => {
                angle += 1;
                cur.push(c);
            }
            '>' => {
                angle = angle.saturating_sub(1);
                cur.push(c);
            }
            '(' if angle == 0 => {
                let wrapper = cur.trim();
                if !matches!(wrapper, "function" | "module") {
                    return Err(PipelineParseError(format!(
                        "unknown pass adaptor '{wrapper}'"
                    )));
                }
                cur.clear();
                depth += 1;
            }
            ')' if angle == 0 => {
                if depth == 0 {
                    return Err(PipelineParseError("unbalanced ')' in pipeline".into()));
                }
                flush(&mut cur, &mut passes)?;
                depth -= 1;
            }
            ',' if angle == 0 => flush(&mut cur, &mut passes)?,
            _ => cur.push(c),
        }
    }
    if depth != 0 {
        return Err(PipelineParseError("unbalanced '(' in pipeline".into()));
    }
    flush(&mut cur, &mut passes)?;
    Ok(passes)
}

/// How to run a pipeline.
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// Worker threads for per-function work ([`Threads::ONE`]: sequential; default: the
    /// cores, at most 8).
    pub threads: Threads,
    /// Run the verifier after every pass (`-verify-each`).
    pub verify_each: bool,
    /// Have `phi-elim` list its copies in [`RunReport::copies`].
    pub print_copies: bool,
    /// How `mem2reg` promotes.
    pub mem2reg: crate::transform::mem2reg::Options,
    /// The module's identifier (LLVM's `Module::getName`: the input file as named, or
    /// `<stdin>`), which `debugify` writes as its file name.
    pub module_id: String,
    /// opt's `-cfg-dot-filename-prefix`: `dot-cfg` and `dot-cfg-only` write
    /// `PREFIX.NAME.dot` (empty by default: `.NAME.dot` in the current directory).
    pub cfg_dot_prefix: String,
    /// opt's `-debug-pass-manager`: a `Running pass: ...` line before each pass, in
    /// [`RunReport::printed`] (see [`instrument`]).
    pub debug_pass_manager: bool,
    /// opt's `-print-before-all`: the IR before each pass, in [`RunReport::printed`].
    pub print_before_all: bool,
    /// opt's `-print-after-all`: the IR after each pass, in [`RunReport::printed`].
    pub print_after_all: bool,
}

impl Default for RunOptions {
    fn default() -> Self {
        Self {
            threads: Threads::default(),
            verify_each: false,
            print_copies: false,
            mem2reg: Default::default(),
            module_id: "<stdin>".into(),
            cfg_dot_prefix: String::new(),
            debug_pass_manager: false,
            print_before_all: false,
            print_after_all: false,
        }
    }
}

/// What a pipeline run produced besides the changed module.
#[derive(Clone, Debug, Default)]
pub struct RunReport {
    /// Text analysis printers wrote (opt writes it to stderr).
    pub printed: String,
    /// Time per stage, in order.
    pub timings: Vec<(String, Duration)>,
    /// `phi-elim`'s listing of copies (with [`RunOptions::print_copies`]), functions in order.
    pub copies: String,
    /// Counters of the passes other than mem2reg, `(name, value)` in order (e.g.
    /// `phi-elim.copies`). All counters, mem2reg's included, with LLVM's names and sentences:
    /// [`RunReport::statistics`]; opt's `-stats` table: [`RunReport::stats_text`].
    pub stats: Vec<(String, u64)>,
    /// `mem2reg`'s report (statistics, remarks, explanations), summed over its runs.
    pub mem2reg: crate::transform::mem2reg::Report,
}

/// A pipeline that stopped: the verifier or a pass found a problem.
#[derive(Clone, Debug)]
pub struct PipelineError {
    /// The messages, one per problem.
    pub messages: Vec<String>,
}

impl fmt::Display for PipelineError {
    /// The messages, one per line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.messages.join("\n"))
    }
}

impl std::error::Error for PipelineError {}

/// What running the passes on one function produced (merged in function order).
#[derive(Clone, Debug, Default)]
pub struct FunctionReport {
    /// Text analysis printers wrote.
    pub printed: String,
    /// `phi-elim`'s listing of copies.
    pub copies: String,
    /// Additive counters `(name, value)`.
    pub stats: Vec<(String, u64)>,
    /// `mem2reg`'s report.
    pub mem2reg: crate::transform::mem2reg::Report,
    /// Time per pass.
    pub timings: Vec<(&'static str, Duration)>,
    /// Problems that stop the pipeline (verifier, pass failures), one message each.
    pub errors: Vec<String>,
}

impl RunReport {
    /// Adds one function's report (in function order).
    pub fn absorb(&mut self, r: FunctionReport) {
        self.printed.push_str(&r.printed);
        self.copies.push_str(&r.copies);
        for (k, v) in r.stats {
            match self.stats.iter_mut().find(|(n, _)| *n == k) {
                Some(e) => e.1 += v,
                None => self.stats.push((k, v)),
            }
        }
        self.mem2reg.stats.add(&r.mem2reg.stats);
        self.mem2reg.remarks.extend(r.mem2reg.remarks);
        self.mem2reg.explanations.push_str(&r.mem2reg.explanations);
        for (n, d) in r.timings {
            match self.timings.iter_mut().find(|(m, _)| m == n) {
                Some(e) => e.1 += d,
                None => self.timings.push((n.to_string(), d)),
            }
        }
    }
}

/// Runs `passes` on one function, as opt's function pass manager does (every pass on this
/// function before the next function). Stops at the first pass that reports errors.
pub fn run_on_function(
    f: &mut Function,
    ctx: Option<&llvm_ir::ir::ModuleInfo>,
    passes: &[Pass],
    opts: &RunOptions,
) -> FunctionReport {
    use instrument::When;
    let mut r = FunctionReport::default();
    for &pass in passes {
        instrument::function_pass(f, pass, When::Before, opts, &mut r.printed);
        let order = (pass == Pass::Mem2Reg && opts.mem2reg.explain)
            .then(|| instrument::SourceOrder::take(f));
        let from = r.mem2reg.explanations.len();
        let t0 = Instant::now();
        one_pass(f, ctx, pass, opts, &mut r);
        r.timings.push((pass.name(), t0.elapsed()));
        if let Some(order) = order {
            let sorted = order.sort(f, &r.mem2reg.explanations[from..]);
            r.mem2reg.explanations.truncate(from);
            r.mem2reg.explanations.push_str(&sorted);
        }
        instrument::function_pass(f, pass, When::After, opts, &mut r.printed);
        if pass == Pass::Mem2Reg && opts.mem2reg.time_analyses {
            let d = std::mem::take(&mut r.mem2reg.analysis_time);
            r.timings.push((MEM2REG_ANALYSES, d));
        }
        if r.errors.is_empty() && opts.verify_each && pass != Pass::Verify {
            one_pass(f, ctx, Pass::Verify, opts, &mut r);
        }
        if !r.errors.is_empty() {
            break;
        }
    }
    r
}

/// The name under which `--time-passes` reports the part of mem2reg's time spent computing
/// CFGs and dominator trees (opt reports `DominatorTreeAnalysis` on a line of its own).
pub const MEM2REG_ANALYSES: &str = "mem2reg, of which CFG and dominator tree";

fn one_pass(
    f: &mut Function,
    ctx: Option<&llvm_ir::ir::ModuleInfo>,
    pass: Pass,
    opts: &RunOptions,
    r: &mut FunctionReport,
) {
    use crate::transform::{phi_elim, reg2mem};
    match pass {
        Pass::Mem2Reg => {
            let m = crate::transform::mem2reg::promote_keeping_aliases(f, ctx, &opts.mem2reg);
            r.mem2reg.stats.add(&m.stats);
            r.mem2reg.remarks.extend(m.remarks);
            r.mem2reg.explanations.push_str(&m.explanations);
            r.mem2reg.analysis_time += m.analysis_time;
        }
        Pass::Verify => {
            let ptr_bits = ctx.map_or(64, |c| c.ptr_bits);
            for e in llvm_ir::verify::verify_function_with(f, ptr_bits) {
                r.errors.push(e.to_string());
            }
        }
        Pass::Print(p) => p.run_function(f, &opts.cfg_dot_prefix, &mut r.printed),
        Pass::Analyses => {
            std::hint::black_box(crate::analysis::slot_phis::analyse(f));
        }
        Pass::PhiElim => {
            let o = phi_elim::Options {
                lowering: phi_elim::Lowering::StackSlots,
                list: opts.print_copies,
                layout: ctx.map(|c| &c.dl),
            };
            match phi_elim::eliminate_phis(f, &o) {
                Ok(out) => {
                    r.copies.push_str(&out.listing);
                    let s = out.stats;
                    for (k, v) in [
                        ("phis", s.phis),
                        ("copies", s.copies),
                        ("temporaries", s.temps),
                        ("edges-split", s.edges_split),
                        ("fallback-edges", s.fallback_edges),
                    ] {
                        r.stats.push((format!("phi-elim.{k}"), v as u64));
                    }
                }
                Err(e) => r.errors.push(e.0),
            }
        }
        Pass::Reg2Mem => match reg2mem::reg2mem_with(f, ctx.map(|c| &c.dl)) {
            Ok(s) => {
                for (k, v) in [
                    ("edges-split", s.edges_split),
                    ("values-demoted", s.values_demoted),
                    ("phis-demoted", s.phis_demoted),
                ] {
                    r.stats.push((format!("reg2mem.{k}"), v as u64));
                }
            }
            Err(e) => r.errors.push(e.0),
        },
        // Module passes never run per function: `run` runs them on the whole module.
        Pass::Debugify | Pass::CheckDebugify => {}
    }
}

/// Runs the function passes `passes` over every function of `m` (each function through all
/// passes, functions in parallel on up to `opts.threads` threads; reports merged in function
/// order). A module pass here is an error: pipelines with module passes are cut into stages by
/// the caller (the `mem2reg` crate's `stages`, which can print and re-read the module between
/// them).
pub fn run(m: &mut Module, passes: &[Pass], opts: &RunOptions) -> Result<RunReport, PipelineError> {
    if let Some(p) = passes.iter().find(|p| p.is_module_pass()) {
        return Err(PipelineError {
            messages: vec![format!(
                "'{}' is a module pass: run the pipeline in stages (mem2reg::stages)",
                p.name()
            )],
        });
    }
    let ctx = m.info.clone();
    let results = for_each_function(m, opts.threads, |f| {
        run_on_function(f, ctx.as_deref(), passes, opts)
    });
    let mut report = RunReport::default();
    let mut messages = Vec::new();
    for r in results {
        messages.extend(r.errors.iter().cloned());
        report.absorb(r);
    }
    if !messages.is_empty() {
        return Err(PipelineError { messages });
    }
    Ok(report)
}

/// Runs `f` on every function of `m`, on up to `threads` threads, returning results in
/// function order.
pub(crate) fn for_each_function<R: Send>(
    m: &mut Module,
    threads: Threads,
    f: impl Fn(&mut Function) -> R + Sync,
) -> Vec<R> {
    let threads = threads.get();
    let mut funcs: Vec<&mut Function> = m.functions.iter_mut().map(|(_, f)| f).collect();
    if threads <= 1 || funcs.len() < 2 {
        return funcs.into_iter().map(f).collect();
    }
    let weights: Vec<usize> = funcs.iter().map(|f| f.dfg.insts.len() + 1).collect();
    let bounds = chunk_bounds(&weights, threads);
    let f = &f;
    std::thread::scope(|s| {
        let mut handles = Vec::new();
        let mut rest: &mut [&mut Function] = &mut funcs;
        let mut start = 0;
        for &end in &bounds {
            let (chunk, tail) = rest.split_at_mut(end - start);
            rest = tail;
            start = end;
            // Workers get the reader's large stack: passes recurse over deeply nested types.
            let h = std::thread::Builder::new()
                .stack_size(llvm_ir::util::parallel::BIG_STACK)
                .spawn_scoped(s, move || {
                    chunk.iter_mut().map(|g| f(g)).collect::<Vec<R>>()
                })
                .expect("cannot start a worker thread");
            handles.push(h);
        }
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("worker thread panicked"))
            .collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pipelines_parse_like_opt() {
        assert_eq!(parse_pipeline("").unwrap(), vec![]);
        assert_eq!(
            parse_pipeline("function(verify),require<verify>").unwrap(),
            vec![Pass::Verify, Pass::Verify]
        );
        let e = parse_pipeline("bogus").unwrap_err().0;
        assert!(e.starts_with("unknown pass name 'bogus'\nvalid pass names: mem2reg, verify, "));
        let e = parse_pipeline("function(reg2mme)").unwrap_err().0;
        assert!(e.starts_with("unknown pass name 'reg2mme'; did you mean 'reg2mem'?\n"));
        assert!(parse_pipeline("function(verify").is_err());
        assert!(parse_pipeline("verify)").is_err());
    }
}
