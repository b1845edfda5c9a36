; ARGS: --passes=mem2reg --stats
; SAME-AS-OPT: -passes=mem2reg
; STDERR
; Promotion repeats until nothing more is promotable. %inner's address is stored in %outer,
; which blocks %inner in the first round; promoting %outer replaces its loads by %inner
; itself, so the second round promotes %inner. In @cast the stored address is a bitcast of
; %slot used (after the first round) only by a lifetime marker, which no longer blocks %slot.
; In @plain nothing of the kind is stored, and a second round would find nothing: the pass
; stops after one (the statistics are the same either way).
define i32 @nested(i32 %v) {
entry:
  %inner = alloca i32, align 4
  %outer = alloca ptr, align 8
  store ptr %inner, ptr %outer, align 8
  %p = load ptr, ptr %outer, align 8
  store i32 %v, ptr %p, align 4
  %q = load ptr, ptr %outer, align 8
  %r = load i32, ptr %q, align 4
  ret i32 %r
}

define void @cast(i32 %v) {
entry:
  %slot = alloca i32, align 4
  %holder = alloca ptr, align 8
  %c = bitcast ptr %slot to ptr
  store ptr %c, ptr %holder, align 8
  %h = load ptr, ptr %holder, align 8
  call void @llvm.lifetime.start.p0(i64 4, ptr %h)
  store i32 %v, ptr %slot, align 4
  ret void
}

define i32 @plain(i32 %v, ptr %out) {
entry:
  %x = alloca i32, align 4
  %kept = alloca i32, align 4
  store i32 %v, ptr %x, align 4
  store ptr %kept, ptr %out, align 8
  %l = load i32, ptr %x, align 4
  ret i32 %l
}

declare void @llvm.lifetime.start.p0(i64, ptr)
