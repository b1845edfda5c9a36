; ARGS: --passes=mem2reg
; SAME-AS-OPT: -passes=mem2reg
; The single-store fast path (LLVM's rewriteSingleStoreAlloca): a slot with one store whose
; value reaches every load is rewritten without phis.
; @dominating: the store dominates both loads, in other blocks and in its own block after it.
; @not_dominating: the store (of an instruction's result) does not dominate the load at
; %join, so the fast path gives up and the general path puts a phi there, undef on the edge
; from %entry where nothing was stored.
; @constant: the stored value is a constant, which cannot be poison, so dominance is not
; needed: the load at %join takes 7 even on the path that skips the store (the slot would be
; undef there, and undef may be 7).
; Same output as opt-19 -passes=mem2reg -S.
define i32 @dominating(i32 %v, i1 %c) {
entry:
  %x = alloca i32, align 4
  store i32 %v, ptr %x, align 4
  %same = load i32, ptr %x, align 4
  br i1 %c, label %a, label %b

a:
  %la = load i32, ptr %x, align 4
  ret i32 %la

b:
  %lb = load i32, ptr %x, align 4
  %s = add i32 %lb, %same
  ret i32 %s
}

define i32 @not_dominating(i32 %v, i1 %c) {
entry:
  %x = alloca i32, align 4
  br i1 %c, label %then, label %join

then:
  %w = add i32 %v, 1
  store i32 %w, ptr %x, align 4
  br label %join

join:
  %l = load i32, ptr %x, align 4
  ret i32 %l
}

define i32 @constant(i1 %c) {
entry:
  %x = alloca i32, align 4
  br i1 %c, label %then, label %join

then:
  store i32 7, ptr %x, align 4
  br label %join

join:
  %l = load i32, ptr %x, align 4
  ret i32 %l
}
