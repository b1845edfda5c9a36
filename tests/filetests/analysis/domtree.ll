; ARGS: --passes=print<domtree> -disable-output
; STDERR
; opt-19 -passes='print<domtree>' prints exactly this (children in the order LLVM's Semi-NCA
; attaches them; unreachable blocks are not in the tree; a quoted function name is decoded).
define void @"diamond and loop"(i1 %c) {
entry:
  br i1 %c, label %left, label %right

left:
  br label %join

right:
  br i1 %c, label %join, label %join

join:
  br label %header

header:
  br i1 %c, label %body, label %exit

body:
  br label %header

exit:
  ret void

dead:
  br label %join
}

define void @irreducible(i1 %c) {
  br i1 %c, label %2, label %3

2:
  br label %3

3:
  br i1 %c, label %2, label %4

4:
  ret void
}
