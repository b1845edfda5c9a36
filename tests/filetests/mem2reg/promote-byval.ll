; ARGS: --passes=mem2reg --promote-byval --explain
; STDERR
; --promote-byval: a byval argument is the callee's own copy of the caller's value, so one
; whose address does not escape (only whole loads and stores of its byval type, as a
; promotable slot) is promoted like a slot: its entry value is loaded once at the top of the
; entry block (%v.val, with the argument's align), and its loads and stores become SSA values.
; @vec: clang passes a vector that does not fit in registers so; its declare becomes debug
; values, and the store in %then needs a phi at %join.
; @store_first: every load follows a store (5), so the entry value is not loaded at all.
; @unnamed: an unnamed argument's entry value is unnamed too; without `align` it loads with
; align 1.
; @gep, @call, @part: the address escapes, or the load reads part of the value: left alone,
; and --explain names the blocking use. Not an LLVM option (NVIDIA's NVVM has a pass of that
; name, byval-mem2reg; opt-19 has none).
%struct.S = type { i32, i32 }

define i32 @vec(ptr noundef byval(<4 x i32>) align 16 %v, i1 %c) !dbg !5 {
entry:
  call void @llvm.dbg.declare(metadata ptr %v, metadata !10, metadata !DIExpression()), !dbg !12
  %a = load <4 x i32>, ptr %v, align 16
  br i1 %c, label %then, label %join

then:
  %b = add <4 x i32> %a, <i32 1, i32 1, i32 1, i32 1>
  store <4 x i32> %b, ptr %v, align 16
  br label %join

join:
  %l = load <4 x i32>, ptr %v, align 16
  %e = extractelement <4 x i32> %l, i32 0
  ret i32 %e
}

define i32 @store_first(ptr byval(i32) align 4 %p) {
entry:
  store i32 5, ptr %p, align 4
  %m = load i32, ptr %p, align 4
  ret i32 %m
}

define i64 @unnamed(ptr byval(%struct.S) %0) {
  %2 = load %struct.S, ptr %0, align 4
  %3 = extractvalue %struct.S %2, 1
  %4 = sext i32 %3 to i64
  ret i64 %4
}

define i32 @gep(ptr byval(%struct.S) align 4 %s) {
entry:
  %f = getelementptr inbounds %struct.S, ptr %s, i32 0, i32 1
  %l = load i32, ptr %f, align 4
  ret i32 %l
}

define i32 @call(ptr byval(i32) align 4 %p) {
entry:
  %l = load i32, ptr %p, align 4
  call void @escape(ptr %p)
  ret i32 %l
}

define i32 @part(ptr byval(%struct.S) align 4 %s) {
entry:
  %l = load i32, ptr %s, align 4
  ret i32 %l
}

declare void @escape(ptr)
declare void @llvm.dbg.declare(metadata, metadata, metadata)

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3}
!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, producer: "hand", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "v.c", directory: "/tmp")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!5 = distinct !DISubprogram(name: "vec", scope: !1, file: !1, line: 1, type: !6, scopeLine: 1, spFlags: DISPFlagDefinition, unit: !0)
!6 = !DISubroutineType(types: !7)
!7 = !{null}
!8 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!9 = !DICompositeType(tag: DW_TAG_array_type, baseType: !8, size: 128, flags: DIFlagVector, elements: !11)
!11 = !{!13}
!13 = !DISubrange(count: 4)
!10 = !DILocalVariable(name: "v", arg: 1, scope: !5, file: !1, line: 1, type: !9)
!12 = !DILocation(line: 1, column: 1, scope: !5)
