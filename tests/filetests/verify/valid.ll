; ARGS: --passes=verify,require<verify> -verify-each
; Valid SSA with everything the rules special-case: loops, repeated edges and their phi entries,
; switches, invoke results on the normal edge (also through a phi), unreachable blocks using
; anything (themselves included), metadata uses of later values, vectors and aggregates.
declare i32 @g(i32)
declare i32 @__gxx_personality_v0(...)
declare void @llvm.dbg.value(metadata, metadata, metadata)

define i32 @f(i32 %n, i1 %c, <2 x i32> %v, { i32, i8 } %s) personality ptr @__gxx_personality_v0 {
entry:
  %e = extractelement <2 x i32> %v, i32 0
  %f = extractvalue { i32, i8 } %s, 0
  br i1 %c, label %loop, label %loop

loop:
  %i = phi i32 [ %e, %entry ], [ %e, %entry ], [ %i.next, %latch ]
  call void @llvm.dbg.value(metadata i32 %i.next, metadata !DILocalVariable(name: "i", scope: !1), metadata !DIExpression()), !dbg !3
  %i.next = add nsw i32 %i, 1
  %done = icmp sge i32 %i.next, %n
  switch i32 %i, label %latch [
    i32 0, label %call
    i32 1, label %call
  ]

call:
  %r = invoke i32 @g(i32 %i) to label %after unwind label %lpad

after:
  %rp = phi i32 [ %r, %call ]
  %sum = add i32 %rp, %r
  br label %latch

latch:
  %acc = phi i32 [ %sum, %after ], [ %f, %loop ]
  %sel = select i1 %done, i32 %acc, i32 %i
  br i1 %done, label %exit, label %loop

exit:
  ret i32 %sel

lpad:
  %lp = landingpad { ptr, i32 } cleanup
  resume { ptr, i32 } %lp

dead:
  %self = add i32 %self, %later
  %later = add i32 %sum, 1
  br label %dead
}

!llvm.module.flags = !{!0}
!0 = !{i32 2, !"Debug Info Version", i32 3}
!1 = distinct !DISubprogram(name: "f", unit: !2)
!2 = distinct !DICompileUnit(language: DW_LANG_C99, file: !4, emissionKind: FullDebug)
!3 = !DILocation(line: 1, scope: !1)
!4 = !DIFile(filename: "f.c", directory: "/")
