//! The one call that does what the command line does: read `.ll` text, verify it, run a pass
//! pipeline, print the result ([`run`], or [`run_to`] to stream into a writer).
//!
//! Invariants: the output is what `mem2reg --passes=PIPELINE` writes for the same input and
//! options (the command line is built on [`run_to`]); it does not depend on
//! [`Options::threads`]; on an error nothing of the module is in the returned value.

use std::fmt;
use std::sync::Arc;

use crate::driver::{run_job, JobError, JobOptions};
use crate::pipeline::{parse_pipeline, PipelineParseError, RunOptions, RunReport, Threads};
use crate::text::ParseError;

/// What [`run`] does: the pipeline, the passes' options (thread count included), whether to
/// verify the input and to print.
#[derive(Clone, Debug)]
pub struct Options {
    /// The `-passes=` pipeline, in opt's spelling (`"mem2reg"`, `"mem2reg,phi-elim"`; empty:
    /// read and print only).
    pub passes: String,
    /// Pass options: [`RunOptions::threads`] (worker threads, default: the cores, at most 8),
    /// mem2reg's options, `-verify-each`, opt's instrumentation, ...
    pub run: RunOptions,
    /// Verify the input before running passes, as opt does (`-disable-verify` turns it off).
    pub verify_input: bool,
    /// Print the module (`-disable-output` turns it off).
    pub print: bool,
    /// The name on the `; ModuleID = '...'` line that opt writes first (the command line
    /// passes the input path, or `<stdin>`); `None` writes no such line.
    pub module_id: Option<String>,
}

impl Default for Options {
    /// `mem2reg` on all cores (at most 8), input verified, module printed.
    fn default() -> Self {
        Self {
            passes: "mem2reg".into(),
            run: RunOptions::default(),
            verify_input: true,
            print: true,
            module_id: None,
        }
    }
}

impl Options {
    /// The default options with the pipeline `passes`.
    pub fn with_passes(passes: &str) -> Self {
        Self {
            passes: passes.into(),
            ..Self::default()
        }
    }

    /// These options on `threads` worker threads ([`Threads::ONE`]: everything on the
    /// calling thread).
    pub fn threads(mut self, threads: Threads) -> Self {
        self.run.threads = threads;
        self
    }
}

/// The printed module and what the passes reported.
#[derive(Clone, Debug, Default)]
pub struct Output {
    /// The module as LLVM IR text (empty without [`Options::print`]).
    pub text: Vec<u8>,
    /// Statistics ([`RunReport::statistics`]), printer and instrumentation text, remarks,
    /// explanations, copies, timings.
    pub report: RunReport,
}

/// Why [`run`] failed.
#[derive(Clone, Debug)]
pub enum Error {
    /// The pipeline does not parse (unknown pass name, unbalanced parentheses).
    Pipeline(PipelineParseError),
    /// The input does not read as LLVM IR text.
    Parse(ParseError),
    /// The input reads but is not valid IR: the verifier's messages.
    Verify(Vec<String>),
    /// A pass (or the verifier between passes) failed: its messages.
    Pass(Vec<String>),
    /// Writing the output failed.
    Io(String),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Pipeline(e) => write!(f, "{e}"),
            Error::Parse(e) => write!(f, "{e}"),
            Error::Verify(m) => write!(f, "{}\ninput module is broken!", m.join("\n")),
            Error::Pass(m) => f.write_str(&m.join("\n")),
            Error::Io(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Pipeline(e) => Some(e),
            Error::Parse(e) => Some(e),
            _ => None,
        }
    }
}

impl From<PipelineParseError> for Error {
    fn from(e: PipelineParseError) -> Self {
        Error::Pipeline(e)
    }
}

impl From<JobError> for Error {
    fn from(e: JobError) -> Self {
        match e {
            JobError::Parse(p) => Error::Parse(p),
            JobError::Input(m) => Error::Verify(m),
            JobError::Pass(m) => Error::Pass(m),
            JobError::Io(m) => Error::Io(m),
        }
    }
}

/// Reads `input` (LLVM IR text), verifies it, runs `opts.passes` and prints the result: what
/// `mem2reg` does on the command line.
///
/// ```
/// use mem2reg::{run, Options, Threads};
///
/// fn promote(ll: &str) -> Result<String, Box<dyn std::error::Error>> {
///     let out = run(ll.as_bytes(), &Options::default().threads(Threads::new(2)))?;
///     Ok(String::from_utf8(out.text)?)
/// }
/// let text = promote(
///     "define i32 @f(i32 %a) {\n  %x = alloca i32\n  store i32 %a, ptr %x\n  \
///      %v = load i32, ptr %x\n  ret i32 %v\n}\n",
/// )?;
/// assert!(text.contains("ret i32 %a") && !text.contains("alloca"));
/// assert!(promote("define i32 @f(").is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn run(input: &[u8], opts: &Options) -> Result<Output, Error> {
    let mut text = Vec::new();
    let report = run_to(Arc::from(input), opts, &mut text)?;
    Ok(Output { text, report })
}

/// [`run`], writing the module to `out` as it is produced (function by function for most
/// modules, so memory stays near the input's size). On an error, what was written is
/// incomplete: write to a temporary file, as the command line does.
pub fn run_to(
    input: Arc<[u8]>,
    opts: &Options,
    out: &mut dyn llvm_ir::print::module_writer::Output,
) -> Result<RunReport, Error> {
    let job = JobOptions {
        passes: parse_pipeline(&opts.passes)?,
        run: opts.run.clone(),
        verify_input: opts.verify_input,
        print: opts.print,
        module_id: opts.module_id.clone(),
    };
    Ok(run_job(input, &job, out)?.run)
}
