/* Swaps in nested loops whose results are read after each loop: inner-loop phis feed
 * outer-loop phis, and the exits of both loops are critical edges. */
#include <stdio.h>

static long nested(int n, int m) {
  long a = 1, b = 2, c = 3;
  for (int i = 0; i < n; i++) {
    long p = a, q = b;
    for (int j = 0; j < m; j++) {
      long t = p; p = q; q = t + j; /* swap with a twist */
      if (q > 100000) break;
    }
    long t = a; a = b; b = c; c = t + p - q; /* rotate, using inner results */
  }
  return a * 1000000 + b * 1000 + c;
}

static unsigned gcd_swap(unsigned x, unsigned y) {
  while (y != 0) { unsigned t = x % y; x = y; y = t; }
  return x;
}

static unsigned fib_pair(unsigned n) {
  unsigned a = 0, b = 1;
  while (n--) { unsigned t = a + b; a = b; b = t; }
  return a;
}

int main(void) {
  unsigned long h = 0; /* unsigned: the hash wraps around, which a signed long may not do */
  for (int n = 0; n < 12; n++)
    for (int m = 0; m < 9; m++) h = h * 7 + (unsigned long)nested(n, m);
  for (unsigned x = 1; x < 60; x++) h += gcd_swap(x * 91u, x * 35u + 7u) * (unsigned long)fib_pair(x % 30u);
  printf("%lu\n", h);
  return (int)(h & 63);
}
