; ARGS: --passes=debugify,mem2reg,check-debugify
; STDERR
; The conformance test's pipeline on a loop. mem2reg drops the slot's stores and loads (their
; lines go missing: `WARNING: Missing line N`), keeps every variable (the loads' variables now
; describe the stored values; the slot's own #dbg_value of `ptr %i` becomes `ptr undef`), and
; gives the new phi a merged location of line 0, which check-debugify neither counts nor
; reports. Nothing is mis-sized: `CheckModuleDebugify: PASS`. The debugify metadata stays in
; the output, as opt-19's check-debugify leaves it.
define i32 @count(i32 %n) {
entry:
  %i = alloca i32
  store i32 0, ptr %i
  br label %loop

loop:
  %v = load i32, ptr %i
  %next = add i32 %v, 1
  store i32 %next, ptr %i
  %done = icmp sge i32 %next, %n
  br i1 %done, label %exit, label %loop

exit:
  %r = load i32, ptr %i
  ret i32 %r
}
