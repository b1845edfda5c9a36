//! The LLVM IR front end: reads a module as the command line does (`llvm-reader`, then the
//! verifier), picks a function, and runs the real passes on it — `mem2reg`
//! ([`passes::transform::mem2reg::promote_function`], with `explain` on) and `phi-elim`
//! ([`passes::transform::phi_elim::eliminate_phis`]) — so the texts shown are the command line's
//! output for that function. The lesson's variables are the slots the pass promoted (the
//! `alloca`s gone from its output); their loads are reads, their stores writes (a lifetime
//! marker writes the undefined value, as the pass reads it for slots that need φs).
//!
//! Invariants: mem2reg keeps the block layout, so block `k` of the input is block `k` of the SSA
//! function; a φ's variable is the promoted slot whose name is the φ's name up to `.N` (LLVM's
//! naming, `%x.0`, `%.0` for an unnamed slot); nothing here panics on a module the reader and
//! verifier accepted.

use std::collections::HashMap;
use std::sync::Arc;

use llvm_ir::ir::{Block, Function, Module, Opcode, Value};
use llvm_ir::print::{print_function, Numbering};
use passes::transform::edges::is_splittable;
use passes::transform::mem2reg::promotable::{is_debug, is_lifetime_marker};
use passes::transform::mem2reg::{promote_function, Flavour as MFlavour, Options as MOptions};
use passes::transform::phi_elim::{eliminate_phis, Lowering, Options as POptions};

use crate::destruct::{PhiView, SsaFn};
use crate::front::{mark_added, FlavourCount, Front, Options, Stage, UserError};
use crate::lesson::{Event, Kind, Lesson};
use crate::picture::{kind_of, line, Line};
use crate::placement::Flavour;

/// The file name errors are reported against.
pub const FILE: &str = "input.ll";

/// Builds the front-end result for function `function` (default: the first) of `src`.
pub fn front(src: &str, function: Option<&str>, o: &Options) -> Result<Front, UserError> {
    let m = parse(src)?;
    let functions: Vec<String> = m.functions.values().map(|f| f.name_str()).collect();
    let k = function
        .and_then(|n| functions.iter().position(|f| f == n))
        .unwrap_or(0);
    let Some(f) = m.functions.values().nth(k) else {
        return Err(UserError::plain(
            "the input defines no function: write a `define` with a body",
        ));
    };
    if f.layout.entry_block().is_none() {
        return Err(UserError::plain(format!("@{} has no blocks", f.name_str())));
    }
    let ctx = m.info.as_deref();
    let mut ssa_f = f.clone();
    let report = promote_function(&mut ssa_f, ctx, &m2r(o, o.flavour, true));
    let lesson = lesson(f, &ssa_f);
    let mut out_f = ssa_f.clone();
    let lowering = if o.lowering == "slots" {
        Lowering::StackSlots
    } else {
        Lowering::Copies
    };
    let mut notes: Vec<String> = (report.remarks.iter())
        .map(|r| {
            format!(
                "{} stays in memory: {}{}",
                r.slot,
                r.reason,
                r.blocking
                    .as_ref()
                    .map_or(String::new(), |b| format!(" (`{b}`)"))
            )
        })
        .collect();
    if let Err(e) = eliminate_phis(
        &mut out_f,
        &POptions {
            lowering,
            list: false,
            layout: ctx.map(|c| &c.dl),
        },
    ) {
        notes.push(format!("phi-elim refused the function: {e}"));
        out_f = ssa_f.clone();
    }
    let keys: HashMap<Block, String> = f
        .layout
        .blocks()
        .zip(&lesson.blocks)
        .map(|(b, n)| (b, n.clone()))
        .collect();
    let input = stage(
        "input",
        "input (alloca, load, store)",
        &m,
        f,
        &lesson,
        &keys,
    );
    let ssa = stage(
        "ssa",
        "after mem2reg",
        &m,
        &ssa_f,
        &Lesson::default(),
        &keys,
    );
    let mut out = stage(
        "out",
        "after mem2reg, phi-elim",
        &m,
        &out_f,
        &Lesson::default(),
        &keys,
    );
    mark_added(&ssa, &mut out);
    let ssa_fn = ssa_fn(&ssa_f);
    Ok(Front {
        lang: "llvm",
        function: functions[k].clone(),
        functions,
        lesson,
        fast_paths: o.flavour == Flavour::Pruned,
        stages: vec![input, ssa, out],
        ssa: ssa_fn,
        phi_names: HashMap::new(),
        counts: Flavour::ALL
            .iter()
            .map(|&fl| count(f, ctx, o, fl))
            .collect(),
        notes,
    })
}

/// Reads and verifies `src`; errors in the command line's words and positions.
fn parse(src: &str) -> Result<Module, UserError> {
    let m =
        llvm_reader::parse_with(Arc::from(src.as_bytes()), llvm_ir::Threads::ONE).map_err(|e| {
            UserError {
                message: e.message.clone(),
                line: Some(e.line),
                col: Some(e.col),
                rendered: e.render(FILE),
            }
        })?;
    let errs = llvm_ir::verify::verify_module_threads(&m, llvm_ir::Threads::ONE);
    if let Some(e) = errs.first() {
        let more = match errs.len() {
            1 => String::new(),
            n => format!(" (and {} more)", n - 1),
        };
        let message = format!("the module is not valid IR: {e}{more}");
        return Err(UserError {
            rendered: format!("{FILE}: error: {message}\n"),
            message,
            line: None,
            col: None,
        });
    }
    Ok(m)
}

/// mem2reg's options for the request, with flavour `fl` (remarks: why slots stay in memory).
/// Set field by field from the defaults, so that options added to the pass later need no
/// change here.
#[allow(clippy::field_reassign_with_default)]
fn m2r(o: &Options, fl: Flavour, remarks: bool) -> MOptions {
    let mut m = MOptions::default();
    m.flavour = match fl {
        Flavour::Minimal => MFlavour::Minimal,
        Flavour::SemiPruned => MFlavour::SemiPruned,
        Flavour::Pruned => MFlavour::Pruned,
    };
    m.promote_non_entry = !o.entry_only;
    m.phi_copy_limit = o.phi_copy_limit;
    m.remarks = remarks;
    m
}

/// The counts of flavour `fl`: mem2reg then phi-elim on a copy of `f`.
fn count(
    f: &Function,
    ctx: Option<&llvm_ir::ir::ModuleInfo>,
    o: &Options,
    fl: Flavour,
) -> FlavourCount {
    let mut g = f.clone();
    let r = promote_function(&mut g, ctx, &m2r(o, fl, false));
    let pe = eliminate_phis(
        &mut g,
        &POptions {
            lowering: Lowering::Copies,
            list: false,
            layout: None,
        },
    )
    .unwrap_or_default();
    FlavourCount {
        flavour: fl.name(),
        phis: r.stats.phis_inserted as usize,
        copies: pe.stats.copies,
        temps: pe.stats.temps,
        promoted: r.stats.promoted as usize,
        left: r.stats.not_promoted as usize,
    }
}

/// Layout positions of `f`'s blocks.
fn positions(f: &Function) -> HashMap<Block, u32> {
    f.layout
        .blocks()
        .enumerate()
        .map(|(k, b)| (b, k as u32))
        .collect()
}

/// The lesson of `f`: its variables are the `alloca`s the pass removed from `promoted` (a copy
/// of `f`, so instruction ids agree).
fn lesson(f: &Function, promoted: &Function) -> Lesson {
    let num = Numbering::compute(f);
    let pos = positions(f);
    let dfg = &f.dfg;
    let undef = "undef";
    let mut var_of: HashMap<Value, u32> = HashMap::new();
    let mut vars = Vec::new();
    for b in f.layout.blocks() {
        for i in f.layout.block_insts(b) {
            let Some(r) = dfg
                .inst_result(i)
                .filter(|_| dfg.opcode(i) == Opcode::Alloca)
            else {
                continue;
            };
            if !promoted.layout.is_inst_inserted(i) {
                var_of.insert(r, vars.len() as u32);
                vars.push(num.value_ref(f, r));
            }
        }
    }
    let mut l = Lesson {
        vars,
        undef: undef.into(),
        ..Lesson::default()
    };
    for b in f.layout.blocks() {
        l.blocks.push(num.block_ref(f, b));
        l.succs.push(
            f.successors(b)
                .iter()
                .filter_map(|s| pos.get(s).copied())
                .collect(),
        );
        let mut evs = Vec::new();
        for (k, i) in f.layout.block_insts(b).enumerate() {
            let vals = dfg.inst_values(i);
            let slot = |n: usize| {
                vals.get(n)
                    .and_then(|&v| var_of.get(&dfg.resolve(v)).copied())
            };
            let line = k as u32;
            let ev = match dfg.opcode(i) {
                _ if is_debug(f, i) => None,
                Opcode::Load => slot(0).zip(dfg.inst_result(i)).map(|(var, r)| Event {
                    var,
                    kind: Kind::Use,
                    line,
                    text: num.value_ref(f, r),
                }),
                Opcode::Store => slot(1).map(|var| Event {
                    var,
                    kind: Kind::Def,
                    line,
                    text: num.value_ref(f, dfg.resolve(vals[0])),
                }),
                Opcode::Call if is_lifetime_marker(f, i) => {
                    (0..vals.len()).find_map(slot).map(|var| Event {
                        var,
                        kind: Kind::Def,
                        line,
                        text: undef.into(),
                    })
                }
                _ => None,
            };
            evs.extend(ev);
        }
        l.events.push(evs);
    }
    l
}

/// The function at one stage: its text, and per block its lines (kinds from `l`'s accesses
/// when `l` is the function's lesson), key (from `keys`, by block id) and edges.
fn stage(
    id: &'static str,
    title: &str,
    _m: &Module,
    f: &Function,
    l: &Lesson,
    keys: &HashMap<Block, String>,
) -> Stage {
    let mut buf = Vec::new();
    print_function(f, &mut buf);
    let num = Numbering::compute(f);
    let pos = positions(f);
    let mut s = Stage {
        id,
        title: title.into(),
        text: String::from_utf8_lossy(&buf).into_owned(),
        ..Stage::default()
    };
    for (k, b) in f.layout.blocks().enumerate() {
        let name = num.block_ref(f, b);
        s.keys
            .push(keys.get(&b).cloned().unwrap_or_else(|| name.clone()));
        s.blocks.push(name);
        let evs = l.events.get(k).map_or(&[][..], |e| &e[..]);
        let lines: Vec<Line> = (f.layout.block_insts(b).enumerate())
            .map(|(n, i)| {
                let text = num.inst_text(f, i);
                let kind = match evs.iter().find(|e| e.line == n as u32) {
                    Some(e) if e.kind == Kind::Def => "def",
                    Some(_) => "use",
                    None if l
                        .vars
                        .iter()
                        .any(|v| text.starts_with(&format!("{v} = alloca"))) =>
                    {
                        "slot"
                    }
                    None => kind_of(&text),
                };
                line(&text, kind)
            })
            .collect();
        s.lines.push(lines);
        s.edges.extend(
            f.successors(b)
                .iter()
                .filter_map(|t| pos.get(t))
                .map(|&t| (k as u32, t)),
        );
    }
    s
}

/// The SSA function as phi elimination sees it.
fn ssa_fn(f: &Function) -> SsaFn {
    let num = Numbering::compute(f);
    let pos = positions(f);
    let dfg = &f.dfg;
    let mut s = SsaFn::default();
    for (k, b) in f.layout.blocks().enumerate() {
        s.blocks.push(num.block_ref(f, b));
        s.succs.push(
            f.successors(b)
                .iter()
                .filter_map(|t| pos.get(t).copied())
                .collect(),
        );
        let phis = (f.layout.block_insts(b))
            .take_while(|&i| dfg.opcode(i) == Opcode::Phi)
            .filter_map(|i| {
                let incoming = (dfg.inst_blocks(i).iter().zip(dfg.inst_values(i)))
                    .filter_map(|(p, &v)| Some((*pos.get(p)?, num.value_ref(f, dfg.resolve(v)))))
                    .collect();
                Some(PhiView {
                    dst: num.value_ref(f, dfg.inst_result(i)?),
                    incoming,
                })
            })
            .collect();
        s.phis.push(phis);
        for &t in f.successors(b) {
            if let Some(&tk) = pos.get(&t) {
                if !is_splittable(f, b, t) {
                    s.no_split.push((k as u32, tk));
                }
            }
        }
        if f.terminator(b).and_then(|t| dfg.inst_result(t)).is_some() {
            s.no_end.push(k as u32);
        }
    }
    s
}

/// Which φ of the SSA function is which variable's, block by block, among the variables
/// placed there (`placed[v]`): `%x.N` belongs to `%x`, `%.N` to an unnamed slot.
pub fn phi_names(l: &Lesson, s: &SsaFn, placed: &[Vec<ssa::Block>]) -> HashMap<(u32, u32), String> {
    let mut at: HashMap<u32, Vec<u32>> = HashMap::new();
    for (v, bs) in placed.iter().enumerate() {
        for b in bs {
            at.entry(b.0).or_default().push(v as u32);
        }
    }
    let mut out = HashMap::new();
    for (b, phis) in s.phis.iter().enumerate() {
        let Some(vars) = at.get(&(b as u32)) else {
            continue;
        };
        for p in phis {
            let name = p.dst.trim_start_matches('%');
            let var = vars.iter().copied().find(|&v| {
                let base = l.vars[v as usize].trim_start_matches('%');
                let base = if base.bytes().all(|c| c.is_ascii_digit()) {
                    ""
                } else {
                    base
                };
                let rest = name.strip_prefix(base).and_then(|r| r.strip_prefix('.'));
                rest.is_some_and(|r| !r.is_empty() && r.bytes().all(|c| c.is_ascii_digit()))
                    && !out.contains_key(&(b as u32, v))
            });
            if let Some(v) = var {
                out.insert((b as u32, v), p.dst.clone());
            }
        }
    }
    out
}
