; ARGS: --passes=reg2mem
; An invoke whose result is used in another block and by a phi: its store goes at the head of
; the normal destination, whose edge is split first (critical, or the destination has phis).
; The landingpad's value crosses blocks too: it is stored after the pad. The phi of %lpad is
; stored before each invoke (the unwind edge cannot be split) and reloaded after the pad.
declare i32 @__gxx_personality_v0(...)

define i32 @callee(i32 %x) {
entry:
  %y = mul i32 %x, 3
  ret i32 %y
}

define i32 @f(i32 %x) personality ptr @__gxx_personality_v0 {
entry:
  %c = icmp sgt i32 %x, 0
  br i1 %c, label %a, label %b

a:
  %r = invoke i32 @callee(i32 %x)
          to label %join unwind label %lpad

b:
  %y = add i32 %x, 100
  %s = invoke i32 @callee(i32 %y)
          to label %cont unwind label %lpad

cont:
  %s2 = add i32 %s, 1
  br label %join

join:
  %j = phi i32 [ %r, %a ], [ %s2, %cont ]
  %k = add i32 %j, %x
  ret i32 %k

lpad:
  %v = phi i32 [ 1, %a ], [ %y, %b ]
  %lp = landingpad { ptr, i32 }
          cleanup
  br label %after

after:
  %sel = extractvalue { ptr, i32 } %lp, 1
  %w = add i32 %v, %sel
  ret i32 %w
}

define i32 @main() {
entry:
  %a = call i32 @f(i32 2)
  %b = call i32 @f(i32 -1)
  %s = add i32 %a, %b
  ret i32 %s
}
