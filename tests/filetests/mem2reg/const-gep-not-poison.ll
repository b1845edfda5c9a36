; ARGS: --passes=mem2reg --undef-rules=newer
; A slot stored on one path only gives phi(v, undef) where the paths join. Newer LLVM's rule
; (--undef-rules=newer; UndefValuesMerge) folds it to v only if v cannot be poison; an `inbounds` GEP can be, so
; LLVM keeps such phis for constant GEPs too (LLVM 19 folds them all, poison or not). We check
; the bounds of a constant GEP on a global: literal indices, none negative, a byte offset at
; most the global's size (one past the end is in bounds) mean no poison, and the phi folds.
; @in_bounds: [3 x i32] @a at i64 0, i64 2 (offset 8 of 12): folds.
; @one_past_end: offset 12 of 12: folds.
; @past_end: offset 16 of 12: may be poison, kept.
; @negative: an index of -1: kept.
; @struct_field: field 1 of { i8, i32 } (offset 4 of 8): folds.
; @byte_offset: the i8 form LLVM folds GEPs to, offset 8 of 12: folds; 13: kept.
; @weak: an extern_weak global may be null, and a non-zero offset of null is poison: kept.
; @other_type: the GEP's type need not be the global's (clang writes bit-field structs'
; initializers with types of their own): [2 x i16] at i64 0, i64 1 is offset 2 of 4: folds.
%struct.S = type { i8, i32 }

@a = internal global [3 x i32] zeroinitializer, align 4
@s = internal global %struct.S zeroinitializer, align 4
@w = extern_weak global [3 x i32], align 4
@b = internal global { i8, [2 x i8], i8 } zeroinitializer, align 1

define ptr @in_bounds(i1 %c) {
entry:
  %p = alloca ptr, align 8
  br i1 %c, label %then, label %join

then:
  store ptr getelementptr inbounds ([3 x i32], ptr @a, i64 0, i64 2), ptr %p, align 8
  br label %join

join:
  %v = load ptr, ptr %p, align 8
  ret ptr %v
}

define ptr @one_past_end(i1 %c) {
entry:
  %p = alloca ptr, align 8
  br i1 %c, label %then, label %join

then:
  store ptr getelementptr inbounds ([3 x i32], ptr @a, i64 1), ptr %p, align 8
  br label %join

join:
  %v = load ptr, ptr %p, align 8
  ret ptr %v
}

define ptr @past_end(i1 %c) {
entry:
  %p = alloca ptr, align 8
  br i1 %c, label %then, label %join

then:
  store ptr getelementptr inbounds ([3 x i32], ptr @a, i64 0, i64 4), ptr %p, align 8
  br label %join

join:
  %v = load ptr, ptr %p, align 8
  ret ptr %v
}

define ptr @negative(i1 %c) {
entry:
  %p = alloca ptr, align 8
  br i1 %c, label %then, label %join

then:
  store ptr getelementptr inbounds ([3 x i32], ptr @a, i64 0, i64 -1), ptr %p, align 8
  br label %join

join:
  %v = load ptr, ptr %p, align 8
  ret ptr %v
}

define ptr @struct_field(i1 %c) {
entry:
  %p = alloca ptr, align 8
  br i1 %c, label %then, label %join

then:
  store ptr getelementptr inbounds (%struct.S, ptr @s, i32 0, i32 1), ptr %p, align 8
  br label %join

join:
  %v = load ptr, ptr %p, align 8
  ret ptr %v
}

define ptr @byte_offset(i1 %c, i1 %d) {
entry:
  %p = alloca ptr, align 8
  %q = alloca ptr, align 8
  br i1 %c, label %then, label %join

then:
  store ptr getelementptr inbounds (i8, ptr @a, i64 8), ptr %p, align 8
  store ptr getelementptr inbounds (i8, ptr @a, i64 13), ptr %q, align 8
  br label %join

join:
  %v = load ptr, ptr %p, align 8
  %u = load ptr, ptr %q, align 8
  %r = select i1 %d, ptr %v, ptr %u
  ret ptr %r
}

define ptr @weak(i1 %c) {
entry:
  %p = alloca ptr, align 8
  br i1 %c, label %then, label %join

then:
  store ptr getelementptr inbounds ([3 x i32], ptr @w, i64 0, i64 2), ptr %p, align 8
  br label %join

join:
  %v = load ptr, ptr %p, align 8
  ret ptr %v
}

define ptr @other_type(i1 %c) {
entry:
  %p = alloca ptr, align 8
  br i1 %c, label %then, label %join

then:
  store ptr getelementptr inbounds ([2 x i16], ptr @b, i64 0, i64 1), ptr %p, align 8
  br label %join

join:
  %v = load ptr, ptr %p, align 8
  ret ptr %v
}
