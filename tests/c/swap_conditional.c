/* Conditional swaps and sorting networks on scalars: each compare-exchange is a diamond whose
 * merge needs two phis that read each other's inputs. */
#include <stdio.h>

#define CSWAP(x, y) do { if ((x) > (y)) { int t_ = (x); (x) = (y); (y) = t_; } } while (0)

static void sort5(int *out, int a, int b, int c, int d, int e) {
  CSWAP(a, b); CSWAP(d, e); CSWAP(c, e); CSWAP(c, d); CSWAP(b, e);
  CSWAP(a, d); CSWAP(a, c); CSWAP(b, d); CSWAP(b, c);
  out[0] = a; out[1] = b; out[2] = c; out[3] = d; out[4] = e;
}

static unsigned lcg(unsigned *s) { *s = *s * 1103515245u + 12345u; return (*s >> 16) & 0x7fff; }

/* min and max tracked together, swapped when the order flips */
static void minmax(unsigned seed, int n, int *mn, int *mx) {
  int lo = 1 << 30, hi = -(1 << 30);
  for (int i = 0; i < n; i++) {
    int v = (int)lcg(&seed) - 16000;
    if (v < lo) lo = v;
    if (v > hi) hi = v;
    if (lo > hi) { int t = lo; lo = hi; hi = t; }
  }
  *mn = lo; *mx = hi;
}

/* the "swap problem": the swap only happens on some iterations */
static int partial_swaps(int n) {
  int x = 1, y = 100, z = 7;
  for (int i = 0; i < n; i++) {
    if (i & 1) { int t = x; x = y; y = t; }
    if (i & 2) { int t = y; y = z; z = t; }
    x += 1;
  }
  return x * 10000 + y * 100 + z;
}

int main(void) {
  int o[5];
  unsigned s = 42;
  for (int k = 0; k < 6; k++) {
    int a = (int)lcg(&s) % 100, b = (int)lcg(&s) % 100, c = (int)lcg(&s) % 100;
    int d = (int)lcg(&s) % 100, e = (int)lcg(&s) % 100;
    sort5(o, a, b, c, d, e);
    printf("sort5(%d,%d,%d,%d,%d) = %d %d %d %d %d\n", a, b, c, d, e, o[0], o[1], o[2], o[3], o[4]);
  }
  int mn, mx;
  minmax(7, 1000, &mn, &mx);
  printf("minmax %d %d\n", mn, mx);
  for (int n = 0; n < 9; n++) printf("partial_swaps(%d) = %d\n", n, partial_swaps(n));
  /* scalar bubble sort of four locals */
  int p = 9, q = 3, r = 7, t = 1;
  for (int pass = 0; pass < 3; pass++) { CSWAP(p, q); CSWAP(q, r); CSWAP(r, t); }
  printf("bubble %d %d %d %d\n", p, q, r, t);
  return 0;
}
