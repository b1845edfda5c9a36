; ARGS: --passes=debugify,mem2reg,check-debugify
; STDERR
; A typed-pointer module (LLVM 14's IR): debug values are `call void @llvm.dbg.value(metadata
; ...)` intrinsics, as opt-14 writes them, and the declaration is added. Locations and counts
; are the same as with records; check-debugify skips the dbg.value calls when it looks for
; lines. The checks match `opt-14 -passes=debugify,mem2reg,check-debugify`.
define i32 @f(i32* %p, i32 %n) {
entry:
  %a = alloca i32
  store i32 %n, i32* %a
  br label %loop

loop:
  %i = phi i32 [ 0, %entry ], [ %i2, %loop ]
  %j = phi i32 [ 0, %entry ], [ %i, %loop ]
  %v = load i32, i32* %a
  %i2 = add i32 %i, %v
  %c = icmp slt i32 %i2, 10
  br i1 %c, label %loop, label %exit

exit:
  store i32 %j, i32* %p
  ret i32 %j
}
