; ARGS: --passes=print<domtree>,verify,print<domfrontier>
; STDERR
; Printers run in pipeline order with other passes; the module is still written (stdout), the
; dumps go to stderr.
define i32 @f(i32 %a) {
entry:
  %c = icmp sgt i32 %a, 0
  br i1 %c, label %pos, label %done

pos:
  br label %done

done:
  %r = phi i32 [ 1, %pos ], [ 0, %entry ]
  ret i32 %r
}
