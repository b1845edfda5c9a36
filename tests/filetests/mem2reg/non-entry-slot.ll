; ARGS: --passes=mem2reg
; A slot whose alloca is outside the entry block (here in a loop body, as a front end may
; emit for a block-scoped variable). DELIBERATE DIFFERENCE from opt-19, which promotes only
; entry-block allocas and leaves this one in memory (see non-entry-slot-entry-only.ll for
; the opt-compatible --entry-only). We promote it: the alloca counts as a definition of
; undef each time it runs. So the load in %join, on the path from %body that skips %set,
; reads undef, not the %i.next stored at the end of the previous iteration (the slot is a
; fresh one each time round): the phi at %join merges undef from %body with %t from %set,
; and %head needs no phi for %tmp.
define i32 @f(i32 %n) {
entry:
  br label %head

head:
  %i = phi i32 [ 0, %entry ], [ %i.next, %join ]
  %acc = phi i32 [ 0, %entry ], [ %acc.next, %join ]
  %done = icmp eq i32 %i, %n
  br i1 %done, label %exit, label %body

body:
  %tmp = alloca i32, align 4
  %odd = and i32 %i, 1
  %c = icmp eq i32 %odd, 1
  br i1 %c, label %set, label %join

set:
  %t = mul i32 %i, 3
  store i32 %t, ptr %tmp, align 4
  br label %join

join:
  %l = load i32, ptr %tmp, align 4
  %acc.next = add i32 %acc, %l
  %i.next = add i32 %i, 1
  store i32 %i.next, ptr %tmp, align 4
  br label %head

exit:
  ret i32 %acc
}
