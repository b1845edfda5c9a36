; ARGS: --passes=
; Phis must come first; only phis may use their own value (in reachable code); an EH pad must
; be the first non-phi instruction; an invoke's result exists only on its normal edge.
declare i32 @g()
declare i32 @__gxx_personality_v0(...)

define i32 @f(i32 %a) personality ptr @__gxx_personality_v0 {
entry:
  %r = invoke i32 @g() to label %ok unwind label %bad

ok:
  %x = add i32 %a, 1
  %p = phi i32 [ %r, %entry ]
  %s = add i32 %s, %p
  ret i32 %s

bad:
  %early = add i32 %r, 0
  %lp = landingpad { ptr, i32 } cleanup
  ret i32 0

dead:
  %loop = add i32 %loop, 1
  br label %dead
}
