; ARGS: --passes=mem2reg --undef-rules=newer --uninit=freeze
; --uninit=freeze: every read of a slot that no store reaches sees one `freeze <ty> poison`
; of that slot: one arbitrary but fixed value per slot and function (here %x's two undefined
; reads, on the first iteration and after the lifetime marker (read as a store under
; --undef-rules=newer), see the same %x.fr). The
; freezes go into the entry block after its leading allocas (%keep stays in memory: its
; address escapes), where they dominate every use, in the order the slots need them.
; A freeze nothing but a debug value would read is deleted (%y: every load of it follows a
; store, and its lifetime marker gets no debug value, so -g never changes the code); so is
; one for a slot whose every read is defined (%z). @unnamed: an unnamed slot's freeze is
; unnamed too.
; Not an LLVM option: opt-19 reads undef at each of these places.
define i32 @f(i32 %n) !dbg !5 {
entry:
  %keep = alloca i32, align 4
  %x = alloca i32, align 4
  %y = alloca i32, align 4
  %z = alloca i32, align 4
  call void @escape(ptr %keep)
  store i32 0, ptr %z, align 4
  call void @llvm.dbg.declare(metadata ptr %y, metadata !10, metadata !DIExpression()), !dbg !12
  br label %head

head:
  %iv = load i32, ptr %z, align 4
  %xv = load i32, ptr %x, align 4
  %done = icmp eq i32 %iv, %n
  br i1 %done, label %exit, label %body

body:
  store i32 %iv, ptr %y, align 4, !dbg !12
  %yv = load i32, ptr %y, align 4
  call void @llvm.lifetime.end.p0(i64 4, ptr %y)
  call void @llvm.lifetime.end.p0(i64 4, ptr %x)
  %c = icmp eq i32 %xv, %yv
  br i1 %c, label %set, label %latch

set:
  store i32 %iv, ptr %x, align 4
  store i32 %n, ptr %y, align 4, !dbg !12
  br label %latch

latch:
  %next = add i32 %iv, 1
  store i32 %next, ptr %z, align 4
  br label %head

exit:
  %last = load i32, ptr %x, align 4
  ret i32 %last
}

define i32 @unnamed(i1 %c) {
entry:
  %0 = alloca i32, align 4
  br i1 %c, label %then, label %join

then:
  %g = call i32 @get()
  store i32 %g, ptr %0, align 4
  br label %join

join:
  %1 = load i32, ptr %0, align 4
  ret i32 %1
}

declare void @escape(ptr)
declare i32 @get()
declare void @llvm.dbg.declare(metadata, metadata, metadata)
declare void @llvm.lifetime.end.p0(i64, ptr)

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3}
!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, producer: "hand", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "f.c", directory: "/tmp")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!5 = distinct !DISubprogram(name: "f", scope: !1, file: !1, line: 1, type: !6, scopeLine: 1, spFlags: DISPFlagDefinition, unit: !0)
!6 = !DISubroutineType(types: !7)
!7 = !{null}
!8 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!10 = !DILocalVariable(name: "y", scope: !5, file: !1, line: 2, type: !8)
!12 = !DILocation(line: 2, column: 1, scope: !5)
