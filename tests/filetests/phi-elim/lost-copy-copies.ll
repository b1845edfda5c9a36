; ARGS: --passes=phi-elim --print-copies
; The lost-copy problem (a Rust C compiler's notes; Briggs et al., Sreedhar et al.): %x is live after the loop,
; and the loop's back edge is also its exit block's edge source. Copying x <- y at the end of
; %loop would make @main return 5 instead of 4; the copy must go on the split back edge.
define i32 @main() {
entry:
  br label %loop

loop:
  %x = phi i32 [ 1, %entry ], [ %y, %loop ]
  %y = add i32 %x, 1
  %c = icmp slt i32 %y, 5
  br i1 %c, label %loop, label %exit

exit:
  ret i32 %x
}
