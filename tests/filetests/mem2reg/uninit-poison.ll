; ARGS: --passes=mem2reg --uninit=poison
; --uninit=poison: a read that no store reaches gives poison instead of LLVM's undef.
; @merge: a phi of poison and %a folds to %a (poison may stand for any value), where LLVM's
; phi of undef and %a stays: %a may be poison, and folding undef into it would make the
; path that skips the store more undefined (see undef-and-poison.ll);
; @single_block: the single-block fast path reads poison;
; @unreachable_pred: the edge from a block that never runs gets poison, as by default.
; Not an LLVM option: opt-19 reads undef at the first two places.
define i32 @merge(i1 %c, i32 %a) {
entry:
  %x = alloca i32, align 4
  br i1 %c, label %then, label %join

then:
  store i32 %a, ptr %x, align 4
  br label %join

join:
  %l = load i32, ptr %x, align 4
  ret i32 %l
}

define i32 @single_block(i32 %n) {
entry:
  %t = alloca i32, align 4
  %l = load i32, ptr %t, align 4
  %r = add i32 %l, %n
  ret i32 %r
}

define i32 @unreachable_pred(i1 %c) {
entry:
  %x = alloca i32, align 4
  br i1 %c, label %then, label %join

then:
  %g = call i32 @get()
  store i32 %g, ptr %x, align 4
  br label %join

dead:
  store i32 2, ptr %x, align 4
  br label %join

join:
  %l = load i32, ptr %x, align 4
  ret i32 %l
}

declare i32 @get()
