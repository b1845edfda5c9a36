; ARGS: --passes=mem2reg
; SAME-AS-OPT: -passes=mem2reg
; Typed pointers (`i32*`), as clang-14 writes: the clamp function of debug-records.ll by
; clang-14 -g -O0 -Xclang -disable-O0-optnone -fno-discard-value-names -fno-ident (directory
; "."), and @lifetime_cast: a slot whose lifetime markers take it through a bitcast to i8*, as
; clang-14 emits at -O1 -Xclang -disable-llvm-passes; the markers and the bitcast go. The
; filetest runner verifies this output with opt-14. Same module as opt-14 -passes=mem2reg -S
; once both are printed by opt-14; ours keeps the input's metadata numbers and declares
; @llvm.dbg.value at the end of the module, which opt-14 needs.
source_filename = "clamp.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; Function Attrs: noinline nounwind uwtable
define dso_local i32 @clamp(i32 noundef %x, i32 noundef %lo) #0 !dbg !9 {
entry:
  %x.addr = alloca i32, align 4
  %lo.addr = alloca i32, align 4
  %r = alloca i32, align 4
  store i32 %x, i32* %x.addr, align 4
  call void @llvm.dbg.declare(metadata i32* %x.addr, metadata !14, metadata !DIExpression()), !dbg !15
  store i32 %lo, i32* %lo.addr, align 4
  call void @llvm.dbg.declare(metadata i32* %lo.addr, metadata !16, metadata !DIExpression()), !dbg !17
  call void @llvm.dbg.declare(metadata i32* %r, metadata !18, metadata !DIExpression()), !dbg !19
  %0 = load i32, i32* %x.addr, align 4, !dbg !20
  store i32 %0, i32* %r, align 4, !dbg !19
  %1 = load i32, i32* %r, align 4, !dbg !21
  %2 = load i32, i32* %lo.addr, align 4, !dbg !23
  %cmp = icmp slt i32 %1, %2, !dbg !24
  br i1 %cmp, label %if.then, label %if.end, !dbg !25

if.then:                                          ; preds = %entry
  %3 = load i32, i32* %lo.addr, align 4, !dbg !26
  store i32 %3, i32* %r, align 4, !dbg !27
  br label %if.end, !dbg !28

if.end:                                           ; preds = %if.then, %entry
  %4 = load i32, i32* %r, align 4, !dbg !29
  ret i32 %4, !dbg !30
}

; Function Attrs: nofree nosync nounwind readnone speculatable willreturn
declare void @llvm.dbg.declare(metadata, metadata, metadata) #1

define i32 @lifetime_cast(i32 %v) {
entry:
  %x = alloca i32, align 4
  %raw = bitcast i32* %x to i8*
  call void @llvm.lifetime.start.p0i8(i64 4, i8* %raw)
  store i32 %v, i32* %x, align 4
  %l = load i32, i32* %x, align 4
  call void @llvm.lifetime.end.p0i8(i64 4, i8* %raw)
  ret i32 %l
}

declare void @llvm.lifetime.start.p0i8(i64 immarg, i8* nocapture)
declare void @llvm.lifetime.end.p0i8(i64 immarg, i8* nocapture)

attributes #0 = { noinline nounwind uwtable "frame-pointer"="all" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #1 = { nofree nosync nounwind readnone speculatable willreturn }

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2, !3, !4, !5, !6, !7, !8}

!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug, splitDebugInlining: false, nameTableKind: None)
!1 = !DIFile(filename: "clamp.c", directory: ".", checksumkind: CSK_MD5, checksum: "e8899ec81aabfaf32db1d8c9f9bc6edb")
!2 = !{i32 7, !"Dwarf Version", i32 5}
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !{i32 1, !"wchar_size", i32 4}
!5 = !{i32 7, !"PIC Level", i32 2}
!6 = !{i32 7, !"PIE Level", i32 2}
!7 = !{i32 7, !"uwtable", i32 1}
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
