; ARGS: --passes=mem2reg --promote-byval
; --promote-byval in a typed-pointer module (LLVM 14's spelling, `T* byval(T)`): the entry
; values load through typed pointers; %n has no `align`, so its entry value loads with
; align 1. (Older LLVM's bare `byval` would mean the pointee type; LLVM 14 rejects it.)
%struct.P = type { i32, i32 }

define i32 @f(%struct.P* byval(%struct.P) align 4 %s, i32* byval(i32) %n, i1 %c) {
entry:
  br i1 %c, label %then, label %join

then:
  store i32 3, i32* %n, align 4
  br label %join

join:
  %v = load %struct.P, %struct.P* %s, align 4
  %k = load i32, i32* %n, align 4
  %e = extractvalue %struct.P %v, 0
  %r = add i32 %e, %k
  ret i32 %r
}
