; ARGS: --passes=
; Every problem of every function is reported, functions in module order, names as printed.
define i32 @"first one"(i32) {
  %2 = add i32 %3, 1
  %3 = add i32 %0, 1
  ret i32 %2
}

define void @clean() {
  ret void
}

define i32 @third(i32 %a) {
entry:
  br label %next

next:
  %p = phi i32 [ %a, %entry ], [ %a, %next ]
  ret i32 %p
}
