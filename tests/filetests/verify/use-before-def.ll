; ARGS: --passes=
; Uses not dominated by their definitions: in one block, across blocks, through a phi (whose use
; sits at the end of the incoming block). Uses in unreachable blocks are fine; a definition in
; an unreachable block dominates no reachable use.
define i32 @f(i32 %a, i1 %c) {
entry:
  %x = add i32 %y, 1
  %y = add i32 %a, 1
  br i1 %c, label %then, label %join

then:
  %t = mul i32 %x, 2
  br label %join

join:
  %p = phi i32 [ %t, %then ], [ %t, %entry ]
  %q = add i32 %t, %p
  %r = add i32 %q, %dead.v
  ret i32 %r

dead:
  %u = add i32 %w, 1
  %w = add i32 %u, %t
  %dead.v = add i32 %w, 1
  br label %dead
}
