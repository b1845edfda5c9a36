; ARGS: --passes=mem2reg --phi-copy-limit=2 --explain
; STDERR
; --phi-copy-limit=2 (a Rust C compiler's notes's budget): the loop needs a phi for %i and one for %s, each with
; 2 incoming edges, 4 copies in all. The slot with the most copies (ties: the first) stays in
; memory until the rest fit, and it stays there in later rounds. %i is promoted, %s is not,
; and --explain says why. Not an LLVM option.
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
