; ARGS: --passes=mem2reg
; SAME-AS-OPT: -passes=mem2reg
; Promotion removes numbered values, so unnamed blocks are renumbered, and every
; `blockaddress` naming them must follow: @f's use sits in a body, @g's only in a global
; initializer (which the module reader finds outside every body).
@tbl = global [1 x ptr] [ptr blockaddress(@g, %3)]

define ptr @f(i32 %x) {
  %p = alloca i32
  store i32 %x, ptr %p
  %v = load i32, ptr %p
  %c = icmp eq i32 %v, 0
  br i1 %c, label %a, label %2
a:
  br label %2
2:
  ret ptr blockaddress(@f, %2)
}

define i32 @g(i32 %x) {
  %p = alloca i32
  store i32 %x, ptr %p
  br label %2
2:
  %v = load i32, ptr %p
  br label %3
3:
  ret i32 %v
}
