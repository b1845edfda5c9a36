; ARGS: --passes=mem2reg
; SAME-AS-OPT: -passes=mem2reg
; Uses that do not block promotion because they can go (LLVM's onlyUsedByLifetimeMarkers-
; OrDroppableInsts and removeIntrinsicUsers): lifetime markers, on the slot or on an all-zero
; GEP of it, are deleted with that GEP; an llvm.assume whose operand bundle names the slot is
; kept, but its operand becomes undef and its bundle tag "ignore". Then %x is an ordinary
; slot with two stores and a phi. Same output as opt-19 -passes=mem2reg -S.
define i32 @f(i32 %v, i1 %c) {
entry:
  %x = alloca i32, align 4
  call void @llvm.lifetime.start.p0(i64 4, ptr %x)
  %z = getelementptr inbounds i8, ptr %x, i64 0
  call void @llvm.lifetime.start.p0(i64 4, ptr %z)
  call void @llvm.assume(i1 true) [ "nonnull"(ptr %x), "align"(ptr %x, i64 4) ]
  store i32 %v, ptr %x, align 4
  br i1 %c, label %then, label %join

then:
  store i32 0, ptr %x, align 4
  br label %join

join:
  %l = load i32, ptr %x, align 4
  call void @llvm.lifetime.end.p0(i64 4, ptr %x)
  ret i32 %l
}

declare void @llvm.lifetime.start.p0(i64 immarg, ptr nocapture)
declare void @llvm.lifetime.end.p0(i64 immarg, ptr nocapture)
declare void @llvm.assume(i1 noundef)
