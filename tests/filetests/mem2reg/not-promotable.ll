; ARGS: --passes=mem2reg --explain
; SAME-AS-OPT: -passes=mem2reg
; SAME-AS-OPT: -passes=mem2reg
; STDERR
; Slots mem2reg must leave in memory, each with the use that blocks it (--explain, on stderr
; after the module): the address escapes (passed to a call, stored as a value, offset by a
; GEP), a volatile load or store, a load or store of a type other than the slot's. Aggregate
; slots (%arr) stay too and are explained, marked as SROA's business: the missed-promotion
; remarks (-pass-remarks-output, as newer LLVM's, conformance test missed-remarks.ll) skip
; them.
; Promoted in the same function: %ok, and %atomic (atomic but not volatile accesses do not
; block promotion, in LLVM either). The module is the same as opt-19 -passes=mem2reg -S
; writes.
define i32 @blocked(i32 %v, ptr %out) {
entry:
  %ok = alloca i32, align 4
  %call = alloca i32, align 4
  %stored = alloca i32, align 4
  %gep = alloca i32, align 4
  %arr = alloca [2 x i32], align 4
  %vload = alloca i32, align 4
  %vstore = alloca i32, align 4
  %wide = alloca i32, align 4
  %narrow = alloca i64, align 8
  %atomic = alloca i32, align 4
  store i32 %v, ptr %ok, align 4
  store i32 %v, ptr %call, align 4
  call void @use(ptr %call)
  store ptr %stored, ptr %out, align 8
  %e = getelementptr inbounds i8, ptr %gep, i64 2
  store i8 1, ptr %e, align 2
  %f = getelementptr inbounds [2 x i32], ptr %arr, i64 0, i64 1
  store i32 %v, ptr %f, align 4
  store i32 %v, ptr %vload, align 4
  %l1 = load volatile i32, ptr %vload, align 4
  store volatile i32 %v, ptr %vstore, align 4
  store i32 %v, ptr %wide, align 4
  %l2 = load i64, ptr %wide, align 4
  store i32 %v, ptr %narrow, align 8
  store atomic i32 %v, ptr %atomic seq_cst, align 4
  %l3 = load atomic i32, ptr %atomic acquire, align 4
  %l4 = load i32, ptr %ok, align 4
  %r = add i32 %l3, %l4
  ret i32 %r
}

declare void @use(ptr)
