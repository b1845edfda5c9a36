//! `check-debugify`: what the passes since `debugify` lost, as LLVM's `checkDebugifyMetadata`
//! (llvm/lib/Transforms/Utils/Debugify.cpp) reports it, message for message:
//! - `WARNING: Instruction with empty DebugLoc in function F --  <instruction>` for every
//!   instruction other than a phi or debug value without a `!dbg`;
//! - `ERROR: dbg.value operand has size A, but its variable has size B: <debug value>` for a
//!   debug value with an empty expression whose value's allocation size contradicts its
//!   variable's size (integers only when the variable's type is signed and the value is
//!   smaller) — the only finding that makes the check fail;
//! - `WARNING: Missing line N` for each line `1..=lines` of `!llvm.debugify` that no
//!   instruction's location carries any more, then `WARNING: Missing variable N` likewise for
//!   variables (named by number) that no `dbg.value`/`dbg.assign` names;
//! - `CheckModuleDebugify: PASS` or `FAIL`.
//!
//! It runs as opt-19's `-passes=check-debugify` does: it reads only, and leaves the debugify
//! metadata in place (the new pass manager's `NewPMCheckDebugifyPass` does not strip). A
//! module without `!llvm.debugify` gets "CheckModuleDebugify: Skipping module without
//! debugify metadata".
//!
//! Invariant: messages come in LLVM's order — per function in module order, its
//! empty-location warnings then its size errors; then missing lines, missing variables, and
//! the verdict. Instructions print in our spelling (LLVM prints its own canonical form and
//! its own metadata numbers, which match ours on modules opt wrote).

use super::module_md::{self, find_named, tuple_int};
use llvm_ir::ir::datalayout::DataLayout;
use llvm_ir::ir::metadata::{self, MdReader};
use llvm_ir::ir::{DbgKind, DbgVar, Function, Inst, MdRef, Module, Opcode};
use llvm_ir::print::Numbering;
use llvm_ir::util::fxhash::FxHashMap;

/// A set of numbers `1..=len` still missing.
struct Missing {
    words: Vec<u64>,
    len: u64,
}

impl Missing {
    fn all(len: u64) -> Self {
        let words = vec![u64::MAX; len.div_ceil(64) as usize];
        Missing { words, len }
    }

    /// Marks `n` (1-based) as found; numbers out of range are ignored.
    fn found(&mut self, n: u64) {
        if n >= 1 && n <= self.len {
            let k = (n - 1) as usize;
            self.words[k / 64] &= !(1u64 << (k % 64));
        }
    }

    fn report(&self, what: &str, out: &mut String) {
        for k in 0..self.len {
            if self.words[(k / 64) as usize] >> (k % 64) & 1 == 1 {
                out.push_str(&format!("WARNING: Missing {what} {}\n", k + 1));
            }
        }
    }
}

/// What the check reads of a `DILocalVariable`.
#[derive(Clone, Copy, Default)]
struct VarInfo {
    /// The number it is named by (`name: "7"`), if it is one.
    number: Option<u64>,
    /// Its size in bits (`DIVariable::getSizeInBits`).
    bits: Option<u64>,
    /// Its type is a signed basic type.
    signed: bool,
}

/// What the check needs while walking functions.
struct Checker<'m> {
    md: MdReader<'m>,
    dl: DataLayout,
    lines: Missing,
    vars: Missing,
    /// Each numbered variable node read so far.
    var_cache: FxHashMap<u32, VarInfo>,
    /// Opaque-pointer module: LLVM 19 holds every debug intrinsic as a record.
    records_only: bool,
    errors: bool,
    out: String,
}

/// Runs `check-debugify` on `m`; returns what opt prints to stderr.
pub fn check_debugify(m: &Module) -> String {
    let Some(named) = find_named(m, b"llvm.debugify") else {
        return "CheckModuleDebugify: Skipping module without debugify metadata\n".into();
    };
    let count = |k: usize| {
        named
            .operands
            .get(k)
            .and_then(|&n| tuple_int(m, n))
            .map_or(0, |v| v & u64::from(u32::MAX))
    };
    let mut c = Checker {
        md: MdReader {
            source: &m.source,
            ctx: m.info.as_deref(),
        },
        dl: match &m.info {
            Some(ctx) => ctx.dl.clone(),
            None => DataLayout::with_ptr_bits(m.ptr_bits),
        },
        lines: Missing::all(count(0)),
        vars: Missing::all(count(1)),
        var_cache: FxHashMap::default(),
        records_only: m.types.opaque_mode,
        errors: false,
        out: String::new(),
    };
    let interpose = module_md::semantic_interposition(m);
    for f in m.functions.values() {
        if !module_md::is_skipped(f, interpose) {
            c.check_lines(f);
            c.check_vars(f);
        }
    }
    c.lines.report("line", &mut c.out);
    c.vars.report("variable", &mut c.out);
    let verdict = if c.errors { "FAIL" } else { "PASS" };
    c.out.push_str(&format!("CheckModuleDebugify: {verdict}\n"));
    c.out
}

impl Checker<'_> {
    /// Whether LLVM skips `i` when looking for lines: debug records are not instructions,
    /// and `dbg.value` (and `dbg.assign`, a kind of it) calls are skipped.
    fn skip_for_lines(&self, f: &Function, i: Inst) -> bool {
        if f.dfg.opcode(i) == Opcode::DbgRecord {
            return true;
        }
        match f.dfg.dbg[i] {
            Some(d) => self.records_only || matches!(d.kind, DbgKind::Value | DbgKind::Assign),
            None => false,
        }
    }

    fn check_lines(&mut self, f: &Function) {
        let mut num: Option<Numbering> = None;
        for b in f.layout.blocks() {
            for i in f.layout.block_insts(b) {
                if self.skip_for_lines(f, i) {
                    continue;
                }
                match self.line_of(f, i) {
                    Some(0) => {}
                    Some(line) => self.lines.found(line),
                    None if f.dfg.opcode(i) == Opcode::Phi => {}
                    None => {
                        let n = num.get_or_insert_with(|| Numbering::compute(f));
                        self.out.push_str(&format!(
                            "WARNING: Instruction with empty DebugLoc in function {} --  {}\n",
                            String::from_utf8_lossy(&module_md::function_name(f)),
                            n.inst_text(f, i)
                        ));
                    }
                }
            }
        }
    }

    /// The line of `i`'s `!dbg` location (`None`: it has none).
    fn line_of(&mut self, f: &Function, i: Inst) -> Option<u64> {
        let (_, r) = f
            .dfg
            .inst_attachments(i)
            .iter()
            .find(|(k, _)| f.text(*k) == b"dbg")?;
        Some(self.line_of_ref(f, *r))
    }

    /// The line of a location reference (0 when it is not a `DILocation`).
    fn line_of_ref(&self, f: &Function, r: MdRef) -> u64 {
        let text = f.md_text(r);
        let node = match (module_md::node_number(text), self.md.ctx) {
            (Some(n), Some(ctx)) => ctx.metadata_text(self.md.source, n).unwrap_or_default(),
            (Some(_), None) => &[],
            (None, _) => text,
        };
        if metadata::node_kind(node) == Some(b"DILocation") {
            metadata::int_field(node, b"line")
        } else {
            0
        }
    }

    fn check_vars(&mut self, f: &Function) {
        let mut num: Option<Numbering> = None;
        for b in f.layout.blocks() {
            for i in f.layout.block_insts(b) {
                let Some(d) = f.dfg.dbg[i] else { continue };
                if !matches!(d.kind, DbgKind::Value | DbgKind::Assign) {
                    continue;
                }
                let var = self.variable(f.text(d.var));
                if self.mis_sized(f, i, &d, var, &mut num) {
                    self.errors = true;
                } else if let Some(v) = var.number {
                    self.vars.found(v);
                }
            }
        }
    }

    /// What the check reads of a variable, cached by node number.
    fn variable(&mut self, reference: &[u8]) -> VarInfo {
        let id = module_md::node_number(reference);
        if let Some(info) = id.and_then(|n| self.var_cache.get(&n)) {
            return *info;
        }
        let info = self.read_variable(reference);
        if let Some(n) = id {
            self.var_cache.insert(n, info);
        }
        info
    }

    fn read_variable(&self, reference: &[u8]) -> VarInfo {
        let Some((_, text)) = self.md.resolve(reference) else {
            return VarInfo::default();
        };
        let number = metadata::field(text, b"name")
            .and_then(|n| n.strip_prefix(b"\"")?.strip_suffix(b"\""))
            .and_then(|s| std::str::from_utf8(s).ok()?.parse::<u32>().ok())
            .map(u64::from);
        VarInfo {
            number,
            bits: self.md.variable_size(reference),
            signed: self.is_signed(text),
        }
    }

    /// Whether a variable's type is a signed basic type (`DIVariable::getSignedness`).
    fn is_signed(&self, var: &[u8]) -> bool {
        let signed = || -> Option<bool> {
            let (_, ty) = self.md.resolve(metadata::field(var, b"type")?)?;
            if metadata::node_kind(ty)? != b"DIBasicType" {
                return Some(false);
            }
            let enc = metadata::field(ty, b"encoding")?;
            Some(enc == b"DW_ATE_signed" || enc == b"DW_ATE_signed_char")
        };
        signed().unwrap_or(false)
    }

    /// LLVM's `diagnoseMisSizedDbgValue`: reports (and returns) a size mismatch.
    fn mis_sized(
        &mut self,
        f: &Function,
        i: Inst,
        d: &DbgVar,
        var: VarInfo,
        num: &mut Option<Numbering>,
    ) -> bool {
        let Some((value_bits, is_int)) = self.value_size(f, i, d) else {
            return false;
        };
        let Some(var_bits) = var.bits else {
            return false;
        };
        let bad = if is_int {
            var.signed && value_bits < var_bits
        } else {
            value_bits != var_bits
        };
        if bad {
            let n = num.get_or_insert_with(|| Numbering::compute(f));
            let indent = if f.dfg.opcode(i) == Opcode::DbgRecord {
                ""
            } else {
                "  "
            };
            self.out.push_str(&format!(
                "ERROR: dbg.value operand has size {value_bits}, but its variable has size \
                 {var_bits}: {indent}{}\n",
                n.inst_text(f, i)
            ));
        }
        bad
    }

    /// `(allocation bits, is an integer)` of the value of a debug value with an empty
    /// expression and a single location, when that size is known and non-zero.
    fn value_size(&self, f: &Function, i: Inst, d: &DbgVar) -> Option<(u64, bool)> {
        let expr = f.text(d.expr);
        let empty = match module_md::node_number(expr) {
            Some(_) => metadata::expression_ops(self.md.resolve(expr)?.1).is_empty(),
            None => metadata::expression_ops(expr).is_empty(),
        };
        if !empty {
            return None;
        }
        let v = *f.dfg.inst_values(i).get(d.loc_operand as usize)?;
        let ty = f.dfg.value_type(f.dfg.resolve(v));
        let value_bits = self.dl.alloc_size(&f.types, ty)? * 8;
        (value_bits != 0).then_some((value_bits, f.types.is_int(ty)))
    }
}
