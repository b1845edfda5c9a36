; ARGS: --passes=check-debugify
; STDERR
; check-debugify on a module that debugify made and something then damaged: instructions
; without a location are reported (not the phi), lines and variables no instruction or debug
; value carries any more are missing, and a debug value whose value (a double, 64 bits) does
; not fit its variable's type (ty32) is an ERROR, the one finding that makes the verdict FAIL
; (a mis-sized debug value does not count as present either: variable 2 is missing too).
; opt-19 prints the same messages, except that it renumbers the metadata in the ERROR line
; (!13 for !19) as it prints the record on its own.
define i32 @f(i32 %x, i1 %c) !dbg !5 {
entry:
  %y = add i32 %x, 1, !dbg !19
    #dbg_value(i32 %y, !9, !DIExpression(), !19)
  %z = fadd double 1.000000e+00, 2.000000e+00
    #dbg_value(double %z, !11, !DIExpression(), !19)
  br i1 %c, label %a, label %b, !dbg !19

a:
  br label %b

b:
  %p = phi i32 [ %x, %entry ], [ %y, %a ]
  ret i32 %p, !dbg !20
}

!llvm.dbg.cu = !{!0}
!llvm.debugify = !{!2, !3}
!llvm.module.flags = !{!4}

!0 = distinct !DICompileUnit(language: DW_LANG_C, file: !1, producer: "debugify", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "f.ll", directory: "/")
!2 = !{i32 6}
!3 = !{i32 3}
!4 = !{i32 2, !"Debug Info Version", i32 3}
!5 = distinct !DISubprogram(name: "f", linkageName: "f", scope: null, file: !1, line: 1, type: !6, scopeLine: 1, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !8)
!6 = !DISubroutineType(types: !7)
!7 = !{}
!8 = !{!9, !11, !12}
!9 = !DILocalVariable(name: "1", scope: !5, file: !1, line: 1, type: !10)
!10 = !DIBasicType(name: "ty32", size: 32, encoding: DW_ATE_unsigned)
!11 = !DILocalVariable(name: "2", scope: !5, file: !1, line: 2, type: !10)
!12 = !DILocalVariable(name: "3", scope: !5, file: !1, line: 5, type: !10)
!19 = !DILocation(line: 1, column: 1, scope: !5)
!20 = !DILocation(line: 6, column: 1, scope: !5)
