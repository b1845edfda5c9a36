; ARGS: --passes=phi-elim
; The swap problem (a Rust C compiler's notes): the back edge copies (a, b) <- (b, a) form a cycle, so the
; sequence needs one temporary; the back edge is critical (the loop block also exits), so
; the copies get a block of their own. The entry edge is a plain chain-free copy.
define i32 @main() {
entry:
  br label %loop

loop:
  %a = phi i32 [ 1, %entry ], [ %b, %loop ]
  %b = phi i32 [ 2, %entry ], [ %a, %loop ]
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %i.next = add i32 %i, 1
  %c = icmp slt i32 %i.next, 5
  br i1 %c, label %loop, label %exit

exit:
  %r = mul i32 %a, 10
  %s = add i32 %r, %b
  ret i32 %s
}
