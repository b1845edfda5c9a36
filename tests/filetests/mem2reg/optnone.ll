; ARGS: --passes=mem2reg
; SAME-AS-OPT: -passes=mem2reg
; A function marked optnone (what clang -O0 writes without -Xclang -disable-O0-optnone) is
; left alone, slots and all, as opt's pass manager skips it; the other function is promoted.
; Same output as opt-19 -passes=mem2reg -S.
define i32 @untouched(i32 %v) #0 {
entry:
  %x = alloca i32, align 4
  store i32 %v, ptr %x, align 4
  %l = load i32, ptr %x, align 4
  ret i32 %l
}

define i32 @promoted(i32 %v) {
entry:
  %x = alloca i32, align 4
  store i32 %v, ptr %x, align 4
  %l = load i32, ptr %x, align 4
  ret i32 %l
}

attributes #0 = { noinline nounwind optnone }
