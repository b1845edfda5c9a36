; ARGS: --passes=mem2reg --phi-copy-limit=0 --explain
; STDERR
; --phi-copy-limit=0 (a Rust C compiler's notes's budget): the loop needs a phi for %i and one for %s, each with
; used to promote them again in every later round, forever). Not an LLVM option.
define i32 @sum(i32 %n) {
entry:
  %s = alloca i32, align 4
  %i = alloca i32, align 4
  store i32 0, ptr %s, align 4
  store i32 0, ptr %i, align 4
  br label %loop

loop:
  %iv = load i32, ptr %i, align 4
  %c = icmp slt i32 %iv, %n
  br i1 %c, label %body, label %exit

body:
  %sv = load i32, ptr %s, align 4
  %sn = add i32 %sv, %iv
  store i32 %sn, ptr %s, align 4
  %in = add i32 %iv, 1
  store i32 %in, ptr %i, align 4
  br label %loop

exit:
  %r = load i32, ptr %s, align 4
  ret i32 %r
}
