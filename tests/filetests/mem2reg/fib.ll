; ARGS: --passes=mem2reg
; SAME-AS-OPT: -passes=mem2reg
; Seed 03's `fib`: a while loop and an early return. Phis go at the iterated dominance frontier
; of each slot's stores, pruned to where the slot is live: %while.cond gets phis for %a, %b
; and %i (stored in the loop, read around it) but not for %c (overwritten before every read);
; %return gets one for %retval only. `c = b; a = c` collapses: %a.0 takes %b.0 on the back
; edge. Same output as opt-19 -passes=mem2reg -S (which adds a source_filename line).
define i32 @fib(i32 %n) {
entry:
  %retval = alloca i32, align 4
  %n.addr = alloca i32, align 4
  %a = alloca i32, align 4
  %b = alloca i32, align 4
  %c = alloca i32, align 4
  %i = alloca i32, align 4
  store i32 %n, ptr %n.addr, align 4
  store i32 0, ptr %a, align 4
  store i32 1, ptr %b, align 4
  store i32 0, ptr %c, align 4
  store i32 1, ptr %i, align 4
  %0 = load i32, ptr %n.addr, align 4
  %cmp = icmp eq i32 %0, 0
  br i1 %cmp, label %if.then, label %if.end

if.then:
  store i32 0, ptr %retval, align 4
  br label %return

if.end:
  br label %while.cond

while.cond:
  %1 = load i32, ptr %i, align 4
  %2 = load i32, ptr %n.addr, align 4
  %cmp1 = icmp slt i32 %1, %2
  br i1 %cmp1, label %while.body, label %while.end

while.body:
  %3 = load i32, ptr %b, align 4
  store i32 %3, ptr %c, align 4
  %4 = load i32, ptr %a, align 4
  %5 = load i32, ptr %b, align 4
  %add = add nsw i32 %4, %5
  store i32 %add, ptr %b, align 4
  %6 = load i32, ptr %c, align 4
  store i32 %6, ptr %a, align 4
  %7 = load i32, ptr %i, align 4
  %add2 = add nsw i32 %7, 1
  store i32 %add2, ptr %i, align 4
  br label %while.cond

while.end:
  %8 = load i32, ptr %b, align 4
  store i32 %8, ptr %retval, align 4
  br label %return

return:
  %9 = load i32, ptr %retval, align 4
  ret i32 %9
}
