; A course lab's mem2reg handout: its C program and the alloca/load/store IR it shows, with
; typed pointers as the handout writes them.
;
;   int main() {
;       int x, cond = 1;
;       if (cond > 0)
;           x = 1;
;       else
;           x = -1;
;       return x;
;   }
;
; %1 is cond, %2 is x. After mem2reg the join block %6 holds one phi: 1 from %5, %9 from %8.
define dso_local i32 @main() {
    %1 = alloca i32
    %2 = alloca i32
    store i32 1, i32* %1
    %3 = load i32, i32* %1
    %4 = icmp sgt i32 %3, 0
    br i1 %4, label %5, label %8

5:
    store i32 1, i32* %2
    br label %6

6:
    %7 = load i32, i32* %2
    ret i32 %7

8:
    %9 = sub i32 0, 1
    store i32 %9, i32* %2
    br label %6
}
