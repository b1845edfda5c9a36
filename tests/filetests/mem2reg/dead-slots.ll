; ARGS: --passes=mem2reg
; SAME-AS-OPT: -passes=mem2reg
; Slots nobody reads. @unused: an alloca with no users is deleted. @lifetime_only: its only
; users are lifetime markers, which go first, then the slot. @store_only: stored twice, never
; loaded: both stores and the slot go, the stored computation stays (dead code is not
; mem2reg's business). Same output as opt-19 -passes=mem2reg -S.
define void @unused() {
entry:
  %x = alloca i32, align 4
  ret void
}

define void @lifetime_only() {
entry:
  %buf = alloca i64, align 8
  call void @llvm.lifetime.start.p0(i64 8, ptr %buf)
  call void @llvm.lifetime.end.p0(i64 8, ptr %buf)
  ret void
}

define i32 @store_only(i32 %v, i1 %c) {
entry:
  %x = alloca i32, align 4
  %d = mul i32 %v, %v
  store i32 %d, ptr %x, align 4
  br i1 %c, label %a, label %b

a:
  store i32 0, ptr %x, align 4
  br label %b

b:
  ret i32 %v
}

declare void @llvm.lifetime.start.p0(i64 immarg, ptr nocapture)
declare void @llvm.lifetime.end.p0(i64 immarg, ptr nocapture)
