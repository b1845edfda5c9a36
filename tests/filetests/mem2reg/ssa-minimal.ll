; ARGS: --passes=mem2reg --ssa=minimal --stats
; STDERR
; --ssa=minimal (Cytron et al.): tinyoptimizer's blog's fib with a phi at every block of the iterated
; dominance frontier of each slot's stores, live or not, and no fast paths: 9 phis where
; LLVM's pruned form (fib.ll) has 4; %c.0 and the phis at %return for %a, %b, %c and %i are
; dead. Not an LLVM mode: for comparing phi counts. The output is valid SSA (verified).
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
