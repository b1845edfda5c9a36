; ARGS: --passes=debugify,phi-elim,check-debugify
; STDERR
; Module passes around other passes: phi-elim's stack slot, stores and reload carry no
; location (warnings name them), and the phi's line is gone with the phi; the phi's variable
; survives (its #dbg_value now describes the reload). No mis-sized value: PASS.
define i32 @max(i32 %a, i32 %b, ptr %unused) {
entry:
  %c = icmp sgt i32 %a, %b
  br i1 %c, label %then, label %join

then:
  br label %join

join:
  %m = phi i32 [ %a, %then ], [ %b, %entry ]
  ret i32 %m
}
