; ARGS: --passes=debugify
; LLVM's debugify on a small opaque-pointer module: a subprogram per definition, a location on
; every instruction (lines count instructions across the module), a variable and a #dbg_value
; record after every instruction with a value (stores, branches and void calls get none), the
; compile unit, !llvm.debugify = !{lines, variables} and the "Debug Info Version" flag. The
; declaration is left alone. Numbers are the ones opt-19 prints for the same input.
declare void @use(i32)

define double @testfunc(i32 %i, double %j) {
  %I = alloca i32
  %J = alloca double
  store i32 %i, ptr %I
  store double %j, ptr %J
  %t1 = load i32, ptr %I
  call void @use(i32 %t1)
  %t2 = add i32 %t1, 1
  store i32 %t2, ptr %I
  %t3 = load i32, ptr %I
  %t4 = sitofp i32 %t3 to double
  %t5 = load double, ptr %J
  %t6 = fmul double %t4, %t5
  ret double %t6
}

define i1 @second(i8 %x) {
entry:
  %c = icmp eq i8 %x, 0
  br i1 %c, label %yes, label %no

yes:
  ret i1 true

no:
  ret i1 false
}
