; Unnamed values and blocks are renumbered in order (LLVM 19 accepts gaps on input).
; ARGS: --passes=
define i32 @f(i32) {
  %3 = add i32 %0, 1
  br label %7

7:
  %9 = mul i32 %3, %3
  ret i32 %9
}
