//! `debugify`: synthetic debug info on everything, as LLVM's `applyDebugifyMetadata`
//! (llvm/lib/Transforms/Utils/Debugify.cpp) makes it, so that `check-debugify` can later tell
//! which locations and variables the passes in between lost.
//!
//! For every function with an exact definition, in module order:
//! - a `distinct !DISubprogram` (`!dbg` on the definition) whose line is its first
//!   instruction's;
//! - on every instruction, `!DILocation(line: N, column: 1, scope: SP)`, N counting the
//!   module's instructions from 1;
//! - for every instruction with a value, except in EH-pad blocks and from the block's
//!   terminating instruction on (a `musttail` or `llvm.experimental.deoptimize` call before a
//!   `ret` counts as the terminator), a `DILocalVariable` named by the next variable number
//!   with a `tyBITS` basic type (the value's allocation size), and a debug value of it at the
//!   instruction's location: right after the instruction, or for phis at the block's first
//!   insertion point; a function that gets none gets one of `i32 0` (or of the terminator's
//!   value) before its entry block's terminator.
//!
//! The module gets the compile unit and file (`filename:` is the module's identifier, as
//! `Module::getName`), `!llvm.dbg.cu`, `!llvm.debugify = !{lines, variables}`, and the
//! "Debug Info Version" module flag when missing. A module that already has `!llvm.dbg.cu`
//! is left alone ("ModuleDebugify: Skipping module with debug info").
//!
//! Debug values are `#dbg_value` records in modules that spell pointers `ptr` (what opt-19
//! prints) and `llvm.dbg.value` calls otherwise (LLVM 14 had no records; a pointer-free module
//! gets calls too, which both LLVM 14 and 19 read) — unless the module already has debug
//! calls or records: then its own form, as LLVM's reader rejects a mix. In a `ptr` module,
//! debug calls are what LLVM 19 holds as records: not instructions, so they get no line and
//! no location, and new debug values go after them.
//!
//! Invariants: new nodes are numbered from the module's largest number + 1, in the order
//! opt's printer numbers them (compile unit, file, counts, flag, then per function: its
//! subprogram, subroutine type, retained list, variables and their types, locations), so a
//! module without metadata prints with opt's own numbers; the module must hold no pending
//! new nodes of other passes (the pipeline re-reads the module before a module pass).

use super::module_md::{self, find_named};
use super::nodes::{FnNodes, FnShape, Numbers, SpInfo, Writer};
use crate::transform::mem2reg::edit::{make_dbg_value, DbgForm, DbgValueParts};
use llvm_ir::ir::datalayout::DataLayout;
use llvm_ir::ir::{FuncId, Function, Inst, MdRef, Module, Opcode, Piece, Text, Value};

/// The debug value planned for one instruction.
struct ValuePlan {
    /// The value described (`None`: the constant `i32 0`).
    value: Option<Value>,
    /// Where the debug value goes (before this instruction).
    before: Inst,
    /// The variable's number, which is also its name.
    var: u32,
    /// The line of the instruction it describes.
    line: u32,
    /// Allocation size in bits of the value's type (the variable's type is `tyBITS`).
    bits: u64,
}

/// What debugify does to one function.
struct FnPlan {
    id: FuncId,
    /// The line of its first instruction (the subprogram's line).
    first_line: u32,
    /// Every instruction in order with its line (consecutive from `first_line`).
    insts: Vec<Inst>,
    values: Vec<ValuePlan>,
    local: bool,
}

/// Counters that run across the module, as LLVM's `NextLine` / `NextVar`.
struct Counters {
    line: u32,
    var: u32,
}

/// Runs `debugify` on `m` whose identifier is `module_id`; returns what opt prints to
/// stderr (empty unless the module is skipped).
pub fn debugify(m: &mut Module, module_id: &str) -> String {
    if find_named(m, b"llvm.dbg.cu").is_some() {
        return "ModuleDebugify: Skipping module with debug info\n".into();
    }
    let env = Env {
        dl: match &m.info {
            Some(c) => c.dl.clone(),
            None => DataLayout::with_ptr_bits(m.ptr_bits),
        },
        records: m.types.opaque_mode,
    };
    let interpose = module_md::semantic_interposition(m);
    let mut next = Counters { line: 1, var: 1 };
    let plans: Vec<FnPlan> = m
        .functions
        .iter()
        .filter(|(_, f)| !module_md::is_skipped(f, interpose))
        .map(|(id, f)| plan_function(id, f, &env, &mut next))
        .collect();
    let counts = (next.line - 1, next.var - 1);
    let numbers = number_nodes(m, &plans, counts);
    let form = debug_form(m);
    let mut writer = Writer::new(&numbers, module_id, counts);
    for (plan, nodes) in plans.iter().zip(&numbers.fns) {
        let f = &mut m.functions[plan.id];
        let name = module_md::function_name(f);
        let vars: Vec<(u32, u32)> = plan.values.iter().map(|v| (v.var, v.line)).collect();
        let sp = SpInfo {
            name: &name,
            local: plan.local,
            line: plan.first_line,
            insts: plan.insts.len(),
        };
        writer.function(&numbers, nodes, &sp, &vars);
        apply_plan(f, plan, nodes, form);
    }
    add_module_items(m, &numbers, writer.finish());
    String::new()
}

/// Numbers the new nodes after the module's own (see [`Numbers::assign`]).
fn number_nodes(m: &Module, plans: &[FnPlan], counts: (u32, u32)) -> Numbers {
    let need_flag = module_md::module_flag(m, b"Debug Info Version").is_none();
    let base = m
        .info
        .as_ref()
        .and_then(|c| c.max_metadata_id)
        .map_or(0, |n| n + 1);
    let bits: Vec<Vec<u64>> = plans
        .iter()
        .map(|p| p.values.iter().map(|v| v.bits).collect())
        .collect();
    let shapes: Vec<FnShape<'_>> = plans
        .iter()
        .zip(&bits)
        .map(|(p, b)| FnShape {
            insts: p.insts.len(),
            var_bits: b,
        })
        .collect();
    Numbers::assign(base, counts, need_flag, &shapes)
}

/// Adds the named metadata and the new nodes' definitions at the end of the module.
fn add_module_items(m: &mut Module, n: &Numbers, defs: Vec<u8>) {
    m.push_text("");
    module_md::append_named(m, "llvm.dbg.cu", &[n.cu]);
    module_md::append_named(m, "llvm.debugify", &[n.lines, n.vars]);
    if let Some(flag) = n.flag {
        module_md::append_named(m, "llvm.module.flags", &[flag]);
    }
    m.push_text("");
    for line in defs.split(|&c| c == b'\n').filter(|l| !l.is_empty()) {
        let t = m.strings.add(line);
        let item = match llvm_ir::print::module_writer::split_def(line) {
            Some((id, _, _)) => llvm_ir::ir::Item::Metadata(t, id),
            None => llvm_ir::ir::Item::Text(t),
        };
        m.items.push(item);
    }
}

/// Writes one function's plan into its IR: `!dbg` on the definition and on every
/// instruction, and the debug values.
fn apply_plan(f: &mut Function, plan: &FnPlan, nodes: &FnNodes, form: DbgForm) {
    set_header_dbg(f, nodes.sp);
    let kind = f.dfg.strings.add(b"dbg");
    let mut locs = Vec::with_capacity(plan.insts.len());
    for (k, &i) in plan.insts.iter().enumerate() {
        let loc = f
            .dfg
            .strings
            .add(format!("!{}", nodes.first_loc + k as u32).as_bytes());
        locs.push(loc);
        set_dbg(f, i, kind, loc);
    }
    let i32_ty = f.types.int(32);
    let mut parts = DbgValueParts::default();
    for (k, v) in plan.values.iter().enumerate() {
        let value = match v.value {
            Some(r) => r,
            None => f.dfg.constant(i32_ty, "0"),
        };
        let var = format!("!{}", nodes.vars[k]);
        let loc = locs[(v.line - plan.first_line) as usize];
        let d = make_dbg_value(
            f,
            &mut parts,
            form,
            value,
            var.as_bytes(),
            b"!DIExpression()",
            MdRef::Text(loc),
        );
        f.layout.insert_inst_before(d, v.before);
    }
}

/// Makes `loc` the `!dbg` attachment of `inst` (first, as LLVM prints it), keeping the others.
fn set_dbg(f: &mut Function, inst: Inst, kind: Text, loc: Text) {
    let mut atts = vec![(kind, MdRef::Text(loc))];
    atts.extend(
        f.dfg
            .inst_attachments(inst)
            .iter()
            .filter(|(k, _)| f.text(*k) != b"dbg")
            .copied(),
    );
    f.dfg.set_attachments(inst, &atts);
}

/// Makes `!sp` the definition's `!dbg` attachment (`Function::setSubprogram`).
fn set_header_dbg(f: &mut Function, sp: u32) {
    let mut pieces = f.header_pieces().to_vec();
    let new_ref = format!("!{sp}");
    let mut replaced = false;
    for p in pieces.iter_mut().rev() {
        let Piece::Text(t) = *p else { break };
        if let Some(text) = replace_dbg_ref(f.text(t), new_ref.as_bytes()) {
            *p = Piece::Text(f.dfg.strings.add(&text));
            replaced = true;
            break;
        }
    }
    if !replaced {
        let t = f.dfg.strings.add(format!(" !dbg {new_ref}").as_bytes());
        pieces.push(Piece::Text(t));
    }
    f.header = f.dfg.push_pieces(&pieces);
}

/// `text` with the node after its `!dbg` replaced by `new_ref`, if it has one.
fn replace_dbg_ref(text: &[u8], new_ref: &[u8]) -> Option<Vec<u8>> {
    let at = text.windows(5).position(|w| w == b"!dbg ")?;
    let mut s = at + 5;
    while text.get(s).is_some_and(u8::is_ascii_whitespace) {
        s += 1;
    }
    let mut e = s + 1;
    while text.get(e).is_some_and(u8::is_ascii_digit) {
        e += 1;
    }
    Some([&text[..s], new_ref, &text[e.min(text.len())..]].concat())
}

/// What planning needs to know about the module.
struct Env {
    dl: DataLayout,
    /// LLVM 19's view (a `ptr` module): debug intrinsic calls are records, not instructions.
    records: bool,
}

/// The form of the new debug values: the module's own when it has debug calls or records
/// (LLVM's reader rejects a mix), else records in `ptr` modules and calls otherwise.
fn debug_form(m: &Module) -> DbgForm {
    let mut has_record = false;
    for f in m.functions.values() {
        for (_, d) in f.dfg.dbg.iter() {
            match d {
                Some(d) if !d.record => return DbgForm::Intrinsic,
                Some(_) => has_record = true,
                None => {}
            }
        }
    }
    if has_record || m.types.opaque_mode {
        DbgForm::Record
    } else {
        DbgForm::Intrinsic
    }
}

/// The instructions of `b` as LLVM counts them, in order: never debug records, and in
/// LLVM 19's view (`records`) not debug intrinsic calls either (its reader makes them records).
fn block_insts(f: &Function, b: llvm_ir::ir::Block, records: bool) -> Vec<Inst> {
    f.layout
        .block_insts(b)
        .filter(|&i| f.dfg.opcode(i) != Opcode::DbgRecord && !(records && f.dfg.dbg[i].is_some()))
        .collect()
}

fn plan_function(id: FuncId, f: &Function, env: &Env, next: &mut Counters) -> FnPlan {
    let mut plan = FnPlan {
        id,
        first_line: next.line,
        insts: Vec::new(),
        values: Vec::new(),
        local: module_md::is_local(f),
    };
    for b in f.layout.blocks() {
        let insts = block_insts(f, b, env.records);
        plan.insts.extend_from_slice(&insts);
        let first_line = next.line;
        next.line += insts.len() as u32;
        plan_block(f, &env.dl, &insts, first_line, next, &mut plan.values);
    }
    if plan.values.is_empty() {
        if let Some(v) = plan_fallback(f, env, &plan, next) {
            plan.values.push(v);
        }
    }
    plan
}

/// The debug values of one block whose instructions start at line `first_line`.
fn plan_block(
    f: &Function,
    dl: &DataLayout,
    insts: &[Inst],
    first_line: u32,
    next: &mut Counters,
    out: &mut Vec<ValuePlan>,
) {
    let Some(first_non_phi) = insts.iter().position(|&i| f.dfg.opcode(i) != Opcode::Phi) else {
        return;
    };
    if f.dfg.opcode(insts[first_non_phi]).is_eh_pad() {
        return;
    }
    let Some(last) = terminating_inst(f, insts) else {
        return;
    };
    let mut before = insts[first_non_phi];
    for (k, &i) in insts[..last].iter().enumerate() {
        let Some(r) = f.dfg.inst_result(i) else {
            continue;
        };
        if f.dfg.opcode(i) != Opcode::Phi {
            before = insts[k + 1];
        }
        out.push(ValuePlan {
            value: Some(r),
            before,
            var: next.var,
            line: first_line + k as u32,
            bits: alloc_bits(f, dl, r),
        });
        next.var += 1;
    }
}

/// LLVM's fallback for a function that got no debug value: one before the entry block's
/// terminating instruction, of that instruction's value or of `i32 0`.
fn plan_fallback(f: &Function, env: &Env, plan: &FnPlan, next: &mut Counters) -> Option<ValuePlan> {
    let entry = f.layout.entry_block()?;
    let insts = block_insts(f, entry, env.records);
    let term = insts[terminating_inst(f, &insts)?];
    let k = plan.insts.iter().position(|&i| i == term)?;
    let value = f.dfg.inst_result(term);
    let vp = ValuePlan {
        value,
        before: term,
        var: next.var,
        line: plan.first_line + k as u32,
        bits: value.map_or(32, |v| alloc_bits(f, &env.dl, v)),
    };
    next.var += 1;
    Some(vp)
}

/// The index in `insts` of the block's terminating instruction: a `musttail` call or a call
/// of `llvm.experimental.deoptimize` right before the `ret` (LLVM's
/// `findTerminatingInstruction`), else the terminator.
fn terminating_inst(f: &Function, insts: &[Inst]) -> Option<usize> {
    let last = insts.len().checked_sub(1)?;
    let ret = insts[last];
    if f.dfg.opcode(ret) != Opcode::Ret || last == 0 {
        return f.dfg.opcode(ret).is_terminator().then_some(last);
    }
    if let Some(k) = musttail_before_ret(f, insts, last) {
        return Some(k);
    }
    let prev = insts[last - 1];
    if f.dfg.opcode(prev) == Opcode::Call && is_deoptimize(callee_text(f, prev)) {
        return Some(last - 1);
    }
    Some(last)
}

/// `BasicBlock::getTerminatingMustTailCall`: the `musttail` call the `ret` at `last` returns
/// (directly or through one bitcast).
fn musttail_before_ret(f: &Function, insts: &[Inst], last: usize) -> Option<usize> {
    let ret_val = f
        .dfg
        .inst_values(insts[last])
        .first()
        .map(|&v| f.dfg.resolve(v));
    let mut k = last - 1;
    if let Some(rv) = ret_val {
        if f.dfg.inst_result(insts[k]) != Some(rv) {
            return None;
        }
        if f.dfg.opcode(insts[k]) == Opcode::BitCast {
            let src = f.dfg.resolve(*f.dfg.inst_values(insts[k]).first()?);
            k = k.checked_sub(1)?;
            if f.dfg.inst_result(insts[k]) != Some(src) {
                return None;
            }
        }
    }
    let call = insts[k];
    (f.dfg.opcode(call) == Opcode::Call && is_musttail(f, call)).then_some(k)
}

/// Whether a call's template starts with `musttail`.
fn is_musttail(f: &Function, call: Inst) -> bool {
    match f.dfg.inst_pieces(call).first() {
        Some(Piece::Text(t)) => {
            let w = f.text(*t);
            let at = w
                .iter()
                .position(|c| !c.is_ascii_whitespace())
                .unwrap_or(w.len());
            w[at..].starts_with(b"musttail ")
        }
        _ => false,
    }
}

/// Whether a callee is `llvm.experimental.deoptimize` (any overload: `.i32`, `.isVoid`, ...).
fn is_deoptimize(callee: &[u8]) -> bool {
    const NAME: &[u8] = b"@llvm.experimental.deoptimize";
    callee.starts_with(NAME) && matches!(callee.get(NAME.len()), None | Some(b'.'))
}

/// The written callee of a call (`@f`), or empty.
fn callee_text(f: &Function, call: Inst) -> &[u8] {
    match f.dfg.inst_values(call).first() {
        Some(&v) => match f.dfg.values[f.dfg.resolve(v)].def {
            llvm_ir::ir::ValueDef::Const(t) => f.text(t),
            _ => b"",
        },
        None => b"",
    }
}

/// `getAllocSizeInBits`: the allocation size of `v`'s type in bits, 0 when unsized.
fn alloc_bits(f: &Function, dl: &DataLayout, v: Value) -> u64 {
    let ty = f.dfg.value_type(v);
    dl.alloc_size(&f.types, ty).map_or(0, |b| b * 8)
}
