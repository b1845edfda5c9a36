//! The SSA verifier: checks every invariant a [`Function`] must hold to be valid LLVM IR in SSA
//! form, and reports *every* problem it finds, not just the first.
//!
//! Handles first, after naga's validator (`handles.rs`): every id the function holds is checked
//! before anything is looked up with it — blocks and instructions in the layout (no cycles, no
//! duplicates, each instruction where the layout says it is) and successors, which the CFG
//! reads (if any of that is wrong, those errors are returned alone); then, per instruction,
//! pool ranges, result, template holes, value / block / type ids, back-links of operand values
//! and texts (an instruction failing these skips the semantic checks). Then one walk over the
//! blocks in layout order and their instructions in order, reporting in that order:
//! - `structure.rs`: the entry block has no predecessors; no block is empty; a block ends with
//!   its only terminator; phis (and only phis) come first; EH pads come first after them; phi
//!   entries match the predecessor edges *with multiplicity* (an edge repeated in a terminator
//!   needs two entries, and entries for one predecessor carry one value);
//! - `types.rs`: operand counts and operand/result types per opcode;
//! - `dominance.rs`: every use is dominated by its definition (a phi's use sits at the end of
//!   its incoming block; uses in unreachable blocks are fine, as in LLVM; `invoke`/`callbr`
//!   results are defined on their normal edge; metadata uses are not checked, as in LLVM).
//!
//! Two entry points: [`verify_function`] / [`verify_module`] check everything (the `verify`
//! pass, `-verify-each`, tests); [`verify_read_function`] / [`verify_read_module`] make only
//! the checks LLVM's verifier adds to its reader — structure, phi entries, dominance — for IR
//! our reader just built (it guarantees sound handles and rejects type errors itself): what
//! the command line runs on its input, as `opt` does.
//!
//! Cost: linear in the function's size, with no allocation per instruction (scratch arrays are
//! kept per thread); each instruction is checked by fast paths that report nothing, and
//! diagnosed in detail only when one fails; the CFG and dominator tree are built only for
//! functions that need them (`Cx::graph`), names for messages (the printer's [`Numbering`])
//! only when an error is found. On a 13 MB `clang -O0` module the input checks cost about 6% of
//! reading it. [`verify_module`] checks functions in parallel and returns their errors in
//! module order, so the output never depends on the thread count.
//!
//! The library-only `copy` instruction ([`crate::ir::Opcode::Copy`]) is accepted.

mod dominance;
mod handles;
mod structure;
mod types;

use std::cell::OnceCell;
use std::fmt;

use ssa::Cfg;
use ssa::DomTree;

use crate::ir::{Block, Function, Inst, Module, Value};
use crate::print::Numbering;
use crate::Threads;

/// What kind of problem a [`VerifyError`] is.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum ErrorKind {
    /// An id out of range, a broken pool range or template, or a corrupt layout (phase 1).
    BadHandle,
    /// An operand whose definition does not dominate the use.
    UndominatedUse,
    /// An operand defined by an instruction that is not in the layout (removed, never placed).
    DetachedOperand,
    /// A non-phi instruction that uses its own result.
    SelfReference,
    /// Phi entries that do not match the predecessor edges of the phi's block.
    PhiEntries,
    /// Entries of one phi for the same predecessor with different values.
    PhiConflict,
    /// A phi after a non-phi instruction.
    PhiNotAtHead,
    /// An EH pad that is not the first non-phi instruction of its block.
    EhPadNotFirst,
    /// A block without instructions.
    EmptyBlock,
    /// A block whose last instruction is not a terminator.
    NoTerminator,
    /// A terminator before the last instruction of its block.
    TerminatorInMiddle,
    /// The entry block is the target of an edge.
    EntryHasPredecessors,
    /// The wrong number of value or block operands, or a missing / unexpected result.
    OperandCount,
    /// Operand or result types that do not fit the opcode.
    TypeMismatch,
}

/// One problem found by the verifier: where it is and what is wrong.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct VerifyError {
    /// The function, as printed (`@f`, `@"a b"`).
    pub function: String,
    /// The block, as printed (`%entry`, `%3`), if the problem is in one.
    pub block: Option<String>,
    /// The instruction, printed with the function's [`Numbering`] (so `%N` names match the
    /// printed module), if the problem is at one.
    pub inst: Option<String>,
    /// The kind of problem.
    pub kind: ErrorKind,
    /// What is wrong (LLVM's wording where LLVM has a message for it).
    pub message: String,
}

impl fmt::Display for VerifyError {
    /// One line: `in function @f, block %b, at `%x = add i32 %y, 1`: MESSAGE`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "in function {}", self.function)?;
        if let Some(b) = &self.block {
            write!(f, ", block {b}")?;
        }
        if let Some(i) = &self.inst {
            write!(f, ", at `{i}`")?;
        }
        write!(f, ": {}", self.message)
    }
}

impl std::error::Error for VerifyError {}

/// Verifies `func` (pointers 64 bits wide, for `bitcast` size checks); returns every problem.
pub fn verify_function(func: &Function) -> Vec<VerifyError> {
    verify_function_with(func, 64)
}

/// Verifies `func` in a module whose pointers are `ptr_bits` wide.
pub fn verify_function_with(func: &Function, ptr_bits: u64) -> Vec<VerifyError> {
    verify_reusing(func, ptr_bits, Checks::All)
}

/// The checks `opt`'s verifier makes that its reader does not, for a function just read (what
/// the command line runs on its input, as `opt` does): the entry block without predecessors,
/// blocks ending in their only terminator, phis first and their entries matching the
/// predecessor edges, EH pads first, uses dominated by their definitions. Handles and operand
/// types are the reader's guarantees (it rejects type errors itself, with LLVM's messages), so
/// this costs a fraction of [`verify_function_with`], which checks everything.
pub fn verify_read_function(func: &Function, ptr_bits: u64) -> Vec<VerifyError> {
    verify_reusing(func, ptr_bits, Checks::BeyondReader)
}

/// Which checks to make.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Checks {
    /// Everything.
    All,
    /// What LLVM's verifier adds to LLVM's reader (see [`verify_read_module`]).
    BeyondReader,
}

/// Buffers reused across the functions one thread verifies.
#[derive(Default)]
struct Scratch {
    tinfo: types::TypeInfo,
    phis: structure::PhiChecker,
}

thread_local! {
    /// This thread's scratch (verifying many small functions allocates once).
    static SCRATCH: std::cell::RefCell<Scratch> = std::cell::RefCell::default();
}

fn verify_reusing(func: &Function, ptr_bits: u64, checks: Checks) -> Vec<VerifyError> {
    SCRATCH.with(|s| match s.try_borrow_mut() {
        Ok(mut scratch) => verify_with(func, ptr_bits, checks, &mut scratch),
        Err(_) => verify_with(func, ptr_bits, checks, &mut Scratch::default()),
    })
}

fn verify_with(
    func: &Function,
    ptr_bits: u64,
    checks: Checks,
    scratch: &mut Scratch,
) -> Vec<VerifyError> {
    let mut rep = Reporter::new(func);
    let Some(place) = handles::check_structure(func, &mut rep) else {
        return rep.errors;
    };
    scratch.tinfo.prepare(func);
    scratch.phis.prepare(func);
    let cx = Cx {
        func,
        graph: OnceCell::new(),
        tinfo: &scratch.tinfo,
        place: &place,
        entry: func.layout.entry_block(),
        ptr_bits,
        full: checks == Checks::All,
    };
    walk(&cx, &mut rep, &mut scratch.phis);
    rep.errors
}

/// Verifies every function of `m`, in parallel; errors come in module order.
pub fn verify_module(m: &Module) -> Vec<VerifyError> {
    verify_module_threads(m, Threads::default())
}

/// [`verify_module`] on up to `threads` threads.
pub fn verify_module_threads(m: &Module, threads: Threads) -> Vec<VerifyError> {
    verify_module_checks(m, threads.get(), Checks::All)
}

/// [`verify_read_function`] for every function of a module just read, on up to `threads`
/// threads.
pub fn verify_read_module(m: &Module, threads: Threads) -> Vec<VerifyError> {
    verify_module_checks(m, threads.get(), Checks::BeyondReader)
}

fn verify_module_checks(m: &Module, threads: usize, checks: Checks) -> Vec<VerifyError> {
    let funcs: Vec<&Function> = m.functions.values().collect();
    let chunk = |c: &[&Function]| {
        let errors = c.iter().flat_map(|f| verify_reusing(f, m.ptr_bits, checks));
        errors.collect::<Vec<_>>()
    };
    if threads <= 1 || funcs.len() < 2 {
        return chunk(&funcs);
    }
    let chunks = crate::util::parallel::balanced_chunks(&funcs, threads, |f| f.dfg.insts.len() + 1);
    std::thread::scope(|s| {
        let handles: Vec<_> = chunks
            .into_iter()
            .map(|c| s.spawn(move || chunk(c)))
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("verifier thread panicked"))
            .collect()
    })
}

/// What the checks of phase 2 read.
pub(crate) struct Cx<'a> {
    pub func: &'a Function,
    /// The CFG and dominator tree, computed on first use (see [`Cx::graph`]).
    graph: OnceCell<Graph>,
    /// What the type rules ask of each type, cached.
    pub tinfo: &'a types::TypeInfo,
    /// Where each instruction is (block and position), by instruction index.
    pub place: &'a [handles::Place],
    /// The entry block.
    pub entry: Option<Block>,
    pub ptr_bits: u64,
    /// All checks, or only those beyond the reader's (no handles or types per instruction).
    pub full: bool,
}

/// A function's CFG and dominator tree.
pub(crate) struct Graph {
    pub cfg: Cfg,
    pub dt: DomTree,
}

impl Cx<'_> {
    /// The CFG and dominator tree. Computed only when a check needs them — a use in another
    /// block than its definition's (other than the entry's), an out-of-order use in one block
    /// (is the block reachable?) — so the verifier skips them for the many functions where
    /// every use is local or defined in the entry block (phis only need predecessor counts,
    /// which [`structure::PhiChecker`] gathers itself).
    pub fn graph(&self) -> &Graph {
        self.graph.get_or_init(|| {
            let cfg = crate::ir::cfg::cfg_of(self.func);
            let dt = DomTree::compute(&cfg);
            Graph { cfg, dt }
        })
    }
}

/// Phase 2: one walk over blocks and instructions, every check in order.
fn walk(cx: &Cx<'_>, rep: &mut Reporter<'_>, phis: &mut structure::PhiChecker) {
    let func = cx.func;
    structure::check_entry(cx, rep);
    for b in func.layout.blocks() {
        structure::check_block(cx, rep, b);
        phis.start_block(cx, b);
        let mut head = structure::HeadState::default();
        for i in func.layout.block_insts(b) {
            if cx.full && !handles::check_inst(func, rep, b, i) {
                continue;
            }
            structure::check_position(cx, rep, b, i, &mut head);
            if func.dfg.opcode(i) == crate::ir::Opcode::Phi {
                phis.check_phi(cx, rep, b, i);
            }
            if !cx.full || types::check_inst(cx, rep, b, i) {
                dominance::check_inst(cx, rep, b, i);
            }
        }
    }
}

/// Collects errors; names things the way the printer does (computed on the first error).
pub(crate) struct Reporter<'f> {
    func: &'f Function,
    function: String,
    /// The printer's numbering: `None` until first needed, then `Some(None)` if the function
    /// is too broken to number (names then fall back to ids).
    num: Option<Option<Numbering>>,
    errors: Vec<VerifyError>,
}

impl<'f> Reporter<'f> {
    fn new(func: &'f Function) -> Self {
        Self {
            func,
            function: String::new(),
            num: None,
            errors: Vec::new(),
        }
    }

    fn num(&mut self) -> Option<&Numbering> {
        let func = self.func;
        self.num
            .get_or_insert_with(|| handles::numbering_safe(func).then(|| Numbering::compute(func)))
            .as_ref()
    }

    /// `%x` / `5` / `undef` for `v` (`vN` if it cannot be printed).
    pub fn value(&mut self, v: Value) -> String {
        let func = self.func;
        let ok = v.index() < func.dfg.values.len() && {
            let d = &func.dfg.values[v];
            let def_ok = match d.def {
                crate::ir::ValueDef::Const(t) => handles::text_ok(func, t),
                _ => true,
            };
            def_ok && handles::text_ok(func, d.name)
        };
        match self.num() {
            Some(num) if ok => num.value_ref(func, v),
            _ => v.to_string(),
        }
    }

    /// `%label` for `b`.
    pub fn block(&mut self, b: Block) -> String {
        let func = self.func;
        match self.num() {
            Some(num) => num.block_ref(func, b),
            None => b.to_string(),
        }
    }

    /// The text of `i`, on one line (`instN` if it cannot be printed).
    pub fn inst(&mut self, i: Inst) -> String {
        let func = self.func;
        match self.num() {
            Some(num) if handles::printable(func, i) => one_line(&num.inst_text(func, i)),
            _ => i.to_string(),
        }
    }

    /// The type `t` as LLVM spells it.
    pub fn ty(&self, t: crate::ir::Type) -> String {
        self.func.types.display(t).to_string()
    }

    /// A problem at instruction `i` of block `b`.
    pub fn at_inst(&mut self, kind: ErrorKind, b: Block, i: Inst, message: String) {
        let (block, inst) = (self.block(b), self.inst(i));
        self.push(kind, Some(block), Some(inst), message);
    }

    /// A problem with block `b` as a whole.
    pub fn at_block(&mut self, kind: ErrorKind, b: Block, message: String) {
        let block = self.block(b);
        self.push(kind, Some(block), None, message);
    }

    /// A problem named without the printer (phase 1: ids may be invalid).
    pub fn raw(
        &mut self,
        kind: ErrorKind,
        block: Option<String>,
        inst: Option<String>,
        message: String,
    ) {
        self.push(kind, block, inst, message);
    }

    fn push(
        &mut self,
        kind: ErrorKind,
        block: Option<String>,
        inst: Option<String>,
        message: String,
    ) {
        if self.function.is_empty() {
            let func = self.func;
            self.function = if handles::text_ok(func, func.name) {
                format!("@{}", String::from_utf8_lossy(func.text(func.name)))
            } else {
                "@<name out of range>".to_string()
            };
        }
        self.errors.push(VerifyError {
            function: self.function.clone(),
            block,
            inst,
            kind,
            message,
        });
    }
}

/// `s` with every run of whitespace that holds a newline folded into one space (instructions
/// read from multi-line text, like a long `switch`, print on several lines).
fn one_line(s: &str) -> String {
    if !s.contains('\n') {
        return s.to_string();
    }
    let mut out = String::with_capacity(s.len());
    let mut run = String::new();
    for c in s.chars() {
        if c.is_whitespace() {
            run.push(c);
            continue;
        }
        if run.contains('\n') {
            out.push(' ');
        } else {
            out.push_str(&run);
        }
        run.clear();
        out.push(c);
    }
    out
}
