/* Swaps and rotations of scalars inside loops: after mem2reg these become phis whose incoming
 * values are other phis of the same block (the "swap problem" and "lost copy problem" of
 * phi elimination). Every loop here is sensitive to copy order. */
#include <stdio.h>

static unsigned swap2(unsigned n) {
  unsigned a = 1, b = 2;
  for (unsigned i = 0; i < n; i++) {
    unsigned t = a; a = b; b = t; /* a, b = b, a */
  }
  return a * 10 + b;
}

static unsigned rotate3(unsigned n) {
  unsigned a = 1, b = 2, c = 3;
  for (unsigned i = 0; i < n; i++) {
    unsigned t = a; a = b; b = c; c = t; /* a, b, c = b, c, a */
  }
  return a * 100 + b * 10 + c;
}

static unsigned rotate5(unsigned n) {
  unsigned a = 1, b = 2, c = 3, d = 4, e = 5;
  for (unsigned i = 0; i < n; i++) {
    unsigned t = e; e = d; d = c; c = b; b = a; a = t; /* rotate right */
  }
  return a * 10000 + b * 1000 + c * 100 + d * 10 + e;
}

static unsigned fib(unsigned n) {
  unsigned a = 0, b = 1;
  while (n--) {
    unsigned t = a + b; a = b; b = t; /* a, b = b, a + b */
  }
  return a;
}

/* Lost copy: the old value of x is used after the loop, while x is updated in the loop. */
static unsigned lost_copy(unsigned n) {
  unsigned x = 1, y = 0;
  do {
    y = x;
    x = x + 3;
  } while (--n);
  return y * 1000 + x;
}

/* Swap inside a conditional and a rotation in the other arm. */
static unsigned mixed(unsigned n) {
  unsigned a = 3, b = 5, c = 7;
  for (unsigned i = 0; i < n; i++) {
    if (i % 3 == 0) { unsigned t = a; a = b; b = t; }
    else if (i % 3 == 1) { unsigned t = a; a = b; b = c; c = t; }
    else { c = a + b; }
  }
  return a * 100 + b * 10 + c % 10;
}

/* Two nested loops that swap different pairs. */
static unsigned nested_swaps(unsigned n) {
  unsigned a = 1, b = 2, c = 3, d = 4;
  for (unsigned i = 0; i < n; i++) {
    for (unsigned j = 0; j < i; j++) {
      unsigned t = c; c = d; d = t;
    }
    unsigned t = a; a = b; b = t;
    t = a; a = d; d = t;
  }
  return a * 1000 + b * 100 + c * 10 + d;
}

/* Swap via a pointer to a local array element (not promotable) mixed with promotable ones. */
static unsigned gcd(unsigned a, unsigned b) {
  while (b) { unsigned t = a % b; a = b; b = t; }
  return a;
}

int main(void) {
  for (unsigned n = 0; n < 7; n++)
    printf("n=%u swap2=%u rotate3=%u rotate5=%u fib=%u mixed=%u nested=%u\n", n, swap2(n),
           rotate3(n), rotate5(n), fib(n), mixed(n), nested_swaps(n));
  printf("lost_copy=%u %u\n", lost_copy(1), lost_copy(5));
  printf("gcd=%u %u %u\n", gcd(1071, 462), gcd(17, 5), gcd(0, 9));
  printf("fib(40)=%u\n", fib(40));
  return 0;
}
