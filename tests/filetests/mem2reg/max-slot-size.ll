; ARGS: --passes=mem2reg --max-slot-size=4 --explain
; STDERR
; --max-slot-size=4: slots larger than 4 bytes stay in memory, and --explain says why. %small
; (i32) is promoted, %big (i64, 8 bytes) is not. Not an LLVM option (opt-19 promotes both).
define i64 @f(i32 %a, i64 %b) {
entry:
  %small = alloca i32, align 4
  %big = alloca i64, align 8
  store i32 %a, ptr %small, align 4
  store i64 %b, ptr %big, align 8
  %x = load i32, ptr %small, align 4
  %y = load i64, ptr %big, align 8
  %z = zext i32 %x to i64
  %r = add i64 %y, %z
  ret i64 %r
}
