//! `peer`: times each benchmark case on each SSA builder and prints
//! `peer SHAPE N ours_s cranelift_s ratio` per case, then `growth SHAPE FROM->TO ours cranelift`
//! (time factor per 4x N) per shape — or, with `--json`, one JSON object. Progress goes to
//! stderr. See `peer --help`.

#![forbid(unsafe_code)]

use std::process::ExitCode;

use peer_bench::cli::{self, Options};
use peer_bench::measure::{run_case, CaseResult};
use peer_bench::report;

/// glibc's malloc tunables every measurement runs with (see [`pin_heap`]).
const HEAP_TUNABLES: &str =
    "glibc.malloc.trim_threshold=4294967295:glibc.malloc.mmap_threshold=33554432";

/// Re-runs this program with [`HEAP_TUNABLES`] in `GLIBC_TUNABLES` unless that is set already
/// (by the user, or by this function in the parent); `None` means "go on in this process".
///
/// Why: by default glibc gives the top of the heap back to the kernel whenever a `free` leaves
/// more than a threshold there, and adjusts that threshold as large blocks come and go. Which
/// run crosses it then depends on how the *other* side's frees left the heap, and the next run
/// pays for the pages again. Measured 2026-11-29, wasm4923 at N = 3,750: 216,740 page faults
/// for the same work that took 1,710 with another build of ours, both sides 40% slower, the
/// ratio moved by 0.1. With fixed thresholds every run starts from the same heap.
fn pin_heap() -> Option<ExitCode> {
    if !cfg!(target_os = "linux") || std::env::var_os("GLIBC_TUNABLES").is_some() {
        return None;
    }
    let exe = std::env::current_exe().ok()?;
    let status = std::process::Command::new(exe)
        .args(std::env::args_os().skip(1))
        .env("GLIBC_TUNABLES", HEAP_TUNABLES)
        .status()
        .ok()?;
    Some(match status.code() {
        Some(0) => ExitCode::SUCCESS,
        Some(c) => ExitCode::from(u8::try_from(c).unwrap_or(1)),
        None => ExitCode::FAILURE,
    })
}

fn main() -> ExitCode {
    if let Some(code) = pin_heap() {
        return code;
    }
    let opts = match cli::parse(std::env::args().skip(1)) {
        Ok(opts) => opts,
        Err(msg) => {
            eprintln!("{msg}");
            return ExitCode::from(2);
        }
    };
    match run_all(&opts) {
        Ok(results) => {
            print_report(&opts, &results);
            ExitCode::SUCCESS
        }
        Err(msg) => {
            eprintln!("peer: {msg}");
            ExitCode::FAILURE
        }
    }
}

/// Runs every case, printing each text line as soon as it is measured.
fn run_all(opts: &Options) -> Result<Vec<CaseResult>, String> {
    let mut results = Vec::new();
    for (shape, n) in opts.cases() {
        eprintln!("# {} N={} ({})", shape.name(), n, shape.size_meaning());
        let r = run_case(shape, n, &opts.policy)
            .map_err(|e| format!("{} N={n}: malformed script: {e}", shape.name()))?;
        if !opts.json {
            println!("{}", report::case_line(&r));
        }
        results.push(r);
    }
    Ok(results)
}

fn print_report(opts: &Options, results: &[CaseResult]) {
    let growth = report::growth(results);
    if opts.json {
        println!("{}", report::to_json(results, &growth));
    } else {
        growth
            .iter()
            .for_each(|g| println!("{}", report::growth_line(g)));
    }
}
