; ARGS: --passes=debugify
; Where debugify puts debug values, and which functions it skips, as LLVM's Debugify.cpp does:
; - phis: their #dbg_value records wait at the block's first insertion point, in phi order;
; - EH pads: a landingpad block gets locations but no variables;
; - nothing from the terminating instruction on: an invoke's result gets no variable, nor does
;   a `musttail` call or a call of @llvm.experimental.deoptimize right before the `ret`;
; - a function that would get no debug value gets one before its entry block's terminating
;   instruction: of `i32 0` (@"quoted \22name", @0), or of that instruction's own value
;   (@tail: the musttail call's result, placed before the call, as LLVM does);
; - variable types are `tyN`, N the value's allocation size in bits (i1: ty8, <3 x i16>: ty64,
;   { i8, i32 }: ty64, ptr: ty64);
; - linkonce, linkonce_odr, weak, weak_odr and available_externally definitions are skipped;
;   private and internal ones get DISPFlagLocalToUnit; a numbered function has no name.
declare i32 @g(i32)
declare i32 @__gxx_personality_v0(...)
declare i32 @llvm.experimental.deoptimize.i32(...)

define private i32 @phis(i1 %c, <3 x i16> %v, { i8, i32 } %s) personality ptr @__gxx_personality_v0 {
entry:
  %r = invoke i32 @g(i32 1) to label %join unwind label %lpad

join:
  %a = phi i32 [ %r, %entry ], [ 0, %lpad ]
  %b = phi i1 [ %c, %entry ], [ false, %lpad ]
  store i32 %a, ptr null
  %e = extractelement <3 x i16> %v, i32 0
  %w = insertelement <3 x i16> %v, i16 %e, i32 1
  %f = extractvalue { i8, i32 } %s, 1
  %p = getelementptr i8, ptr null, i32 %f
  ret i32 %f

lpad:
  %l = landingpad { ptr, i32 } cleanup
  %x = extractvalue { ptr, i32 } %l, 0
  br label %join
}

define i32 @deopt(i32 %x) {
  %y = add i32 %x, 1
  %d = call i32 (...) @llvm.experimental.deoptimize.i32(i32 %y) [ "deopt"() ]
  ret i32 %d
}

define i32 @tail(i32 %x) {
  %r = musttail call i32 @g(i32 %x)
  ret i32 %r
}

define void @"quoted \22name"() {
  ret void
}

define void @0() {
  ret void
}

define linkonce_odr i32 @lo(i32 %x) {
  %y = add i32 %x, 1
  ret i32 %y
}

define weak i32 @w(i32 %x) {
  ret i32 %x
}

define available_externally i32 @ae(i32 %x) {
  ret i32 %x
}

define internal i32 @in(i32 %x) {
  %y = add i32 %x, 1
  ret i32 %y
}
