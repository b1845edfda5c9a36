; An irreducible loop, as a goto makes one: the cycle %a <-> %b has two entries, so neither
; block dominates the other, and each is in the other's dominance frontier.
;
;   int irreducible(int n, int c) {
;       int x = 0;
;       if (c) goto b;
;   a:  x = x + 1;
;       if (x >= n) goto done;
;   b:  x = x * 2;
;       if (x < n) goto a;
;   done:
;       return x;
;   }
define i32 @irreducible(i32 %n, i1 %c) {
entry:
  %x = alloca i32
  store i32 0, ptr %x
  br i1 %c, label %b, label %a

a:
  %x1 = load i32, ptr %x
  %inc = add i32 %x1, 1
  store i32 %inc, ptr %x
  %ca = icmp slt i32 %inc, %n
  br i1 %ca, label %b, label %done

b:
  %x2 = load i32, ptr %x
  %dbl = mul i32 %x2, 2
  store i32 %dbl, ptr %x
  %cb = icmp slt i32 %dbl, %n
  br i1 %cb, label %a, label %done

done:
  %r = load i32, ptr %x
  ret i32 %r
}
