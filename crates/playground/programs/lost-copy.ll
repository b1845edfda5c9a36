; The lost-copy problem (Briggs et al. 1998; a Rust C compiler's notes on phi elimination).
;
;   int lost_copy(void) {
;       int x = 1, y, old;
;       do { old = x; y = x + 1; x = y; } while (y < 5);
;       return old;
;   }
;
; After mem2reg, the loop's phi %x.0 is still read after the loop (old's load became %x.0),
; and the back edge leaves %loop, which also exits. A copy `%x.0 <- %y` at the end of %loop
; would run on the exit edge too and return 5 instead of 4: phi-elim splits the back edge.
define i32 @lost_copy() {
entry:
  %x = alloca i32
  %old = alloca i32
  store i32 1, ptr %x
  br label %loop

loop:
  %x.v = load i32, ptr %x
  store i32 %x.v, ptr %old
  %y = add i32 %x.v, 1
  store i32 %y, ptr %x
  %c = icmp slt i32 %y, 5
  br i1 %c, label %loop, label %exit

exit:
  %r = load i32, ptr %old
  ret i32 %r
}
