; ARGS: --passes=mem2reg --undef-rules=newer
; const-gep-not-poison.ll with typed pointers (clang-14), under the same --undef-rules=newer: a global whose initializer has a
; type of its own (a bit-field struct) is named through a bitcast, which keeps its address;
; [2 x %struct.S] at i64 0, i64 1 is offset 8 of 16, so phi(gep, undef) folds. At i64 0,
; i64 3 (offset 24 of 16) it may be poison, and the phi stays.
%struct.S = type { i32, i32 }

@g = internal global [2 x { i8, i8, i8, i8, i32 }] zeroinitializer, align 4

define %struct.S* @in_bounds(i1 %c) {
entry:
  %p = alloca %struct.S*, align 8
  br i1 %c, label %then, label %join

then:
  store %struct.S* getelementptr inbounds ([2 x %struct.S], [2 x %struct.S]* bitcast ([2 x { i8, i8, i8, i8, i32 }]* @g to [2 x %struct.S]*), i64 0, i64 1), %struct.S** %p, align 8
  br label %join

join:
  %v = load %struct.S*, %struct.S** %p, align 8
  ret %struct.S* %v
}

define %struct.S* @past_end(i1 %c) {
entry:
  %p = alloca %struct.S*, align 8
  br i1 %c, label %then, label %join

then:
  store %struct.S* getelementptr inbounds ([2 x %struct.S], [2 x %struct.S]* bitcast ([2 x { i8, i8, i8, i8, i32 }]* @g to [2 x %struct.S]*), i64 0, i64 3), %struct.S** %p, align 8
  br label %join

join:
  %v = load %struct.S*, %struct.S** %p, align 8
  ret %struct.S* %v
}
