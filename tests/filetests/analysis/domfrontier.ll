; ARGS: --passes=print<domfrontier> -disable-output
; STDERR
; opt-19 -passes='print<domfrontier>' prints the same lines, in memory-address order; we print
; them in layout order, each line's members in opt's order.
define void @f(i1 %c) {
entry:
  br i1 %c, label %left, label %right

left:
  br label %join

right:
  br i1 %c, label %join, label %join

join:
  br label %header

header:
  br i1 %c, label %body, label %exit

body:
  br i1 %c, label %header, label %join

exit:
  ret void
}
