//! `peer`: times each benchmark case on each SSA builder and prints
//! `peer SHAPE N ours_s cranelift_s ratio` per case, then `growth SHAPE FROM->TO ours cranelift`
//! (time factor per 4x N) per shape — or, with `--json`, one JSON object. Progress goes to
//! stderr. See `peer --help`.

#![forbid(unsafe_code)]

use std::process::ExitCode;

use peer_bench::cli::{self, Options};
use peer_bench::measure::{run_case, CaseResult};
use peer_bench::report;

fn main() -> ExitCode {
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
