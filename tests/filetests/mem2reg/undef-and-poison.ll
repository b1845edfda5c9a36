; ARGS: --passes=mem2reg
; SAME-AS-OPT: -passes=mem2reg
; What a load reads where nothing was stored, and what a phi gets from a block that never runs.
; @read_before_write: on the edge from %entry nothing was stored yet: the phi at %join takes
; undef there (LLVM's choice: the slot's initial content is undef, not poison).
; @loop_first_iteration: the same in a loop: %acc is read in the header before its first
; store, so the header's phi takes undef from %entry.
; @unreachable_pred: %dead has no predecessors but branches to %join; LLVM fills the phi's
; operand for it with poison. The load and store left in %dead are never renamed (the
; renaming walk only visits reachable blocks); with the slot deleted they address poison.
; Same output as opt-19 -passes=mem2reg -S.
define i32 @read_before_write(i1 %c) {
entry:
  %x = alloca i32, align 4
  br i1 %c, label %then, label %join

then:
  %p = call i32 @get()
  store i32 %p, ptr %x, align 4
  br label %join

join:
  %l = load i32, ptr %x, align 4
  ret i32 %l
}

define i32 @loop_first_iteration(i32 %n) {
entry:
  %acc = alloca i32, align 4
  br label %head

head:
  %i = phi i32 [ 0, %entry ], [ %i.next, %body ]
  %a = load i32, ptr %acc, align 4
  %done = icmp eq i32 %i, %n
  br i1 %done, label %exit, label %body

body:
  %a2 = add i32 %a, %i
  store i32 %a2, ptr %acc, align 4
  %i.next = add i32 %i, 1
  br label %head

exit:
  ret i32 %a
}

define i32 @unreachable_pred(i32 %v, i1 %c) {
entry:
  %x = alloca i32, align 4
  store i32 %v, ptr %x, align 4
  br i1 %c, label %then, label %join

then:
  %w = call i32 @get()
  store i32 %w, ptr %x, align 4
  br label %join

dead:
  %old = load i32, ptr %x, align 4
  store i32 %old, ptr %x, align 4
  br label %join

join:
  %l = load i32, ptr %x, align 4
  ret i32 %l
}

declare i32 @get()
