; ARGS: --passes=
; A phi has one entry per incoming edge: an edge repeated in a terminator (a conditional
; branch to one block, switch cases sharing a destination) needs one entry each, and entries
; for one predecessor must carry one value (equal constants are one value, as in LLVM).
define i32 @f(i1 %c, i32 %s) {
entry:
  br i1 %c, label %two, label %two

two:
  %ok = phi i32 [ 0, %entry ], [ 0, %entry ]
  %missing = phi i32 [ 0, %entry ]
  %conflict = phi i32 [ 0, %entry ], [ 1, %entry ]
  switch i32 %s, label %three [
    i32 1, label %three
    i32 2, label %three
    i32 3, label %exit
  ]

three:
  %extra = phi i32 [ %s, %two ], [ %s, %two ], [ %s, %two ], [ %s, %entry ]
  %fine = phi i32 [ 7, %two ], [ 7, %two ], [ 7, %two ]
  br label %exit

exit:
  %stray = phi i32 [ %ok, %two ], [ %fine, %three ], [ 5, %nowhere ]
  ret i32 %stray

nowhere:
  br label %nowhere
}
