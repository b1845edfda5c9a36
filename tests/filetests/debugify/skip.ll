; ARGS: --passes=debugify,check-debugify
; STDERR
; A module that has debug info already is left alone, as by LLVM ("ModuleDebugify: Skipping
; module with debug info"); check-debugify then finds no !llvm.debugify and says so.
define i32 @f(i32 %x) !dbg !3 {
  %y = add i32 %x, 1, !dbg !5
  ret i32 %y, !dbg !5
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2}

!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, emissionKind: FullDebug)
!1 = !DIFile(filename: "f.c", directory: "/")
!2 = !{i32 2, !"Debug Info Version", i32 3}
!3 = distinct !DISubprogram(name: "f", scope: !1, file: !1, line: 1, type: !4, spFlags: DISPFlagDefinition, unit: !0)
!4 = !DISubroutineType(types: !{})
!5 = !DILocation(line: 1, scope: !3)
