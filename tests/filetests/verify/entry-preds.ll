; ARGS: --passes=
; LLVM's reader accepts a branch back to the entry block; its verifier (run by opt right after
; reading) does not, and neither do we.
define void @f(i1 %c) {
entry:
  br i1 %c, label %entry, label %exit

exit:
  ret void
}
