; ARGS: --passes=mem2reg --max-promoted=2 --explain
; STDERR
; --max-promoted=2: at most two slots of each function are promoted, those with the most
; loads and stores, ties going to the earlier alloca (the rule of ssa's
; construct::Options::max_promoted). @sum: %s has 4 loads and stores, %t and %i 3 each, %u
; 1: %s and %t are promoted (%t before %i: the earlier alloca), %u and %i stay in memory,
; and --explain says why. @small: a budget larger than the slots changes nothing. Not an
; LLVM option.
define i32 @sum(i32 %n) {
entry:
  %s = alloca i32, align 4
  %t = alloca i32, align 4
  %u = alloca i32, align 4
  %i = alloca i32, align 4
  store i32 0, ptr %s, align 4
  store i32 1, ptr %t, align 4
  store i32 0, ptr %i, align 4
  store i32 %n, ptr %u, align 4
  br label %loop

loop:
  %iv = load i32, ptr %i, align 4
  %c = icmp slt i32 %iv, %n
  br i1 %c, label %body, label %exit

body:
  %sv = load i32, ptr %s, align 4
  %tv = load i32, ptr %t, align 4
  %add = add i32 %sv, %iv
  %mul = mul i32 %tv, 2
  store i32 %add, ptr %s, align 4
  store i32 %mul, ptr %t, align 4
  %inc = add i32 %iv, 1
  store i32 %inc, ptr %i, align 4
  br label %loop

exit:
  %r = load i32, ptr %s, align 4
  ret i32 %r
}

define i32 @small(i32 %a) {
entry:
  %x = alloca i32, align 4
  store i32 %a, ptr %x, align 4
  %l = load i32, ptr %x, align 4
  ret i32 %l
}
