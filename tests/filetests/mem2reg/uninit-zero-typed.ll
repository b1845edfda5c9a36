; ARGS: --passes=mem2reg --uninit=zero
; --uninit=zero in a typed-pointer module (LLVM 14's spelling): the zero of `i32*` is
; `i32* null`, and the edge from an unreachable block gets the zero too, where the default
; gives LLVM 14's undef there.
define i32* @f(i1 %c, i32* %q) {
entry:
  %p = alloca i32*, align 8
  br i1 %c, label %then, label %join

then:
  store i32* %q, i32** %p, align 8
  br label %join

dead:
  br label %join

join:
  %l = load i32*, i32** %p, align 8
  ret i32* %l
}
