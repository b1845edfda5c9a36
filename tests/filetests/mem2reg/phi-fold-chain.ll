; ARGS: --passes=mem2reg
; SAME-AS-OPT: -passes=mem2reg
; Trivial phis folding in a chain (csmith seed 237 through clang-19 kept one): the phi in %k
; is phi(%h's, %h's), the one in %j is phi(%k's, %k's), and %h's is phi(7, %j's). Folding %j's
; into %k's makes %h's use %k's; folding %k's into %h's must then look at %h's again, which
; is now phi(7, itself) and folds to 7. Layout order (h, j, k) puts %j's fold first.
define i32 @f(i1 %c1, i1 %c2, i1 %c3) {
entry:
  %s = alloca i32, align 4
  store i32 7, ptr %s, align 4
  br label %h

h:
  br i1 %c1, label %k1, label %k2

j:
  br i1 %c3, label %h, label %exit

k1:
  %x = load i32, ptr %s, align 4
  store i32 %x, ptr %s, align 4
  br label %k

k2:
  br label %k

k:
  br i1 %c2, label %j1, label %j2

j1:
  %y = load i32, ptr %s, align 4
  store i32 %y, ptr %s, align 4
  br label %j

j2:
  br label %j

exit:
  %v = load i32, ptr %s, align 4
  ret i32 %v
}
