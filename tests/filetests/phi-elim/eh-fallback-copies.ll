; ARGS: --passes=phi-elim --print-copies
; Edges that cannot be split. %lpad is entered only by unwind edges, so its phi's copies go
; before each invoke, into its incoming variable in(%v) (a fallback block: the slot is read
; only at %lpad's head, after the landingpad). The invoke result %r flows along the normal
; edge, which is critical here and split. @computed uses indirectbr: its targets' phis are
; fallback blocks too, and the self-copy entry of %l2 is kept (the slot may hold a value
; stored for a path that went elsewhere).
declare i32 @__gxx_personality_v0(...)

define i32 @eh(i32 %x) personality ptr @__gxx_personality_v0 {
entry:
  %c = icmp sgt i32 %x, 0
  br i1 %c, label %a, label %b

a:
  %r = invoke i32 @may_throw(i32 %x)
          to label %join unwind label %lpad

b:
  %y = add i32 %x, 100
  %s = invoke i32 @may_throw(i32 %y)
          to label %join unwind label %lpad

join:
  %j = phi i32 [ %r, %a ], [ %s, %b ]
  ret i32 %j

lpad:
  %v = phi i32 [ 1, %a ], [ %y, %b ]
  %lp = landingpad { ptr, i32 }
          cleanup
  ret i32 %v
}

define i32 @computed(i32 %n) {
entry:
  br label %l1

l1:
  %i = phi i32 [ 0, %entry ], [ %i2, %l2 ]
  %acc = phi i32 [ 0, %entry ], [ %acc2, %l2 ]
  %i1 = add i32 %i, 1
  %t = icmp slt i32 %i1, %n
  %dest = select i1 %t, ptr blockaddress(@computed, %l2), ptr blockaddress(@computed, %out)
  indirectbr ptr %dest, [label %l2, label %out]

l2:
  %i2 = phi i32 [ %i1, %l1 ], [ %i2, %l2 ]
  %acc2 = phi i32 [ %i, %l1 ], [ %acc2, %l2 ]
  %d = select i1 %t, ptr blockaddress(@computed, %l1), ptr blockaddress(@computed, %l2)
  indirectbr ptr %d, [label %l1, label %l2]

out:
  %res = phi i32 [ %acc, %l1 ]
  ret i32 %res
}

define i32 @main() {
entry:
  %a = call i32 @eh(i32 3)
  %b = call i32 @computed(i32 5)
  %s = add i32 %a, %b
  ret i32 %s
}

define i32 @may_throw(i32 %x) {
  %y = mul i32 %x, 2
  ret i32 %y
}
