; ARGS: --passes=phi-elim --print-copies
; Critical edges out of a switch. In @sw the switch sends two cases back to %loop (one phi
; entry per occurrence; one split block serves both) where %p and %q swap (one temporary),
; one case to %mid (one predecessor: no phis there, nothing to do), and the default out of
; the loop, where %p and %q are still live (the lost-copy situation). In @join three
; occurrences of %entry -> %join share one split block; %mid -> %join has one successor,
; so its copy goes at its end.
define i32 @sw(i32 %n) {
entry:
  br label %loop

loop:
  %p = phi i32 [ 1, %entry ], [ %q, %loop ], [ %q, %loop ], [ %p.m, %mid ]
  %q = phi i32 [ 2, %entry ], [ %p, %loop ], [ %p, %loop ], [ %q, %mid ]
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ], [ %i.next, %loop ], [ %i.next, %mid ]
  %i.next = add i32 %i, 1
  %k = urem i32 %i.next, 3
  %done = icmp sge i32 %i.next, %n
  %sel = select i1 %done, i32 9, i32 %k
  switch i32 %sel, label %exit [
    i32 0, label %loop
    i32 1, label %mid
    i32 2, label %loop
  ]

mid:
  %p.m = add i32 %p, 10
  br label %loop

exit:
  %r = mul i32 %p, 100
  %s = add i32 %r, %q
  ret i32 %s
}

define i32 @join(i32 %x, i32 %y) {
entry:
  switch i32 %x, label %join [
    i32 0, label %join
    i32 1, label %mid
    i32 2, label %join
  ]

mid:
  br label %join

join:
  %p = phi i32 [ %y, %entry ], [ %y, %entry ], [ 7, %mid ], [ %y, %entry ]
  ret i32 %p
}

define i32 @main() {
entry:
  %a = call i32 @sw(i32 7)
  %b = call i32 @join(i32 1, i32 3)
  %c = call i32 @join(i32 2, i32 5)
  %ab = add i32 %a, %b
  %abc = add i32 %ab, %c
  ret i32 %abc
}
