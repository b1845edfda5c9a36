//! A whole job — `.ll` bytes in, passes, `.ll` text out — streamed function by function.
//!
//! After the module pass (symbols, types, metadata index), worker threads take functions in
//! order: read the body, verify it, run every pass on it, print it, and hand the text over;
//! the calling thread writes module text and finished functions in module order through a
//! [`ModuleWriter`], which numbers metadata and attribute groups as it goes (as LLVM's slot
//! tracker does), and frees each function once written. While the function it is to write is
//! not done, the writer works as a worker does, so `--threads=N` runs N - 1 workers beside it
//! (and `--threads=1` none: one thread, no hand-over). Workers stay at most [`WINDOW`]
//! functions ahead of the writer, so memory is the module context plus a few functions, not
//! the whole IR.
//!
//! A module with `blockaddress` streams too. Printing `blockaddress(@f, %N)` needs `@f`'s
//! block numbering after the passes, so the functions the input names after `blockaddress(`
//! (found by one scan of the input: the *targets*) are claimed first, ahead of the window;
//! workers print every function at once, with its `blockaddress` constants marked
//! ([`printer::BlockAddresses::deferred`]); the writer, before it writes module text or a
//! function with `blockaddress`, waits for every target's numbering and rewrites them.
//!
//! Invariants: the output is byte-identical to reading the whole module, running
//! [`crate::pipeline::run`] and [`crate::text::print_module`] (what pipelines with module
//! passes such as `debugify` do);
//! nothing depends on the thread count; on any error nothing is written past what the
//! caller can discard (the CLI writes to a temporary file and renames it only on success),
//! and the error reported is the one a sequential run would report: the first parse error
//! in file order, else every verifier error of the input, else the first pass's errors.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use crate::pipeline::{self, FunctionReport, Pass, RunOptions, RunReport};
use crate::text::error::ParseError;
use crate::text::parser::module::{self, ItemSpan};
use crate::text::parser::{self as reader, ModuleCtx};
use crate::text::printer::{self, Printed};
use llvm_ir::print::module_writer::{self, CtxNodes, Entry, ModuleInfo, ModuleWriter, Output};

/// How far (in functions) workers may run ahead of the writer.
pub const WINDOW: usize = 64;

/// What to do.
#[derive(Clone, Debug)]
pub struct JobOptions {
    /// Passes to run on every function.
    pub passes: Vec<Pass>,
    /// Pass options (threads, verify-each, mem2reg options, ...).
    pub run: RunOptions,
    /// Verify every function as read (as opt does before running passes).
    pub verify_input: bool,
    /// Write the module (false: `-disable-output`).
    pub print: bool,
    /// The module identifier (the input as named, or `<stdin>`), written as opt writes it
    /// (see [`llvm_ir::print::module_writer`]); `None`: no `; ModuleID` line.
    pub module_id: Option<String>,
}

/// Why a job failed.
#[derive(Clone, Debug)]
pub enum JobError {
    /// The input does not read.
    Parse(ParseError),
    /// The input reads but is not valid IR (verifier messages).
    Input(Vec<String>),
    /// A pass failed (messages).
    Pass(Vec<String>),
    /// Writing failed.
    Io(String),
}

pub mod timing;
use timing::TimeRow;

/// What a job reports besides its output.
#[derive(Clone, Debug, Default)]
pub struct JobReport {
    /// Pass reports, merged in function order.
    pub run: RunReport,
    /// Where the job's wall time went, stage by stage ([`timing`]).
    pub rows: Vec<TimeRow>,
    /// Parts of those stages timed apart (mem2reg's CFG and dominator trees), thread time.
    pub parts: Vec<(String, Duration)>,
}

/// The `--time-passes` report of `report`, with the CLI's own stages (`before`: reading the
/// input file, ...) and the run's whole wall time `total`.
pub fn time_report(report: &JobReport, before: &[(&str, Duration)], total: Duration) -> String {
    let mut rows: Vec<TimeRow> = before.iter().map(|(n, d)| TimeRow::alone(n, *d)).collect();
    rows.extend(report.rows.iter().cloned());
    timing::render(&rows, &report.parts, total)
}

/// Named stage times.
type Stages = Vec<(String, Duration)>;

/// The pass rows of `run` (thread time per pass), and its part-of rows apart.
fn pass_times(run: &RunReport) -> (Stages, Stages) {
    let (parts, passes) = run
        .timings
        .iter()
        .map(|(n, d)| (n.to_string(), *d))
        .partition(|(n, _)| n == pipeline::MEM2REG_ANALYSES);
    (passes, parts)
}

/// One function's finished work.
struct Done {
    facts: reader::module_end::BodyFacts,
    printed: Printed,
    /// `printed` holds `blockaddress` constants still to rewrite.
    marked: bool,
    /// A target's block numbering (moved to [`State::blocks`] when it is done).
    blocks: Option<printer::FunctionBlocks>,
    new_md: Vec<Vec<u8>>,
    needs_decls: Vec<&'static str>,
    report: FunctionReport,
    read: Duration,
    verify: Duration,
    print: Duration,
}

/// Why one function failed.
enum Fail {
    /// A parse error (with what the body showed up to it), ranked against the module's
    /// other errors as a sequential reader would (see [`reader::module_end`]).
    Parse(reader::cursor::Perr, reader::module_end::BodyFacts),
    /// Verifier or pass errors: a later function's parse error would still come first.
    Other,
    /// The worker panicked (a bug): re-raised on the calling thread once workers stop.
    Panic(Box<dyn std::any::Any + Send>),
}

/// Runs `opts` on `source`, writing the output text to `out`.
pub fn run_job(
    source: Arc<[u8]>,
    opts: &JobOptions,
    out: &mut dyn Output,
) -> Result<JobReport, JobError> {
    reader::with_big_stack(|| run_on_big_stack(source, opts, out))
}

fn run_on_big_stack(
    source: Arc<[u8]>,
    opts: &JobOptions,
    out: &mut dyn Output,
) -> Result<JobReport, JobError> {
    let t0 = Instant::now();
    let src: &[u8] = &source;
    let (ctx, items) = module::read_module_with(src, opts.run.threads)
        .map_err(|e| JobError::Parse(reader::render(src, e)))?;
    let ctx = Arc::new(ctx);
    let mut report = JobReport::default();
    report
        .rows
        .push(TimeRow::alone("Read module level", t0.elapsed()));
    // Module passes (`debugify`, ...) need the whole module: see `crate::stages`.
    if opts.passes.iter().any(|p| p.is_module_pass()) {
        return whole_module(source, ctx, items, opts, out, report);
    }
    stream(&source, &ctx, &items, opts, out, report)
}

/// Reads, changes and prints function `i` (`target`: another function's text may name its
/// blocks, so its numbering goes to [`Done::blocks`]).
fn process(
    source: &Arc<[u8]>,
    ctx: &ModuleCtx,
    i: usize,
    opts: &JobOptions,
    target: bool,
) -> Result<Done, Fail> {
    let t = Instant::now();
    let (f, facts) = reader::function::read_function(source, ctx, i);
    let mut f = match f {
        Ok(f) => f,
        Err(e) => return Err(Fail::Parse(e, facts)),
    };
    let read = t.elapsed();
    let t = Instant::now();
    if opts.verify_input {
        let errs = crate::verify::verify_read_function(&f, ctx.ptr_bits);
        if !errs.is_empty() {
            return Err(Fail::Other);
        }
    }
    let verify = t.elapsed();
    let report = pipeline::run_on_function(&mut f, Some(ctx), &opts.passes, &opts.run);
    if !report.errors.is_empty() {
        return Err(Fail::Other);
    }
    let t = Instant::now();
    let mut marked = false;
    let printed = match opts.print {
        true if ctx.has_blockaddress => {
            let deferred = printer::BlockAddresses::deferred();
            let p = printer::print_for_module(&f, Some(&deferred));
            marked = printer::BlockAddresses::has_marks(&p.text);
            p
        }
        true => printer::print_for_module(&f, None),
        false => Printed::default(),
    };
    let blocks = if target {
        printer::FunctionBlocks::of(&f)
    } else {
        None
    };
    let print = t.elapsed();
    Ok(Done {
        facts,
        printed,
        marked,
        blocks,
        new_md: std::mem::take(&mut f.new_md),
        needs_decls: std::mem::take(&mut f.needs_decls),
        report,
        read,
        verify,
        print,
    })
}

/// The work shared by workers and the writer (which helps the workers while it waits: with
/// `--threads=N` there are N - 1 workers, so N threads do the work, and one thread does it all
/// without waking another).
///
/// Invariants: `next` only grows; a worker owns functions `[claimed, claimed + k)` it took
/// with one `fetch_add` on `next` (a chunk: consecutive functions worth about [`CHUNK_BYTES`]
/// of input, so small functions do not cost a wake-up each), but for targets, which it owns
/// when it took their index in `targets` from `next_target` (every worker takes targets
/// before chunks); `state.slots[i]` is filled once by the owner of `i` and taken once by the
/// writer.
struct Shared<'a> {
    source: &'a Arc<[u8]>,
    ctx: &'a ModuleCtx,
    opts: &'a JobOptions,
    /// The target functions (sorted), and by function whether it is one.
    targets: Vec<usize>,
    is_target: Vec<bool>,
    next_target: AtomicUsize,
    state: Mutex<State>,
    /// The writer waits here for `state.wanted`.
    done: Condvar,
    /// Workers wait here for the writer to move the window.
    space: Condvar,
    next: AtomicUsize,
    written: AtomicUsize,
    abort: AtomicBool,
}

/// What the lock guards.
struct State {
    /// Boxed: a `Done` is hundreds of bytes and a module has thousands of functions, while
    /// only a window of them is ever filled (the vector is written whole when made).
    slots: Vec<Option<Box<Result<Done, Fail>>>>,
    /// The function the writer is waiting for (`usize::MAX`: not waiting).
    wanted: usize,
    /// Workers waiting for space in the window.
    waiting: usize,
    /// Targets processed, and the numberings of those that succeeded.
    targets_done: usize,
    blocks: Vec<printer::FunctionBlocks>,
    /// The writer waits for every target.
    wants_targets: bool,
}

/// About how much input (bytes of function bodies) a worker claims at once.
const CHUNK_BYTES: u32 = 32 << 10;

/// Claims the next chunk of functions: `[start, end)`, empty when none are left.
fn claim(shared: &Shared, spans: &[module::FunctionSpan]) -> std::ops::Range<usize> {
    let n = spans.len();
    loop {
        let start = shared.next.load(Ordering::Relaxed);
        if start >= n {
            return n..n;
        }
        let (mut end, mut bytes) = (start, 0u32);
        while end < n && end - start < WINDOW / 4 && bytes < CHUNK_BYTES {
            bytes = bytes.saturating_add(spans[end].end.saturating_sub(spans[end].start));
            end += 1;
        }
        if shared
            .next
            .compare_exchange(start, end, Ordering::Relaxed, Ordering::Relaxed)
            .is_ok()
        {
            return start..end;
        }
    }
}

/// Processes function `i` (a bug's panic is caught and becomes its result).
fn run_one(
    source: &Arc<[u8]>,
    ctx: &ModuleCtx,
    i: usize,
    opts: &JobOptions,
    target: bool,
) -> Result<Done, Fail> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        process(source, ctx, i, opts, target)
    }))
    .unwrap_or_else(|p| Err(Fail::Panic(p)))
}

/// Processes the next unclaimed target, if any is left: outside the window, since the writer
/// may need its numbering before it writes anything.
fn target_step(shared: &Shared) -> bool {
    let k = shared.next_target.fetch_add(1, Ordering::Relaxed);
    let Some(&i) = shared.targets.get(k) else {
        return false;
    };
    let mut r = run_one(shared.source, shared.ctx, i, shared.opts, true);
    let blocks = r.as_mut().ok().and_then(|d| d.blocks.take());
    let mut g = shared.state.lock().unwrap_or_else(|e| e.into_inner());
    g.slots[i] = Some(Box::new(r));
    g.blocks.extend(blocks);
    g.targets_done += 1;
    if g.wanted == i || (g.wants_targets && g.targets_done == shared.targets.len()) {
        shared.done.notify_one();
    }
    true
}

fn worker(shared: &Shared) {
    while !shared.abort.load(Ordering::Relaxed) && work_step(shared, true) {}
}

/// Processes the next target, else the next chunk of functions; false when none is left to
/// claim. `wait`: whether to wait for the writer to move the window first (a worker does; the
/// writer, helping while its function is not done, does not).
fn work_step(shared: &Shared, wait: bool) -> bool {
    if target_step(shared) {
        return true;
    }
    let chunk = claim(shared, &shared.ctx.functions);
    if chunk.is_empty() {
        return false;
    }
    if wait && chunk.end > shared.written.load(Ordering::Acquire) + WINDOW {
        let mut g = shared.state.lock().expect("lock");
        g.waiting += 1;
        while chunk.end > shared.written.load(Ordering::Acquire) + WINDOW
            && !shared.abort.load(Ordering::Relaxed)
        {
            g = shared.space.wait(g).expect("lock");
        }
        g.waiting -= 1;
    }
    let (source, ctx, opts) = (shared.source, shared.ctx, shared.opts);
    let mut results = Vec::with_capacity(chunk.len());
    for i in chunk.clone().filter(|&i| !shared.is_target[i]) {
        results.push((i, run_one(source, ctx, i, opts, false)));
    }
    let mut g = shared.state.lock().unwrap_or_else(|e| e.into_inner());
    for (i, r) in results {
        g.slots[i] = Some(Box::new(r));
    }
    if chunk.contains(&g.wanted) && !shared.is_target[g.wanted] {
        shared.done.notify_one();
    }
    true
}

/// The writer's side: until function `i` is done, works as a worker does (while there is
/// work to claim), else waits for it; then takes it and moves the window past it.
fn take_done(shared: &Shared, i: usize) -> Result<Done, Fail> {
    while shared.state.lock().expect("lock").slots[i].is_none() && work_step(shared, false) {}
    let mut g = shared.state.lock().expect("lock");
    let r = loop {
        if let Some(r) = g.slots[i].take() {
            break *r;
        }
        g.wanted = i;
        g = shared.done.wait(g).expect("lock");
    };
    g.wanted = usize::MAX;
    shared.written.store(i + 1, Ordering::Release);
    if g.waiting > 0 {
        shared.space.notify_all();
    }
    r
}

/// Stops the workers (after an error): none waits for space any more.
fn abort(shared: &Shared) {
    shared.abort.store(true, Ordering::Relaxed);
    let _g = shared.state.lock().unwrap_or_else(|e| e.into_inner());
    shared.space.notify_all();
}

fn stream(
    source: &Arc<[u8]>,
    ctx: &Arc<ModuleCtx>,
    items: &[ItemSpan],
    opts: &JobOptions,
    out: &mut dyn Output,
    mut report: JobReport,
) -> Result<JobReport, JobError> {
    let n = ctx.functions.len();
    let targets = if ctx.has_blockaddress {
        targets(ctx)
    } else {
        Vec::new()
    };
    let mut is_target = vec![false; n];
    for &i in &targets {
        is_target[i] = true;
    }
    let shared = Shared {
        source,
        ctx,
        opts,
        targets,
        is_target,
        next_target: AtomicUsize::new(0),
        state: Mutex::new(State {
            slots: (0..n).map(|_| None).collect(),
            wanted: usize::MAX,
            waiting: 0,
            targets_done: 0,
            blocks: Vec::new(),
            wants_targets: false,
        }),
        done: Condvar::new(),
        space: Condvar::new(),
        next: AtomicUsize::new(0),
        written: AtomicUsize::new(0),
        abort: AtomicBool::new(false),
    };
    // The writer is the last of the threads.
    let workers = opts.run.threads.get().min(n.max(1)) - 1;
    let mut failed: Option<Fail> = None;
    let mut times = [Duration::ZERO; 4];
    let t_phase = Instant::now();
    let res: Result<(), JobError> = std::thread::scope(|s| {
        for _ in 0..workers {
            reader::s_spawn(s, || worker(&shared));
        }
        let r = write_items(
            &shared,
            source,
            ctx,
            items,
            opts,
            out,
            &mut report.run,
            &mut times,
        );
        if r.is_err() {
            abort(&shared);
        }
        match r {
            Err(Step::Io(e)) => Err(e),
            Err(Step::Failed(f)) => {
                failed = Some(f);
                Ok(())
            }
            Ok(()) => Ok(()),
        }
    });
    res?;
    match failed {
        Some(Fail::Parse(e, _)) => return Err(JobError::Parse(reader::render(source, e))),
        Some(Fail::Panic(p)) => std::panic::resume_unwind(p),
        // Report what a sequential run would: re-read everything to rank the problems.
        Some(Fail::Other) => return Err(first_error(source, ctx, opts)),
        None => {}
    }
    let (passes, parts) = pass_times(&report.run);
    let mut stages = vec![
        ("Read function bodies".to_string(), times[0]),
        ("Verify input".to_string(), times[1]),
    ];
    stages.extend(passes);
    stages.push(("Print".to_string(), times[2]));
    stages.push(("Write output".to_string(), times[3]));
    report
        .rows
        .extend(timing::split_phase(t_phase.elapsed(), stages));
    report.parts = parts;
    Ok(report)
}

/// Why the writer stopped.
enum Step {
    Io(JobError),
    Failed(Fail),
}

/// The writer: module text in order, each function as soon as it is done.
#[allow(clippy::too_many_arguments)]
fn write_items(
    shared: &Shared,
    source: &[u8],
    ctx: &ModuleCtx,
    items: &[ItemSpan],
    opts: &JobOptions,
    out: &mut dyn Output,
    run: &mut RunReport,
    times: &mut [Duration; 4],
) -> Result<(), Step> {
    let t_start = Instant::now();
    let mut waited = Duration::ZERO;
    let r = write_all_items(
        shared,
        source,
        ctx,
        items,
        opts,
        out,
        run,
        times,
        &mut waited,
    );
    times[3] = t_start.elapsed().saturating_sub(waited);
    r
}

/// Item `k`, `it`, as the module writer takes it (its text rewritten when `rewritten` has it).
fn entry_of<'s>(
    source: &'s [u8],
    rewritten: &'s [Option<Vec<u8>>],
    k: usize,
    it: &'s ItemSpan,
) -> Entry<'s> {
    if let Some(Some(t)) = rewritten.get(k) {
        return Entry::Text(t);
    }
    match it {
        ItemSpan::Text(s, e) => Entry::Text(&source[*s..*e]),
        ItemSpan::Owned(bytes) => Entry::Text(bytes),
        ItemSpan::Blank => Entry::Blank,
        ItemSpan::Metadata(..) => Entry::Metadata,
        ItemSpan::Function(i) => Entry::Function(*i),
    }
}

/// [`write_items`]' loop; `waited`: time spent waiting for workers.
#[allow(clippy::too_many_arguments)]
fn write_all_items(
    shared: &Shared,
    source: &[u8],
    ctx: &ModuleCtx,
    items: &[ItemSpan],
    opts: &JobOptions,
    out: &mut dyn Output,
    run: &mut RunReport,
    times: &mut [Duration; 4],
    waited: &mut Duration,
) -> Result<(), Step> {
    let io = |e: std::io::Error| Step::Io(JobError::Io(e.to_string()));
    let mut end = reader::module_end::ModuleEnd::new(ctx);
    let parse_fail = |e| Step::Failed(Fail::Parse(e, Default::default()));
    let nodes = CtxNodes { source, ctx };
    // Module text is written before the first function: where it names a function's blocks
    // (`blockaddress`), wait for the targets' numbering (workers process them first) and
    // rewrite it now.
    let mut ba: Option<printer::BlockAddresses> = None;
    let mut rewritten: Vec<Option<Vec<u8>>> = Vec::new();
    if opts.print && ctx.has_blockaddress {
        for it in items {
            let text = match it {
                ItemSpan::Text(s, e) => &source[*s..*e],
                ItemSpan::Owned(bytes) => &bytes[..],
                _ => b"",
            };
            rewritten.push(match printer::BlockAddresses::mentioned(text) {
                true => Some(
                    block_addresses(shared, &mut ba, waited)?
                        .rewrite(text)
                        .into_owned(),
                ),
                false => None,
            });
        }
    }
    let rewritten = &rewritten;
    let entry = |k: usize, it| entry_of(source, rewritten, k, it);
    let writer = opts.print.then(|| {
        let info = ModuleInfo {
            id: opts.module_id.as_deref(),
            declared: Some(&ctx.declared),
            typed: !ctx.types.opaque_mode,
            types: Some((&*ctx.types, &ctx.type_roots)),
            threads: opts.run.threads,
        };
        let def_attr = |i: usize| ctx.functions[i].attrs;
        ModuleWriter::new(
            items.iter().enumerate().map(|(k, it)| entry(k, it)),
            &nodes,
            &def_attr,
            info,
            &mut *out,
        )
    });
    let mut writer = match writer {
        Some(Ok(w)) => Some(w),
        Some(Err(e)) => return Err(io(e)),
        None => None,
    };
    for (k, item) in items.iter().enumerate() {
        match item {
            ItemSpan::Function(i) => {
                let tw = Instant::now();
                let done = take_done(shared, *i);
                *waited += tw.elapsed();
                let mut d = match done {
                    Ok(d) => d,
                    Err(Fail::Parse(e, facts)) => return Err(parse_fail(end.failed(*i, e, facts))),
                    Err(f) => return Err(Step::Failed(f)),
                };
                end.body(*i, std::mem::take(&mut d.facts))
                    .map_err(parse_fail)?;
                times[0] += d.read;
                times[1] += d.verify;
                times[2] += d.print;
                if let Some(w) = writer.as_mut() {
                    if d.marked {
                        block_addresses(shared, &mut ba, waited)?.resolve_printed(&mut d.printed);
                    }
                    w.function(k, *i, &d.printed, &d.new_md, &d.needs_decls)
                        .map_err(io)?;
                }
                run.absorb(d.report);
            }
            it => {
                if let Some(w) = writer.as_mut() {
                    w.item(k, entry(k, it)).map_err(io)?;
                }
            }
        }
    }
    end.finish().map_err(parse_fail)?;
    if let Some(w) = writer {
        w.finish().map_err(io)?;
    }
    Ok(())
}

/// The targets' numberings: waits until every target is processed the first time. A target
/// that failed stops the writer (its error is ranked as a sequential run ranks it).
fn block_addresses<'b>(
    shared: &Shared,
    ba: &'b mut Option<printer::BlockAddresses>,
    waited: &mut Duration,
) -> Result<&'b printer::BlockAddresses, Step> {
    if ba.is_none() {
        let tw = Instant::now();
        let mut g = shared.state.lock().expect("lock");
        g.wants_targets = true;
        while g.targets_done < shared.targets.len() {
            drop(g);
            let helped = target_step(shared);
            g = shared.state.lock().expect("lock");
            if !helped && g.targets_done < shared.targets.len() {
                g = shared.done.wait(g).expect("lock");
            }
        }
        g.wants_targets = false;
        // A target the writer has not taken yet that failed: its error, or an earlier one.
        for &i in &shared.targets {
            if g.slots[i].as_deref().is_some_and(|r| r.is_err()) {
                return match g.slots[i].take().map(|r| *r) {
                    Some(Err(Fail::Panic(p))) => Err(Step::Failed(Fail::Panic(p))),
                    _ => Err(Step::Failed(Fail::Other)),
                };
            }
        }
        *waited += tw.elapsed();
        *ba = Some(printer::BlockAddresses::from_functions(std::mem::take(
            &mut g.blocks,
        )));
    }
    Ok(ba.as_ref().expect("just set"))
}

/// The functions `blockaddress` may name, by index (the reader marks them), in order.
fn targets(ctx: &ModuleCtx) -> Vec<usize> {
    let spans = ctx.functions.iter().enumerate();
    spans
        .filter_map(|(i, f)| f.blockaddress_target.then_some(i))
        .collect()
}

/// The error a sequential run reports: the first parse error in file order, else all input
/// verifier errors, else the first failing function's pass errors.
fn first_error(source: &Arc<[u8]>, ctx: &Arc<ModuleCtx>, opts: &JobOptions) -> JobError {
    let funcs = reader::parse_functions(source, ctx, opts.run.threads);
    let mut end = reader::module_end::ModuleEnd::new(ctx);
    let mut parsed = Vec::new();
    for (i, (r, facts)) in funcs.into_iter().enumerate() {
        let e = match r {
            Ok(f) => {
                parsed.push(f);
                end.body(i, facts).err()
            }
            Err(e) => Some(end.failed(i, e, facts)),
        };
        if let Some(e) = e {
            return JobError::Parse(reader::render(source, e));
        }
    }
    if let Err(e) = end.finish() {
        return JobError::Parse(reader::render(source, e));
    }
    if opts.verify_input {
        let errs: Vec<String> = parsed
            .iter()
            .flat_map(|f| crate::verify::verify_read_function(f, ctx.ptr_bits))
            .map(|e| e.to_string())
            .collect();
        if !errs.is_empty() {
            return JobError::Input(errs);
        }
    }
    for mut f in parsed {
        let r = pipeline::run_on_function(&mut f, Some(ctx), &opts.passes, &opts.run);
        if !r.errors.is_empty() {
            return JobError::Pass(r.errors);
        }
    }
    JobError::Pass(vec![
        "internal error: a function failed but not when run again".into(),
    ])
}

/// The non-streaming path: the whole module is read, changed and printed at once.
fn whole_module(
    source: Arc<[u8]>,
    ctx: Arc<ModuleCtx>,
    items: Vec<ItemSpan>,
    opts: &JobOptions,
    out: &mut dyn Output,
    mut report: JobReport,
) -> Result<JobReport, JobError> {
    let t = Instant::now();
    let mut m = reader::assemble(source.clone(), ctx.clone(), items, opts.run.threads)
        .map_err(|e| JobError::Parse(reader::render(&source, e)))?;
    report
        .rows
        .push(TimeRow::alone("Read function bodies", t.elapsed()));
    let t = Instant::now();
    if opts.verify_input {
        let errs = crate::verify::verify_read_module(&m, opts.run.threads);
        if !errs.is_empty() {
            return Err(JobError::Input(
                errs.iter().map(|e| e.to_string()).collect(),
            ));
        }
    }
    report
        .rows
        .push(TimeRow::alone("Verify input", t.elapsed()));
    let t = Instant::now();
    report.run =
        pipeline::run(&mut m, &opts.passes, &opts.run).map_err(|e| JobError::Pass(e.messages))?;
    let (passes, parts) = pass_times(&report.run);
    report.rows.extend(timing::split_phase(t.elapsed(), passes));
    report.parts = parts;
    if opts.print {
        let t = Instant::now();
        m.id = opts.module_id.clone();
        let text = module_writer::write_module(&m, opts.run.threads);
        report.rows.push(TimeRow::alone("Print", t.elapsed()));
        let t = Instant::now();
        out.write_all(&text)
            .map_err(|e| JobError::Io(e.to_string()))?;
        report
            .rows
            .push(TimeRow::alone("Write output", t.elapsed()));
    }
    Ok(report)
}
