; ARGS: --passes=mem2reg --undef-rules=newer --explain
; STDERR
; Lifetime markers as definitions (--undef-rules=newer; undef-rules.ll shows the default): after llvm.lifetime.start or llvm.lifetime.end of a whole
; slot its contents are undefined, so the marker acts as a store of undef (LLVM does the
; same since llvm-project pull request 191909; opt-19 deletes the markers and carries the
; last iteration's value around the loop instead). --explain counts them among the stores.
; @loop: %a is declared inside the loop (clang -O1 marks its scope); a load that no store of
; this iteration reaches reads undef, so no phi carries %a around the back edge.
define void @loop(i32 %val, i1 %c1, i1 %c2) {
entry:
  %a = alloca i32, align 4
  br label %loop

loop:
  call void @llvm.lifetime.start.p0(i64 4, ptr %a)
  br i1 %c1, label %init, label %read

init:
  store i32 %val, ptr %a, align 4
  br label %read

read:
  %v = load i32, ptr %a, align 4
  call void @use(i32 %v)
  call void @llvm.lifetime.end.p0(i64 4, ptr %a)
  br i1 %c2, label %loop, label %exit

exit:
  ret void
}

; @through_gep: markers on an all-zero GEP of the slot, one of size -1 (variable size), count
; as well.
define void @through_gep(i32 %val, i1 %c1, i1 %c2) {
entry:
  %a = alloca i32, align 4
  br label %loop

loop:
  %g = getelementptr inbounds i32, ptr %a, i64 0
  call void @llvm.lifetime.start.p0(i64 -1, ptr %g)
  br i1 %c1, label %init, label %read

init:
  store i32 %val, ptr %a, align 4
  br label %read

read:
  %v = load i32, ptr %a, align 4
  call void @use(i32 %v)
  br i1 %c2, label %loop, label %exit

exit:
  ret void
}

; @partial: a marker of 2 bytes of a 4-byte slot leaves the other 2 defined: it is no
; definition, and the phis carry the value around the loop as before.
define void @partial(i32 %val, i1 %c1, i1 %c2) {
entry:
  %a = alloca i32, align 4
  store i32 0, ptr %a, align 4
  br label %loop

loop:
  call void @llvm.lifetime.start.p0(i64 2, ptr %a)
  br i1 %c1, label %init, label %read

init:
  store i32 %val, ptr %a, align 4
  br label %read

read:
  %v = load i32, ptr %a, align 4
  call void @use(i32 %v)
  br i1 %c2, label %loop, label %exit

exit:
  ret void
}

; @straight: a slot that a fast path promotes (here its one store dominates every load) needs
; no phi whatever its markers say, so they only go, as LLVM 19 drops them, and the load takes
; the stored value.
define i32 @straight(i32 %x) {
entry:
  %a = alloca i32, align 4
  store i32 %x, ptr %a, align 4
  call void @llvm.lifetime.end.p0(i64 4, ptr %a)
  %v = load i32, ptr %a, align 4
  ret i32 %v

dead:
  call void @llvm.lifetime.start.p0(i64 4, ptr %a)
  %w = load i32, ptr %a, align 4
  ret i32 %w
}

declare void @use(i32)
declare void @llvm.lifetime.start.p0(i64 immarg, ptr nocapture)
declare void @llvm.lifetime.end.p0(i64 immarg, ptr nocapture)
