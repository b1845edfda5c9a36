; ARGS: --passes=mem2reg --undef-rules=newer --uninit=zero
; --uninit=zero: a read that no store reaches gives the type's zero (0, false,
; 0.000000e+00, null, zeroinitializer, as LLVM prints them), wherever promotion makes one:
; @merge: the general path, a phi's operand from the path that skips the store;
; @single_block: the single-block fast path, a load above every store of a slot with none;
; @single_store: a load the single store does not dominate: LLVM gives it the stored
; constant (undefined may be anything), but zero defines that read, so it stays 0 (the slot
; takes the general path);
; @lifetime (with --undef-rules=newer): after llvm.lifetime.end/start the contents are undefined again: zero, not the
; value stored before (so %t needs no phi in the loop, and the read at %exit gives 0);
; @non_entry: a slot allocated in a loop body is zero again each time its alloca runs;
; @unreachable_pred: the edge from a block that never runs gets the zero too (under --uninit=
; poison, zero and freeze it follows the option; only the default keeps LLVM's poison).
; Not an LLVM option: opt-19 reads undef at each of these places.
define i32 @merge(i1 %c, i32 %a, ptr %q, double %f) {
entry:
  %x = alloca i32, align 4
  %b = alloca i1, align 1
  %p = alloca ptr, align 8
  %d = alloca double, align 8
  %v = alloca <2 x i16>, align 4
  %s = alloca { i32, ptr }, align 8
  br i1 %c, label %then, label %join

then:
  store i32 %a, ptr %x, align 4
  store i1 %c, ptr %b, align 1
  store ptr %q, ptr %p, align 8
  store double %f, ptr %d, align 8
  store <2 x i16> <i16 1, i16 2>, ptr %v, align 4
  store { i32, ptr } { i32 1, ptr null }, ptr %s, align 8
  br label %join

join:
  %lx = load i32, ptr %x, align 4
  %lb = load i1, ptr %b, align 1
  %lp = load ptr, ptr %p, align 8
  %ld = load double, ptr %d, align 8
  %lv = load <2 x i16>, ptr %v, align 4
  %ls = load { i32, ptr }, ptr %s, align 8
  call void @use(i32 %lx, i1 %lb, ptr %lp, double %ld, <2 x i16> %lv, { i32, ptr } %ls)
  ret i32 %lx
}

define i32 @single_block(i32 %n) {
entry:
  %t = alloca i32, align 4
  %l = load i32, ptr %t, align 4
  %r = add i32 %l, %n
  ret i32 %r
}

define i32 @single_store(i1 %c) {
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

define i32 @lifetime(i32 %n) {
entry:
  %i = alloca i32, align 4
  %t = alloca i32, align 4
  store i32 0, ptr %i, align 4
  br label %head

head:
  %iv = load i32, ptr %i, align 4
  %done = icmp eq i32 %iv, %n
  br i1 %done, label %exit, label %body

body:
  call void @llvm.lifetime.start.p0(i64 4, ptr %t)
  %old = load i32, ptr %t, align 4
  %new = add i32 %old, %iv
  store i32 %new, ptr %t, align 4
  call void @llvm.lifetime.end.p0(i64 4, ptr %t)
  %next = add i32 %iv, 1
  store i32 %next, ptr %i, align 4
  br label %head

exit:
  %last = load i32, ptr %t, align 4
  ret i32 %last
}

define i32 @non_entry(i32 %n) {
entry:
  br label %head

head:
  %i = phi i32 [ 0, %entry ], [ %i.next, %join ]
  %done = icmp eq i32 %i, %n
  br i1 %done, label %exit, label %body

body:
  %tmp = alloca i32, align 4
  %odd = and i32 %i, 1
  %c = icmp eq i32 %odd, 1
  br i1 %c, label %set, label %join

set:
  store i32 %i, ptr %tmp, align 4
  br label %join

join:
  %l = load i32, ptr %tmp, align 4
  call void @use1(i32 %l)
  %i.next = add i32 %i, 1
  br label %head

exit:
  ret i32 %i
}

define i32 @unreachable_pred(i1 %c) {
entry:
  %x = alloca i32, align 4
  br i1 %c, label %then, label %join

then:
  store i32 1, ptr %x, align 4
  br label %join

dead:
  br label %join

join:
  %l = load i32, ptr %x, align 4
  ret i32 %l
}

declare void @use(i32, i1, ptr, double, <2 x i16>, { i32, ptr })
declare void @use1(i32)
declare void @llvm.lifetime.start.p0(i64, ptr)
declare void @llvm.lifetime.end.p0(i64, ptr)
