; ARGS: --passes=mem2reg
; SAME-AS-OPT: -passes=mem2reg
; The single-block fast path (LLVM's promoteSingleBlockAlloca): every load and store of the
; slot in one block, swept in order; each load takes the closest store above it.
; @sweep: the slot is stored three times; the load before the first store reads undef.
; @sweep_all_stored: the same in a block after the entry, every load preceded by a store.
; @load_first_then_store_elsewhere: the load at the head of %b comes before the only store
; in its block and the slot is stored in another block too, so this is not a single-block
; slot. The general path finds no join below the stores (no phi) and gives the load what
; %entry left in the slot: undef.
; Same output as opt-19 -passes=mem2reg -S.
define i32 @sweep(i32 %v) {
entry:
  %x = alloca i32, align 4
  %u = load i32, ptr %x, align 4
  store i32 %v, ptr %x, align 4
  %l1 = load i32, ptr %x, align 4
  %m = mul i32 %l1, 3
  store i32 %m, ptr %x, align 4
  store i32 %u, ptr %x, align 4
  %l2 = load i32, ptr %x, align 4
  %r = add i32 %l2, %m
  ret i32 %r
}

define i64 @sweep_all_stored(i64 %v, i1 %c) {
entry:
  %x = alloca i64, align 8
  br i1 %c, label %b, label %out

b:
  store i64 %v, ptr %x, align 8
  %l1 = load i64, ptr %x, align 8
  %s = shl i64 %l1, 1
  store i64 %s, ptr %x, align 8
  %l2 = load i64, ptr %x, align 8
  ret i64 %l2

out:
  ret i64 0
}

define i32 @load_first_then_store_elsewhere(i32 %v, i1 %c) {
entry:
  %x = alloca i32, align 4
  br i1 %c, label %b, label %d

b:
  %l = load i32, ptr %x, align 4
  store i32 %v, ptr %x, align 4
  ret i32 %l

d:
  store i32 1, ptr %x, align 4
  ret i32 0
}
