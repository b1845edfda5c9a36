; ARGS: --passes=mem2reg
; SAME-AS-OPT: -passes=mem2reg
; Phi names, as LLVM makes them: the slot's name, a dot and a counter per slot, in the order
; the phis are placed (%x.0, %x.1). When the name is taken (%y.0 exists already) the next free
; numbered one is used (%y.01). An unnamed slot (%0) gives phis named %.0. Same output as
; opt-19 -passes=mem2reg -S.
define i32 @f(i1 %c, i1 %d, i32 %v) {
entry:
  %x = alloca i32, align 4
  %y = alloca i32, align 4
  %0 = alloca i32, align 4
  %y.0 = add i32 %v, 1
  store i32 0, ptr %x, align 4
  store i32 %y.0, ptr %y, align 4
  store i32 %v, ptr %0, align 4
  br i1 %c, label %a, label %j1

a:
  store i32 1, ptr %x, align 4
  store i32 2, ptr %y, align 4
  store i32 3, ptr %0, align 4
  br label %j1

j1:
  %l1 = load i32, ptr %x, align 4
  br i1 %d, label %b, label %j2

b:
  store i32 %l1, ptr %x, align 4
  %l1b = add i32 %l1, 5
  store i32 %l1b, ptr %x, align 4
  br label %j2

j2:
  %l2 = load i32, ptr %x, align 4
  %l3 = load i32, ptr %y, align 4
  %l4 = load i32, ptr %0, align 4
  %s = add i32 %l2, %l3
  %s2 = add i32 %s, %l4
  ret i32 %s2
}
