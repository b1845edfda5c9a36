; ARGS: -disable-verify --passes=verify
; With the input check off, the verify pass reports the same problems and stops the pipeline,
; without opt's "input module is broken!" line.
define i32 @f(i32 %a) {
entry:
  %x = add i32 %y, 1
  %y = add i32 %a, 1
  ret i32 %x
}
