; ARGS: --passes=reg2mem
; A loop in SSA form (typed pointers: no opaque pointer type in this file, so slots are
; spelled `i32*`).
; The latch edge %loop -> %loop is critical and split first. %i.next escapes (used by a phi),
; so it gets a slot, a store after it and a load at the end of each incoming block of its phi
; use; then each phi becomes stores at the end of its incoming blocks and a load at its head.
define i32 @sum(i32 %n) {
entry:
  br label %loop

loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %acc = phi i32 [ 0, %entry ], [ %acc.next, %loop ]
  %acc.next = add i32 %acc, %i
  %i.next = add i32 %i, 1
  %c = icmp slt i32 %i.next, %n
  br i1 %c, label %loop, label %exit

exit:
  ret i32 %acc.next
}

define i32 @main() {
entry:
  %r = call i32 @sum(i32 10)
  ret i32 %r
}
