//! Pipelines with module passes (`debugify`, `check-debugify`), run as stages.
//!
//! A module pass sees the whole module at once, so it is a barrier: the function passes
//! before it finish on every function first (as opt's module pass manager runs a function
//! pass adaptor to the end before the next module pass). The pipeline is cut into stages —
//! runs of function passes (on all functions, in parallel, through [`crate::pipeline::run`])
//! and single module passes (sequential) — run in order.
//!
//! Between stages the module is printed and read back when the stage changed it and more
//! follow: a module pass then sees every node by number in the module's metadata index (the
//! new nodes of function passes are numbered only when printed), and function passes after
//! `debugify` read its new nodes (a location's line and scope) like any input node. Printing
//! and reading round-trip exactly, so this changes nothing but costs a print and a parse.
//!
//! Invariants: reports merge in stage order (a module pass's messages come after everything
//! the function passes before it printed, as in opt); the output does not depend on the
//! thread count.

use std::sync::Arc;
use std::time::Instant;

use crate::ir::Module;
use crate::pipeline::{self, Pass, PipelineError, RunOptions, RunReport};

/// Runs `passes` (some of them module passes) over `m`.
pub fn run_staged(
    m: &mut Module,
    passes: &[Pass],
    opts: &RunOptions,
) -> Result<RunReport, PipelineError> {
    let mut report = RunReport::default();
    let mut rest = passes;
    while !rest.is_empty() {
        let k = rest
            .iter()
            .position(|p| p.is_module_pass())
            .unwrap_or(rest.len());
        let changed = if k > 0 {
            merge(&mut report, pipeline::run(m, &rest[..k], opts)?);
            rest = &rest[k..];
            true
        } else {
            let pass = rest[0];
            rest = &rest[1..];
            run_module_pass(m, pass, opts, &mut report)?
        };
        if changed && !rest.is_empty() {
            reread(m, opts.threads)?;
        }
    }
    Ok(report)
}

/// Runs one module pass; returns whether it changed the module.
fn run_module_pass(
    m: &mut Module,
    pass: Pass,
    opts: &RunOptions,
    report: &mut RunReport,
) -> Result<bool, PipelineError> {
    use crate::pipeline::instrument::{self, When};
    use crate::transform::debugify;
    dump_module(m, pass, When::Before, opts, report);
    if opts.debug_pass_manager {
        report
            .printed
            .push_str(&instrument::running_module_line(pass));
    }
    let t0 = Instant::now();
    let changed = match pass {
        Pass::Debugify => {
            let printed = debugify::debugify(m, &opts.module_id);
            let changed = printed.is_empty();
            report.printed.push_str(&printed);
            changed
        }
        Pass::CheckDebugify => {
            report.printed.push_str(&debugify::check_debugify(m));
            false
        }
        _ => false,
    };
    add_timing(report, pass.name(), t0.elapsed());
    dump_module(m, pass, When::After, opts, report);
    if changed && opts.verify_each {
        merge(report, pipeline::run(m, &[Pass::Verify], opts)?);
    }
    Ok(changed)
}

/// opt's `-print-before-all` / `-print-after-all` dump of the whole module around module pass
/// `pass` (see [`crate::pipeline::instrument`]).
fn dump_module(
    m: &Module,
    pass: Pass,
    when: crate::pipeline::instrument::When,
    opts: &RunOptions,
    report: &mut RunReport,
) {
    use crate::pipeline::instrument;
    if instrument::dumps(pass, when, opts) {
        report
            .printed
            .push_str(&instrument::dump_header(pass, when, "[module]"));
        let text = crate::text::print_module(m, opts.threads);
        report.printed.push_str(&String::from_utf8_lossy(&text));
    }
}

/// Prints `m` and reads it back, so every node is in its metadata index.
fn reread(m: &mut Module, threads: pipeline::Threads) -> Result<(), PipelineError> {
    let text = crate::text::printer::print_module(m, threads);
    let fresh =
        crate::text::parser::parse_with(Arc::from(text), threads).map_err(|e| PipelineError {
            messages: vec![format!(
                "internal error: the module between passes does not read back: {e}"
            )],
        })?;
    let id = m.id.take();
    *m = fresh;
    m.id = id;
    Ok(())
}

fn add_timing(report: &mut RunReport, name: &str, d: std::time::Duration) {
    match report.timings.iter_mut().find(|(n, _)| n == name) {
        Some(e) => e.1 += d,
        None => report.timings.push((name.to_string(), d)),
    }
}

/// Adds a later stage's report to `into`.
fn merge(into: &mut RunReport, r: RunReport) {
    into.printed.push_str(&r.printed);
    into.copies.push_str(&r.copies);
    for (k, v) in r.stats {
        match into.stats.iter_mut().find(|(n, _)| *n == k) {
            Some(e) => e.1 += v,
            None => into.stats.push((k, v)),
        }
    }
    into.mem2reg.stats.add(&r.mem2reg.stats);
    into.mem2reg.remarks.extend(r.mem2reg.remarks);
    into.mem2reg.explanations.push_str(&r.mem2reg.explanations);
    for (n, d) in r.timings {
        add_timing(into, &n, d);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SRC: &str = "\
define i32 @f(i32 %n) {
entry:
  %i = alloca i32
  store i32 0, ptr %i
  br label %loop

loop:
  %v = load i32, ptr %i
  %next = add i32 %v, 1
  store i32 %next, ptr %i
  %done = icmp sge i32 %next, %n
  br i1 %done, label %exit, label %loop

exit:
  %r = load i32, ptr %i
  ret i32 %r
}

define i32 @g(i32 %x) {
  %y = mul i32 %x, %x
  ret i32 %y
}
";

    fn run_with(threads: usize, pipeline: &str) -> (Vec<u8>, String) {
        let threads = pipeline::Threads::new(threads);
        let mut m = crate::text::parser::parse(Arc::from(SRC.as_bytes())).unwrap();
        let passes = pipeline::parse_pipeline(pipeline).unwrap();
        let opts = RunOptions {
            threads,
            ..Default::default()
        };
        let report = pipeline::run(&mut m, &passes, &opts).unwrap();
        (
            crate::text::printer::print_module(&m, threads),
            report.printed,
        )
    }

    #[test]
    fn stages_are_deterministic_and_read_back() {
        let one = run_with(1, "debugify,mem2reg,check-debugify");
        assert_eq!(one, run_with(4, "debugify,mem2reg,check-debugify"));
        let text = String::from_utf8(one.0).unwrap();
        assert!(!text.contains("alloca") && text.contains("!llvm.debugify"));
        assert!(one.1.ends_with("CheckModuleDebugify: PASS\n"), "{}", one.1);
        assert!(one.1.contains("WARNING: Missing line 2\n"));
        // A second debugify sees the first one's compile unit: the module was read back.
        let (_, printed) = run_with(2, "debugify,debugify");
        assert_eq!(printed, "ModuleDebugify: Skipping module with debug info\n");
        let (_, printed) = run_with(2, "mem2reg,check-debugify");
        assert_eq!(
            printed,
            "CheckModuleDebugify: Skipping module without debugify metadata\n"
        );
    }
}
