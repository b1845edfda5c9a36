; ARGS: --passes=mem2reg --undef-rules=newer
; Under --undef-rules=newer a lifetime marker acts as a store of undef for the loads (see
; lifetime-kill.ll), but not for the debugger: as in opt-19, the marker gets no #dbg_value,
; so the declared variable %t has debug values only at its real stores and phis.
; The load in %latch takes phi(%i, undef); opt-19 carries %t around the loop in a second phi.
define i32 @f(i32 %n, i1 %c) !dbg !5 {
entry:
  %t = alloca i32, align 4
  br label %loop

loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %latch ]
  call void @llvm.lifetime.start.p0(i64 4, ptr %t), !dbg !10
    #dbg_declare(ptr %t, !9, !DIExpression(), !10)
  br i1 %c, label %set, label %latch

set:
  store i32 %i, ptr %t, align 4, !dbg !10
  br label %latch

latch:
  %v = load i32, ptr %t, align 4, !dbg !10
  call void @use(i32 %v), !dbg !10
  call void @llvm.lifetime.end.p0(i64 4, ptr %t), !dbg !10
  %i1 = add i32 %i, 1
  %done = icmp eq i32 %i1, %n
  br i1 %done, label %exit, label %loop

exit:
  ret i32 %i1
}

declare void @use(i32)
declare void @llvm.lifetime.start.p0(i64 immarg, ptr nocapture)
declare void @llvm.lifetime.end.p0(i64 immarg, ptr nocapture)

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3, !4}

!0 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1, producer: "hand", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "f.c", directory: "/tmp")
!2 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !{i32 7, !"Dwarf Version", i32 5}
!5 = distinct !DISubprogram(name: "f", scope: !1, file: !1, line: 1, type: !6, scopeLine: 1, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !8)
!6 = !DISubroutineType(types: !7)
!7 = !{!2, !2}
!8 = !{}
!9 = !DILocalVariable(name: "t", scope: !5, file: !1, line: 3, type: !2)
!10 = !DILocation(line: 3, column: 9, scope: !5)
