; ARGS: --passes=phi-elim --print-copies
; Three variables rotated every iteration (a, b, c) <- (b, c, a): one closed cycle, one
; temporary. The latch has one successor, so its copies go at its end; the entry edge copies
; constants. In @rot3_fanout a fourth phi %d <- %a also reads a member of the cycle: the cycle
; is no longer closed, %d is written first from %a's old value and %c then reads it from %d,
; so no temporary at all.
define i32 @rot3(i32 %n) {
entry:
  br label %loop

loop:
  %a = phi i32 [ 1, %entry ], [ %b, %latch ]
  %b = phi i32 [ 2, %entry ], [ %c, %latch ]
  %c = phi i32 [ 3, %entry ], [ %a, %latch ]
  %i = phi i32 [ 0, %entry ], [ %i.next, %latch ]
  %i.next = add i32 %i, 1
  %done = icmp sge i32 %i.next, %n
  br i1 %done, label %exit, label %latch

latch:
  br label %loop

exit:
  %t = mul i32 %a, 100
  %u = mul i32 %b, 10
  %v = add i32 %t, %u
  %w = add i32 %v, %c
  ret i32 %w
}

define i32 @rot3_fanout(i32 %n) {
entry:
  br label %loop

loop:
  %a = phi i32 [ 1, %entry ], [ %b, %latch ]
  %b = phi i32 [ 2, %entry ], [ %c, %latch ]
  %c = phi i32 [ 3, %entry ], [ %a, %latch ]
  %d = phi i32 [ 0, %entry ], [ %a, %latch ]
  %i = phi i32 [ 0, %entry ], [ %i.next, %latch ]
  %i.next = add i32 %i, 1
  %done = icmp sge i32 %i.next, %n
  br i1 %done, label %exit, label %latch

latch:
  br label %loop

exit:
  %t = mul i32 %a, 1000
  %u = mul i32 %b, 100
  %x = mul i32 %c, 10
  %v = add i32 %t, %u
  %w = add i32 %v, %x
  %y = add i32 %w, %d
  ret i32 %y
}

define i32 @main() {
entry:
  %r = call i32 @rot3(i32 4)
  %f = call i32 @rot3_fanout(i32 4)
  %s = add i32 %r, %f
  ret i32 %s
}
