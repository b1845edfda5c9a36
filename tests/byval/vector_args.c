// Vectors wider than the registers the ABI gives them are passed in memory: clang -O0 makes
// each such parameter a `ptr byval(<8 x i32>)` argument, loads it whole and keeps the value
// in a local copy. The program for `--promote-byval`'s differential test (scripts/difftest.py
// with `--tool "target/release/mem2reg --promote-byval"` and this folder as an input).
#include <stdio.h>

typedef int v8si __attribute__((vector_size(32)));
typedef double v4df __attribute__((vector_size(32)));

static v8si step(v8si a, v8si b, int n) {
    for (int i = 0; i < n; i++) {
        a = a + b;
        if (a[0] > 100)
            b = b - 1;
    }
    return a;
}

static double sum4(v4df d, int twice) {
    if (twice)
        d = d + d;
    return d[0] + d[1] + d[2] + d[3];
}

static int lanes(v8si v) {
    int s = 0;
    for (int i = 0; i < 8; i++)
        s = s * 3 + v[i];
    return s;
}

int main(void) {
    v8si a = {1, 2, 3, 4, 5, 6, 7, 8};
    v8si b = {9, 8, 7, 6, 5, 4, 3, 2};
    for (int n = 0; n < 40; n += 7) {
        v8si r = step(a, b, n);
        printf("%d: %d %d %d\n", n, r[0], r[7], lanes(r));
    }
    v4df d = {0.5, 1.5, 2.5, 3.5};
    printf("%.2f %.2f\n", sum4(d, 0), sum4(d, 1));
    return 0;
}
