//! # mem2reg-playground — learn SSA by looking
//!
//! `mem2reg serve [--port N] [--host H]` starts a local web server (127.0.0.1 unless told
//! otherwise) whose page shows SSA construction and destruction on a program you type or pick:
//! the CFG as a picture, the dominator tree, every block's dominance frontier, the function after
//! each pass and a diff, and step-by-step φ placement, renaming and phi elimination, for three
//! SSA flavours side by side.
//!
//! ```text
//! request (source, options) ─► front end ─────────────► Front ─► api::model ─► JSON ─► page
//!                               llvm: reader, verifier,   lesson     placement, renaming,
//!                                     mem2reg, phi-elim   stages     phi elimination (ssa crate),
//!                               while: parser, naive      SsaFn      pictures (layout), diffs
//!                                      compiler, to_ssa
//! ```
//! - [`server`]: HTTP (tiny_http), workers, limits; [`api`]: requests and the model;
//! - [`llvm`], [`whilelang`]: the front ends, [`front`]: what they hand over;
//! - [`lesson`]: the pre-SSA function any front end reduces to, and its analyses;
//! - [`placement`], [`renaming`], [`destruct`]: the three stepping views;
//! - [`picture`], [`layout`]: boxes and edges laid out in Rust; [`diff`]; [`examples`].
//!
//! The page (`assets/`: HTML, CSS and three scripts written for it, no library) is compiled
//! into the binary: no file or network access at run time.
//!
//! Invariants: every answer is a pure function of the request; bad input of any kind (invalid
//! IR, binary bytes, huge pastes, 10,000-block functions) gets an error or a bounded answer,
//! never a hung or dead server (see [`server`] and [`api`] for the limits). No `unsafe`.
#![warn(missing_docs)]
#![forbid(unsafe_code)]

pub mod api;
pub mod destruct;
pub mod diff;
pub mod examples;
pub mod front;
pub mod layout;
pub mod lesson;
pub mod llvm;
pub mod picture;
pub mod placement;
pub mod renaming;
pub mod server;
pub mod whilelang;

pub use server::{start, Config, Running};

/// `mem2reg serve`'s help.
pub const USAGE: &str = "\
USAGE: mem2reg serve [--port N] [--host ADDRESS] [--workers N]

Starts the SSA playground, a local web page that shows mem2reg and phi elimination step by
step, and prints its URL. Stop it with Ctrl-C.

OPTIONS:
  --port N          Port to listen on (default 8030; 0: any free port)
  --host ADDRESS    Address to listen on (default 127.0.0.1, this machine only; 0.0.0.0
                    would let other machines reach it)
  --workers N       Threads answering requests (default 4)
  --help            Print this help
";

/// Runs `mem2reg serve ARGS` (the arguments after `serve`); returns the exit status: 0, 1 when
/// the server cannot start, 2 on a usage error.
pub fn serve_main(args: &[String]) -> u8 {
    let cfg = match parse_args(args) {
        Ok(Some(c)) => c,
        Ok(None) => {
            print!("{USAGE}");
            return 0;
        }
        Err(e) => {
            eprintln!("mem2reg serve: {e}\nRun 'mem2reg serve --help' for usage.");
            return 2;
        }
    };
    match start(&cfg) {
        Ok(running) => {
            println!("mem2reg playground: {} (Ctrl-C to stop)", running.url());
            use std::io::Write;
            let _ = std::io::stdout().flush();
            running.wait();
            0
        }
        Err(e) => {
            eprintln!("mem2reg serve: {e}");
            1
        }
    }
}

/// Parses `serve`'s arguments; `Ok(None)` for `--help`.
fn parse_args(args: &[String]) -> Result<Option<Config>, String> {
    let mut cfg = Config::default();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let (flag, inline) = match a.split_once('=') {
            Some((f, v)) => (f, Some(v.to_string())),
            None => (a.as_str(), None),
        };
        let mut value = || {
            inline
                .clone()
                .or_else(|| it.next().cloned())
                .ok_or_else(|| format!("option '{flag}' needs a value"))
        };
        match flag.trim_start_matches('-') {
            "help" | "h" => return Ok(None),
            "port" => {
                cfg.port = value()?
                    .parse()
                    .map_err(|_| format!("'{flag}' needs a port number (0 to 65535)"))?
            }
            "host" => cfg.host = value()?,
            "workers" => {
                cfg.workers = value()?
                    .parse()
                    .ok()
                    .filter(|&n| (1..=64).contains(&n))
                    .ok_or("'--workers' needs a number from 1 to 64")?
            }
            _ => return Err(format!("unknown argument '{a}'")),
        }
    }
    Ok(Some(cfg))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn parses_serve_arguments() {
        let c = parse_args(&args("--port 0 --host=0.0.0.0"))
            .unwrap()
            .unwrap();
        assert_eq!((c.port, c.host.as_str(), c.workers), (0, "0.0.0.0", 4));
        assert_eq!(parse_args(&args("")).unwrap().unwrap().host, "127.0.0.1");
        assert!(parse_args(&args("--help")).unwrap().is_none());
        assert!(parse_args(&args("--port x")).is_err());
        assert!(parse_args(&args("--port")).is_err());
        assert!(parse_args(&args("--bogus")).is_err());
    }
}
