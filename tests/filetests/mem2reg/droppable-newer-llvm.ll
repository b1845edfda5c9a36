; ARGS: --passes=mem2reg
; NEWER-THAN-LLVM-19
; A module that declares a one-operand llvm.lifetime intrinsic is written for LLVM 22 or
; later (LLVM 19 rejects that signature): a dropped llvm.assume operand becomes poison there,
; as those releases write it, where LLVM 19 writes undef (see lifetime-droppable.ll). The
; operand is ignored either way. @f itself calls no lifetime intrinsic: the declaration is
; what tells.
define i32 @f(i32 %v) {
entry:
  %x = alloca i32, align 4
  call void @llvm.assume(i1 true) [ "align"(ptr %x, i64 4) ]
  store i32 %v, ptr %x, align 4
  %l = load i32, ptr %x, align 4
  ret i32 %l
}

declare void @llvm.lifetime.start.p0(ptr captures(none))
declare void @llvm.assume(i1 noundef)
