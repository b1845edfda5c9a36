; ARGS: --passes=mem2reg --ssa=semi-pruned --stats
; STDERR
; --ssa=semi-pruned (Briggs et al.): as minimal, but only for slots read in a block before
; being stored there ("non-local" slots). %c is always stored before it is read in
; %while.body, so it gets no phis: 7 where minimal has 9 and LLVM's pruned form (fib.ll) 4.
; Not an LLVM mode: for comparing phi counts. The output is valid SSA (verified).
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
