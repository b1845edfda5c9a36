; A type mismatch LLVM's reader rejects is an error with a location and a caret.
; ARGS: --passes=
define i32 @f(i32 %a) {
entry:
  %x = add i64 %a, 1
  ret i32 %a
}
