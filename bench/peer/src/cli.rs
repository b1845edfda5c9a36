//! Command-line options of the `peer` binary.

use std::time::Duration;

use crate::measure::Policy;
use crate::shapes::Shape;

/// Usage text.
pub const USAGE: &str = "\
usage: peer [--shapes a,b,..] [--sizes n,n,..] [--runs R] [--min-time SECS] [--max-time SECS] [--json]
  --shapes    wasm4923,ladder,nest,switch,straight (default: all)
  --sizes     sizes for every chosen shape (default: each shape's own three sizes)
  --runs      at least this many timed runs per side and case (default 5)
  --min-time  keep timing until the runs add up to this many seconds (default 1)
  --max-time  stop once the runs add up to this many seconds, even below --runs (default 30)
  --json      print one JSON object instead of text lines";

/// What to run and how to print it.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// Shapes to run, in report order.
    pub shapes: Vec<Shape>,
    /// Sizes for every shape; `None` means each shape's defaults.
    pub sizes: Option<Vec<u32>>,
    /// Run counts and time budget.
    pub policy: Policy,
    /// JSON output instead of text lines.
    pub json: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            shapes: Shape::ALL.to_vec(),
            sizes: None,
            policy: Policy::default(),
            json: false,
        }
    }
}

impl Options {
    /// The (shape, size) cases to run, in order.
    pub fn cases(&self) -> Vec<(Shape, u32)> {
        let sizes = |s: Shape| self.sizes.clone().unwrap_or_else(|| s.default_sizes());
        self.shapes
            .iter()
            .flat_map(|s| sizes(*s).into_iter().map(move |n| (*s, n)))
            .collect()
    }
}

/// Parses the arguments after the program name; `Err` carries a message (or the usage, for
/// `--help`).
pub fn parse<I: IntoIterator<Item = String>>(args: I) -> Result<Options, String> {
    let mut opts = Options::default();
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        let (flag, inline) = match arg.split_once('=') {
            Some((f, v)) => (f.to_string(), Some(v.to_string())),
            None => (arg, None),
        };
        let mut value = || {
            inline
                .clone()
                .or_else(|| args.next())
                .ok_or(format!("{flag} needs a value"))
        };
        match flag.as_str() {
            "--shapes" => opts.shapes = parse_shapes(&value()?)?,
            "--sizes" => opts.sizes = Some(parse_list(&value()?, "size")?),
            "--runs" => opts.policy.min_runs = parse_number(&value()?, "--runs")?,
            "--min-time" => opts.policy.min_total = parse_seconds(&value()?, "--min-time")?,
            "--max-time" => opts.policy.max_total = parse_seconds(&value()?, "--max-time")?,
            "--json" => opts.json = true,
            "--help" | "-h" => return Err(USAGE.to_string()),
            other => return Err(format!("unknown argument {other}\n{USAGE}")),
        }
    }
    Ok(opts)
}

fn parse_shapes(list: &str) -> Result<Vec<Shape>, String> {
    list.split(',')
        .map(|name| Shape::from_name(name.trim()).ok_or(format!("unknown shape {name}")))
        .collect()
}

fn parse_list(list: &str, what: &str) -> Result<Vec<u32>, String> {
    list.split(',')
        .map(|x| parse_number(x.trim(), what))
        .collect()
}

fn parse_number<T: std::str::FromStr>(text: &str, what: &str) -> Result<T, String> {
    text.parse().map_err(|_| format!("bad {what}: {text}"))
}

fn parse_seconds(text: &str, flag: &str) -> Result<Duration, String> {
    let secs: f64 = parse_number(text, flag)?;
    Duration::try_from_secs_f64(secs).map_err(|_| format!("bad {flag}: {text}"))
}
