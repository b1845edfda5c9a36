; ARGS: --passes=mem2reg --entry-only
; SAME-AS-OPT: -passes=mem2reg
; The input of non-entry-slot.ll with --entry-only: only entry-block allocas are candidates,
; as in LLVM, so %tmp stays in memory. Same output as opt-19 -passes=mem2reg -S.
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
