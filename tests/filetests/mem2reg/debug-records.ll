; ARGS: --passes=mem2reg
; SAME-AS-OPT: -passes=mem2reg
; Debug info as debug records (`#dbg_declare`, what clang-19 -g writes; this is
; clang-19 -g -O0 -Xclang -disable-O0-optnone -fno-discard-value-names -fno-ident output of
; `int clamp(int x, int lo) { int r = x; if (r < lo) r = lo; return r; }`, directory "."). The
; output keeps the input's form: each #dbg_declare of a promoted slot becomes a #dbg_value of
; the stored value after each store, and one after the phi at %if.end. The #dbg_values get a
; line-0 location in the variable's scope (LLVM's getDebugValueLoc), the phi the merge of the
; locations of the stores that reach it (line 0 too, as they differ): new node !31.
; opt-19 -passes=mem2reg -S gives the same module once both are printed by opt (metadata
; renumbered); we differ on purpose in keeping the input's metadata numbers, appending new
; nodes after them.
source_filename = "clamp.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; Function Attrs: noinline nounwind uwtable
define dso_local i32 @clamp(i32 noundef %x, i32 noundef %lo) #0 !dbg !9 {
entry:
  %x.addr = alloca i32, align 4
  %lo.addr = alloca i32, align 4
  %r = alloca i32, align 4
  store i32 %x, ptr %x.addr, align 4
    #dbg_declare(ptr %x.addr, !14, !DIExpression(), !15)
  store i32 %lo, ptr %lo.addr, align 4
    #dbg_declare(ptr %lo.addr, !16, !DIExpression(), !17)
    #dbg_declare(ptr %r, !18, !DIExpression(), !19)
  %0 = load i32, ptr %x.addr, align 4, !dbg !20
  store i32 %0, ptr %r, align 4, !dbg !19
  %1 = load i32, ptr %r, align 4, !dbg !21
  %2 = load i32, ptr %lo.addr, align 4, !dbg !23
  %cmp = icmp slt i32 %1, %2, !dbg !24
  br i1 %cmp, label %if.then, label %if.end, !dbg !25

if.then:                                          ; preds = %entry
  %3 = load i32, ptr %lo.addr, align 4, !dbg !26
  store i32 %3, ptr %r, align 4, !dbg !27
  br label %if.end, !dbg !28

if.end:                                           ; preds = %if.then, %entry
  %4 = load i32, ptr %r, align 4, !dbg !29
  ret i32 %4, !dbg !30
}

attributes #0 = { noinline nounwind uwtable "frame-pointer"="all" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2, !3, !4, !5, !6, !7, !8}

!0 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1, isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug, splitDebugInlining: false, nameTableKind: None)
!1 = !DIFile(filename: "clamp.c", directory: ".", checksumkind: CSK_MD5, checksum: "e8899ec81aabfaf32db1d8c9f9bc6edb")
!2 = !{i32 7, !"Dwarf Version", i32 5}
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !{i32 1, !"wchar_size", i32 4}
!5 = !{i32 8, !"PIC Level", i32 2}
!6 = !{i32 7, !"PIE Level", i32 2}
!7 = !{i32 7, !"uwtable", i32 2}
!8 = !{i32 7, !"frame-pointer", i32 2}
!9 = distinct !DISubprogram(name: "clamp", scope: !1, file: !1, line: 1, type: !10, scopeLine: 1, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !0, retainedNodes: !13)
!10 = !DISubroutineType(types: !11)
!11 = !{!12, !12, !12}
!12 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!13 = !{}
!14 = !DILocalVariable(name: "x", arg: 1, scope: !9, file: !1, line: 1, type: !12)
!15 = !DILocation(line: 1, column: 15, scope: !9)
!16 = !DILocalVariable(name: "lo", arg: 2, scope: !9, file: !1, line: 1, type: !12)
!17 = !DILocation(line: 1, column: 22, scope: !9)
!18 = !DILocalVariable(name: "r", scope: !9, file: !1, line: 2, type: !12)
!19 = !DILocation(line: 2, column: 9, scope: !9)
!20 = !DILocation(line: 2, column: 13, scope: !9)
!21 = !DILocation(line: 3, column: 9, scope: !22)
!22 = distinct !DILexicalBlock(scope: !9, file: !1, line: 3, column: 9)
!23 = !DILocation(line: 3, column: 13, scope: !22)
!24 = !DILocation(line: 3, column: 11, scope: !22)
!25 = !DILocation(line: 3, column: 9, scope: !9)
!26 = !DILocation(line: 4, column: 13, scope: !22)
!27 = !DILocation(line: 4, column: 11, scope: !22)
!28 = !DILocation(line: 4, column: 9, scope: !22)
!29 = !DILocation(line: 5, column: 12, scope: !9)
!30 = !DILocation(line: 5, column: 5, scope: !9)
