; ARGS: --passes=mem2reg
; SAME-AS-OPT: -passes=mem2reg
; The default rules for undefined values (--undef-rules=auto): this module is written for
; LLVM 19 (two-operand lifetime markers), so mem2reg gives opt-19's bytes.
; @loop: the lifetime markers are deleted and %a's last value is carried around the loop in
; a phi (under --undef-rules=newer they read as stores of undef: see lifetime-kill.ll).
; @maybe_poison: %s (an `add nsw`, which may be poison) is stored on one path only; the
; phi(%s, undef) at %join folds to %s as in LLVM 19, although the path through %entry alone
; read undef (newer LLVM keeps the phi: see const-gep-not-poison.ll).
define void @loop(i32 %val, i1 %c1, i1 %c2) {
entry:
  %a = alloca i32, align 4
  br label %loop

loop:
  call void @llvm.lifetime.start.p0(i64 4, ptr %a)
  br i1 %c1, label %init, label %read

init:
  store i32 %val, ptr %a, align 4
  br label %read

read:
  %v = load i32, ptr %a, align 4
  call void @use(i32 %v)
  call void @llvm.lifetime.end.p0(i64 4, ptr %a)
  br i1 %c2, label %loop, label %exit

exit:
  ret void
}

define i32 @maybe_poison(i32 %x, i1 %c) {
entry:
  %a = alloca i32, align 4
  %s = add nsw i32 %x, 1
  br i1 %c, label %set, label %join

set:
  store i32 %s, ptr %a, align 4
  br label %join

join:
  %v = load i32, ptr %a, align 4
  ret i32 %v
}

declare void @use(i32)

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.start.p0(i64 immarg, ptr nocapture) #0

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.end.p0(i64 immarg, ptr nocapture) #0

attributes #0 = { nocallback nofree nosync nounwind willreturn memory(argmem: readwrite) }
