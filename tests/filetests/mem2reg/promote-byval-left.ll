; ARGS: --passes=mem2reg --promote-byval --max-promoted=1 --explain
; STDERR
; --promote-byval with --max-promoted=1: the byval argument %p competes with the slots as if
; it were the function's first alloca. %x has more loads and stores, so %x is promoted and
; %p stays in memory, untouched (its stand-in slot is undone), and --explain names it.
define i32 @f(ptr byval(i32) align 4 %p, i32 %a) {
entry:
  %x = alloca i32, align 4
  store i32 %a, ptr %x, align 4
  %l = load i32, ptr %x, align 4
  %m = load i32, ptr %x, align 4
  %pv = load i32, ptr %p, align 4
  %r = add i32 %l, %m
  %s = add i32 %r, %pv
  ret i32 %s
}
