; ARGS: --passes=mem2reg --promote-byte-arrays --explain
; STDERR
; rustc gives every local a byte array (`alloca [8 x i8]`) and loads and stores it as the
; local's type. LLVM's mem2reg leaves these to SROA; with --promote-byte-arrays a byte array
; whose loads and stores all use one type that fits in it is promoted as a slot of that type:
; %n (i64, through a loop: a phi), %p (ptr), %flag (i8 in [1 x i8]), %wide (i64 in 16 bytes;
; the rest is never read). Left in memory: %mixed (stored as i64, loaded as ptr), %small (i64
; does not fit in 4 bytes), %pair (a field at offset 8), %vol (volatile), %words (an array of
; i32, not bytes). The lifetime markers of the promoted slots go; #dbg_declare of %n becomes
; #dbg_value at its stores and its phi.

define i64 @collatz(i64 %0, ptr %q) !dbg !5 {
start:
  %n = alloca [8 x i8], align 8
  %p = alloca [8 x i8], align 8
  %flag = alloca [1 x i8], align 1
  %wide = alloca [16 x i8], align 8
  %mixed = alloca [8 x i8], align 8
  %small = alloca [4 x i8], align 4
  %pair = alloca [16 x i8], align 8
  %vol = alloca [4 x i8], align 4
  %words = alloca [2 x i32], align 4
  call void @llvm.lifetime.start.p0(i64 8, ptr %n)
    #dbg_declare(ptr %n, !9, !DIExpression(), !11)
  store i64 %0, ptr %n, align 8, !dbg !11
  store ptr %q, ptr %p, align 8
  store i8 0, ptr %flag, align 1
  store i64 7, ptr %wide, align 8
  store i64 %0, ptr %mixed, align 8
  store i64 %0, ptr %small, align 8
  store i64 %0, ptr %pair, align 8
  %second = getelementptr inbounds i8, ptr %pair, i64 8
  store i64 1, ptr %second, align 8
  store volatile i32 3, ptr %vol, align 4
  store i64 %0, ptr %words, align 4
  br label %loop

loop:
  %v = load i64, ptr %n, align 8
  %done = icmp ule i64 %v, 1
  br i1 %done, label %exit, label %step

step:
  %odd = and i64 %v, 1
  %isodd = icmp ne i64 %odd, 0
  %half = lshr i64 %v, 1
  %t = mul i64 %v, 3
  %up = add i64 %t, 1
  %next = select i1 %isodd, i64 %up, i64 %half
  store i64 %next, ptr %n, align 8, !dbg !12
  store i8 1, ptr %flag, align 1
  br label %loop

exit:
  call void @llvm.lifetime.end.p0(i64 8, ptr %n)
  %f = load i8, ptr %flag, align 1
  %w = load i64, ptr %wide, align 8
  %pp = load ptr, ptr %p, align 8
  %m = load ptr, ptr %mixed, align 8
  %s = load i64, ptr %small, align 8
  %pv = load i64, ptr %pair, align 8
  %vv = load volatile i32, ptr %vol, align 4
  %ww = load i64, ptr %words, align 4
  store ptr %m, ptr %pp, align 8
  %fe = zext i8 %f to i64
  %a = add i64 %w, %fe
  %b = add i64 %a, %s
  %c = add i64 %b, %pv
  %d = add i64 %c, %ww
  ret i64 %d
}

declare void @llvm.lifetime.start.p0(i64 immarg, ptr nocapture)
declare void @llvm.lifetime.end.p0(i64 immarg, ptr nocapture)

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3, !4}

!0 = distinct !DICompileUnit(language: DW_LANG_Rust, file: !1, producer: "handwritten", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "collatz.rs", directory: "/tmp")
!3 = !{i32 7, !"Dwarf Version", i32 4}
!4 = !{i32 2, !"Debug Info Version", i32 3}
!5 = distinct !DISubprogram(name: "collatz", scope: !1, file: !1, line: 1, type: !6, scopeLine: 1, spFlags: DISPFlagDefinition, unit: !0)
!6 = !DISubroutineType(types: !7)
!7 = !{!8, !8}
!8 = !DIBasicType(name: "u64", size: 64, encoding: DW_ATE_unsigned)
!9 = !DILocalVariable(name: "n", scope: !5, file: !1, line: 1, type: !8)
!11 = !DILocation(line: 1, column: 12, scope: !5)
!12 = !DILocation(line: 3, column: 9, scope: !5)
