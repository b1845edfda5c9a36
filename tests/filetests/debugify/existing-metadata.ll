; ARGS: --passes=debugify
; A module with metadata of its own: new nodes are numbered after its largest (!3), the
; "Debug Info Version" flag joins the existing !llvm.module.flags, !llvm.dbg.cu and
; !llvm.debugify are added after the module's named metadata, and other attachments (!tbaa)
; stay, after the new !dbg. The module asks for semantic interposition, so a definition that
; is not dso_local (@preemptible) has no exact definition and is skipped, as by LLVM.
define dso_local i32 @load(ptr %p) {
  %v = load i32, ptr %p, !tbaa !1
  ret i32 %v
}

define i32 @preemptible(i32 %x) {
  ret i32 %x
}

!llvm.module.flags = !{!0, !3}
!llvm.ident = !{!2}

!0 = !{i32 1, !"wchar_size", i32 4}
!1 = !{!"int", !2}
!2 = !{!"clang"}
!3 = !{i32 8, !"SemanticInterposition", i32 1}
