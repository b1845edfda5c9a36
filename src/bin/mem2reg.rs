//! The `mem2reg` command line: argument spelling, input and output, exit codes — nothing else.
//!
//! `mem2reg [INPUT] [-o OUTPUT] [--passes=PIPELINE] ...`, spelled like `opt` where they overlap.
//! Exit status: 0 on success, 1 when the input or a pass fails (message in opt's shape on
//! stderr), 2 on a usage error. The output file is written only on success, through a temporary
//! file beside it that is renamed into place, so a failed run never destroys an existing file —
//! also when OUTPUT is INPUT. (Behind a symlink, the link's target is replaced and the link
//! kept; an OUTPUT that exists but is not a regular file, such as `/dev/null` or a FIFO, is
//! written in place once the run has succeeded, never renamed over.)

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Instant;

use mem2reg::pipeline::{self, RunOptions};

/// The options part of `--help`; the passes part comes from the pipeline's own table
/// ([`pipeline::help_text`]), so the list cannot drift from what `--passes=` accepts.
const USAGE: &str = "\
USAGE: mem2reg [options] [--] [INPUT]

Reads LLVM IR text (INPUT, or stdin when INPUT is '-' or absent), runs a pass pipeline, and
writes LLVM IR text (to stdout, or OUTPUT). Options take one dash or two (-stats, --stats);
'--' ends the options, so 'mem2reg -- -odd-name.ll' reads that file.

OPTIONS:
  -o OUTPUT                 Write the result to OUTPUT ('-' for stdout)
  --passes=PIPELINE         Comma-separated passes (also -passes=PIPELINE, -p PIPELINE);
                            default 'mem2reg'; empty: only read and write; see PASSES below
  -S                        Accepted and ignored (output is always text)
  -disable-output           Do not write the module
  -verify-each              Verify after every pass
  -disable-verify           Do not verify the input module after reading it
  --threads=N               Worker threads for per-function work (default: cores, at most 8)
  --time-passes             Print time per stage to stderr
  -debug-pass-manager       Print each pass as it runs, to stderr, as opt does
                            ('Running pass: PromotePass on f (4 instructions)')
  -print-before-all         Print the IR before each pass to stderr, with opt's
                            '; *** IR Dump Before PromotePass on f ***' headers
  -print-after-all          The same after each pass
  --print-copies            Print phi-elim's copies per edge to stdout (the module goes only
                            to an -o file); needs phi-elim in the pipeline
  --stats                   Print the counters of the passes that ran (zero rows left out)
                            to stderr, in the layout of opt's -stats
  --explain                 Explain every slot mem2reg saw, in source order, to stderr: the
                            fast path or phi placement of each slot promoted, the blocking
                            use of each slot left in memory
  -pass-remarks-output=FILE Write missed-promotion remarks as YAML (opt's format)
  --ssa=FLAVOUR             mem2reg's SSA form: pruned (default, as LLVM), semi-pruned, minimal
  --max-slot-size=BYTES     Leave slots larger than BYTES in memory
  --phi-copy-limit=N        Leave the costliest slots in memory while phi operands exceed N
  --entry-only              Promote only entry-block slots, as LLVM does
  --uninit=VALUE            What a read no store reaches gives: undef (default, as LLVM),
                            poison, zero (the type's zero), freeze (one 'freeze T poison'
                            per slot, in the entry block)
  --undef-rules=RULES       Where LLVM 19 and newer LLVM differ on undefined values:
                            llvm19 (lifetime markers dropped, phi(x, undef) folded to x
                            even if x may be poison: opt-19's bytes), newer (markers read
                            as stores of undef, such phis kept: never more poisonous), or
                            auto (default: newer for modules written for LLVM 22 or later)
  --max-promoted=N          Promote at most N slots per function: those with the most loads
                            and stores (ties: the earlier alloca); --explain names the rest
  --promote-byval           Also promote byval arguments used only by whole loads and stores
                            (entry value loaded once at the top of the entry block)
  --promote-byte-arrays     Also promote [N x i8] slots (rustc's) whose loads and stores all
                            use one type that fits, as slots of that type (LLVM leaves them
                            to SROA)
  -cfg-dot-filename-prefix=P
                            dot-cfg and dot-cfg-only write P.FUNCTION.dot (as opt does;
                            P may name a folder); default: .FUNCTION.dot
  --try-experimental-debuginfo-iterators
                            Accepted, as opt-19 accepts it; no effect: output keeps the
                            input's debug-info form, and debugify writes #dbg_value records
                            in 'ptr' modules, llvm.dbg.value calls otherwise
  --version                 Print version
  --help                    Print this help

PASSES (for --passes=; function(...) and module(...) wrappers are accepted):
";

/// Parsed command line.
struct Args {
    input: Option<String>,
    output: Option<String>,
    passes: String,
    disable_output: bool,
    verify_each: bool,
    disable_verify: bool,
    threads: pipeline::Threads,
    time_passes: bool,
    print_copies: bool,
    /// `--print-copies` as the user spelled it, for the usage error.
    print_copies_spelled: String,
    stats: bool,
    remarks_output: Option<String>,
    cfg_dot_prefix: String,
    debug_pass_manager: bool,
    print_before_all: bool,
    print_after_all: bool,
    m2r: mem2reg::transform::mem2reg::Options,
}

enum Parsed {
    Run(Box<Args>),
    Exit(ExitCode),
}

fn usage_error(msg: &str) -> Parsed {
    eprintln!("mem2reg: {msg}\nRun 'mem2reg --help' for usage.");
    Parsed::Exit(ExitCode::from(2))
}

/// One option as typed: `spelled` is its name with the user's dashes (`--max-slot-size` or
/// `-max-slot-size`), so every message names it the way it was typed.
struct Flag {
    name: String,
    spelled: String,
    inline: Option<String>,
}

/// Splits `arg` into an option, or `None` for a positional argument (`-` is stdin).
fn split_flag(arg: &str) -> Option<Flag> {
    let dashes = if arg.starts_with("--") { 2 } else { 1 };
    let rest = arg.strip_prefix('-')?;
    let rest = rest.strip_prefix('-').unwrap_or(rest);
    if rest.is_empty() {
        return None;
    }
    let (name, inline) = match rest.split_once('=') {
        Some((f, v)) => (f.to_string(), Some(v.to_string())),
        None => (rest.to_string(), None),
    };
    Some(Flag {
        spelled: format!("{}{name}", "-".repeat(dashes)),
        name,
        inline,
    })
}

fn default_args() -> Args {
    Args {
        input: None,
        output: None,
        passes: "mem2reg".into(),
        disable_output: false,
        disable_verify: false,
        verify_each: false,
        threads: pipeline::Threads::default(),
        time_passes: false,
        print_copies: false,
        print_copies_spelled: String::new(),
        stats: false,
        remarks_output: None,
        cfg_dot_prefix: String::new(),
        debug_pass_manager: false,
        print_before_all: false,
        print_after_all: false,
        m2r: Default::default(),
    }
}

/// Parses the command line.
///
/// Hand-written on purpose: opt spells long options with one dash (`-passes=`, `-stats`,
/// `-print-after-all`) and users type them both ways; clap, lexopt, pico-args and argh all
/// read a single dash as a cluster of short flags (or reject it), so none of them takes
/// opt's spelling without a pre-pass as long as this parser.
fn parse_args(argv: Vec<String>) -> Parsed {
    let mut a = default_args();
    let mut it = argv.into_iter();
    let mut options_ended = false;
    while let Some(arg) = it.next() {
        if arg == "--" && !options_ended {
            options_ended = true;
            continue;
        }
        let flag = match split_flag(&arg) {
            Some(f) if !options_ended => f,
            _ => {
                if a.input.replace(arg.clone()).is_some() {
                    return usage_error(&format!("too many positional arguments: '{arg}'"));
                }
                continue;
            }
        };
        if let Some(code) = apply_flag(&mut a, &flag, &mut it) {
            return Parsed::Exit(code);
        }
    }
    // Remarks cost a use index per function that keeps a slot: only when they are written.
    a.m2r.remarks = a.remarks_output.is_some();
    if a.print_copies {
        let has_phi_elim = pipeline::parse_pipeline(&a.passes)
            .map_or(true, |p| p.contains(&pipeline::Pass::PhiElim));
        if !has_phi_elim {
            return usage_error(&format!(
                "{} lists phi-elim's copies, but the pipeline '{}' has no phi-elim",
                a.print_copies_spelled, a.passes
            ));
        }
    }
    Parsed::Run(Box::new(a))
}

/// Prints a usage error and gives exit code 2.
fn usage_exit(msg: &str) -> Option<ExitCode> {
    match usage_error(msg) {
        Parsed::Exit(c) => Some(c),
        Parsed::Run(_) => None,
    }
}

/// Applies one option to `a`, taking its value from `it` when not given inline; `Some(code)`
/// ends the program (help, version, usage error).
fn apply_flag(
    a: &mut Args,
    flag: &Flag,
    it: &mut impl Iterator<Item = String>,
) -> Option<ExitCode> {
    let sp = flag.spelled.as_str();
    let mut value = || -> Result<String, Option<ExitCode>> {
        flag.inline
            .clone()
            .or_else(|| it.next())
            .ok_or_else(|| usage_exit(&format!("option '{sp}' needs a value")))
    };
    macro_rules! value {
        () => {
            match value() {
                Ok(v) => v,
                Err(code) => return code,
            }
        };
    }
    match flag.name.as_str() {
        "help" | "h" => {
            print!("{USAGE}{}", pipeline::help_text());
            return Some(ExitCode::SUCCESS);
        }
        "version" => {
            println!("mem2reg {}", env!("CARGO_PKG_VERSION"));
            return Some(ExitCode::SUCCESS);
        }
        "o" => a.output = Some(value!()),
        "passes" | "p" => a.passes = value!(),
        "threads" => match value!().parse::<usize>() {
            Ok(n) if n > 0 => a.threads = pipeline::Threads::new(n),
            _ => return usage_exit(&format!("{sp} needs a positive number")),
        },
        "S" => {}
        "disable-output" => a.disable_output = true,
        "disable-verify" => a.disable_verify = true,
        "verify-each" => a.verify_each = true,
        "time-passes" => a.time_passes = true,
        "debug-pass-manager" => a.debug_pass_manager = true,
        "print-before-all" => a.print_before_all = true,
        "print-after-all" => a.print_after_all = true,
        "print-copies" => {
            a.print_copies = true;
            a.print_copies_spelled = sp.to_string();
        }
        "stats" => a.stats = true,
        "explain" => a.m2r.explain = true,
        "entry-only" => a.m2r.promote_non_entry = false,
        "promote-byte-arrays" => a.m2r.byte_array_slots = true,
        "promote-byval" => a.m2r.promote_byval = true,
        "uninit" => {
            let v = value!();
            match mem2reg::transform::mem2reg::Uninit::from_name(&v) {
                Some(u) => a.m2r.uninit = u,
                None => {
                    return usage_exit(&format!(
                        "{sp}: unknown value '{v}' (undef, poison, zero, freeze)"
                    ))
                }
            }
        }
        "undef-rules" => {
            let v = value!();
            match mem2reg::transform::mem2reg::UndefRules::from_name(&v) {
                Some(r) => a.m2r.undef_rules = r,
                None => {
                    return usage_exit(&format!("{sp}: unknown value '{v}' (auto, llvm19, newer)"))
                }
            }
        }
        "pass-remarks-output" => a.remarks_output = Some(value!()),
        "ssa" => {
            use mem2reg::transform::mem2reg::Flavour;
            a.m2r.flavour = match value!().as_str() {
                "pruned" => Flavour::Pruned,
                "semi-pruned" => Flavour::SemiPruned,
                "minimal" => Flavour::Minimal,
                other => {
                    return usage_exit(&format!(
                        "{sp}: unknown flavour '{other}' (pruned, semi-pruned, minimal)"
                    ))
                }
            }
        }
        "max-slot-size" | "phi-copy-limit" | "max-promoted" => {
            let Ok(n) = value!().parse::<u64>() else {
                return usage_exit(&format!("{sp} needs a number"));
            };
            match flag.name.as_str() {
                "max-slot-size" => a.m2r.max_slot_bytes = Some(n),
                "phi-copy-limit" => a.m2r.phi_copy_limit = Some(n),
                _ => a.m2r.max_promoted = Some(usize::try_from(n).unwrap_or(usize::MAX)),
            }
        }
        // opt-19's switch to debug records in memory (already its default). Ours has
        // no effect: output keeps the input's debug-info form (records or calls), and
        // debugify picks records for `ptr` modules, calls otherwise.
        "try-experimental-debuginfo-iterators" => {}
        "cfg-dot-filename-prefix" => a.cfg_dot_prefix = value!(),
        _ => return usage_exit(&format!("unknown option '{sp}'")),
    }
    None
}

fn main() -> ExitCode {
    // Huge buffers go back to the system when freed (see the function's module).
    mem2reg::util::malloc::fix_mmap_threshold();
    // `mem2reg serve ...`: the SSA playground, a web server apart from the pass driver.
    let argv: Vec<String> = std::env::args().skip(1).collect();
    if argv.first().is_some_and(|a| a == "serve") {
        return ExitCode::from(mem2reg_playground::serve_main(&argv[1..]));
    }
    let args = match parse_args(argv) {
        Parsed::Run(a) => a,
        Parsed::Exit(code) => return code,
    };
    // The whole job runs on one large-stack thread (deeply nested input recurses far).
    match mem2reg::text::parser::with_big_stack(|| run(&args)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(msg) => {
            eprint!("{msg}");
            ExitCode::from(1)
        }
    }
}

/// Reads, runs the pipeline, writes. `Err` holds the full stderr text.
fn run(args: &Args) -> Result<(), String> {
    use mem2reg::driver::{run_job, JobError, JobOptions};
    let passes = pipeline::parse_pipeline(&args.passes).map_err(|e| format!("mem2reg: {e}\n"))?;
    let t0 = Instant::now();
    let (name, bytes) = read_input(args.input.as_deref())?;
    let t_read = t0.elapsed();
    let to_file = matches!(args.output.as_deref(), Some(o) if o != "-");
    let print = !args.disable_output && (!args.print_copies || to_file);
    let opts = JobOptions {
        passes,
        run: RunOptions {
            threads: args.threads,
            verify_each: args.verify_each,
            print_copies: args.print_copies,
            mem2reg: mem2reg::transform::mem2reg::Options {
                time_analyses: args.time_passes,
                ..args.m2r.clone()
            },
            module_id: name.clone(),
            cfg_dot_prefix: args.cfg_dot_prefix.clone(),
            debug_pass_manager: args.debug_pass_manager,
            print_before_all: args.print_before_all,
            print_after_all: args.print_after_all,
        },
        verify_input: !args.disable_verify,
        print,
        module_id: Some(name.clone()),
    };
    let fail = |e: JobError| -> String {
        match e {
            JobError::Parse(p) => format!("mem2reg: {}", p.render(&name)),
            JobError::Input(msgs) => {
                let mut s: String = msgs
                    .iter()
                    .map(|m| format!("mem2reg: {name}: error: {m}\n"))
                    .collect();
                s += &format!("mem2reg: {name}: error: input module is broken!\n");
                s
            }
            JobError::Pass(msgs) => msgs
                .iter()
                .map(|m| format!("mem2reg: {name}: error: {m}\n"))
                .collect(),
            JobError::Io(m) => format!(
                "mem2reg: {}: error: {m}\n",
                args.output.as_deref().unwrap_or("<stdout>")
            ),
        }
    };
    let source = bytes;
    let target = match args.output.as_deref() {
        Some(o) if print && to_file => Some((Path::new(o), output_target(Path::new(o)))),
        _ => None,
    };
    let report = if let Some((shown, Target::Replace { path, tmp, perms })) = target {
        let file = create_temp(&tmp, perms)
            .map_err(|e| format!("mem2reg: {}: error: {}\n", shown.display(), io_reason(&e)))?;
        let mut w = FileOut {
            w: std::io::BufWriter::with_capacity(1 << 16, file),
            path: tmp.clone(),
        };
        let r = run_job(source, &opts, &mut w).and_then(|r| {
            w.flush().map_err(|e| JobError::Io(io_reason(&e)))?;
            Ok(r)
        });
        drop(w);
        match r {
            Ok(r) => {
                std::fs::rename(&tmp, &path).map_err(|e| {
                    let _ = std::fs::remove_file(&tmp);
                    format!("mem2reg: {}: error: {}\n", shown.display(), io_reason(&e))
                })?;
                r
            }
            Err(e) => {
                let _ = std::fs::remove_file(&tmp);
                return Err(fail(e));
            }
        }
    } else if let Some((shown, Target::InPlace)) = target {
        let mut buf: Vec<u8> = Vec::new();
        let r = run_job(source, &opts, &mut buf).map_err(fail)?;
        write_in_place(shown, &buf)?;
        r
    } else if print {
        let mut buf: Vec<u8> = Vec::new();
        let r = run_job(source, &opts, &mut buf).map_err(fail)?;
        write_output(None, &buf)?;
        r
    } else {
        run_job(source, &opts, &mut std::io::sink()).map_err(fail)?
    };
    let run = &report.run;
    eprint!("{}", run.printed);
    eprint!("{}", run.mem2reg.explanations);
    if let Some(path) = &args.remarks_output {
        let yaml = mem2reg::transform::mem2reg::remarks_yaml(&run.mem2reg.remarks);
        write_output(Some(path), yaml.as_bytes())?;
    }
    if args.stats {
        eprint!("{}", run.stats_text());
    }
    if args.print_copies {
        write_output(None, run.copies.as_bytes())?;
    }
    if args.time_passes {
        let before = [("Read input file", t_read)];
        let report = mem2reg::driver::time_report(&report, &before, t0.elapsed());
        eprint!("{report}");
    }
    Ok(())
}

/// Reads INPUT (or stdin); returns the name to use in messages and the bytes.
fn read_input(input: Option<&str>) -> Result<(String, Arc<[u8]>), String> {
    let (name, read) = match input {
        None | Some("-") => ("<stdin>", read_stdin()),
        Some(path) => (
            path,
            std::fs::File::open(path).and_then(|mut f| read_sized(&mut f)),
        ),
    };
    match read {
        Ok(b) => Ok((name.to_string(), b)),
        // opt's words, for a path and for stdin alike.
        Err(e) => Err(format!(
            "mem2reg: {name}: error: Could not open input file: {}\n",
            io_reason(&e)
        )),
    }
}

/// Reads standard input to its end, as INPUT is read ([`read_sized`]): redirected from a
/// file (`mem2reg < in.ll`, as LLVM's tests run opt), straight into a buffer of the file's
/// size; a pipe or terminal into a growing buffer, then copied once into the shared one.
fn read_stdin() -> std::io::Result<Arc<[u8]>> {
    #[cfg(unix)]
    {
        use std::os::fd::AsFd;
        // A closed stdin (no fd 0) fails to duplicate: std reads it as empty, below.
        if let Ok(fd) = std::io::stdin().as_fd().try_clone_to_owned() {
            return read_sized(&mut std::fs::File::from(fd));
        }
    }
    let mut buf = Vec::new();
    std::io::stdin().read_to_end(&mut buf)?;
    Ok(Arc::from(buf))
}

/// Reads `file` from its current position to its end straight into the shared buffer: one
/// allocation of the size its metadata gives, no copy from a `Vec` (which would briefly hold
/// the input twice). A file that is not regular, or that changes size while read, still gives
/// exactly what `read_to_end` would.
fn read_sized(file: &mut std::fs::File) -> std::io::Result<Arc<[u8]>> {
    use std::io::Seek;
    let meta = file.metadata()?;
    let len = if meta.is_file() {
        meta.len().saturating_sub(file.stream_position()?) as usize
    } else {
        0
    };
    let mut buf: Arc<[u8]> = std::iter::repeat(0u8).take(len).collect();
    let whole = Arc::get_mut(&mut buf).expect("a fresh buffer is unshared");
    let mut got = 0;
    while got < len {
        match file.read(&mut whole[got..]) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    let mut rest = Vec::new();
    file.read_to_end(&mut rest)?;
    if got < len || !rest.is_empty() {
        // The file changed size while we read it, or is not a regular file: what was read
        // and what followed, in one buffer.
        let mut all = whole[..got].to_vec();
        all.extend_from_slice(&rest);
        return Ok(Arc::from(all));
    }
    Ok(buf)
}

/// The OS reason without Rust's "(os error N)" suffix.
fn io_reason(e: &std::io::Error) -> String {
    let s = e.to_string();
    match s.find(" (os error") {
        Some(i) => s[..i].to_string(),
        None => s,
    }
}

/// Writes `bytes` to OUTPUT (stdout for none or '-'), atomically for files.
fn write_output(output: Option<&str>, bytes: &[u8]) -> Result<(), String> {
    let path = match output {
        None | Some("-") => {
            let mut so = std::io::stdout().lock();
            return so.write_all(bytes).and_then(|_| so.flush()).or_else(|e| {
                // A closed pipe (`| head`) is not an error of ours.
                if e.kind() == std::io::ErrorKind::BrokenPipe {
                    Ok(())
                } else {
                    Err(format!("mem2reg: <stdout>: error: {}\n", io_reason(&e)))
                }
            });
        }
        Some(p) => Path::new(p),
    };
    match output_target(path) {
        Target::InPlace => write_in_place(path, bytes),
        Target::Replace {
            path: real,
            tmp,
            perms,
        } => {
            let result = create_temp(&tmp, perms)
                .and_then(|mut f| f.write_all(bytes))
                .and_then(|_| std::fs::rename(&tmp, &real));
            result.map_err(|e| {
                let _ = std::fs::remove_file(&tmp);
                format!("mem2reg: {}: error: {}\n", path.display(), io_reason(&e))
            })
        }
    }
}

/// The temporary output file: written through a buffer; a range of it is replaced by
/// writing a second file beside it (the untouched parts copied within the kernel) and
/// renaming that over it.
struct FileOut {
    w: std::io::BufWriter<std::fs::File>,
    path: PathBuf,
}

impl Write for FileOut {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.w.write(b)
    }
    fn write_all(&mut self, b: &[u8]) -> std::io::Result<()> {
        self.w.write_all(b)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.w.flush()
    }
}

impl llvm_ir::print::module_writer::Output for FileOut {
    fn replace(&mut self, start: u64, end: u64, with: &[u8]) -> std::io::Result<()> {
        use std::io::{Seek, SeekFrom};
        self.w.flush()?;
        let second = self.path.with_extension("tmp2");
        let mut src = std::fs::File::open(&self.path)?;
        let mut dst = std::fs::File::create(&second)?;
        dst.set_permissions(src.metadata()?.permissions())?;
        let copied = (|| {
            std::io::copy(&mut (&mut src).take(start), &mut dst)?;
            dst.write_all(with)?;
            src.seek(SeekFrom::Start(end))?;
            std::io::copy(&mut src, &mut dst)?;
            std::fs::rename(&second, &self.path)
        })();
        if copied.is_err() {
            let _ = std::fs::remove_file(&second);
        }
        copied?;
        self.w = std::io::BufWriter::with_capacity(1 << 16, dst);
        Ok(())
    }
}

/// How an output file is written (see the module doc).
enum Target {
    /// A regular file, new or existing (`path`: behind a symlink, the link's target): the
    /// text goes to `tmp` beside it, made with the old file's permissions (`perms`), which
    /// is renamed over `path` only once everything was written.
    Replace {
        path: PathBuf,
        tmp: PathBuf,
        perms: Option<std::fs::Permissions>,
    },
    /// Something else that exists — a device such as `/dev/null`, a FIFO, a socket, a
    /// terminal: opened and written in place once the run has succeeded, as opt does.
    /// Renaming over it would replace the device itself with a regular file.
    InPlace,
}

fn output_target(path: &Path) -> Target {
    match std::fs::metadata(path) {
        Ok(m) if !m.is_file() => Target::InPlace,
        Ok(m) => {
            let linked = std::fs::symlink_metadata(path).is_ok_and(|l| l.file_type().is_symlink());
            let real = match linked {
                true => std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf()),
                false => path.to_path_buf(),
            };
            Target::Replace {
                tmp: temp_path(&real),
                path: real,
                perms: Some(m.permissions()),
            }
        }
        Err(_) => Target::Replace {
            path: path.to_path_buf(),
            tmp: temp_path(path),
            perms: None,
        },
    }
}

/// Creates the temporary file, with the permissions of the file it will replace.
fn create_temp(tmp: &Path, perms: Option<std::fs::Permissions>) -> std::io::Result<std::fs::File> {
    let file = std::fs::File::create(tmp)?;
    if let Some(p) = perms {
        file.set_permissions(p)?;
    }
    Ok(file)
}

/// Writes `bytes` to an existing non-regular file (see [`Target::InPlace`]).
fn write_in_place(path: &Path, bytes: &[u8]) -> Result<(), String> {
    let r = std::fs::OpenOptions::new()
        .write(true)
        .open(path)
        .and_then(|mut f| f.write_all(bytes).and_then(|_| f.flush()));
    r.map_err(|e| format!("mem2reg: {}: error: {}\n", path.display(), io_reason(&e)))
}

/// A temporary file name in OUTPUT's directory, so the final rename stays on one file system.
fn temp_path(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "out".into());
    path.with_file_name(format!(".{name}.{}.tmp", std::process::id()))
}
