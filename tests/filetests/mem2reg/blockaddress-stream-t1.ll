; ARGS: --passes=mem2reg --threads=1
; blockaddress across functions, streamed: the table before every function names @g's
; numbered blocks (a forward reference: @g is printed later), @g names @f's block (a backward
; one), @g names its own blocks, and @tail, between @f and @g, names @g's. mem2reg removes @g's
; numbered loads, so every %N of @g is renumbered. The same with two threads:
; blockaddress-stream-t2.ll.
; SAME-AS-OPT: -passes=mem2reg
@tab_fwd = internal constant [2 x ptr] [ptr blockaddress(@g, %4), ptr blockaddress(@g, %7)]

define i32 @f(i32 %x) {
entry:
  %p = alloca ptr, align 8
  %a = alloca i32, align 4
  store i32 %x, ptr %a, align 4
  %0 = load i32, ptr %a, align 4
  %c = icmp eq i32 %0, 0
  %sel = select i1 %c, ptr blockaddress(@g, %4), ptr blockaddress(@f, %lab)
  store ptr %sel, ptr %p, align 8
  %1 = load ptr, ptr %p, align 8
  %2 = load i32, ptr %a, align 4
  indirectbr ptr %1, [label %lab, label %done]

lab:
  %3 = load i32, ptr %a, align 4
  br label %done

done:
  %r = load i32, ptr %a, align 4
  ret i32 %r
}

define ptr @tail() {
  %1 = alloca ptr, align 8
  store ptr blockaddress(@g, %7), ptr %1, align 8
  %2 = load ptr, ptr %1, align 8
  ret ptr %2
}

define i32 @g(i32 %x) {
  %2 = alloca i32, align 4
  %3 = alloca ptr, align 8
  store i32 %x, ptr %2, align 4
  store ptr blockaddress(@f, %lab), ptr %3, align 8
  br label %4

4:
  %5 = load i32, ptr %2, align 4
  %6 = load ptr, ptr %3, align 8
  indirectbr ptr blockaddress(@g, %7), [label %7, label %4]

7:
  %8 = load i32, ptr %2, align 4
  ret i32 %8
}

@tab_back = internal constant [1 x ptr] [ptr blockaddress(@f, %lab)]
