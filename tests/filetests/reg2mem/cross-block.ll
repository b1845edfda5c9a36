; ARGS: --passes=reg2mem
; Values used across blocks. %a is used in two other blocks and twice by one instruction
; (one load serves both operands) and by a phi; %b only in its own block (stays a register);
; %p is an alloca of the entry block (never demoted; %q, an alloca elsewhere used only in its
; block, stays too). The phi %m has two entries from the same block (a repeated edge): after the
; edge is split, one store serves both.
define i32 @f(i32 %x) {
entry:
  %p = alloca i32
  %a = add i32 %x, 1
  %b = mul i32 %a, 2
  store i32 %b, ptr %p
  %c = icmp sgt i32 %x, 5
  br i1 %c, label %big, label %small

big:
  %q = alloca i32
  store i32 %a, ptr %q
  %sq = mul i32 %a, %a
  %d = icmp eq i32 %sq, 0
  br i1 %d, label %join, label %join

small:
  %v = load i32, ptr %p
  br label %join

join:
  %m = phi i32 [ %sq, %big ], [ %sq, %big ], [ %v, %small ]
  %n = add i32 %m, %a
  ret i32 %n
}

define i32 @main() {
entry:
  %a = call i32 @f(i32 7)
  %b = call i32 @f(i32 1)
  %s = add i32 %a, %b
  %t = and i32 %s, 255
  ret i32 %t
}
