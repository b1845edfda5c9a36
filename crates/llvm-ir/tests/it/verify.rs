//! Hand-written broken functions, one or more per kind of error: read with the reader where
//! LLVM's reader accepts them (the reader rejects type errors, so those are made by editing
//! operands afterwards), or built with [`FuncBuilder`].

use llvm_ir::ir::builder::define_function;
use llvm_ir::ir::{Block, Function, Inst, Module, Value};
use llvm_ir::ir::{FuncBuilder, FuncId, Opcode, Text, Type, TypeData, ValueDef};
use llvm_ir::verify::*;
use llvm_ir::Threads;

fn parse(src: &str) -> Module {
    llvm_reader::parse(src.as_bytes().to_vec().into()).expect("test input parses")
}

fn errors(src: &str) -> Vec<VerifyError> {
    verify_module_threads(&parse(src), Threads::ONE)
}

fn kinds(src: &str) -> Vec<ErrorKind> {
    errors(src).iter().map(|e| e.kind).collect()
}

#[track_caller]
fn assert_clean(src: &str) {
    let e = errors(src);
    assert!(e.is_empty(), "unexpected errors:\n{}", lines(&e));
}

fn lines(e: &[VerifyError]) -> String {
    e.iter().map(|e| format!("{e}\n")).collect()
}

#[test]
fn clean_function_has_no_errors() {
    assert_clean(
        "define i32 @f(i32 %a, i1 %c) {
entry:
  %x = add i32 %a, 1
  br i1 %c, label %t, label %j
t:
  %y = mul i32 %x, 2
  br label %j
j:
  %p = phi i32 [ %x, %entry ], [ %y, %t ]
  ret i32 %p
}",
    );
}

#[test]
fn use_before_def_in_one_block() {
    let e = errors(
        "define i32 @g(i32 %a) {
entry:
  %x = add i32 %y, 1
  %y = add i32 %a, 1
  ret i32 %x
}",
    );
    assert_eq!(e.len(), 1, "{}", lines(&e));
    assert_eq!(e[0].kind, ErrorKind::UndominatedUse);
    assert_eq!(
        e[0].to_string(),
        "in function @g, block %entry, at `%x = add i32 %y, 1`: Instruction does not dominate \
         all uses! (operand %y; defined by `%y = add i32 %a, 1` in %entry)"
    );
}

#[test]
fn use_in_a_block_the_definition_does_not_dominate() {
    let k = kinds(
        "define i32 @f(i1 %c) {
entry:
  br i1 %c, label %a, label %b
a:
  %x = add i32 1, 2
  br label %b
b:
  %y = add i32 %x, 1
  ret i32 %y
}",
    );
    assert_eq!(k, vec![ErrorKind::UndominatedUse]);
}

#[test]
fn phi_use_sits_at_the_end_of_the_incoming_block() {
    // %x is defined in %a, used by the phi on the edge %a -> %j: fine. The same value on the
    // edge %entry -> %j is not dominated.
    let e = errors(
        "define i32 @f(i1 %c) {
entry:
  br i1 %c, label %a, label %j
a:
  %x = add i32 1, 2
  br label %j
j:
  %p = phi i32 [ %x, %a ], [ %x, %entry ]
  ret i32 %p
}",
    );
    assert_eq!(e.len(), 1, "{}", lines(&e));
    assert_eq!(e[0].kind, ErrorKind::UndominatedUse);
    assert!(e[0].message.contains("incoming from %entry"), "{}", e[0]);
    // A loop: the phi uses a value defined later in its own block, on the back edge.
    assert_clean(
        "define void @f() {
entry:
  br label %l
l:
  %i = phi i32 [ 0, %entry ], [ %n, %l ]
  %n = add i32 %i, 1
  %d = icmp eq i32 %n, 10
  br i1 %d, label %x, label %l
x:
  ret void
}",
    );
}

#[test]
fn unreachable_blocks_may_use_anything_but_do_not_define_for_reachable_ones() {
    assert_clean(
        "define i32 @f(i32 %a) {
entry:
  ret i32 %a
dead:
  %x = add i32 %y, 1
  %y = add i32 %a, 1
  br label %dead2
dead2:
  %z = add i32 %x, %w
  %w = add i32 %z, 1
  br label %dead
}",
    );
    let k = kinds(
        "define i32 @f(i32 %a) {
entry:
  br label %b
dead:
  %x = add i32 %a, 1
  br label %b
b:
  %p = phi i32 [ %a, %entry ], [ %x, %dead ]
  %q = add i32 %x, 1
  ret i32 %q
}",
    );
    assert_eq!(k, vec![ErrorKind::UndominatedUse]);
}

#[test]
fn only_phis_use_their_own_value_except_in_unreachable_code() {
    let k = kinds(
        "define i32 @f() {
entry:
  %x = add i32 %x, 1
  ret i32 %x
}",
    );
    assert_eq!(k, vec![ErrorKind::SelfReference]);
    assert_clean(
        "define i32 @f() {
entry:
  ret i32 0
dead:
  %x = add i32 %x, 1
  ret i32 %x
}",
    );
}

#[test]
fn phi_entries_must_match_predecessor_edges() {
    let e = errors(
        "define i32 @f(i1 %c) {
entry:
  br i1 %c, label %a, label %j
a:
  br label %j
b:
  br label %a
j:
  %p = phi i32 [ 1, %a ]
  %q = phi i32 [ 1, %a ], [ 2, %entry ], [ 3, %b ]
  %r = phi i32 [ 1, %a ], [ 2, %entry ], [ 3, %entry ]
  ret i32 %p
}",
    );
    let k: Vec<ErrorKind> = e.iter().map(|e| e.kind).collect();
    assert_eq!(
        k,
        vec![
            ErrorKind::PhiEntries,
            ErrorKind::PhiEntries,
            ErrorKind::PhiConflict,
            ErrorKind::PhiEntries
        ],
        "{}",
        lines(&e)
    );
    assert!(
        e[0].message.contains("no entry for predecessor %entry"),
        "{}",
        e[0]
    );
    assert!(e[1].message.contains("%b is not a predecessor"), "{}", e[1]);
    assert!(e[2].message.contains("%entry: 2 and 3"), "{}", e[2]);
    assert!(
        e[3].message
            .contains("2 entries for %entry, which branches here 1 time"),
        "{}",
        e[3]
    );
}

#[test]
fn repeated_edges_need_one_entry_each_with_one_value() {
    let f = |entries: &str| {
        format!(
            "define i32 @f(i1 %c, i32 %s) {{
entry:
  br i1 %c, label %j, label %j
j:
  %p = phi i32 {entries}
  switch i32 %s, label %k [ i32 1, label %k
                            i32 2, label %x ]
k:
  %q = phi i32 [ 7, %j ], [ 7, %j ]
  br label %x
x:
  ret i32 %p
}}"
        )
    };
    assert_clean(&f("[ 0, %entry ], [ 0, %entry ]"));
    assert_eq!(kinds(&f("[ 0, %entry ]")), vec![ErrorKind::PhiEntries]);
    assert_eq!(
        kinds(&f("[ 0, %entry ], [ 1, %entry ]")),
        vec![ErrorKind::PhiConflict]
    );
    assert_eq!(
        kinds(&f("[ %s, %entry ], [ %s, %entry ], [ %s, %entry ]")),
        vec![ErrorKind::PhiEntries]
    );
}

#[test]
fn phis_must_come_first() {
    let k = kinds(
        "define i32 @f() {
entry:
  br label %j
j:
  %a = add i32 1, 2
  %p = phi i32 [ 0, %entry ]
  ret i32 %p
}",
    );
    assert_eq!(k, vec![ErrorKind::PhiNotAtHead]);
}

#[test]
fn entry_block_must_not_have_predecessors() {
    let e = errors(
        "define void @f(i1 %c) {
entry:
  br i1 %c, label %entry, label %x
x:
  br label %entry
}",
    );
    assert_eq!(e.len(), 1, "{}", lines(&e));
    assert_eq!(e[0].kind, ErrorKind::EntryHasPredecessors);
    assert_eq!(
        e[0].to_string(),
        "in function @f, block %entry: Entry block to function must not have predecessors! \
         (edges from %entry, %x)"
    );
}

#[test]
fn every_error_is_reported_in_order() {
    let e = errors(
        "define i32 @f(i1 %c) {
entry:
  %x = add i32 %y, 1
  %y = add i32 %z, 1
  %z = add i32 1, 1
  br i1 %c, label %entry, label %j
j:
  %a = add i32 0, 0
  %p = phi i32 [ %x, %entry ]
  ret i32 %p
}",
    );
    let k: Vec<ErrorKind> = e.iter().map(|e| e.kind).collect();
    assert_eq!(
        k,
        vec![
            ErrorKind::EntryHasPredecessors,
            ErrorKind::UndominatedUse,
            ErrorKind::UndominatedUse,
            ErrorKind::PhiNotAtHead,
        ],
        "{}",
        lines(&e)
    );
    // Numbered names in messages are the printer's.
    let e = errors(
        "define i32 @h(i32) {
  %2 = add i32 %3, 1
  %3 = add i32 %0, 1
  ret i32 %2
}",
    );
    assert_eq!(
        e[0].to_string(),
        "in function @h, block %1, at `%2 = add i32 %3, 1`: Instruction does not dominate all \
         uses! (operand %3; defined by `%3 = add i32 %0, 1` in %1)"
    );
}

const EH: &str = "declare i32 @g()
declare i32 @__gxx_personality_v0(...)
define i32 @f() personality ptr @__gxx_personality_v0 {
entry:
  %r = invoke i32 @g() to label %ok unwind label %bad
ok:
  %p = phi i32 [ %r, %entry ]
  ret i32 %r
bad:
  %lp = landingpad { ptr, i32 } cleanup
  USE
  ret i32 0
}";

#[test]
fn invoke_results_are_defined_on_the_normal_edge() {
    assert_clean(&EH.replace("USE", "%u = add i32 0, 0"));
    let k = kinds(&EH.replace("USE", "%u = add i32 %r, 0"));
    assert_eq!(k, vec![ErrorKind::UndominatedUse]);
    let k = kinds(&EH.replace("  USE\n", "").replace(
        "  %lp = landingpad",
        "  %u = add i32 0, 0\n  %lp = landingpad",
    ));
    assert_eq!(k, vec![ErrorKind::EhPadNotFirst]);
}

#[test]
fn metadata_uses_are_not_checked() {
    assert_clean(
        "declare void @llvm.dbg.value(metadata, metadata, metadata)
define i32 @f(i32 %a) !dbg !4 {
entry:
  call void @llvm.dbg.value(metadata i32 %x, metadata !9, metadata !DIExpression()), !dbg !11
  %x = add i32 %a, 1
  ret i32 %x
}
!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3}
!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, producer: \"t\", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: \"t.c\", directory: \"/\")
!3 = !{i32 2, !\"Debug Info Version\", i32 3}
!4 = distinct !DISubprogram(name: \"f\", scope: !1, file: !1, line: 1, type: !5, unit: !0)
!5 = !DISubroutineType(types: !6)
!6 = !{null}
!9 = !DILocalVariable(name: \"x\", scope: !4, file: !1, line: 1, type: !10)
!10 = !DIBasicType(name: \"int\", size: 32, encoding: DW_ATE_signed)
!11 = !DILocation(line: 1, scope: !4)",
    );
}

/// Reads `src` (one function) and lets `edit` change it; returns the errors.
fn edited(src: &str, edit: impl FnOnce(&mut Function)) -> Vec<VerifyError> {
    let mut m = parse(src);
    edit(&mut m.functions[FuncId(0)]);
    verify_module_threads(&m, Threads::ONE)
}

/// The `n`-th placed instruction of `func`.
fn nth(func: &Function, n: usize) -> Inst {
    func.layout
        .blocks()
        .flat_map(|b| func.layout.block_insts(b))
        .nth(n)
        .expect("instruction exists")
}

/// A new constant of `bits`-wide integer type.
fn int_const(func: &mut Function, bits: u32, text: &str) -> Value {
    let t = func.types.int(bits);
    func.dfg.constant(t, text)
}

const TYPES: &str = "declare i32 @callee(i32, metadata)
define i32 @f(i32 %a, ptr %p, i1 %c) {
entry:
  %x = add i32 %a, 1
  %k = icmp eq i32 %x, %a
  store i32 %x, ptr %p
  %l = load i32, ptr %p
  %s = select i1 %c, i32 %x, i32 %l
  %r = call i32 @callee(i32 %s, metadata !{})
  switch i32 %r, label %j [ i32 1, label %j ]
j:
  %ph = phi i32 [ %r, %entry ], [ %r, %entry ]
  br i1 %c, label %e, label %e
e:
  ret i32 %ph
}";

/// Replaces value operands `ks` of instruction `n` of [`TYPES`] by an `i<bits>` constant and
/// expects one type error per replaced operand, mentioning `contains`.
#[track_caller]
fn assert_type_error(n: usize, ks: &[usize], bits: u32, contains: &str) {
    let e = edited(TYPES, |f| {
        let c = int_const(f, bits, "0");
        let i = nth(f, n);
        for &k in ks {
            f.dfg.inst_values_mut(i)[k] = c;
        }
    });
    assert_eq!(e.len(), ks.len(), "{}", lines(&e));
    assert!(
        e.iter()
            .all(|e| e.kind == ErrorKind::TypeMismatch && e.message.contains(contains)),
        "{}",
        lines(&e)
    );
}

#[test]
fn operand_types_are_checked_per_opcode() {
    assert!(edited(TYPES, |_| {}).is_empty());
    assert_type_error(0, &[1], 64, "Both operands to a binary operator");
    assert_type_error(1, &[0], 64, "Both operands to ICmp");
    assert_type_error(2, &[1], 64, "Store operand must be a pointer");
    assert_type_error(3, &[0], 32, "Load operand must be a pointer");
    assert_type_error(4, &[0], 8, "Invalid operands for select");
    assert_type_error(4, &[2], 8, "Select values must have same type");
    assert_type_error(5, &[1], 64, "Call parameter type does not match");
    assert_type_error(5, &[0], 32, "Called function must be a pointer");
    assert_type_error(6, &[1], 64, "Switch constants must all be same type");
    assert_type_error(7, &[0, 1], 64, "PHI node operands are not the same type");
    assert_type_error(8, &[0], 32, "Branch condition is not 'i1' type!");
    assert_type_error(9, &[0], 64, "Function return type does not match");
    // A metadata parameter takes anything.
    assert!(edited(TYPES, |f| {
        let c = int_const(f, 64, "0");
        f.dfg.inst_values_mut(nth(f, 5))[2] = c;
    })
    .is_empty());
}

#[test]
fn typed_pointers_check_pointees_and_call_arity() {
    let src = "declare i32 @g(i32)
define void @f(i32* %p, i64* %q) {
entry:
  store i32 1, i32* %p
  %v = load i32, i32* %p
  %r = call i32 @g(i32 %v)
  ret void
}";
    let e = edited(src, |f| {
        let (q, s, l, c) = (f.params[1], nth(f, 0), nth(f, 1), nth(f, 2));
        f.dfg.inst_values_mut(s)[1] = q;
        f.dfg.inst_values_mut(l)[0] = q;
        f.dfg.insts[c].extra = 0;
    });
    let m: Vec<&str> = e.iter().map(|e| e.message.as_str()).collect();
    assert_eq!(e.len(), 3, "{}", lines(&e));
    assert!(m[0].starts_with("Stored value type does not match pointer operand type!"));
    assert!(m[1].starts_with("Load result type does not match pointer operand type!"));
    assert!(m[2].starts_with("Incorrect number of arguments"));
}

/// `i32 @f(i32 %a)` with blocks `entry` and `b`, built empty.
fn built() -> (Module, Block, Block) {
    let mut m = Module::new(Vec::new().into());
    let i32t = m.types_mut().int(32);
    let f = define_function(&mut m, "f", i32t, &[(i32t, "a")]);
    let func = &mut m.functions[f];
    let mut fb = FuncBuilder::new(func);
    let (e, b) = (fb.append_block(Text::NONE), fb.append_block(Text::NONE));
    (m, e, b)
}

fn func0(m: &mut Module) -> &mut Function {
    &mut m.functions[FuncId(0)]
}

#[test]
fn block_structure_is_checked() {
    let (mut m, e, b) = built();
    let f = func0(&mut m);
    let a = f.params[0];
    let mut fb = FuncBuilder::new(f);
    let add = fb.make_binary(Opcode::Add, a, a, Text::NONE);
    let j = fb.make_jump(b);
    let r = fb.func.dfg.inst_result(add).unwrap();
    let ret = fb.make_ret(Some(r));
    // entry: br label %1 ; %2 = add ; (no terminator at the end)
    f.layout.append_inst(j, e);
    f.layout.append_inst(add, e);
    let errs = verify_module_threads(&m, Threads::ONE);
    let k: Vec<ErrorKind> = errs.iter().map(|e| e.kind).collect();
    assert_eq!(
        k,
        vec![
            ErrorKind::NoTerminator,
            ErrorKind::TerminatorInMiddle,
            ErrorKind::EmptyBlock
        ],
        "{}",
        lines(&errs)
    );
    let f = func0(&mut m);
    f.layout.remove_inst(add);
    f.layout.append_inst(ret, b);
    // %1 returns %2, whose instruction is no longer placed.
    let errs = verify_module_threads(&m, Threads::ONE);
    assert_eq!(errs.len(), 1, "{}", lines(&errs));
    assert_eq!(errs[0].kind, ErrorKind::DetachedOperand);
    let f = func0(&mut m);
    f.layout.insert_inst_before(add, ret);
    assert!(verify_module_threads(&m, Threads::ONE).is_empty());
}

#[test]
fn copies_are_allowed_and_typed() {
    let (mut m, e, _b) = built();
    let f = func0(&mut m);
    let a = f.params[0];
    let mut fb = FuncBuilder::new(f);
    let c = fb.make_copy(a, Text::NONE);
    let r = fb.func.dfg.inst_result(c).unwrap();
    let ret = fb.make_ret(Some(r));
    f.layout.append_inst(c, e);
    f.layout.append_inst(ret, e);
    let last = f.layout.blocks().last().unwrap();
    f.layout.remove_block(last);
    assert!(verify_module_threads(&m, Threads::ONE).is_empty());
    let f = func0(&mut m);
    let i64t = f.types.int(64);
    f.dfg.values[r].ty = i64t;
    let k: Vec<ErrorKind> = verify_module_threads(&m, Threads::ONE)
        .iter()
        .map(|e| e.kind)
        .collect();
    assert_eq!(k, vec![ErrorKind::TypeMismatch, ErrorKind::TypeMismatch]);
}

#[test]
fn handles_out_of_range_are_reported_without_panicking() {
    let src = "define i32 @f(i32 %a) {
entry:
  %x = add i32 %a, 1
  br label %b
b:
  ret i32 %x
}";
    // A value id of another (bigger) function.
    let e = edited(src, |f| {
        let i = nth(f, 0);
        f.dfg.inst_values_mut(i)[0] = Value(9999);
    });
    assert_eq!(e.len(), 1, "{}", lines(&e));
    assert_eq!(e[0].kind, ErrorKind::BadHandle);
    assert!(e[0].message.contains("v9999 out of range"), "{}", e[0]);
    // A branch to a block that is not in the layout: reported alone (no CFG is built).
    let e = edited(src, |f| {
        let nb = f.dfg.make_block(Text::NONE);
        let i = nth(f, 1);
        f.dfg.inst_blocks_mut(i)[0] = nb;
    });
    assert_eq!(e.len(), 1, "{}", lines(&e));
    assert!(e[0]
        .message
        .contains("not a block of this function's layout"));
    // A result whose value says it is defined elsewhere.
    let e = edited(src, |f| {
        let r = f.dfg.inst_result(nth(f, 0)).unwrap();
        f.dfg.values[r].def = ValueDef::Param(0);
    });
    assert!(e.iter().all(|e| e.kind == ErrorKind::BadHandle) && !e.is_empty());
    // A template hole past the operands; a parameter whose type id is out of range.
    let e = edited(src, |f| {
        let i = nth(f, 0);
        let r = f.dfg.insts[i].pieces;
        f.dfg.pieces[r.span()][1] = llvm_ir::ir::Piece::Value(7);
    });
    assert_eq!(e.len(), 1, "{}", lines(&e));
    assert!(e[0].message.contains("template piece"), "{}", e[0]);
    let e = edited(src, |f| {
        f.dfg.values[f.params[0]].ty = <Type as llvm_ir::entity::EntityRef>::new(1_000_000);
    });
    assert_eq!(e.len(), 1, "{}", lines(&e));
    assert!(e[0].message.contains("parameter 0"), "{}", e[0]);
}

#[test]
fn wrong_operand_counts_are_reported() {
    let src = "define i32 @f(i32 %a) {
entry:
  %x = add i32 %a, 1
  ret i32 %x
}";
    let e = edited(src, |f| {
        let i = nth(f, 0);
        f.dfg.insts[i].values.len = 1;
        let t = f.dfg.insts[i].pieces;
        f.dfg.insts[i].pieces.len = t.len - 2;
    });
    assert_eq!(e.len(), 1, "{}", lines(&e));
    assert_eq!(e[0].kind, ErrorKind::OperandCount);
}

#[test]
fn struct_types_compare_by_identity() {
    let src = "%T = type { i32, i8 }
define %T @f(%T %s) {
entry:
  %v = insertvalue %T %s, i32 1, 0
  %w = extractvalue %T %v, 0
  ret %T %v
}";
    assert!(edited(src, |_| {}).is_empty());
    let e = edited(src, |f| {
        let i32t = f.types.int(32);
        let lit = f.types.intern(TypeData::Struct {
            fields: vec![i32t].into(),
            packed: false,
        });
        let r = f.dfg.inst_result(nth(f, 0)).unwrap();
        f.dfg.values[r].ty = lit;
    });
    let k: Vec<ErrorKind> = e.iter().map(|e| e.kind).collect();
    assert_eq!(
        k,
        vec![ErrorKind::TypeMismatch, ErrorKind::TypeMismatch],
        "{}",
        lines(&e)
    );
    assert!(e[0]
        .message
        .starts_with("insertvalue result type must match"));
    assert!(e[1]
        .message
        .starts_with("Function return type does not match"));
}
