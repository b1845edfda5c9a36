; ARGS: --passes=mem2reg --stats
; SAME-AS-OPT: -passes=mem2reg
; STDERR
; --stats: the statistics table in opt's -stats layout, on stderr after the module (Debian's
; opt-19 is built without statistics, so there is nothing of LLVM's to compare it with; the
; first five rows are the counters LLVM's mem2reg keeps). Here: tinyoptimizer's blog's fib (six slots:
; %n.addr by the single-store fast path, the others through phi placement; %c is stored in
; two blocks, so it is no single-block slot) plus @misc: a dead slot, a single-block slot
; (stored twice, loaded twice, all in %entry), and a slot left in memory (volatile store).
; The module is the same as opt-19 -passes=mem2reg -S writes.
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

define i32 @misc(i32 %v) {
entry:
  %dead = alloca i32, align 4
  %blk = alloca i32, align 4
  %vol = alloca i32, align 4
  store i32 %v, ptr %blk, align 4
  %u = load i32, ptr %blk, align 4
  %m = mul i32 %u, %u
  store i32 %m, ptr %blk, align 4
  %w = load i32, ptr %blk, align 4
  store volatile i32 %u, ptr %vol, align 4
  ret i32 %w
}
